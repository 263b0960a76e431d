"""learn.contrib.pytorch: samplers against PyTorch's, MarsDataset rows against NumPy /
pandas, and a torch.distributed (gloo) script on 2 Ray workers whose all-reduced result is
checked against NumPy. The torch parts skip where torch is not installed."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.contrib.pytorch import (DistributedSampler, MarsDataset, RandomSampler,
                                               SequentialSampler, SubsetRandomSampler,
                                               run_pytorch_script)


@pytest.mark.parametrize("n, replicas, drop_last", [(10, 3, False), (10, 3, True), (9, 3, False)])
def test_distributed_sampler_in_order_equals_torch(n, replicas, drop_last):
    torch_data = pytest.importorskip("torch.utils.data")
    data = list(range(n))
    for rank in range(replicas):
        ours = DistributedSampler(data, num_replicas=replicas, rank=rank, shuffle=False,
                                  drop_last=drop_last)
        ref = torch_data.DistributedSampler(data, num_replicas=replicas, rank=rank,
                                            shuffle=False, drop_last=drop_last)
        assert list(ours) == list(ref) and len(ours) == len(ref)


def test_distributed_sampler_shuffled_shares_cover_the_data():
    data = list(range(11))
    shares = [list(DistributedSampler(data, num_replicas=3, rank=r, seed=7)) for r in range(3)]
    assert all(len(s) == 4 for s in shares)  # ceil(11 / 3), padded like torch
    assert set().union(*shares) == set(data)
    again = DistributedSampler(data, num_replicas=3, rank=0, seed=7)
    assert list(again) == shares[0]
    again.set_epoch(1)
    assert list(again) != shares[0]
    with pytest.raises(ValueError, match="Invalid rank"):
        DistributedSampler(data, num_replicas=2, rank=2)


def test_sequential_random_and_subset_samplers():
    data = np.arange(7)
    assert list(SequentialSampler(data)) == list(range(7))
    perm = list(RandomSampler(data, generator=np.random.default_rng(3)))
    assert sorted(perm) == list(range(7))
    assert perm == list(RandomSampler(data, generator=3))
    drawn = list(RandomSampler(data, replacement=True, num_samples=20, generator=1))
    assert len(drawn) == 20 and set(drawn) <= set(range(7))
    assert sorted(SubsetRandomSampler([5, 1, 3], generator=2)) == [1, 3, 5]
    with pytest.raises(ValueError, match="num_samples"):
        RandomSampler(data, num_samples=0)


def test_mars_dataset_rows_equal_numpy_and_pandas(session):
    X = np.arange(46, dtype=float).reshape(23, 2)
    pdf = pd.DataFrame({"a": np.arange(23), "b": np.arange(23) * 0.5})
    ds = MarsDataset(mt.tensor(X, chunk_size=(5, 2)), md.DataFrame(pdf, chunk_size=7),
                     md.Series(pdf["a"], chunk_size=6))
    assert len(ds) == 23
    for i in (0, 4, 5, 13, 22, -1):
        x, row, a = ds[i]
        np.testing.assert_array_equal(x, X[i])
        np.testing.assert_array_equal(row, pdf.iloc[i].to_numpy())
        assert a == pdf["a"].iloc[i]
    with pytest.raises(IndexError):
        ds[23]
    with pytest.raises(ValueError, match="different lengths"):
        MarsDataset(X, X[:3])


SCRIPT = """
import json, os, sys
import numpy as np
import torch
import torch.distributed as dist
from mars_on_ray.learn.contrib.pytorch import MarsDataset, DistributedSampler

dist.init_process_group("gloo")
ds = MarsDataset(features)
sampler = DistributedSampler(ds, shuffle=False, drop_last=True)
mine = sum(float(ds[i][0].sum()) for i in sampler)
total = torch.tensor([mine, float(dist.get_rank() + 1)], dtype=torch.float64)
dist.all_reduce(total)
out = {k: os.environ[k] for k in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "LOCAL_RANK")}
out["total"] = total.tolist()
with open(os.path.join(sys.argv[1], f"rank{dist.get_rank()}.json"), "w") as f:
    json.dump(out, f)
dist.destroy_process_group()
"""


def test_run_pytorch_script_all_reduces_over_two_workers(session, tmp_path):
    pytest.importorskip("torch")
    X = np.arange(60, dtype=float).reshape(20, 3)
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    status = run_pytorch_script(str(script), n_workers=2,
                                data={"features": mt.tensor(X, chunk_size=(7, 3))},
                                command_argv=[str(tmp_path)])
    assert status == {"status": "ok"}
    outs = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    for rank, out in enumerate(outs):
        assert out["RANK"] == str(rank) and out["WORLD_SIZE"] == "2"
        assert out["total"] == [X.sum(), 3.0]  # every row read once by one rank; 1 + 2


def test_run_pytorch_script_raises_the_scripts_error(session, tmp_path):
    pytest.importorskip("torch")
    with pytest.raises(ZeroDivisionError):
        run_pytorch_script(b"1 / 0", n_workers=1)
    with pytest.raises(SyntaxError):
        run_pytorch_script(b"def (", n_workers=1)
    with pytest.raises(ValueError, match="at least 1"):
        run_pytorch_script(b"pass", n_workers=0)


def test_missing_torch_names_the_extra():
    code = ("import sys; sys.modules['torch'] = None\n"
            "from mars_on_ray.learn.contrib.pytorch import run_pytorch_script\n"
            "try:\n    run_pytorch_script(b'pass', 1)\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert "pip install 'mars_on_ray[pytorch]'" in out.stdout, out.stderr
