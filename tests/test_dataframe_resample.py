"""resample / asfreq against pandas: 23 unsorted rows in chunks of 5 (the rows of one bin
in several chunks), repeated timestamps, NaN values, empty bins, after a filter."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import _compute, assert_eq

HOWS = ["sum", "mean", "count", "min", "max", "first", "last", "std", "var", "size", "ohlc"]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    minutes = np.sort(rs.randint(0, 60 * 24 * 30, 23))
    minutes[5] = minutes[4]  # a repeated timestamp
    idx = pd.DatetimeIndex(pd.Timestamp("2020-01-01 03:00") + pd.to_timedelta(minutes, unit="min"), name="t")
    frame = pd.DataFrame({"a": rs.randint(0, 10, 23), "b": rs.rand(23)}, index=idx)
    frame.iloc[3, 1] = np.nan
    return frame.iloc[rs.permutation(23)]


@pytest.mark.parametrize("rule", ["5D", "h", "ME", "W", "2D"])
@pytest.mark.parametrize("how", HOWS)
def test_resample_aggregations_match_pandas(df, rule, how):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(getattr(m.resample(rule), how)(), getattr(df.resample(rule), how)())
    assert_eq(getattr(m["a"].resample(rule), how)(), getattr(df["a"].resample(rule), how)())


@pytest.mark.parametrize("kwargs", [{"closed": "right"}, {"label": "right"}, {"closed": "right", "label": "right"},
                                    {"origin": "start"}, {"origin": "epoch"}, {"offset": "2h"},
                                    {"origin": pd.Timestamp("2019-12-30 01:00")}], ids=repr)
def test_resample_bin_options(df, kwargs):
    m = md.DataFrame(df, chunk_size=5)
    for how in ("sum", "min", "first"):
        assert_eq(getattr(m.resample("7h", **kwargs), how)(), getattr(df.resample("7h", **kwargs), how)())


def test_resample_agg_list_and_dict(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.resample("2D").agg(["sum", "mean", "max"]), df.resample("2D").agg(["sum", "mean", "max"]))
    assert_eq(m.resample("2D").agg({"a": "sum", "b": ["min", "count"]}),
              df.resample("2D").agg({"a": "sum", "b": ["min", "count"]}))
    assert_eq(m["b"].resample("3D").agg(["sum", "first"]), df["b"].resample("3D").agg(["sum", "first"]))
    assert_eq(m.resample("3D").agg("mean"), df.resample("3D").agg("mean"))
    assert_eq(m.resample("3D")["b"].sum(), df.resample("3D")["b"].sum())


def test_resample_without_empty_bins_keeps_integer_dtype(df):
    m = md.DataFrame(df, chunk_size=5)
    assert df.resample("10D").min()["a"].dtype == np.int64
    assert_eq(m.resample("10D").min(), df.resample("10D").min())
    assert_eq(m.resample("10D").first(), df.resample("10D").first())


def test_resample_after_a_filter_of_empty_data_and_with_missing_timestamps(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 3], df[df["a"] > 3]
    assert_eq(flt.resample("2D").sum(), expected.resample("2D").sum())
    assert_eq(flt.resample("2D").last(), expected.resample("2D").last())
    empty = df[df["a"] > 100]
    assert_eq(m[m["a"] > 100].resample("2D").sum(), empty.resample("2D").sum())
    with_nat = df.copy()
    with_nat.index = with_nat.index.where(np.arange(23) % 6 != 1)
    assert_eq(md.DataFrame(with_nat, chunk_size=5).resample("2D").mean(), with_nat.resample("2D").mean())


def test_resample_of_a_timezone_aware_index(df):
    tz = df.tz_localize("UTC").tz_convert("Europe/Paris")
    m = md.DataFrame(tz, chunk_size=5)
    assert_eq(m.resample("D").sum(), tz.resample("D").sum())
    assert_eq(m.resample("ME").max(), tz.resample("ME").max())


def test_resample_bad_input_raises_like_pandas(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(TypeError):
        md.DataFrame(df.reset_index(drop=True)).resample("D")
    with pytest.raises(ValueError):
        m.resample("not-a-rule")
    with pytest.raises(KeyError):
        m.resample("D")["zz"]


@pytest.mark.parametrize("freq", ["h", "3h", "D"])
def test_asfreq_matches_pandas(df, freq):
    unique = df[~df.index.duplicated()]
    m = md.DataFrame(unique, chunk_size=5)
    assert_eq(m.asfreq(freq), unique.asfreq(freq))
    assert_eq(m.asfreq(freq, fill_value=0), unique.asfreq(freq, fill_value=0))
    assert_eq(m["a"].asfreq(freq), unique["a"].asfreq(freq))
    flt = m[m["a"] > 3]
    assert_eq(flt.asfreq(freq), unique[unique["a"] > 3].asfreq(freq))


def test_asfreq_of_repeated_timestamps_and_of_empty_data(df):
    with pytest.raises(ValueError, match="duplicate"):
        _compute(md.DataFrame(df, chunk_size=5).asfreq("h"))
    empty = df.iloc[:0]
    assert_eq(md.DataFrame(empty).asfreq("h"), empty.asfreq("h"))


@pytest.mark.parametrize("grouper", [pd.Grouper(key="d", freq="7D"),
                                     pd.Grouper(key="d", freq="3D", closed="right", label="right"),
                                     pd.Grouper(key="a")], ids=repr)
def test_groupby_a_grouper_bins_times_as_pandas(grouper):
    """Regression: ``groupby(pd.Grouper(key="d", freq="7D"))`` binned every chunk from its own
    first day (5 bins 5 days apart instead of pandas' 4, 7 days apart)."""
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(0, 5, 23), "b": rs.rand(23),
                          "d": pd.date_range("2020", periods=23, freq="D")})
    frame = frame[frame["a"] != 2]  # days missing: empty bins
    m = md.DataFrame(frame, chunk_size=5)
    assert_eq(m.groupby(grouper)["b"].sum(), frame.groupby(grouper)["b"].sum())
    assert_eq(m.groupby(grouper).b.mean(), frame.groupby(grouper).b.mean())


