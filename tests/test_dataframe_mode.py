"""mode against pandas: ties sorted, missing values dropped or counted, strings, empty input,
after a filter, DataFrame columns side by side (23 rows in chunks of 5)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    return pd.DataFrame({"a": [1, 2, 2, 3, 3, 1, 5, np.nan, np.nan, np.nan] * 2 + [7, 8, 8],
                         "b": list(range(23))[::-1], "s": [f"x{(i * 7) % 4}" for i in range(23)],
                         "i": [i % 3 for i in range(23)], "t": [True, False, False] * 7 + [True, True]},
                        index=[f"r{i % 20:02d}" for i in range(23)])


@pytest.mark.parametrize("dropna", [True, False])
def test_series_mode_sorts_every_tied_value(df, dropna):
    m = md.DataFrame(df, chunk_size=5)
    for col in df:
        assert_eq(m[col].mode(dropna=dropna), df[col].mode(dropna=dropna))


def test_series_mode_after_a_filter_and_of_empty_input(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["b"] > 6], df[df["b"] > 6]
    assert_eq(flt["a"].mode(), expected["a"].mode())
    assert_eq(m[m["b"] > 100]["s"].mode(), df[df["b"] > 100]["s"].mode())
    assert_eq(md.Series(pd.Series([], dtype="int64", name="x")).mode(), pd.Series([], dtype="int64", name="x").mode())


def test_frame_mode_puts_each_columns_modes_side_by_side(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m[["a", "s"]].mode(), df[["a", "s"]].mode())
    assert_eq(m[["a"]].mode(dropna=False), df[["a"]].mode(dropna=False))
    assert_eq(m[["a", "i"]].mode(), df[["a", "i"]].mode())
    assert_eq(m.mode(numeric_only=True), df.mode(numeric_only=True))
    assert_eq(m[["b", "t"]].mode(dropna=False), df[["b", "t"]].mode(dropna=False))


def test_frame_mode_pads_only_the_columns_with_fewer_modes_changing_only_their_dtypes(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.mode(), df.mode())  # b (23 modes) keeps int64; i, t, s padded
    assert_eq(m[["i", "t"]].mode(), df[["i", "t"]].mode())  # one mode each: no padding
    frame = df.assign(j=[i % 2 for i in range(23)], d=pd.Timestamp("2024-01-01") + pd.to_timedelta(df["b"], "D"))
    mf = md.DataFrame(frame, chunk_size=5)
    assert_eq(mf[["j", "b", "d"]].mode(), frame[["j", "b", "d"]].mode())
    flt, expected = mf[mf["b"] > 14], frame[frame["b"] > 14]
    assert_eq(flt[["i", "j", "t"]].mode(), expected[["i", "j", "t"]].mode())
    empty = frame[frame["b"] > 100]
    assert_eq(mf[mf["b"] > 100][["i", "j"]].mode(), empty[["i", "j"]].mode())


def test_frame_mode_along_the_columns_is_not_supported(df):
    with pytest.raises(NotImplementedError, match="axis=1"):
        md.DataFrame(df, chunk_size=5).mode(axis=1)
