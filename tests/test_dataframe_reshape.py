"""Reshaping against pandas: melt, stack, explode, get_dummies, transpose, dot, rebalance.

Chunk sizes do not divide the data (41 rows in chunks of 7); frames after a filter have
unknown chunk extents; indexes are non-default and hold duplicates.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.positional import PANDAS3
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41), "s": [f"x{i % 4}" for i in range(41)],
                          "n": np.nan, "c": rs.rand(41) > 0.5},
                         index=[f"r{i % 37:02d}" for i in range(41)])  # duplicate labels
    frame.loc[["r03", "r17"], "b"] = np.nan
    return frame


def _tiled(obj):
    return LocalExecutor().tile(obj.data)


# -- melt ------------------------------------------------------------------------------------------
MELTS = [{}, {"id_vars": ["a"]}, {"id_vars": "s", "value_vars": ["b", "n"]},
         {"id_vars": ["a", "s"], "var_name": "V", "value_name": "X"}, {"value_vars": ["c"]},
         {"id_vars": ["a"], "value_vars": []}, {"id_vars": ["a"], "ignore_index": False},
         {"value_vars": ["b", "a"], "ignore_index": False}]


@pytest.mark.parametrize("kwargs", MELTS, ids=repr)
def test_melt_in_pandas_row_order(df, kwargs):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(md.melt(m, **kwargs), pd.melt(df, **kwargs))
    assert_eq(m.melt(**kwargs), df.melt(**kwargs))


def test_melt_after_a_filter_and_of_empty_frames(df):
    m = md.DataFrame(df, chunk_size=7)
    flt, expected = m[m["a"] > 0], df[df["a"] > 0]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.melt(id_vars=["s"], value_vars=["a", "b"]), expected.melt(id_vars=["s"], value_vars=["a", "b"]))
    assert_eq(m[m["a"] > 100].melt(id_vars=["a"]), df[df["a"] > 100].melt(id_vars=["a"]))
    empty = df.iloc[:0]
    assert_eq(md.DataFrame(empty).melt(id_vars=["a"]), empty.melt(id_vars=["a"]))


def test_melt_declares_its_row_count_and_chunks_per_value_column(df):
    m = md.DataFrame(df, chunk_size=7)  # 6 chunks
    melted = m.melt(id_vars=["a"], value_vars=["b", "n", "s"])
    assert melted.shape == (123, 3)
    assert _tiled(melted).chunks.shape == (18, 1)


def test_melt_bad_input_raises_like_pandas(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(KeyError):
        m.melt(id_vars=["zz"])
    with pytest.raises(KeyError):
        md.melt(m, value_vars=["zz"])
    with pytest.raises(AttributeError):
        md.Series(df["a"]).melt()


# -- stack -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("cols", [["a", "b"], ["a", "b", "n", "s"], ["n"], ["a", "c"]])
def test_stack_is_row_by_row(df, cols):
    m = md.DataFrame(df, chunk_size=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(m[cols].stack(), df[cols].stack())
        if not PANDAS3:
            assert_eq(m[cols].stack(dropna=False), df[cols].stack(dropna=False))
            assert_eq(m[cols].stack(future_stack=True), df[cols].stack(future_stack=True))


def test_stack_of_a_column_level_and_of_empty_frames(df):
    wide = df[["a", "b"]].copy()
    wide.columns = pd.MultiIndex.from_tuples([("x", "a"), ("y", "b")])
    m = md.DataFrame(wide, chunk_size=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(m.stack(), wide.stack())
        assert_eq(m.stack(level=0), wide.stack(level=0))
        empty = df[["a", "b"]].iloc[:0]
        assert_eq(md.DataFrame(empty).stack(), empty.stack())


# -- explode ---------------------------------------------------------------------------------------
@pytest.fixture
def lists():
    values = [[1, 2], [], None, [3], "x", [4, 5, 6], (7, 8), np.nan]
    return pd.Series(values * 5, index=[f"i{i % 11}" for i in range(40)], name="v")


@pytest.mark.parametrize("ignore_index", [False, True])
def test_explode_series_and_frame(lists, ignore_index):
    s = md.Series(lists, chunk_size=7)
    assert_eq(s.explode(ignore_index=ignore_index), lists.explode(ignore_index=ignore_index))
    frame = pd.DataFrame({"v": lists, "w": lists.map(lambda x: x if isinstance(x, list) else 0),
                          "k": range(40)})
    m = md.DataFrame(frame, chunk_size=6)
    assert_eq(m.explode("v", ignore_index=ignore_index), frame.explode("v", ignore_index=ignore_index))
    pair = frame[frame["v"].map(lambda x: isinstance(x, list))]
    pair = pair.assign(w=pair["v"])
    mp = md.DataFrame(pair, chunk_size=4)
    assert_eq(mp.explode(["v", "w"], ignore_index=ignore_index),
              pair.explode(["v", "w"], ignore_index=ignore_index))


@pytest.mark.parametrize("ignore_index", [False, True])
def test_explode_of_split_strings_takes_the_dtype_pandas_infers_for_the_whole(ignore_index):
    # pandas 3 gives str when every exploded value is a string; a block of only empty lists
    # (all NaN) or a number elsewhere must not decide it block by block
    words = pd.Series(["a_b", "c", None, "d_e_f", "", "g_h"] * 4 + [None] * 5, name="s",
                      index=[f"r{i % 20:02d}" for i in range(29)])
    frame = pd.DataFrame({"s": words, "k": range(29)})
    frame = frame.assign(l1=words.str.split("_"), l2=words.str.split("_"))
    m = md.DataFrame(frame, chunk_size=5)
    for cols in ("l1", ["l1", "l2"]):
        assert_eq(m.explode(cols, ignore_index=ignore_index), frame.explode(cols, ignore_index=ignore_index))
    mixed = frame.assign(l1=frame["l1"].map(lambda v: v + [1] if isinstance(v, list) and "g" in v else v))
    assert_eq(md.DataFrame(mixed, chunk_size=5).explode("l1", ignore_index=ignore_index),
              mixed.explode("l1", ignore_index=ignore_index))
    flt = m[m["k"] > 3]
    assert_eq(flt["l1"].explode(ignore_index=ignore_index),
              frame[frame["k"] > 3]["l1"].explode(ignore_index=ignore_index))


def test_explode_bad_input(lists):
    frame = pd.DataFrame({"v": lists, "k": range(40)})
    m = md.DataFrame(frame, chunk_size=6)
    with pytest.raises(KeyError):
        m.explode("zz")
    with pytest.raises(ValueError):
        m.explode([])
    bad = pd.DataFrame({"v": [[1, 2], [3]], "w": [[1], [2, 3]]})
    with pytest.raises(ValueError):
        LocalExecutor().compute(md.DataFrame(bad).explode(["v", "w"]).data)


# -- get_dummies -----------------------------------------------------------------------------------
@pytest.fixture
def cats():
    rs = np.random.RandomState(1)
    return pd.DataFrame({"a": rs.randint(0, 5, 41), "b": rs.rand(41),
                         "s": [f"s{(i * 7) % 5}" if i % 6 else None for i in range(41)],
                         "k": pd.Categorical(rs.choice(["x", "y"], 41), categories=["z", "y", "x"]),
                         "n": np.nan}, index=[f"r{i % 13}" for i in range(41)])


DUMMIES = [{}, {"dummy_na": True}, {"drop_first": True}, {"prefix": "P", "prefix_sep": "/"},
           {"columns": ["a", "s"]}, {"dtype": float}, {"prefix": {"s": "S", "k": "K"}},
           {"columns": ["n"]}, {"columns": ["a"], "dummy_na": True, "drop_first": True},
           {"prefix": ["p", "q"]}]


@pytest.mark.parametrize("kwargs", DUMMIES, ids=repr)
def test_get_dummies_of_frames(cats, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(md.get_dummies(md.DataFrame(cats, chunk_size=7), **kwargs), pd.get_dummies(cats, **kwargs))


@pytest.mark.parametrize("col", ["a", "s", "k", "n", "b"])
@pytest.mark.parametrize("kwargs", [{}, {"prefix": "p", "dummy_na": True}, {"drop_first": True}], ids=repr)
def test_get_dummies_of_series(cats, col, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(md.get_dummies(md.Series(cats[col], chunk_size=6), **kwargs), pd.get_dummies(cats[col], **kwargs))


def test_get_dummies_categories_found_across_chunks(cats):
    # values that appear in one chunk only, unsortable mixed values (first-appearance order)
    mixed = pd.Series([1, "a", 2.5, "a", None, 1, "zz"] * 3)
    assert_eq(md.get_dummies(md.Series(mixed, chunk_size=4)), pd.get_dummies(mixed))
    m = md.DataFrame(cats, chunk_size=7)
    flt, expected = m[m["a"] > 2], cats[cats["a"] > 2]
    assert_eq(md.get_dummies(flt), pd.get_dummies(expected))
    assert_eq(md.get_dummies(m.iloc[:0]), pd.get_dummies(cats.iloc[:0]))
    assert list(md.get_dummies(m).columns) == list(pd.get_dummies(cats).columns)  # known at once


def test_get_dummies_bad_input(cats):
    m = md.DataFrame(cats, chunk_size=7)
    with pytest.raises(KeyError):
        md.get_dummies(m, columns=["zz"])
    with pytest.raises(ValueError):
        md.get_dummies(m, prefix=["a"])
    with pytest.raises(NotImplementedError):
        md.get_dummies(m, sparse=True)


# -- transpose -------------------------------------------------------------------------------------
@pytest.mark.parametrize("cols", [["a", "b", "s", "n", "c"], ["a", "b"], ["a"], ["b", "n"], []])
def test_transpose(df, cols):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[cols].T, df[cols].T)
    assert_eq(m[cols].transpose(), df[cols].transpose())


def test_transpose_splits_the_result_by_old_columns(df):
    m = md.DataFrame(df, chunk_size=7)
    t = m.T
    assert t.shape == (5, 41)
    assert _tiled(t).chunks.shape[0] == 5
    flt, expected = m[m["a"] > 0], df[df["a"] > 0]
    assert_eq(flt.T, expected.T)
    assert_eq(m.T.T, df.T.T)


def test_series_and_index_transpose_are_identity(df):
    s = md.Series(df["b"], chunk_size=7)
    assert s.T is s and s.transpose() is s
    assert_eq(s.T, df["b"].T)
    idx = s.index
    assert idx.T is idx


# -- dot -------------------------------------------------------------------------------------------
@pytest.fixture
def mats():
    rs = np.random.RandomState(2)
    x = pd.DataFrame(rs.rand(23, 4), columns=list("wxyz"), index=[f"i{i}" for i in range(23)])
    y = pd.DataFrame(rs.randint(0, 9, (4, 3)), index=list("wxyz"), columns=["p", "q", "r"])
    return x, y


def test_dot_of_frames_and_series(mats):
    x, y = mats
    mx = md.DataFrame(x, chunk_size=5)
    assert_eq(mx.dot(md.DataFrame(y, chunk_size=3)), x.dot(y))
    assert_eq(mx @ md.DataFrame(y), x @ y)
    assert_eq(mx.dot(y), x.dot(y))
    assert_eq(mx.dot(y.iloc[::-1]), x.dot(y.iloc[::-1]))  # aligned by labels
    assert_eq(mx.dot(md.Series(y["p"])), x.dot(y["p"]))
    ints = pd.DataFrame(np.arange(12).reshape(3, 4), columns=list("wxyz"))
    assert_eq(md.DataFrame(ints, chunk_size=2).dot(y), ints.dot(y))
    s = x["w"]
    ms = md.Series(s, chunk_size=6)
    assert_eq(ms.dot(md.Series(s, chunk_size=4)), s.dot(s))
    assert_eq(ms @ md.DataFrame(x, chunk_size=4), s @ x)


def test_dot_with_arrays(mats):
    x, _ = mats
    rs = np.random.RandomState(3)
    arr = rs.rand(4, 2)
    mx = md.DataFrame(x, chunk_size=5)
    assert_eq(mx.dot(mt.tensor(arr, chunk_size=2)), x.dot(arr))
    assert_eq(mx.dot(arr), x.dot(arr))
    assert_eq(mx.dot(arr[:, 0]), x.dot(arr[:, 0]))
    s = md.Series(x["w"], chunk_size=6)
    ints = np.arange(23 * 3).reshape(23, 3)
    assert_eq(s.dot(mt.tensor(ints, chunk_size=(5, 2))), x["w"].dot(ints))
    assert_eq(s @ ints[:, 0], x["w"] @ ints[:, 0])
    assert_eq(s[s > 0.5].dot(np.ones(int((x["w"] > 0.5).sum()))), x["w"][x["w"] > 0.5].dot(
        np.ones(int((x["w"] > 0.5).sum()))))


def test_dot_bad_shapes_raise_like_pandas(mats):
    x, y = mats
    mx = md.DataFrame(x, chunk_size=5)
    with pytest.raises(ValueError):
        mx.dot(np.ones((3, 2)))
    with pytest.raises(ValueError):
        mx.dot(y.iloc[:3])
    with pytest.raises(ValueError):
        md.Series(x["w"]).dot(md.Series(x["w"].iloc[:5]))
    with pytest.raises(TypeError):
        mx.dot("abc")
    with pytest.raises(ValueError):
        md.Series(x["w"]).dot(np.ones(5))


# -- rebalance -------------------------------------------------------------------------------------
def test_rebalance_makes_even_chunks(df):
    m = md.DataFrame(df, chunk_size=3)
    r = m.rebalance(num_partitions=3)
    assert_eq(r, df)
    assert _tiled(r).nsplits[0] == (14, 14, 13)
    flt, expected = m[m["a"] > 0], df[df["a"] > 0]
    s = flt["b"].rebalance(num_partitions=2)
    assert_eq(s, expected["b"])
    assert len(_tiled(s).nsplits[0]) == 2
    assert_eq(m.index.rebalance(num_partitions=4), df.index)
    assert_eq(m.rebalance(factor=1.5), df)
    with pytest.raises(ValueError):
        m.rebalance(num_partitions=0)


# -- pivot_table -----------------------------------------------------------------------------------
@pytest.fixture
def sales():
    rs = np.random.RandomState(4)
    n = 61
    frame = pd.DataFrame({"k": rs.choice(["a", "b", "c", "d"], n), "j": rs.randint(0, 3, n),
                          "c": rs.choice(["x", "y", "z"], n), "v": rs.rand(n), "w": rs.randint(0, 10, n),
                          "n": np.nan})
    frame.loc[[3, 9, 40], "k"] = None  # missing keys are dropped, as by groupby
    frame.loc[frame["c"] == "z", "v"] = np.nan  # an all-NaN block of the table
    return frame


PIVOTS = [dict(index="k", columns="c", values="v"), dict(index=["k", "j"], columns="c", values=["v", "w"]),
          dict(index="k", columns=["c", "j"], values=["v", "w"], aggfunc="sum"),
          dict(index="k", columns="c", values="w", aggfunc="sum", fill_value=0),
          dict(index="j", columns="c", values="v", aggfunc=["mean", "max"]),
          dict(index="k", values=["v", "w"], aggfunc={"v": "mean", "w": "max"}),
          dict(index="k", columns="c", values="w", aggfunc="count"),
          dict(index="k", columns="j", values="v", aggfunc="median"),
          dict(index="k", columns="c", values="v", dropna=False),
          dict(index="k", columns="c", values=["v", "n"])]


@pytest.mark.parametrize("kwargs", PIVOTS, ids=repr)
def test_pivot_table(sales, kwargs):
    m = md.DataFrame(sales, chunk_size=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = pd.pivot_table(sales, **kwargs)
        assert_eq(md.pivot_table(m, **kwargs), expected)
        assert_eq(m[m["w"] > 2].pivot_table(**kwargs), sales[sales["w"] > 2].pivot_table(**kwargs))


@pytest.mark.parametrize("kwargs", PIVOTS, ids=repr)
def test_pivot_table_in_first_appearance_order(sales, kwargs):
    m = md.DataFrame(sales, chunk_size=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(m.pivot_table(sort=False, **kwargs), sales.pivot_table(sort=False, **kwargs))


def test_pivot_table_bad_input(sales):
    m = md.DataFrame(sales, chunk_size=7)
    with pytest.raises(KeyError):
        m.pivot_table(index="zz", columns="c", values="v")
    with pytest.raises(NotImplementedError):  # margins of an aggfunc other than a name or len
        m.pivot_table(index="k", columns="c", values="v", margins=True, aggfunc=lambda x: x.sum())


@pytest.fixture
def long():
    rs = np.random.RandomState(5)
    frame = pd.DataFrame({"k": np.repeat(list("abcdefg"), 3), "c": ["x", "y", "z"] * 7, "v": rs.rand(21),
                          "w": rs.randint(0, 9, 21)}, index=[f"i{i}" for i in range(21)])
    return frame.drop(["i4", "i11"])  # combinations missing from the table


@pytest.mark.parametrize("kwargs", [dict(index="k", columns="c", values="v"), dict(index="k", columns="c"),
                                    dict(index="k", columns="c", values=["w", "v"]),
                                    dict(index=["k", "w"], columns="c", values="v")], ids=repr)
def test_pivot(long, kwargs):
    m = md.DataFrame(long, chunk_size=4)
    assert_eq(m.pivot(**kwargs), long.pivot(**kwargs))
    assert_eq(md.pivot(m, **kwargs), pd.pivot(long, **kwargs))


def test_pivot_duplicate_entries_raise_like_pandas(long):
    bad = pd.concat([long, long.iloc[:1]])
    with pytest.raises(ValueError):
        bad.pivot(index="k", columns="c", values="v")
    with pytest.raises(ValueError):
        md.DataFrame(bad, chunk_size=4).pivot(index="k", columns="c", values="v")
    with pytest.raises(KeyError):
        md.DataFrame(long).pivot(index="k", columns="zz")


def test_melt_reads_only_the_columns_it_names(tmp_path, df):
    from mars_on_ray.core.optimizer import optimize
    from mars_on_ray.dataframe.io.reader import Reader

    path = str(tmp_path / "f.parquet")
    df.to_parquet(path)
    m = md.read_parquet(path)
    melted = m.melt(id_vars=["s"], value_vars=["a", "b"])
    plan = optimize([melted.data])
    readers = [n for n in plan.order if isinstance(n.op, Reader)]
    assert list(readers[0].meta.columns) == ["a", "b", "s"]
    expected = pd.read_parquet(path).melt(id_vars=["s"], value_vars=["a", "b"])
    assert_eq(melted, expected)
