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
