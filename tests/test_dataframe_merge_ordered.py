"""md.merge_ordered against pandas: sorted merges and the forward fill of unmatched rows,
with repeated keys, NaN values (kept, not filled), unknown chunk extents and empty sides."""
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
    with pytest.raises(NotImplementedError, match="left_by"):
        md.merge_ordered(left, right, on="k", left_by="li")
    with pytest.raises(ValueError):
        md.merge_ordered(left, right, on="k", fill_method="bfill")
    with pytest.raises(KeyError):
        md.merge_ordered(left, right, on="zz")
