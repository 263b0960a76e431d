"""learn.contrib.tensorflow: gen_tensorflow_dataset rows against NumPy, and a script on 2 Ray
workers reading TF_CONFIG. Skips where TensorFlow is not installed (but the ImportError test
runs everywhere)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.learn.contrib.tensorflow import gen_tensorflow_dataset, run_tensorflow_script


def test_dataset_rows_equal_numpy(session):
    pytest.importorskip("tensorflow")
    X = np.arange(26, dtype=np.int64).reshape(13, 2)
    y = np.arange(13) * 0.5
    ds = gen_tensorflow_dataset(mt.tensor(X, chunk_size=(4, 2)))
    rows = list(ds.as_numpy_iterator())
    np.testing.assert_array_equal(np.stack(rows), X)
    assert ds.element_spec.shape == (2,)
    pairs = list(gen_tensorflow_dataset((mt.tensor(X, chunk_size=5), mt.tensor(y, chunk_size=6)))
                 .as_numpy_iterator())
    np.testing.assert_array_equal([p[1] for p in pairs], y)


SCRIPT = """
import json, os, sys
import numpy as np
import tensorflow as tf
conf = json.loads(os.environ["TF_CONFIG"])
rows = np.stack([features[i] for i in range(len(features))])
conf["sum"] = float(tf.reduce_sum(tf.constant(rows)).numpy())
with open(os.path.join(sys.argv[1], f"{conf['task']['type']}{conf['task']['index']}.json"), "w") as f:
    json.dump(conf, f)
"""


def test_run_tensorflow_script_sets_tf_config(session, tmp_path):
    pytest.importorskip("tensorflow")
    X = np.arange(30, dtype=float).reshape(10, 3)
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    assert run_tensorflow_script(str(script), n_workers=2, data={"features": mt.tensor(X, chunk_size=4)},
                                 command_argv=[str(tmp_path)]) == {"status": "ok"}
    confs = [json.loads((tmp_path / f"worker{i}.json").read_text()) for i in range(2)]
    assert [c["task"] for c in confs] == [{"type": "worker", "index": 0}, {"type": "worker", "index": 1}]
    assert confs[0]["cluster"] == confs[1]["cluster"] and len(confs[0]["cluster"]["worker"]) == 2
    assert all(c["sum"] == X.sum() for c in confs)


def test_missing_tensorflow_names_the_extra():
    code = ("import sys; sys.modules['tensorflow'] = None\n"
            "from mars_on_ray.learn.contrib.tensorflow import gen_tensorflow_dataset\n"
            "try:\n    gen_tensorflow_dataset([1, 2])\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert "pip install 'mars_on_ray[tensorflow]'" in out.stdout, out.stderr
