"""read_csv / to_csv against pandas on the same files, for chunkings that do not divide them."""
import os

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor, compute_locally
from mars_on_ray.testing import assert_eq

CHUNKINGS = [None, 97, 1000, 4099]


def _frame(n=400, seed=0):
    rs = np.random.RandomState(seed)
    return pd.DataFrame({
        "k": rs.randint(0, 9, n),
        "x": rs.rand(n),
        "name": [f"n{i % 13}" for i in range(n)],
        # quoted fields holding newlines, commas and doubled quotes
        "note": [f'line "{i}"\nnext, {i}' if i % 11 == 0 else f"plain {i}" for i in range(n)],
        "when": pd.date_range("2022-03-01", periods=n, freq="7h").astype(str),
    })


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "data.csv"
    _frame().to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize("chunk_bytes", CHUNKINGS)
def test_read_csv_quoted_newlines_equal_pandas(csv_file, chunk_bytes):
    assert_eq(md.read_csv(csv_file, chunk_bytes=chunk_bytes), pd.read_csv(csv_file))


@pytest.mark.parametrize("chunk_bytes", [97, 4099])
def test_read_csv_pandas_options(csv_file, chunk_bytes):
    cases = [
        dict(usecols=["x", "name"]),
        dict(usecols=[0, 2]),
        dict(index_col="name"),
        dict(index_col=["k", "name"]),
        dict(parse_dates=["when"]),
        dict(dtype={"k": "float32", "name": "category"}),
        dict(header=None, skiprows=1),
        dict(names=["a", "b", "c", "d", "e"], header=0),
        dict(skiprows=5, header=None),
        dict(nrows=37),
        dict(na_values=["n3"]),
        dict(dtype_backend="pyarrow"),
    ]
    for kwargs in cases:
        assert_eq(md.read_csv(csv_file, chunk_bytes=chunk_bytes, **kwargs), pd.read_csv(csv_file, **kwargs))


def test_read_csv_separator_and_line_terminator(tmp_path):
    df = _frame(120).drop(columns="note")
    path = tmp_path / "semi.txt"
    df.to_csv(path, sep=";", index=False, lineterminator="\r\n")
    assert_eq(md.read_csv(str(path), sep=";", chunk_bytes=333), pd.read_csv(path, sep=";"))


def test_read_csv_several_files_glob_directory_and_compression(tmp_path):
    frames = [_frame(50 + 13 * i, seed=i) for i in range(3)]
    folder = tmp_path / "parts"
    folder.mkdir()
    for i, frame in enumerate(frames):
        frame.to_csv(folder / f"p{i}.csv", index=False)
    expected = pd.concat([pd.read_csv(folder / f"p{i}.csv") for i in range(3)], ignore_index=True)
    assert_eq(md.read_csv(str(folder / "*.csv"), chunk_bytes=1500), expected)
    assert_eq(md.read_csv(str(folder), chunk_bytes=1500), expected)
    assert_eq(md.read_csv("file://" + str(folder / "*.csv"), chunk_bytes=1500), expected)
    assert_eq(md.read_csv([str(folder / "p0.csv"), str(folder / "p2.csv")]),
              pd.concat([pd.read_csv(folder / "p0.csv"), pd.read_csv(folder / "p2.csv")], ignore_index=True))
    with_index = pd.concat([pd.read_csv(folder / f"p{i}.csv", index_col="k") for i in range(3)])
    assert_eq(md.read_csv(str(folder / "*.csv"), chunk_bytes=1500, index_col="k"), with_index)
    for suffix in ("gz", "bz2", "zip", "xz"):
        path = tmp_path / f"c.csv.{suffix}"
        frames[1].to_csv(path, index=False)
        assert_eq(md.read_csv(str(path), chunk_bytes=100), pd.read_csv(path))


