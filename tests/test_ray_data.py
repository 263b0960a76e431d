"""Ray Data interop on a local Ray: read_ray_dataset, to_ray_dataset (data stays in Ray)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture
def pieces():
    rs = np.random.RandomState(0)
    return [pd.DataFrame({"a": rs.randint(0, 9, n), "b": rs.rand(n), "s": [f"x{i}" for i in range(n)]},
                         index=pd.RangeIndex(100, 100 + n)) for n in (7, 0, 12, 5)]


def test_read_ray_dataset_is_a_chunk_per_block_numbered_like_to_pandas(pieces):
    import ray
    import ray.data

    ds = ray.data.from_pandas_refs([ray.put(p) for p in pieces])
    expected = ds.to_pandas()
    m = md.read_ray_dataset(ds)
    assert m.shape == (24, 3)
    assert LocalExecutor().tile(m.data).nsplits[0] == (7, 0, 12, 5)
    assert_eq(m, expected)
    assert_eq(m[m["a"] > 3].sum(numeric_only=True), expected[expected["a"] > 3].sum(numeric_only=True))
    assert_eq(md.read_raydataset(ds, columns=["b", "a"]), expected[["b", "a"]])


def test_read_ray_dataset_of_arrow_blocks():
    import ray.data

    ds = ray.data.range(50, override_num_blocks=4).map_batches(
        lambda d: {"id": d["id"], "sq": d["id"] ** 2}, batch_format="numpy").materialize()
    expected = ds.to_pandas()
    m = md.read_ray_dataset(ds)
    assert_eq(m, expected)
    assert_eq(m[m["sq"] > 100], expected[expected["sq"] > 100])


def test_to_ray_dataset_hands_over_the_chunks(session, pieces):
    frame = pd.concat(pieces, ignore_index=True)
    m = md.DataFrame(frame, chunk_size=6)
    ds = md.to_ray_dataset(m * 1)
    assert ds.num_blocks() == 4
    pd.testing.assert_frame_equal(ds.to_pandas(), frame)
    ds2 = (m[["a", "b"]] + 1).to_ray_dataset(num_shards=2)
    assert ds2.num_blocks() == 2
    pd.testing.assert_frame_equal(ds2.to_pandas(), frame[["a", "b"]] + 1)
    s = md.Series(frame["b"], chunk_size=10).to_ray_dataset()
    pd.testing.assert_frame_equal(s.to_pandas(), frame[["b"]])
    back = md.read_ray_dataset(ds)  # a round trip
    assert_eq(back, frame)


def test_mldataset_names_its_replacement():
    with pytest.raises(NotImplementedError, match="read_ray_dataset"):
        md.read_ray_mldataset(None)
    with pytest.raises(NotImplementedError, match="to_ray_dataset"):
        md.to_ray_mldataset(md.DataFrame(pd.DataFrame({"a": [1]})))
