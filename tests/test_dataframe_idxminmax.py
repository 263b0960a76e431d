"""idxmin / idxmax against pandas: first extreme across chunks (23 rows in chunks of 5),
duplicate labels, missing values, strings and dates, after a filter, along the rows."""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.positional import PANDAS3
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(0, 3, 23), "b": rs.rand(23), "s": [f"x{i % 5}" for i in range(23)],
                          "t": pd.date_range("2020-01-01", periods=23)[::-1]},
                         index=[f"r{i % 20:02d}" for i in range(23)])  # duplicate labels
    frame.loc[frame.index[[2, 7]], "b"] = np.nan
    return frame


@pytest.mark.parametrize("how", ["idxmin", "idxmax"])
def test_frame_idx_extremes_per_column_take_the_first_tie(df, how):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(getattr(m, how)(), getattr(df, how)())
    assert_eq(getattr(m, how)(numeric_only=True), getattr(df, how)(numeric_only=True))
    flt, expected = m[m["a"] > 0], df[df["a"] > 0]
    assert_eq(getattr(flt, how)(), getattr(expected, how)())


@pytest.mark.parametrize("how", ["idxmin", "idxmax"])
def test_series_idx_extremes_are_lazy_scalars(df, how):
    m = md.DataFrame(df, chunk_size=5)
    for col in ("a", "b", "s", "t"):
        assert_eq(getattr(m[col], how)(), getattr(df[col], how)(), check_dtype=False)
    ints = pd.Series([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], index=range(10, 21))
    assert_eq(getattr(md.Series(ints, chunk_size=3), how)(), getattr(ints, how)())


@pytest.mark.parametrize("how", ["idxmin", "idxmax"])
def test_idx_extremes_along_the_rows(df, how):
    m = md.DataFrame(df[["a", "b"]], chunk_size=5)
    assert_eq(getattr(m, how)(axis=1), getattr(df[["a", "b"]], how)(axis=1))


def test_idx_extremes_with_missing_values_follow_each_pandas():
    s = pd.Series([2.0, np.nan, 1.0, 5.0, np.nan, 0.5, 3.0], index=list("abcdefg"))
    ms = md.Series(s, chunk_size=3)
    assert_eq(ms.idxmin(), s.idxmin(), check_dtype=False)
    allnan = md.Series(pd.Series([np.nan] * 5), chunk_size=2)
    if PANDAS3:
        with pytest.raises(ValueError, match="NA"):
            LocalExecutor().compute(ms.idxmax(skipna=False).data)
        with pytest.raises(ValueError, match="all NA"):
            LocalExecutor().compute(allnan.idxmin().data)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            assert np.isnan(LocalExecutor().compute(ms.idxmax(skipna=False).data)[0])
            assert np.isnan(LocalExecutor().compute(allnan.idxmin().data)[0])


def test_idx_extremes_of_empty_input_raise_at_build_time():
    with pytest.raises(ValueError, match="empty"):
        md.Series(pd.Series([], dtype=float)).idxmin()
    with pytest.raises(ValueError):
        md.DataFrame(pd.DataFrame({"a": [1]}), chunk_size=1).idxmax(axis=2)
