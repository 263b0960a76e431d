"""Series.factorize against pandas: codes in row order, uniques by first appearance or sorted,
missing values as -1 or as a unique, duplicate labels, after a filter, empty input."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

SERIES = [pd.Series(["b", "a", None, "c", "a", "b", None, "d"] * 3, name="k",
                    index=[f"r{i % 7}" for i in range(24)]),
          pd.Series([3, 1, np.nan, 1, 7, 3, 0.5] * 3),
          pd.Series([5, 2, 2, 9, 1, 5, 0] * 3),
          pd.Series([True, False] * 5),
          pd.Series(pd.date_range("2020-01-01", periods=4).repeat(3)[::-1])]


@pytest.mark.parametrize("s", SERIES, ids=lambda s: str(s.dtype))
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("use_na_sentinel", [True, False])
def test_factorize_codes_and_uniques(s, sort, use_na_sentinel):
    codes, uniques = md.Series(s, chunk_size=5).factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    expected_codes, expected_uniques = s.factorize(sort=sort, use_na_sentinel=use_na_sentinel)
    assert_eq(codes, expected_codes)
    assert_eq(uniques, expected_uniques)


def test_factorize_after_a_filter_and_of_empty_input():
    s = SERIES[1]
    ms = md.Series(s, chunk_size=5)
    codes, uniques = ms[ms > 1].factorize()
    expected_codes, expected_uniques = s[s > 1].factorize()
    assert_eq(codes, expected_codes)
    assert_eq(uniques, expected_uniques)
    empty = pd.Series([], dtype=float)
    codes, uniques = md.Series(empty).factorize()
    assert_eq(codes, empty.factorize()[0])
    assert_eq(uniques, empty.factorize()[1])


def test_factorize_of_categoricals_is_not_supported():
    with pytest.raises(NotImplementedError, match="categorical"):
        md.Series(pd.Series(["a", "b"], dtype="category")).factorize()
