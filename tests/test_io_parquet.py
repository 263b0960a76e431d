"""read_parquet / to_parquet against pandas on the same files."""
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor, compute_locally
from mars_on_ray.testing import assert_eq


def _frame(n=103, seed=0):
    rs = np.random.RandomState(seed)
    return pd.DataFrame({
        "i": rs.randint(-50, 50, n),
        "f": rs.rand(n),
        "s": [f"s{k % 7}" for k in range(n)],
        "b": rs.rand(n) > 0.5,
        "t": pd.date_range("2021-01-01", periods=n, freq="37min"),
        "n": np.where(rs.rand(n) > 0.8, np.nan, rs.rand(n)),
    })


@pytest.fixture
def data(tmp_path):
    """A single file with uneven row groups, a directory of files, and a hive dataset."""
    df = _frame()
    single = tmp_path / "single.parquet"
    df.to_parquet(single, row_group_size=17)
    folder = tmp_path / "folder"
    folder.mkdir()
    df.iloc[:40].to_parquet(folder / "a.parquet", row_group_size=9)
    df.iloc[40:].to_parquet(folder / "b.parquet", row_group_size=25)
    hive = tmp_path / "hive"
    df.assign(k=df["i"] % 3).to_parquet(hive, partition_cols=["k"], row_group_size=11)
    return df, str(single), str(folder), str(hive)


def _read_chunks(obj):
    """The parquet chunk operands a tiled plan reads (after the optimizer's rules)."""
    from mars_on_ray.dataframe.io.parquet import ReadParquet
    from mars_on_ray.core.graph import topo_order

    tiled = LocalExecutor().tile(obj.data)
    return [c.op for c in topo_order(tiled.flat) if isinstance(c.op, ReadParquet)]


@pytest.mark.parametrize("chunk_bytes", [None, 1, 900, 5000])
def test_read_parquet_file_directory_and_hive_equal_pandas(data, chunk_bytes):
    _, single, folder, hive = data
    for path in (single, folder, hive):
        m = md.read_parquet(path, chunk_bytes=chunk_bytes)
        assert not np.isnan(m.shape[0])  # row counts come from the footers
        assert_eq(m, pd.read_parquet(path))


def test_read_parquet_columns_filters_and_backends(data):
    _, single, folder, hive = data
    assert_eq(md.read_parquet(single, columns=["s", "i"], chunk_bytes=900),
              pd.read_parquet(single, columns=["s", "i"]))
    for filters in ([("i", ">", 10)], [[("i", ">", 30)], [("s", "==", "s3")]], [("f", "<", -1.0)]):
        assert_eq(md.read_parquet(folder, filters=filters, chunk_bytes=900),
                  pd.read_parquet(folder, filters=filters))
    assert_eq(md.read_parquet(hive, filters=[("k", "==", 2)], chunk_bytes=900),
              pd.read_parquet(hive, filters=[("k", "==", 2)]))
    for backend in ("numpy_nullable", "pyarrow"):
        assert_eq(md.read_parquet(single, dtype_backend=backend, chunk_bytes=900),
                  pd.read_parquet(single, dtype_backend=backend))


def test_read_parquet_index_kinds(tmp_path):
    df = _frame(50)
    cases = {
        "named": df.set_index("s"),
        "multi": df.set_index(["s", "i"]),
        "range_from_7": df.set_index(pd.RangeIndex(7, 57, name="r")),
        "stepped": df.set_index(pd.RangeIndex(0, 100, 2)),
    }
    for name, frame in cases.items():
        path = tmp_path / f"{name}.parquet"
        frame.to_parquet(path, row_group_size=8)
        assert_eq(md.read_parquet(path, chunk_bytes=1), pd.read_parquet(path))
        assert_eq(md.read_parquet(path, columns=["f"], chunk_bytes=1), pd.read_parquet(path, columns=["f"]))
        # rows filtered by the user: the RangeIndex is renumbered as pandas does; its name is
        # kept only when the filter kept every row (known from the data)
        assert_eq(md.read_parquet(path, filters=[("i", ">", 0)], chunk_bytes=1),
                  pd.read_parquet(path, filters=[("i", ">", 0)]), check_index_meta=False)


