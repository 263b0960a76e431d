"""between_time, at_time, asof and (pandas 2) first/last against pandas on a DatetimeIndex:
23 rows in chunks of 5, unknown chunk extents after a filter, repeated labels, NaN."""
import datetime as dt
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def pdf():
    idx = pd.date_range("2020-01-01", periods=23, freq="5h").insert(7, pd.Timestamp("2020-01-02 11:00"))[:23]
    return pd.DataFrame({"a": np.arange(23), "b": np.where(np.arange(23) % 4 == 1, np.nan, np.arange(23.0))},
                        index=idx)  # 2020-01-02 11:00 twice


@pytest.mark.parametrize("times", [("02:00", "12:00"), ("20:00", "04:00"), (dt.time(5), dt.time(15))], ids=repr)
@pytest.mark.parametrize("inclusive", ["both", "left", "right", "neither"])
def test_between_time_keeps_each_blocks_rows(pdf, times, inclusive):
    df = md.DataFrame(pdf, chunk_size=5)
    assert_eq(df.between_time(*times, inclusive=inclusive), pdf.between_time(*times, inclusive=inclusive))
    assert_eq(df["b"].between_time(*times, inclusive=inclusive), pdf["b"].between_time(*times, inclusive=inclusive))
    flt, expected = df[df["a"] > 3], pdf[pdf["a"] > 3]
    assert_eq(flt.between_time(*times, inclusive=inclusive), expected.between_time(*times, inclusive=inclusive))


def test_at_time_and_the_datetime_index_error(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    for t in ("11:00", "05:00", dt.time(3)):
        assert_eq(df.at_time(t), pdf.at_time(t))
        assert_eq(df[df["a"] > 3]["a"].at_time(t), pdf[pdf["a"] > 3]["a"].at_time(t))
    with pytest.raises(TypeError):
        md.DataFrame(pdf.reset_index(drop=True)).at_time("05:00")
    with pytest.raises(TypeError):
        md.DataFrame(pdf.reset_index(drop=True)).between_time("05:00", "06:00")


def _same(got, want):
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want)
    else:
        assert type(got) is type(want) and (got == want or (np.isnan(got) and np.isnan(want)))


def test_asof_scalar_gives_the_last_present_value_at_or_before(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    for w in ["2020-01-02 04:00", pd.Timestamp("2020-01-01 05:00"), pd.Timestamp("2019-12-01"),
              pd.Timestamp("2021-01-01"), pdf.index[7], pdf.index[5]]:
        _same(df["b"].asof(w), pdf["b"].asof(w))
        _same(df["a"].asof(w), pdf["a"].asof(w))
        _same(df.asof(w), pdf.asof(w))
        _same(df.asof(w, subset="b"), pdf.asof(w, subset="b"))


def test_asof_list_gives_a_series_or_frame_by_where(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    ws = [pd.Timestamp("2019-12-01"), pdf.index[5], pd.Timestamp("2020-01-03"), pdf.index[22] + pd.Timedelta("1h")]
    assert_eq(df["b"].asof(ws), pdf["b"].asof(ws))
    assert_eq(df["a"].asof(ws), pdf["a"].asof(ws))
    assert_eq(df.asof(pd.DatetimeIndex(ws)), pdf.asof(pd.DatetimeIndex(ws)))
    assert_eq(df.asof(pd.DatetimeIndex(ws), subset=["b"]), pdf.asof(pd.DatetimeIndex(ws), subset=["b"]))
    flt, expected = df[df["a"] > 6], pdf[pdf["a"] > 6]
    assert_eq(flt["b"].asof(ws), expected["b"].asof(ws))
    nan = pdf.assign(b=np.nan)
    assert_eq(md.DataFrame(nan, chunk_size=5)["b"].asof(ws), nan["b"].asof(ws))


def test_asof_refuses_an_unsorted_index_and_a_series_subset(pdf):
    with pytest.raises(ValueError, match="sorted"):
        md.DataFrame(pdf.iloc[::-1], chunk_size=5)["b"].asof(pdf.index[3])
    with pytest.raises(ValueError):
        md.DataFrame(pdf, chunk_size=5)["b"].asof(pdf.index[3], subset=["b"])


@pytest.mark.skipif(not hasattr(pd.DataFrame, "first"), reason="first/last were removed in pandas 3")
@pytest.mark.parametrize("offset", ["1D", "10h", "3D", "1ME", "25h", "2W"])
def test_first_and_last_keep_pandas_boundaries(pdf, offset):
    df = md.DataFrame(pdf, chunk_size=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(df.first(offset), pdf.first(offset))
        assert_eq(df.last(offset), pdf.last(offset))
        assert_eq(df["a"].first(offset), pdf["a"].first(offset))
        assert_eq(df[df["a"] > 3].last(offset), pdf[pdf["a"] > 3].last(offset))
    with pytest.warns(FutureWarning):
        df.first("1D")


def test_first_and_last_are_absent_as_in_pandas_3():
    df = md.DataFrame({"a": [1]})
    assert hasattr(df, "first") == hasattr(pd.DataFrame({"a": [1]}), "first")