def test_resample_on_a_column_and_a_grouper_of_the_index():
    frame = pd.DataFrame({"b": np.arange(20.0), "d": pd.date_range("2021-03-01", periods=20, freq="13h")})
    m = md.DataFrame(frame, chunk_size=6)
    assert_eq(m.resample("1D", on="d").b.max(), frame.resample("1D", on="d").b.max())
    timed, mtimed = frame.set_index("d"), m.set_index("d")
    assert_eq(mtimed.groupby(pd.Grouper(freq="W")).sum(), timed.groupby(pd.Grouper(freq="W")).sum())


@pytest.fixture
def by_level():
    rs = np.random.RandomState(0)
    t = pd.to_datetime("2024-01-01") + pd.to_timedelta(rs.randint(0, 240, 23), unit="h")
    idx = pd.MultiIndex.from_arrays([rs.choice(["a", "b"], 23), t], names=["g", "t"])
    frame = pd.DataFrame({"x": rs.randint(0, 9, 23), "y": rs.rand(23)}, index=idx)
    frame.iloc[3, 1] = np.nan
    return frame


@pytest.mark.parametrize("level", ["t", 1])
@pytest.mark.parametrize("how", ["sum", "mean", "count", "first", "max", "size"])
def test_resample_by_a_multiindex_level_bins_that_levels_timestamps(by_level, level, how):
    m = md.DataFrame(by_level, chunk_size=5)
    assert_eq(getattr(m.resample("D", level=level), how)(), getattr(by_level.resample("D", level=level), how)())
    assert_eq(getattr(m["y"].resample("12h", level=level), how)(),
              getattr(by_level["y"].resample("12h", level=level), how)())
    flt, expected = m[m["x"] > 3], by_level[by_level["x"] > 3]
    assert_eq(getattr(flt.resample("2D", level=level, closed="right"), how)(),
              getattr(expected.resample("2D", level=level, closed="right"), how)())


def test_resample_level_errors_are_pandas(by_level):
    m = md.DataFrame(by_level, chunk_size=5)
    for bad in [dict(level="g"), dict(level="zz"), dict(level=5), dict(level="t", on="x")]:
        with pytest.raises(Exception) as expected:
            by_level.resample("D", **bad)
        with pytest.raises(expected.type):
            m.resample("D", **bad)
