"""DataFrame / Series creation, selection, head, index and arithmetic against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    return pd.DataFrame({"a": rs.randint(-5, 5, 23), "b": rs.rand(23), "c": rs.rand(23) > 0.5,
                         "s": [f"x{i % 4}" for i in range(23)]})


def test_from_pandas_dataframe_and_series(df):
    m = md.DataFrame(df, chunk_size=4)
    assert m.shape == (23, 4)
    assert_eq(m, df)
    assert_eq(md.Series(df["b"], chunk_size=5), df["b"])
    assert_eq(md.DataFrame(df), df)
    assert list(m.columns) == list(df.columns)
    assert list(m.dtypes) == list(df.dtypes)


def test_chunks_hold_row_pieces_and_graph_carries_no_data(df):
    import pickle

    m = md.DataFrame(df, chunk_size=10)
    tiled = LocalExecutor().tile(m.data)
    assert tiled.nsplits == ((10, 10, 3), (4,))
    assert tiled.chunks.shape == (3, 1)
    pd.testing.assert_frame_equal(tiled.chunks[1, 0].op.data, df.iloc[10:20])
    assert b"x3" not in pickle.dumps(m.data.op)


def test_from_dict_ndarray_list():
    assert_eq(md.DataFrame({"x": [1, 2, 3], "y": [0.5, 1.5, 2.5]}, chunk_size=2),
              pd.DataFrame({"x": [1, 2, 3], "y": [0.5, 1.5, 2.5]}))
    arr = np.arange(12).reshape(4, 3)
    assert_eq(md.DataFrame(arr, columns=list("pqr"), chunk_size=3), pd.DataFrame(arr, columns=list("pqr")))
    assert_eq(md.Series([1, 2, 3], name="n", chunk_size=2), pd.Series([1, 2, 3], name="n"))
    assert_eq(md.Series([1, 2, 3], dtype="float32"), pd.Series([1, 2, 3], dtype="float32"))


def test_from_tensor_seed_example():
    assert_eq(md.DataFrame(mt.ones((2000, 2000), chunk_size=200)).sum(),
              pd.DataFrame(np.ones((2000, 2000))).sum())


def test_from_tensor_uneven_chunks_and_columns():
    x = np.arange(35.0).reshape(7, 5)
    t = mt.tensor(x, chunk_size=(3, 2))
    assert_eq(md.DataFrame(t), pd.DataFrame(x))
    assert_eq(md.DataFrame(t, columns=list("abcde")), pd.DataFrame(x, columns=list("abcde")))
    assert_eq(md.DataFrame(t, chunk_size=4), pd.DataFrame(x))
    assert_eq(md.Series(mt.tensor(x[0], chunk_size=2), name="q"), pd.Series(x[0], name="q"))
    assert_eq(md.DataFrame(mt.tensor(x[0], chunk_size=2)), pd.DataFrame(x[0]))


def test_from_tensor_with_unknown_rows():
    x = np.arange(35.0).reshape(7, 5)
    t = mt.tensor(x, chunk_size=(3, 2))
    filtered = t[mt.tensor(x[:, 0], chunk_size=3) > 10]
    assert_eq(md.DataFrame(filtered), pd.DataFrame(x[x[:, 0] > 10]))


def test_from_tensor_with_an_index_of_labels_or_lazy_labels():
    x = np.arange(35.0).reshape(7, 5)
    t = mt.tensor(x, chunk_size=(3, 2))
    labels = pd.Index(list("abcdefg"), name="k")
    assert_eq(md.DataFrame(t, index=labels), pd.DataFrame(x, index=labels))
    assert_eq(md.DataFrame(t, index=list("abcdefg"), columns=list("pqrst")),
              pd.DataFrame(x, index=list("abcdefg"), columns=list("pqrst")))
    assert_eq(md.DataFrame(t, index=md.Index(labels, chunk_size=2)), pd.DataFrame(x, index=labels))
    assert_eq(md.Series(mt.tensor(x[:, 0], chunk_size=4), index=labels, name="s"),
              pd.Series(x[:, 0], index=labels, name="s"))
    lazy = md.Series(pd.Series(np.arange(7) * 2, name="even"), chunk_size=3)
    assert_eq(md.Series(mt.tensor(x[:, 1], chunk_size=2), index=lazy),
              pd.Series(x[:, 1], index=pd.Index(np.arange(7) * 2, name="even")))
    for make in (lambda: pd.DataFrame(x, index=list("abc")), lambda: pd.Series(x[:, 0], index=[1])):
        with pytest.raises(ValueError):
            make()
    with pytest.raises(ValueError):
        md.DataFrame(t, index=list("abc"))
    with pytest.raises(ValueError):
        md.Series(mt.tensor(x[:, 0]), index=md.Index([1]))


def test_index_constructor_as_pandas():
    assert_eq(md.Index([3, 1, 2], name="x"), pd.Index([3, 1, 2], name="x"))
    assert_eq(md.Index(list("abcde"), chunk_size=2), pd.Index(list("abcde")))
    assert_eq(md.Index([1, 2, 3], dtype="float32"), pd.Index([1, 2, 3], dtype="float32"))
    assert_eq(md.Index([("a", 1), ("b", 2)], names=["l", "n"]),
              pd.Index([("a", 1), ("b", 2)]).set_names(["l", "n"]))
    assert_eq(md.Index(mt.arange(10, chunk_size=3)), pd.Index(np.arange(10)))
    assert_eq(md.Index(mt.arange(10, chunk_size=3), name="t", dtype="float64"),
              pd.Index(np.arange(10), name="t", dtype="float64"))
    s = pd.Series(list("pqrs"), name="col")
    assert_eq(md.Index(md.Series(s, chunk_size=3)), pd.Index(s))
    lazy = md.Index(pd.Index([5, 6, 7]), chunk_size=2)
    assert_eq(md.Index(lazy, name="r"), pd.Index([5, 6, 7], name="r"))
    with pytest.raises(TypeError):
        pd.Index(5)
    with pytest.raises(TypeError):
        md.Index(5)


def test_from_tensor_bad_columns_raise_like_pandas():
    with pytest.raises(ValueError):
        pd.DataFrame(np.ones((3, 2)), columns=list("abc"))
    with pytest.raises(ValueError):
        md.DataFrame(mt.ones((3, 2)), columns=list("abc"))


def test_column_selection(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["a"], df["a"])
    assert_eq(m.b, df.b)
    assert_eq(m[["s", "a"]], df[["s", "a"]])
    with pytest.raises(KeyError):
        m["missing"]
    with pytest.raises(KeyError):
        m[["a", "missing"]]


def test_boolean_filter_and_head_after_filter(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m[m["a"] > 0], df[df["a"] > 0])
    assert_eq(m["b"][m["c"]], df["b"][df["c"]])
    assert_eq(m[m["a"] > 0].head(3), df[df["a"] > 0].head(3))
    assert_eq(m[m["a"] > 0]["b"].sum(), df[df["a"] > 0]["b"].sum())


def test_head_reads_only_needed_chunks(df):
    m = md.DataFrame(df, chunk_size=4)
    for n in (0, 3, 4, 9, 23, 40, -5):
        assert_eq(m.head(n), df.head(n))
    tiled = LocalExecutor().tile(m.head(6).data)
    assert len(tiled.chunks[0, 0].inputs) == 2
    assert_eq(m["b"].head(), df["b"].head())


def test_index(df):
    m = md.DataFrame(df.set_index("s"), chunk_size=6)
    assert_eq(m.index, df.set_index("s").index)
    assert_eq(md.Series(df["a"], chunk_size=7).index, df.index)


def test_arithmetic_with_scalars(df):
    m = md.DataFrame(df[["a", "b"]], chunk_size=6)
    p = df[["a", "b"]]
    assert_eq(m + 1, p + 1)
    assert_eq(2 * m, 2 * p)
    assert_eq(1 - m, 1 - p)
    assert_eq(m / 3, p / 3)
    assert_eq(m // 2, p // 2)
    assert_eq(m % 3, p % 3)
    assert_eq(m ** 2, p ** 2)
    assert_eq(-m, -p)
    assert_eq(abs(m), abs(p))
    assert_eq(m.abs(), p.abs())
    assert_eq(m.astype("float32"), p.astype("float32"))
    assert_eq(m["a"].add(1.5), p["a"].add(1.5))


def test_comparisons(df):
    m = md.DataFrame(df, chunk_size=6)
    assert_eq(m["a"] > 0, df["a"] > 0)
    assert_eq(m["a"] == m["a"], df["a"] == df["a"])
    assert_eq(m[["a", "b"]] <= 0.5, df[["a", "b"]] <= 0.5)
    assert_eq(m["s"].eq("x1"), df["s"].eq("x1"))
    assert_eq(m["a"].ne(2), df["a"].ne(2))


def test_arithmetic_between_frames_same_and_different_chunks(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["a"] * m["b"], df["a"] * df["b"])
    other = md.DataFrame(df, chunk_size=7)
    assert_eq(m[["a", "b"]] + other[["a", "b"]], df[["a", "b"]] * 2)
    assert_eq(m["b"] - md.Series(df["b"], chunk_size=3), df["b"] - df["b"])
    assert_eq(m["b"].add(df["a"], fill_value=0), df["b"].add(df["a"], fill_value=0))
    assert_eq(m[["a", "b"]] + df[["a", "b"]], df[["a", "b"]] * 2)


def test_arithmetic_bad_types_raise_like_pandas(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(TypeError):
        df["s"] - 1
    with pytest.raises(TypeError):
        m["s"] - 1


def test_fused_and_unfused_pipeline_agree(df):
    m = md.DataFrame(df, chunk_size=4)
    expr = ((m["a"] + 1) * m["b"])[m["c"]]
    fused, unfused = LocalExecutor(), LocalExecutor(fusion=False)
    a = fused.compute(expr.data)[0]
    b = unfused.compute(expr.data)[0]
    pd.testing.assert_series_equal(a, b)
    pd.testing.assert_series_equal(a, ((df["a"] + 1) * df["b"])[df["c"]])
    assert fused.subtask_count < unfused.subtask_count


def test_frame_with_series_broadcasts_over_columns():
    rs = np.random.RandomState(0)
    pdf = pd.DataFrame(rs.rand(23, 4), columns=list("abcd"))
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(m - m.mean(), pdf - pdf.mean())
    assert_eq((m - m.mean()) / m.std(), (pdf - pdf.mean()) / pdf.std())
    assert_eq(m.max() - m, pdf.max() - pdf)
    assert_eq(m.sub(m.mean()), pdf.sub(pdf.mean()))
    assert_eq(m - md.Series(pdf.mean(), chunk_size=2), pdf - pdf.mean())
    assert_eq(m * pdf.iloc[0], pdf * pdf.iloc[0])


def test_source_tiles_without_data_like_the_services(df):
    """Regression: the services tile sources whose data stayed on the client."""
    import pickle

    from mars_on_ray.core.tiling import TileContext

    m = md.DataFrame(df, chunk_size=7)
    remote = pickle.loads(pickle.dumps(m.data.op))
    assert remote.data is None
    here = m.data.op.tile(TileContext(), m.data)
    there = remote.tile(TileContext(), m.data)
    assert [c.key for c in here.flat] == [c.key for c in there.flat]
    assert here.nsplits == there.nsplits == ((7, 7, 7, 2), (4,))


def test_missing_values():
    pdf = pd.DataFrame({"a": [1.0, np.nan, 3, np.nan, 5, 6, np.nan], "b": [np.nan, "x", "y", None, "z", "w", "v"]})
    m = md.DataFrame(pdf, chunk_size=3)
    assert_eq(m.isna(), pdf.isna())
    assert_eq(m.notna(), pdf.notna())
    assert_eq(m["a"].fillna(0), pdf["a"].fillna(0))
    assert_eq(m.fillna({"a": -1}), pdf.fillna({"a": -1}))
    assert_eq(m.dropna(), pdf.dropna())
    assert_eq(m.dropna(subset=["a"]), pdf.dropna(subset=["a"]))
    assert_eq(m.dropna(thresh=2), pdf.dropna(thresh=2))
    assert_eq(m["a"].dropna().sum(), pdf["a"].dropna().sum())
    with pytest.raises(KeyError):
        m.dropna(subset=["missing"])


def test_constructors_from_lazy_objects_with_dtype(df):
    m = md.DataFrame(df[["a", "b"]], chunk_size=5)
    assert md.DataFrame(m).key == m.key
    assert_eq(md.DataFrame(m, dtype="float32"), df[["a", "b"]].astype("float32"))
    assert_eq(md.Series(m["a"], dtype="float64"), df["a"].astype("float64"))
    x = np.arange(12).reshape(6, 2)
    assert_eq(md.DataFrame(mt.tensor(x, chunk_size=4), dtype="float64"), pd.DataFrame(x, dtype="float64"))
