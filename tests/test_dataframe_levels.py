"""Index levels against pandas: unstack, xs, swaplevel, droplevel, reorder_levels.

Chunk sizes do not divide the data (23 rows in chunks of 5), the rows are shuffled (keys of
one row of the result sit in several chunks), frames after a filter have unknown extents.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.dataframe.positional import PANDAS3
from mars_on_ray.testing import _compute, assert_eq


@pytest.fixture
def s():
    idx = pd.MultiIndex.from_product([["a", "b", "c", "d"], [3, 1, 2], ["y", "x"]], names=["k", "n", "z"])
    return pd.Series(np.arange(24), index=idx, name="v").sample(frac=1, random_state=0).iloc[:23]


@pytest.fixture
def df(s):
    frame = pd.DataFrame({"v": s, "w": s * 1.5, "b": s % 2 == 0})
    frame.iloc[[2, 7], 1] = np.nan
    return frame


@pytest.mark.parametrize("level", [-1, 0, "n", ["k", "z"], [2, 1]], ids=repr)
def test_series_unstack_matches_pandas(s, level):
    assert_eq(md.Series(s, chunk_size=5).unstack(level), s.unstack(level))


@pytest.mark.parametrize("level", [-1, 0, [0, 1]], ids=repr)
def test_frame_unstack_with_mixed_dtypes_promotes_as_pandas(df, level):
    assert_eq(md.DataFrame(df, chunk_size=5).unstack(level), df.unstack(level))


@pytest.mark.parametrize("fill", [0, 0.5, "?"], ids=repr)
def test_unstack_fill_value_and_its_dtype(s, fill):
    assert_eq(md.Series(s, chunk_size=5).unstack("n", fill_value=fill), s.unstack("n", fill_value=fill))


def test_unstack_of_complete_keys_keeps_integer_dtype(s):
    full = s.sort_index().iloc[:18]
    assert_eq(md.Series(full.sample(frac=1, random_state=1), chunk_size=5).unstack(), full.unstack())


def test_unstack_after_a_filter_and_of_empty_input(s):
    m = md.Series(s, chunk_size=5)
    assert_eq(m[m > 6].unstack(), s[s > 6].unstack())
    assert_eq(m[m > 100].unstack(), s[s > 100].unstack())


def test_unstack_bad_input_raises_like_pandas(s):
    with pytest.raises(KeyError):
        md.Series(s).unstack("zz")
    with pytest.raises(IndexError):
        md.Series(s).unstack(5)
    with pytest.raises(ValueError):
        md.Series(s.reset_index(drop=True)).unstack()
    dup = pd.concat([s, s.iloc[:2]])
    with pytest.raises(ValueError, match="duplicate"):
        _compute(md.Series(dup, chunk_size=5).unstack())


@pytest.fixture
def nan_keys():
    rs = np.random.RandomState(0)
    idx = pd.MultiIndex.from_arrays([rs.choice(["b", "a", "c", "d"], 23), rs.randint(0, 6, 23),
                                     rs.choice([1.5, np.nan, 0.5], 23)], names=["k", "l", "m"])
    idx = idx[~idx.duplicated()]
    return pd.DataFrame({"x": np.arange(len(idx)), "y": rs.rand(len(idx))}, index=idx)


@pytest.mark.skipif(not PANDAS3, reason="pandas 2.2's unstack(sort=False) puts values in the wrong cells")
@pytest.mark.parametrize("level", [-1, 0, "l", ["k", "m"], [1, 0]], ids=repr)
def test_unstack_sort_false_keeps_first_appearance_order(nan_keys, level):
    m = md.DataFrame(nan_keys, chunk_size=5)
    assert_eq(m.unstack(level, sort=False), nan_keys.unstack(level, sort=False))
    assert_eq(m["x"].unstack(level, sort=False), nan_keys["x"].unstack(level, sort=False))
    assert_eq(m.unstack(level, sort=False, fill_value=0), nan_keys.unstack(level, sort=False, fill_value=0))
    # unknown extents; pandas labels a frame's columns from the unpruned level after a filter
    # (its values then sit under other labels): compared on the pruned index
    expected = nan_keys[nan_keys["x"] % 3 > 0]
    expected = expected.set_axis(expected.index.remove_unused_levels())
    assert_eq(m[m["x"] % 3 > 0].unstack(level, sort=False), expected.unstack(level, sort=False))


@pytest.mark.skipif(PANDAS3, reason="pandas 3 fixed unstack(sort=False)")
def test_unstack_sort_false_under_pandas_22_raises_not_implemented(s):
    with pytest.raises(NotImplementedError, match="sort=False"):
        md.Series(s, chunk_size=5).unstack(sort=False)


@pytest.mark.parametrize("kwargs", [{"key": "a"}, {"key": ("b", 1)}, {"key": 1, "level": "n"},
                                    {"key": ("a", "x"), "level": ["k", "z"]},
                                    {"key": 2, "level": 1, "drop_level": False}], ids=repr)
def test_xs_rows_matches_pandas(df, kwargs):
    assert_eq(md.DataFrame(df, chunk_size=5).xs(**kwargs), df.xs(**kwargs))
    assert_eq(md.Series(df["w"], chunk_size=5).xs(**kwargs), df["w"].xs(**kwargs))


def test_xs_of_columns(df):
    wide = df.unstack(0)
    m = md.DataFrame(wide, chunk_size=2)
    assert_eq(m.xs("w", axis=1), wide.xs("w", axis=1))
    assert_eq(m.xs("a", axis=1, level="k"), wide.xs("a", axis=1, level="k"))
    with pytest.raises(KeyError):
        m.xs("zz", axis=1)


def test_xs_missing_key_raises_key_error(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(KeyError):
        _compute(m.xs(7, level="n"))
    with pytest.raises(KeyError):
        _compute(m[m["v"] > 100].xs("a"))


def test_level_methods_are_row_by_row(df, s):
    m, ms = md.DataFrame(df, chunk_size=5), md.Series(s, chunk_size=5)
    flt = m[m["v"] > 4]
    assert_eq(m.swaplevel(), df.swaplevel())
    assert_eq(flt.swaplevel(0, 2), df[df["v"] > 4].swaplevel(0, 2))
    assert_eq(ms.swaplevel("k", "z"), s.swaplevel("k", "z"))
    assert_eq(m.droplevel(["k", "n"]), df.droplevel(["k", "n"]))
    assert_eq(ms.droplevel(0), s.droplevel(0))
    assert_eq(m.reorder_levels(["z", "k", "n"]), df.reorder_levels(["z", "k", "n"]))
    assert_eq(ms.reorder_levels([2, 0, 1]), s.reorder_levels([2, 0, 1]))
    wide = df.unstack(0)
    mw = md.DataFrame(wide, chunk_size=2)
    assert_eq(mw.droplevel(0, axis=1), wide.droplevel(0, axis=1))
    assert_eq(mw.swaplevel(axis=1), wide.swaplevel(axis=1))
    assert_eq(mw.reorder_levels([1, 0], axis=1), wide.reorder_levels([1, 0], axis=1))
    with pytest.raises(KeyError):
        m.droplevel("zz")
    with pytest.raises(ValueError):
        m.droplevel([0, 1, 2])


def test_unstack_orders_levels_with_unused_values_as_pandas():
    # pandas orders a level with unused values by first appearance (remove_unused_levels)
    idx = pd.MultiIndex.from_arrays([list("dbdcbc"), [2, 1, 1, 2, 2, 1]], names=["k", "n"])
    full = pd.Series(np.arange(6.0), index=idx)
    s = full[full.index.get_level_values("k") != "a"]
    s.index = pd.MultiIndex(levels=[list("abcd"), [1, 2, 3]], codes=s.index.codes, names=["k", "n"])
    assert_eq(md.Series(s, chunk_size=4).unstack(), s.unstack())
    assert_eq(md.Series(s, chunk_size=4).unstack(0), s.unstack(0))


def test_unstack_with_missing_index_labels():
    idx = pd.MultiIndex.from_arrays([["a", None, "b", "a", None, "b", "c"], [1.0, 2.0, np.nan, 2.0, 1.0, 1.0, 2.0]])
    s = pd.Series(np.arange(7), index=idx)
    assert_eq(md.Series(s, chunk_size=3).unstack(), s.unstack())
    assert_eq(md.Series(s, chunk_size=3).unstack(0), s.unstack(0))


def test_frame_unstack_of_a_single_level_index_is_the_transpose_stacked():
    frame = pd.DataFrame({"a": np.arange(7), "b": [1.5, np.nan, 3, 4, 5, 6, 7]},
                         index=pd.Index(list("xyzwvut"), name="i"))
    frame.columns.name = "c"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(md.DataFrame(frame, chunk_size=3).unstack(), frame.unstack())
