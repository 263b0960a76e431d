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


@pytest.fixture
def frames():
    rs = np.random.RandomState(0)
    a = pd.DataFrame({"x": rs.randint(0, 9, 23), "y": rs.rand(23), "z": rs.rand(23)}, index=rs.permutation(23))
    a.loc[a.index[3], "y"] = np.nan
    b = pd.DataFrame({"y": rs.rand(15), "x": rs.randint(0, 9, 15), "w": rs.randint(0, 9, 15)},
                     index=list(range(10, 25)))
    b.loc[12, "x"] = np.nan
    return a, b


def _take_smaller(s1, s2):  # pandas' example: a function of whole columns
    return s1 if s1.sum() < s2.sum() else s2


@pytest.mark.parametrize("func", [np.minimum, np.fmax, _take_smaller])
@pytest.mark.parametrize("kw", [{}, {"fill_value": -1}, {"overwrite": False}])
def test_frame_combine_calls_func_on_whole_aligned_columns_as_pandas(frames, func, kw):
    a, b = frames
    ma, mb = md.DataFrame(a, chunk_size=5), md.DataFrame(b, chunk_size=4)
    assert_eq(ma.combine(mb, func, **kw), a.combine(b, func, **kw))
    # unknown chunk extents, and a pandas other
    assert_eq(ma[ma["x"] > 2].combine(b, func, **kw), a[a["x"] > 2].combine(b, func, **kw))


def test_frame_combine_with_the_same_labels_keeps_ints_and_duplicate_labels(frames):
    a, _ = frames
    ma = md.DataFrame(a, chunk_size=5)
    assert_eq(ma.combine(ma * 2, np.minimum), a.combine(a * 2, np.minimum))
    d = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6, 7]}, index=[0, 0, 1, 2, 2, 3, 3])
    assert_eq(md.DataFrame(d, chunk_size=3).combine(md.DataFrame(d * 2, chunk_size=2), np.maximum),
              d.combine(d * 2, np.maximum))


def test_frame_combine_with_an_empty_side_takes_pandas_shortcuts(frames):
    a, b = frames
    ma, mb = md.DataFrame(a, chunk_size=5), md.DataFrame(b, chunk_size=4)
    assert_eq(ma.combine(mb.iloc[:0], np.minimum), a.combine(b.iloc[:0], np.minimum))
    assert_eq(ma.iloc[:0].combine(mb, np.minimum), a.iloc[:0].combine(b, np.minimum))
    assert_eq(ma[ma["x"] > 100].combine(mb[mb["w"] > 100], np.minimum),
              a[a["x"] > 100].combine(b[b["w"] > 100], np.minimum))


def test_frame_combine_errors(frames):
    a, b = frames
    ma = md.DataFrame(a, chunk_size=5)
    with pytest.raises(Exception) as expected:  # pandas 3: no columns; 2.2: align needs an axis
        a.combine(b["x"], np.minimum)
    with pytest.raises(expected.type):
        ma.combine(md.Series(b["x"]), np.minimum)
