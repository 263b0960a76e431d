"""MultiIndex methods of the lazy Index and ``md.MultiIndex.from_*`` against pandas: a
MultiIndex from ``set_index`` over 23 rows in chunks of 5, repeated keys, NaN, after a filter."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def pdf():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"s": [f"k{i % 3}" for i in rs.permutation(23)], "i": rs.randint(0, 4, 23),
                          "f": rs.rand(23)})
    frame.loc[[4, 9], "s"] = None
    return frame


def _pairs(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    return [(m.set_index(["s", "i"]).index, pdf.set_index(["s", "i"]).index),
            (m[m["f"] > 0.3].set_index(["s", "i"]).index, pdf[pdf["f"] > 0.3].set_index(["s", "i"]).index)]


def test_multiindex_level_methods_label_by_label(pdf):
    for got, want in _pairs(pdf):
        assert got.nlevels == 2
        assert_eq(got.get_level_values(0), want.get_level_values(0))
        assert_eq(got.get_level_values("i"), want.get_level_values("i"))
        assert_eq(got.droplevel("s"), want.droplevel("s"))
        assert_eq(got.swaplevel(), want.swaplevel())
        assert_eq(got.reorder_levels(["i", "s"]), want.reorder_levels(["i", "s"]))
        assert_eq(got.to_flat_index(), want.to_flat_index())
        assert_eq(got.remove_unused_levels(), want.remove_unused_levels())
    with pytest.raises(KeyError):
        _pairs(pdf)[0][0].get_level_values("zz")


def test_multiindex_unique_and_duplicated_work_on_levels_as_keys(pdf):
    for got, want in _pairs(pdf):
        assert_eq(got.unique(), want.unique())
        assert_eq(got.duplicated(), want.duplicated())
        assert_eq(got.duplicated(keep=False), want.duplicated(keep=False))
        assert_eq(got.drop_duplicates(keep="last"), want.drop_duplicates(keep="last"))


def test_multiindex_levels_and_codes_of_a_set_index(pdf):
    got, want = _pairs(pdf)[0]
    for a, b in zip(got.levels, want.levels):
        pd.testing.assert_index_equal(a, b)
    for a, b in zip(got.codes, want.codes):
        assert_eq(a, b)
    with pytest.raises(AttributeError):
        md.DataFrame(pdf).index.levels


@pytest.mark.parametrize("kwargs", [{}, {"level": 1}, {"level": "i", "ascending": False},
                                    {"level": 0, "sort_remaining": False}, {"level": [1, 0], "ascending": [True, False]}],
                         ids=repr)
def test_multiindex_sortlevel(kwargs):
    rs = np.random.RandomState(2)
    arrays = [rs.choice(["a", "b", "c"], 23), rs.randint(0, 4, 23)]
    want = pd.MultiIndex.from_arrays(arrays, names=["x", "i"])
    frame = pd.DataFrame({"x": arrays[0], "i": arrays[1]})
    got = md.DataFrame(frame, chunk_size=5).set_index(["x", "i"]).index
    got_index, got_indexer = got.sortlevel(**kwargs)
    want_index, want_indexer = want.sortlevel(**kwargs)
    assert_eq(got_index, want_index)
    assert_eq(got_indexer, want_indexer)


def test_multiindex_constructors(pdf):
    tuples = [("a", 1), ("b", 2), ("a", 3)]
    assert_eq(md.MultiIndex.from_tuples(tuples, names=["x", "y"], chunk_size=2),
              pd.MultiIndex.from_tuples(tuples, names=["x", "y"]))
    assert_eq(md.MultiIndex.from_product([["a", "b"], [1, 2, 3]], chunk_size=4),
              pd.MultiIndex.from_product([["a", "b"], [1, 2, 3]]))
    assert_eq(md.MultiIndex.from_arrays([["a", "b"], [1, 2]], names=["x", "y"]),
              pd.MultiIndex.from_arrays([["a", "b"], [1, 2]], names=["x", "y"]))
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(md.MultiIndex.from_frame(m[["s", "i"]]), pd.MultiIndex.from_frame(pdf[["s", "i"]]))
    assert_eq(md.MultiIndex.from_frame(m[["s", "i"]], names=["A", "B"]),
              pd.MultiIndex.from_frame(pdf[["s", "i"]], names=["A", "B"]))
    assert_eq(md.MultiIndex.from_frame(pdf[["s", "i"]]), pd.MultiIndex.from_frame(pdf[["s", "i"]]))
    assert_eq(md.MultiIndex.from_arrays([m["s"], m["i"]]), pd.MultiIndex.from_arrays([pdf["s"], pdf["i"]]))
