"""md.merge_ordered against pandas: sorted merges and the forward fill of unmatched rows,
with repeated keys, NaN values (kept, not filled), unknown chunk extents and empty sides."""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def sides():
    rs = np.random.RandomState(0)
    left = pd.DataFrame({"k": rs.randint(0, 30, 23), "lv": rs.rand(23), "li": np.arange(23)})
    left.loc[3, "lv"] = np.nan  # a value missing in the data stays missing
    right = pd.DataFrame({"k": rs.randint(0, 30, 17), "rv": [f"s{i}" for i in range(17)], "li": np.arange(17)})
    return left, right


@pytest.mark.parametrize("how", ["outer", "inner", "left", "right"])
@pytest.mark.parametrize("fill_method", [None, "ffill"])
def test_merge_ordered_sorts_and_fills_as_pandas(sides, how, fill_method):
    left, right = sides
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    kw = dict(on="k", how=how, fill_method=fill_method)
    assert_eq(md.merge_ordered(ml, mr, **kw), pd.merge_ordered(left, right, **kw))
    assert_eq(md.merge_ordered(ml[ml["li"] > 4], mr, **kw), pd.merge_ordered(left[left["li"] > 4], right, **kw))


def test_a_side_matched_from_the_first_row_keeps_its_dtypes(sides):
    left, right = sides
    left = left.assign(k=left["k"] + 100)
    left.loc[0, "k"] = -5  # the first merged row is the left's: its int column is never missing
    got = md.merge_ordered(md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4), on="k",
                           fill_method="ffill")
    expected = pd.merge_ordered(left, right, on="k", fill_method="ffill")
    assert expected["li_x"].dtype == np.int64
    assert_eq(got, expected)


def test_merge_ordered_with_left_on_right_on_suffixes_and_empty_sides(sides):
    left, right = sides
    other = right.rename(columns={"k": "k2"})
    kw = dict(left_on="k", right_on="k2", fill_method="ffill", suffixes=("_l", "_r"))
    assert_eq(md.merge_ordered(md.DataFrame(left, chunk_size=5), md.DataFrame(other, chunk_size=4), **kw),
              pd.merge_ordered(left, other, **kw))
    assert_eq(md.merge_ordered(md.DataFrame(left.iloc[:0]), md.DataFrame(right, chunk_size=4), on="k",
                               fill_method="ffill"),
              pd.merge_ordered(left.iloc[:0], right, on="k", fill_method="ffill"))
    assert_eq(md.merge_ordered(left, right, on="k"), pd.merge_ordered(left, right, on="k"))


def test_merge_ordered_errors(sides):
    left, right = sides
    with pytest.raises(ValueError):
        md.merge_ordered(left, right, on="k", fill_method="bfill")
    with pytest.raises(KeyError):
        md.merge_ordered(left, right, on="zz")


@pytest.fixture
def grouped_sides():
    rs = np.random.RandomState(1)
    left = pd.DataFrame({"g": rs.choice(["a", "b", "c"], 23), "h": rs.randint(0, 2, 23),
                         "k": rs.randint(0, 10, 23).astype(float), "v": rs.randint(0, 9, 23),
                         "t": pd.date_range("2000", periods=23)}, index=rs.randint(0, 5, 23))
    left.loc[left.index[4], "k"] = np.nan
    right = pd.DataFrame({"g": ["b", "a", "a", "b", "d"], "k": [1., 2, 3, 4, 5], "v": [1, 2, 3, 4, 5],
                          "t": pd.date_range("2001", periods=5)})
    return left, right


def _expected(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 2.2: concatenating all-missing pieces
        return pd.merge_ordered(*args, **kw)


@pytest.mark.parametrize("how", ["outer", "inner", "left", "right"])
@pytest.mark.parametrize("fill_method", [None, "ffill"])
@pytest.mark.parametrize("by", ["g", ["g", "h"]])
def test_merge_ordered_by_groups_in_first_appearance_order_as_pandas(grouped_sides, how, fill_method, by):
    left, right = grouped_sides
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=2)
    kw = dict(on="k", fill_method=fill_method, how=how)
    assert_eq(md.merge_ordered(ml, mr, left_by=by, **kw), _expected(left, right, left_by=by, **kw))
    # right_by, with unknown chunk extents on the other side
    assert_eq(md.merge_ordered(mr, ml[ml["v"] > 2], right_by=by, **kw),
              _expected(right, left[left["v"] > 2], right_by=by, **kw))


def test_merge_ordered_by_with_an_other_side_lacking_the_keys_merges_it_with_every_group(grouped_sides):
    left, right = grouped_sides
    other = right.drop(columns="g")
    kw = dict(on="k", left_by="g", fill_method="ffill")
    assert_eq(md.merge_ordered(md.DataFrame(left, chunk_size=5), md.DataFrame(other, chunk_size=2), **kw),
              _expected(left, other, **kw))


def test_merge_ordered_by_takes_the_columns_of_the_first_groups_piece(grouped_sides):
    left, right = grouped_sides
    left = left.assign(g=["zz"] + list(left["g"][1:]))  # the first group has no rows on the right
    expected = _expected(left, right, on="k", left_by="g")
    assert "v" in expected.columns and "v_x" not in expected.columns
    assert_eq(md.merge_ordered(md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=2),
                               on="k", left_by="g"), expected)


def test_merge_ordered_by_errors(grouped_sides):
    left, right = grouped_sides
    ml = md.DataFrame(left, chunk_size=5)
    with pytest.raises(ValueError, match="either left or right"):
        md.merge_ordered(ml, right, on="k", left_by="g", right_by="g")
    with pytest.raises(KeyError):
        md.merge_ordered(ml, right, on="k", left_by="zz")
    with pytest.raises(KeyError):
        md.merge_ordered(ml, right, on="k", right_by="zz")
    with pytest.raises(ValueError, match="fill_method"):
        md.merge_ordered(ml, right, on="k", left_by="g", fill_method="bfill")
    with pytest.raises(ValueError, match="No objects to concatenate"):  # no group at all
        md.merge_ordered(ml[ml["v"] > 100], right, on="k", left_by="g")
