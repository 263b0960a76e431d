"""combine_first / combine against pandas: the union of labels in pandas' order, values from
the caller unless missing, columns of either side, chunk sizes that do not divide the data."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def pair():
    rs = np.random.RandomState(0)
    a = pd.Series(rs.rand(23), index=[f"r{i:02d}" for i in rs.permutation(23)], name="v")
    a[a < 0.3] = np.nan
    b = pd.Series(rs.rand(15), index=[f"r{i:02d}" for i in range(10, 25)], name="v")
    return a, b


def test_series_combine_first_takes_the_union_of_labels_sorted(pair):
    a, b = pair
    ma, mb = md.Series(a, chunk_size=5), md.Series(b, chunk_size=4)
    assert_eq(ma.combine_first(mb), a.combine_first(b))
    assert_eq(ma.combine_first(b), a.combine_first(b))
    assert_eq(mb.combine_first(ma), b.combine_first(a))


def test_series_combine_first_with_the_same_index_is_blockwise_and_keeps_ints(pair):
    a, _ = pair
    ma = md.Series(a, chunk_size=5)
    assert_eq(ma.combine_first(ma * 2), a.combine_first(a * 2))
    rs = np.random.RandomState(1)
    ai = pd.Series(rs.randint(0, 9, 23), index=a.index)
    bi = pd.Series(rs.randint(0, 9, 15), index=[f"r{i:02d}" for i in range(10, 25)])
    assert_eq(md.Series(ai, chunk_size=5).combine_first(md.Series(bi, chunk_size=6)), ai.combine_first(bi))


def test_series_combine_first_after_a_filter(pair):
    a, b = pair
    ma = md.Series(a, chunk_size=5)
    flt = ma[ma > 0.5]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.combine_first(md.Series(b, chunk_size=4)), a[a > 0.5].combine_first(b))
    assert_eq(md.Series(a.iloc[:0]).combine_first(md.Series(b, chunk_size=4)), a.iloc[:0].combine_first(b))


def test_frame_combine_first_unions_rows_and_columns(pair):
    a, b = pair
    rs = np.random.RandomState(2)
    left = pd.DataFrame({"x": rs.randint(0, 5, 23), "y": a.to_numpy()}, index=a.index)
    right = pd.DataFrame({"z": rs.rand(15), "y": b.to_numpy(), "x": rs.randint(0, 5, 15)}, index=b.index)
    ml = md.DataFrame(left, chunk_size=5)
    assert_eq(ml.combine_first(md.DataFrame(right, chunk_size=4)), left.combine_first(right))
    assert_eq(ml.combine_first(right), left.combine_first(right))
    assert_eq(ml.combine_first(ml * 0), left.combine_first(left * 0))


def test_series_combine_calls_func_on_each_label_pair(pair):
    a, b = pair
    ma, mb = md.Series(a, chunk_size=5), md.Series(b, chunk_size=4)
    assert_eq(ma.combine(mb, max), a.combine(b, max))
    assert_eq(ma.combine(mb, max, fill_value=0.5), a.combine(b, max, fill_value=0.5))
    assert_eq(ma.combine(0.5, min), a.combine(0.5, min))
    assert_eq(ma.combine(ma, lambda x, y: x + y), a.combine(a, lambda x, y: x + y))


def test_combine_first_rejects_a_frame_with_a_series(pair):
    a, _ = pair
    with pytest.raises(NotImplementedError):
        md.DataFrame(a.to_frame(), chunk_size=5).combine_first(md.Series(a))