def test_read_parquet_glob_list_and_fsspec_memory(data, tmp_path):
    import fsspec

    df, _, folder, _ = data
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
    expected = pd.read_parquet(files)
    assert_eq(md.read_parquet(files, chunk_bytes=900), expected)
    assert_eq(md.read_parquet(os.path.join(folder, "*.parquet"), chunk_bytes=900), expected)
    assert_eq(md.read_parquet("file://" + folder, chunk_bytes=900), pd.read_parquet(folder))
    memory = fsspec.filesystem("memory")
    with memory.open("/pq/data.parquet", "wb") as f:
        df.to_parquet(f, row_group_size=20)
    assert_eq(md.read_parquet("memory://pq/data.parquet", chunk_bytes=1),
              pd.read_parquet("memory://pq/data.parquet"))


def test_read_parquet_bad_input_raises_what_pandas_raises(data, tmp_path):
    _, single, _, _ = data
    with pytest.raises(FileNotFoundError):
        md.read_parquet(str(tmp_path / "missing.parquet"))
    with pytest.raises(FileNotFoundError):
        md.read_parquet(str(tmp_path / "nothing-*.parquet"))
    with pytest.raises(type(_pandas_error(single))):
        md.read_parquet(single, columns=["nope"])
    with pytest.raises(ValueError):
        md.read_parquet(single, dtype_backend="numpy")


def _pandas_error(path):
    try:
        pd.read_parquet(path, columns=["nope"])
    except Exception as exc:
        return exc
    raise AssertionError("pandas read an unknown column")


def test_read_parquet_chunks_group_small_row_groups_by_bytes(data):
    _, single, _, _ = data
    one_per_group = _read_chunks(md.read_parquet(single, chunk_bytes=1))
    assert [len(op.row_groups) for op in one_per_group] == [1] * 7  # 103 rows / 17 per group
    grouped = _read_chunks(md.read_parquet(single, chunk_bytes=10**9))
    assert len(grouped) == 1 and len(grouped[0].row_groups) == 7


def test_head_reads_only_the_first_row_groups(data):
    df, single, _, _ = data
    m = md.read_parquet(single, chunk_bytes=1)
    assert_eq(m.head(20), df.head(20))
    assert sum(len(op.row_groups) for op in _read_chunks(m.head(20))) == 2


def test_to_parquet_directory_round_trip(tmp_path):
    df = _frame()
    m = md.DataFrame(df, chunk_size=30)
    out = tmp_path / "out"
    written = m.to_parquet(str(out))
    value = compute_locally(written)[0]
    pd.testing.assert_frame_equal(value, df.iloc[:0])
    assert sorted(os.listdir(out)) == [f"part.{i}.parquet" for i in range(4)]
    pd.testing.assert_frame_equal(pd.read_parquet(out), df)
    assert_eq(md.read_parquet(str(out)), df)
    # a second, smaller write replaces the parts of the first
    compute_locally(md.DataFrame(df.iloc[:10], chunk_size=30).to_parquet(str(out)))
    pd.testing.assert_frame_equal(pd.read_parquet(out), df.iloc[:10])


def test_to_parquet_partition_cols_equal_pandas(tmp_path):
    df = _frame().assign(k=lambda d: d["i"] % 3)
    compute_locally(md.DataFrame(df, chunk_size=25).to_parquet(str(tmp_path / "ours"), partition_cols=["k"]))
    df.to_parquet(tmp_path / "theirs", partition_cols=["k"])
    ours = pd.read_parquet(tmp_path / "ours").sort_index()
    theirs = pd.read_parquet(tmp_path / "theirs").sort_index()
    pd.testing.assert_frame_equal(ours, theirs)
    with pytest.raises(KeyError):
        md.DataFrame(df).to_parquet(str(tmp_path / "bad"), partition_cols=["nope"])


def test_to_parquet_failure_leaves_no_parts(tmp_path):
    from mars_on_ray.dataframe.blockwise import map_chunks

    def fail_on_second_chunk(frame):
        if len(frame) and frame.index[0] >= 30:
            raise ZeroDivisionError("planned")
        return frame

    m = map_chunks(fail_on_second_chunk, (md.DataFrame(_frame(), chunk_size=30),))
    out = tmp_path / "out"
    with pytest.raises(ZeroDivisionError):
        compute_locally(m.to_parquet(str(out)))
    assert os.listdir(out) == []  # no part under a final name, and the staging is gone


def test_read_parquet_written_by_arrow_without_pandas_metadata(tmp_path):
    import pyarrow.parquet as pq

    table = pa.table({"x": pa.array(range(30), pa.int32()), "y": pa.array([str(i) for i in range(30)])})
    pq.write_table(table, tmp_path / "plain.parquet", row_group_size=7)
    assert_eq(md.read_parquet(str(tmp_path / "plain.parquet"), chunk_bytes=1),
              pd.read_parquet(tmp_path / "plain.parquet"))
