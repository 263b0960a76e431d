"""DataFrame I/O on a real local Ray: readers, writers, pushdown and reuse of executed reads."""
import os

import numpy as np
import pandas as pd
import pytest

import mars_on_ray as mr
import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture(scope="module")
def frame():
    rs = np.random.RandomState(3)
    n = 3000
    return pd.DataFrame({"k": rs.randint(0, 30, n), "c1": np.linspace(0, 1, n), "c2": rs.rand(n),
                         "note": [f'say "{i}"\nok' if i % 17 == 0 else f"n{i}" for i in range(n)]})


def test_parquet_round_trip_with_pushdown_on_ray(session, frame, tmp_path):
    path = str(tmp_path / "pq")
    written = md.DataFrame(frame, chunk_size=700).to_parquet(path, row_group_size=250).execute()
    pd.testing.assert_frame_equal(written.fetch(), frame.iloc[:0])
    df = md.read_parquet(path, chunk_bytes=1)
    out = df[df["c1"] > 0.5].groupby("k")["c2"].sum()
    explained = mr.explain(out, show=False)
    (reader,) = explained.nodes("md.read_parquet")
    assert reader.op.columns == ["k", "c1", "c2"] and reader.op.pushed_filters
    assert_eq(out, frame[frame["c1"] > 0.5].groupby("k")["c2"].sum())
    assert_eq(md.read_parquet(path, filters=[("k", "<", 5)]), pd.read_parquet(path, filters=[("k", "<", 5)]))


def test_csv_round_trip_with_quoted_newlines_on_ray(session, frame, tmp_path):
    path = str(tmp_path / "one.csv")
    md.DataFrame(frame, chunk_size=900).to_csv(path, index=False).execute()
    pd.testing.assert_frame_equal(pd.read_csv(path), frame)
    m = md.read_csv(path, chunk_bytes=5000)  # ranges that cut quoted fields: checked on Ray
    assert_eq(m, pd.read_csv(path))
    assert m.execute().shape == frame.shape
    assert_eq(m.head(4), frame.head(4))
    assert md.DataFrame(frame.head(3)).to_csv(index=False) == frame.head(3).to_csv(index=False)


def test_executed_read_is_reused_not_read_again(session, frame, tmp_path):
    path = tmp_path / "reuse.csv"
    frame.to_csv(path, index=False)
    m = md.read_csv(str(path), chunk_bytes=20000).execute()
    os.remove(path)  # a second read would fail: the stored chunks must be used
    # (check_chunks=False: that check re-plans in this process, without the session's results)
    assert_eq(m[m.c1 > 0.5].groupby("k")["c2"].sum(), frame[frame.c1 > 0.5].groupby("k")["c2"].sum(),
              check_chunks=False)
    assert_eq(m[["c2"]], frame[["c2"]], check_chunks=False)


def test_failed_write_on_ray_leaves_nothing(session, frame, tmp_path):
    from mars_on_ray.dataframe.blockwise import map_chunks

    def fail_late(chunk):
        if len(chunk) and chunk.index[0] >= 1000:
            raise ZeroDivisionError("planned")
        return chunk

    m = map_chunks(fail_late, (md.DataFrame(frame, chunk_size=500),))
    with pytest.raises(ZeroDivisionError):
        m.to_parquet(str(tmp_path / "pq")).execute()
    with pytest.raises(ZeroDivisionError):
        m.to_csv(str(tmp_path / "x.csv")).execute()
    assert os.listdir(tmp_path / "pq") == []
    assert os.listdir(tmp_path) == ["pq"]


def test_memory_filesystem_is_refused_clearly_on_ray(session, frame):
    import fsspec

    with fsspec.filesystem("memory").open("/ray/data.csv", "wb") as f:
        f.write(frame.head(20).to_csv(index=False).encode())
    with pytest.raises(ValueError, match="memory://"):
        md.read_csv("memory://ray/data.csv").execute()
    with pytest.raises(ValueError, match="memory://"):
        md.DataFrame(frame.head(5)).to_csv("memory://ray/out.csv").execute()


def test_index_results_on_ray(session, frame):
    """Regression: an Index chunk's metadata (pandas' Index.memory_usage has no index=)."""
    index = md.DataFrame(frame, chunk_size=700).index
    pd.testing.assert_index_equal(index.fetch(), frame.index)
    dates = md.date_range("2021-01-01", periods=50, freq="D")
    pd.testing.assert_index_equal(dates.fetch(), pd.date_range("2021-01-01", periods=50, freq="D"))