def test_read_csv_dtypes_found_past_the_head(tmp_path):
    """Columns whose first rows (the head sample) are ints, holding missing values and text
    later: the samples spread over the file find them."""
    n = 60000
    df = pd.DataFrame({"a": np.arange(n), "b": np.arange(n).astype(str), "c": 1.0})
    df["a"] = df["a"].astype("float64")
    df.loc[5000::997, "a"] = np.nan
    df.loc[5000::1009, "b"] = "text"
    path = tmp_path / "late.csv"
    df.to_csv(path, index=False)
    expected = pd.read_csv(path)
    m = md.read_csv(str(path), chunk_bytes=50000, sample_bytes="16k")
    assert_eq(m, expected)


def test_read_csv_value_beyond_every_sample_names_the_column(tmp_path):
    n = 60000
    path = tmp_path / "very_late.csv"
    pd.DataFrame({"a": np.arange(n), "b": 1.5}).to_csv(path, index=False)
    with open(path, "a") as f:
        f.write(",2.5\n")  # a missing int in the very last line
    m = md.read_csv(str(path), chunk_bytes=100000, sample_bytes="16k")
    with pytest.raises(ValueError) as info:
        LocalExecutor().compute(m.data)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert str(path) in notes and "dtype=" in notes


def test_read_csv_bad_input(tmp_path, csv_file):
    with pytest.raises(FileNotFoundError):
        md.read_csv(str(tmp_path / "missing.csv"))
    with pytest.raises(ValueError):  # pandas' error for an unknown usecols name
        md.read_csv(csv_file, usecols=["nope"])
    good = "a,b\n" + "".join(f"{i},{i}\n" for i in range(2000))
    path = tmp_path / "malformed.csv"
    path.write_text(good + "1,2,3\n" + good[4:])
    with pytest.raises(pd.errors.ParserError) as info:
        LocalExecutor().compute(md.read_csv(str(path), chunk_bytes=5000).data)
    assert any(str(path) in note and "bytes" in note for note in info.value.__notes__)


def test_read_csv_memory_filesystem():
    import fsspec

    text = _frame(200).to_csv(index=False).encode()
    with fsspec.filesystem("memory").open("/csv/data.csv", "wb") as f:
        f.write(text)
    assert_eq(md.read_csv("memory://csv/data.csv", chunk_bytes=700),
              pd.read_csv("memory://csv/data.csv"))


def test_read_csv_nrows_and_head_read_only_the_start(tmp_path, csv_file):
    m = md.read_csv(csv_file, chunk_bytes=97)
    assert_eq(m.head(9), pd.read_csv(csv_file).head(9))
    executor = LocalExecutor()
    executor.compute(m.head(9).data)
    assert executor.subtask_count <= 3  # one read of the first rows, not a pass over the file


def test_to_csv_one_file_many_files_and_compression(tmp_path):
    df = _frame(150)
    m = md.DataFrame(df, chunk_size=40)
    compute_locally(m.to_csv(str(tmp_path / "one.csv")))
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "one.csv", index_col=0), df)
    compute_locally(m.to_csv(str(tmp_path / "many-*.csv"), index=False))
    parts = sorted(f for f in os.listdir(tmp_path) if f.startswith("many-"))
    assert parts == [f"many-{i}.csv" for i in range(4)]
    joined = pd.concat([pd.read_csv(tmp_path / f"many-{i}.csv") for i in range(4)], ignore_index=True)
    pd.testing.assert_frame_equal(joined, df)
    compute_locally(m.to_csv(str(tmp_path / "z.csv.gz"), index=False))
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "z.csv.gz"), df)
    compute_locally(m["x"].to_csv(str(tmp_path / "series.csv")))
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "series.csv", index_col=0), df[["x"]])
    assert sorted(f for f in os.listdir(tmp_path) if f.startswith(".")) == []


def test_to_csv_failure_leaves_nothing_under_the_final_name(tmp_path):
    from mars_on_ray.dataframe.blockwise import map_chunks

    def fail_late(frame):
        if len(frame) and frame.index[0] >= 80:
            raise ZeroDivisionError("planned")
        return frame

    m = map_chunks(fail_late, (md.DataFrame(_frame(150), chunk_size=40),))
    for name in ("out.csv", "out-*.csv"):
        with pytest.raises(ZeroDivisionError):
            compute_locally(m.to_csv(str(tmp_path / name)))
    assert os.listdir(tmp_path) == []
