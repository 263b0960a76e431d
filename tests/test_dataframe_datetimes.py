"""Series.dt, to_datetime, to_numeric and date_range against pandas."""
import datetime
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import compute_locally
from mars_on_ray.testing import assert_eq

PANDAS3 = int(pd.__version__.split(".")[0]) >= 3


def value(obj):
    """Compute in this process (``fetch`` would start a Ray session)."""
    return compute_locally(obj)[0]


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


STAMPS = ["2020-01-31 10:00", None, "2021-06-15 12:30:05.25", "2022-02-28 23:59", "2020-02-29",
          "2019-12-31 00:00:01", None, "2024-03-10 02:30", "2023-10-01 13:14:15"]


@pytest.fixture(params=["naive", "tz", "nat-free"])
def stamps(request):
    s = pd.Series(pd.to_datetime(STAMPS, format="mixed"), index=[f"i{i % 4}" for i in range(len(STAMPS))], name="ts")
    if request.param == "tz":
        s = s.dt.tz_localize("Europe/Berlin", nonexistent="shift_forward")
    if request.param == "nat-free":
        s = s.dropna()
    return s


DT_PROPERTIES = ["date", "day", "dayofweek", "day_of_week", "dayofyear", "day_of_year",
                 "days_in_month", "daysinmonth", "hour", "is_leap_year", "is_month_end",
                 "is_month_start", "is_quarter_end", "is_quarter_start", "is_year_end",
                 "is_year_start", "microsecond", "minute", "month", "nanosecond", "quarter",
                 "second", "time", "timetz", "weekday", "year"]
DT_METHODS = [("ceil", ("h",), {}), ("floor", ("15min",), {}), ("round", ("D",), {}),
              ("day_name", (), {}), ("month_name", (), {}), ("normalize", (), {}),
              ("strftime", ("%Y/%m/%d %H-%M",), {}), ("to_period", ("M",), {}),
              ("to_period", ("Q",), {}), ("to_pydatetime", (), {}), ("isocalendar", (), {}),
              ("as_unit", ("s",), {}), ("tz_convert", ("Asia/Tokyo",), {}),
              ("tz_localize", ("UTC",), {}), ("tz_localize", (None,), {})]


@pytest.mark.parametrize("name", DT_PROPERTIES)
def test_datetime_properties(stamps, name):
    m = md.Series(stamps, chunk_size=4)
    assert_eq(getattr(m.dt, name), getattr(stamps.dt, name))
    assert_eq(getattr(md.Series(stamps, chunk_size=20).dt, name), getattr(stamps.dt, name))


@pytest.mark.parametrize("name,args,kwargs", DT_METHODS, ids=lambda c: c if isinstance(c, str) else None)
def test_datetime_methods(stamps, name, args, kwargs):
    m = md.Series(stamps, chunk_size=4)
    try:
        expected = quiet(getattr(stamps.dt, name), *args, **kwargs)
    except Exception as exc:
        with pytest.raises(type(exc)):
            quiet(getattr(m.dt, name), *args, **kwargs)
        return
    result = quiet(getattr(m.dt, name), *args, **kwargs)
    if isinstance(expected, np.ndarray):  # to_pydatetime in pandas 2: an array
        assert isinstance(result, mt.Tensor)
        pd.testing.assert_series_equal(pd.Series(value(result)), pd.Series(expected))
    else:
        assert_eq(result, expected)


def test_dtype_with_nat_is_learned():
    s = pd.Series(pd.to_datetime(["2020-01-01", "2021-02-03", None, "2022-03-04"]))
    assert md.Series(s, chunk_size=2).dt.year.dtype == s.dt.year.dtype == np.float64
    assert md.Series(s[:2], chunk_size=1).dt.year.dtype == s[:2].dt.year.dtype
    nat = pd.Series(pd.to_datetime([None, None]))
    assert_eq(md.Series(nat, chunk_size=1).dt.month, nat.dt.month)
    empty = s.iloc[:0]
    assert_eq(md.Series(empty, chunk_size=1).dt.month, empty.dt.month)


def test_tz_and_unit_come_from_the_dtype(stamps):
    m = md.Series(stamps, chunk_size=3)
    assert m.dt.tz == stamps.dt.tz
    assert m.dt.unit == stamps.dt.unit


@pytest.mark.parametrize("freq", ["D", "h", "MS", "B", "W-WED", "QE", "7min"])
def test_freq_is_inferred_from_all_values(freq):
    idx = quiet(pd.date_range, "2021-01-01", periods=23, freq=freq)
    for s in (pd.Series(idx), pd.Series(idx.tz_localize("US/Eastern")), pd.Series(idx[[0, 1, 3, 4]])):
        for chunk_size in (3, 10, 30):
            expected = quiet(lambda: s.dt.freq)
            assert quiet(value, quiet(lambda: md.Series(s, chunk_size=chunk_size).dt.freq)) == expected
    td = pd.Series(pd.timedelta_range("1 day", periods=7, freq="6h"))
    assert quiet(value, quiet(lambda: md.Series(td, chunk_size=2).dt.freq)) == quiet(lambda: td.dt.freq)


def test_to_period_without_freq_uses_the_inferred_one():
    s = pd.Series(pd.date_range("2020-01-01", periods=9, freq="MS"))
    assert_eq(quiet(md.Series(s, chunk_size=4).dt.to_period), quiet(s.dt.to_period))
    irregular = pd.Series(pd.to_datetime(["2020-01-01", "2020-01-05", "2020-03-01"]))
    with pytest.raises(ValueError):
        quiet(irregular.dt.to_period)
    with pytest.raises(ValueError):
        quiet(md.Series(irregular, chunk_size=2).dt.to_period)


TIMEDELTA_NAMES = ["days", "seconds", "microseconds", "nanoseconds", "components"]


@pytest.mark.parametrize("with_nat", [True, False])
def test_timedelta_accessor(with_nat):
    values = ["1 days 02:03:04.005006", "-3h", "10 days", None, "0s", "12:00:00.000000007"]
    s = pd.Series(pd.to_timedelta(values), index=list("pqrstu"))
    if not with_nat:
        s = s.dropna()
    m = md.Series(s, chunk_size=2)
    for name in TIMEDELTA_NAMES:
        assert_eq(getattr(m.dt, name), getattr(s.dt, name))
    assert_eq(m.dt.total_seconds(), s.dt.total_seconds())
    assert_eq(m.dt.round("h"), s.dt.round("h"))
    assert_eq(m.dt.floor("D"), s.dt.floor("D"))
    assert_eq(m.dt.ceil("min"), s.dt.ceil("min"))
    result, expected = m.dt.to_pytimedelta(), quiet(s.dt.to_pytimedelta)
    assert isinstance(result, mt.Tensor) == isinstance(expected, np.ndarray)
    pd.testing.assert_series_equal(pd.Series(np.asarray(quiet(value, result))), pd.Series(np.asarray(expected)))


def test_period_accessor():
    s = pd.Series(pd.period_range("2020-01", periods=7, freq="M"), index=list("abcdefg"))
    s[2] = pd.NaT
    m = md.Series(s, chunk_size=3)
    for name in ("year", "month", "quarter", "qyear", "day", "dayofweek", "dayofyear",
                 "days_in_month", "week", "weekofyear", "is_leap_year", "start_time", "end_time"):
        assert_eq(getattr(m.dt, name), getattr(s.dt, name))
    assert_eq(m.dt.strftime("%Y-%m"), s.dt.strftime("%Y-%m"))
    assert_eq(m.dt.to_timestamp(), s.dt.to_timestamp())
    assert_eq(m.dt.asfreq("D", how="end"), s.dt.asfreq("D", how="end"))
    assert m.dt.freq == s.dt.freq


def test_mars_names_exist_where_pandas_has_them():
    mars_names = ["ceil", "components", "date", "day", "day_name", "dayofweek", "dayofyear", "days",
                  "days_in_month", "daysinmonth", "end_time", "floor", "freq", "hour", "is_leap_year",
                  "is_month_end", "is_month_start", "is_quarter_end", "is_quarter_start", "is_year_end",
                  "is_year_start", "microsecond", "microseconds", "minute", "month", "month_name",
                  "nanosecond", "nanoseconds", "normalize", "quarter", "qyear", "round", "second",
                  "seconds", "start_time", "strftime", "time", "timetz", "to_period", "to_pydatetime",
                  "to_pytimedelta", "total_seconds", "tz", "tz_convert", "tz_localize", "week",
                  "weekday", "weekofyear", "year"]
    kinds = [pd.Series(pd.date_range("2020", periods=3)), pd.Series(pd.timedelta_range("1D", periods=3)),
             pd.Series(pd.period_range("2020", periods=3))]
    for name in mars_names:
        present = [s for s in kinds if hasattr(s.dt, name)]
        assert present, name
        for s in kinds:
            assert hasattr(md.Series(s).dt, name) == hasattr(s.dt, name), name


def test_dt_bad_input_raises_like_pandas():
    with pytest.raises(AttributeError):
        pd.Series([1, 2]).dt
    with pytest.raises(AttributeError):
        md.Series([1, 2]).dt
    m = md.Series(pd.date_range("2020", periods=3))
    with pytest.raises(AttributeError):
        m.dt.days
    with pytest.raises(ValueError):
        m.dt.floor("bogus")
    with pytest.raises(TypeError):
        m.dt.tz_convert("UTC")  # naive: pandas refuses
    with pytest.raises(NotImplementedError, match="infer"):
        m.dt.tz_localize("US/Eastern", ambiguous="infer")


def test_dt_ambiguous_and_nonexistent_times():
    s = pd.Series(pd.to_datetime(["2021-11-07 01:30", "2021-03-14 02:30", "2021-06-01 12:00"]))
    m = md.Series(s, chunk_size=2)
    kw = dict(ambiguous="NaT", nonexistent="shift_forward")
    assert_eq(m.dt.tz_localize("US/Eastern", **kw), s.dt.tz_localize("US/Eastern", **kw))
    with pytest.raises(Exception) as pandas_error:
        s.dt.tz_localize("US/Eastern")
    with pytest.raises(pandas_error.type):
        value(m.dt.tz_localize("US/Eastern"))


# -- to_datetime ----------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [
    ["2020-01-01", "2020-02-03", None, "2021-12-31"],
    ["2020-01-01 10:00", "2020-01-02 11:00:00.5", None, "2020-01-03 00:00:00.000000001"],
    ["01/02/2020", "03/04/2020", "13/04/2020", None],
    ["2020-01-01T00:00+01:00", None, "2020-06-01T00:00+01:00", "2020-07-01T00:00+01:00"],
    [None, None, "Jan 5 2020", "2020-02-01"],
    [None, None, None, None],
])
@pytest.mark.parametrize("dtype", [object, "str"])
def test_to_datetime_of_text(data, dtype):
    s = pd.Series(data, index=list("abcd"), name="when", dtype=dtype)
    for kw in ({}, {"errors": "coerce"}, {"utc": True}, {"dayfirst": True}, {"format": "mixed"}):
        try:
            expected = quiet(pd.to_datetime, s, **kw)
        except (ValueError, TypeError) as exc:
            with pytest.raises(type(exc)):
                value(quiet(md.to_datetime, md.Series(s, chunk_size=2), **kw))
            continue
        for chunk_size in (1, 2, 4):
            assert_eq(quiet(md.to_datetime, md.Series(s, chunk_size=chunk_size), **kw), expected)


def test_to_datetime_guesses_the_format_from_the_first_value():
    # the first present value is day-first only: pandas parses every value with that format
    s = pd.Series([None, "13/01/2020", "02/03/2020", "04/05/2020"])
    expected = quiet(pd.to_datetime, s)
    assert_eq(quiet(md.to_datetime, md.Series(s, chunk_size=2)), expected)
    assert expected[2] == pd.Timestamp("2020-03-02")
    bad = pd.Series(["2020-01-01", "x", "2020-01-03", "2020-01-04"])
    with pytest.raises(ValueError):
        pd.to_datetime(bad)
    with pytest.raises(ValueError):
        value(md.to_datetime(md.Series(bad, chunk_size=2)))


def test_to_datetime_mixed_time_zones():
    s = pd.Series(["2020-01-01 00:00+01:00", "2020-01-02 00:00+01:00", "2020-01-03 00:00+02:00"])
    assert_eq(md.to_datetime(md.Series(s, chunk_size=2), utc=True), pd.to_datetime(s, utc=True))
    if PANDAS3:
        with pytest.raises(ValueError, match="Mixed timezones"):
            pd.to_datetime(s)
        with pytest.raises(ValueError, match="Mixed timezones"):
            md.to_datetime(md.Series(s, chunk_size=2))
    else:
        with pytest.raises(NotImplementedError):
            md.to_datetime(md.Series(s, chunk_size=2))


def test_to_datetime_numbers_units_and_origin():
    s = pd.Series([0, 1_600_000_000, None, 86_400], index=[3, 1, 2, 2])
    for kw in ({"unit": "s"}, {"unit": "ms"}, {"unit": "D", "origin": "2000-01-01"}):
        data = s if kw["unit"] != "D" else s // 100_000
        assert_eq(md.to_datetime(md.Series(data, chunk_size=3), **kw), pd.to_datetime(data, **kw))
    ints = pd.Series([1, 2, 3])
    assert_eq(md.to_datetime(md.Series(ints, chunk_size=2), unit="D"), pd.to_datetime(ints, unit="D"))


def test_to_datetime_of_frames_indexes_lists_and_scalars():
    frame = pd.DataFrame({"year": [2020, 2021, 2022], "month": [1, 2, 3], "day": [4, 5, 6],
                          "hour": [1, 2, 3]}, index=list("xyz"))
    assert_eq(md.to_datetime(md.DataFrame(frame, chunk_size=2)), pd.to_datetime(frame))
    assert_eq(md.to_datetime(frame), pd.to_datetime(frame))
    idx = pd.Index(["2020-01-01", "2020-01-02", None], name="k")
    assert_eq(md.to_datetime(idx), pd.to_datetime(idx))
    mi = md.DataFrame({"v": [1, 2, 3]}, index=idx).index
    assert_eq(md.to_datetime(mi), pd.to_datetime(idx))
    items = ["2020-01-01 00:00", "2020-03-01 10:00", None]
    assert_eq(md.to_datetime(items), pd.to_datetime(items))
    assert_eq(md.to_datetime(np.array(items, dtype=object)), pd.to_datetime(np.array(items, dtype=object)))
    assert md.to_datetime("2020-01-05") == pd.to_datetime("2020-01-05")
    assert md.to_datetime(datetime.date(2020, 1, 5)) == pd.to_datetime(datetime.date(2020, 1, 5))
    already = pd.Series(pd.date_range("2020", periods=5, tz="UTC"))
    assert_eq(md.to_datetime(md.Series(already, chunk_size=2)), pd.to_datetime(already))


def test_to_datetime_bad_input():
    with pytest.raises(Exception) as pandas_error:  # ValueError; pandas 2: AssertionError
        pd.to_datetime(pd.Series(["2020"]), errors="bogus")
    with pytest.raises(pandas_error.type):
        md.to_datetime(md.Series(["2020"]), errors="bogus")
    frame = pd.DataFrame({"year": [2020], "mon": [1]})
    with pytest.raises(ValueError):
        pd.to_datetime(frame)
    with pytest.raises(ValueError):
        md.to_datetime(md.DataFrame(frame))


# -- to_numeric -----------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [
    ["1", "2", "3", "4", "5"], ["1", "2.5", None, "-4", "5"], ["1", "x", "3", "4", "5"],
    [1, 2, 300, -4, 5], [1.0, 2.5, 1e40, 4.0, np.nan], [0, 1, 2, 3, 70000], ["1", None, None, None, None],
])
@pytest.mark.parametrize("downcast", [None, "integer", "signed", "unsigned", "float"])
def test_to_numeric(data, downcast):
    s = pd.Series(data, index=list("vwxyz"), name="n")
    for errors in ("raise", "coerce"):
        try:
            expected = pd.to_numeric(s, errors=errors, downcast=downcast)
        except ValueError:
            with pytest.raises(ValueError):
                value(md.to_numeric(md.Series(s, chunk_size=2), errors=errors, downcast=downcast))
            continue
        for chunk_size in (1, 2, 5):
            result = md.to_numeric(md.Series(s, chunk_size=chunk_size), errors=errors, downcast=downcast)
            assert_eq(result, expected)


def test_to_numeric_downcast_needs_the_global_range():
    # each block alone fits int8 / uint8 / float32; the whole does not
    s = pd.Series([1, 2, 3, 1000, 5, -1, 7])
    assert_eq(md.to_numeric(md.Series(s, chunk_size=3), downcast="integer"), pd.to_numeric(s, downcast="integer"))
    assert_eq(md.to_numeric(md.Series(s, chunk_size=3), downcast="unsigned"), pd.to_numeric(s, downcast="unsigned"))
    f = pd.Series([0.5, 0.25, 1 / 3, 2.0])
    assert_eq(md.to_numeric(md.Series(f, chunk_size=2), downcast="float"), pd.to_numeric(f, downcast="float"))
    assert_eq(md.to_numeric(md.Series(f[[0, 1, 3]], chunk_size=2), downcast="integer"),
              pd.to_numeric(f[[0, 1, 3]], downcast="integer"))


def test_to_numeric_lists_indexes_scalars_and_errors():
    items = ["1", "2.5", "3"]
    result = md.to_numeric(items)
    assert isinstance(result, mt.Tensor)
    assert_eq(result, pd.to_numeric(items))
    idx = pd.Index(["1", "2", "3"], name="k")
    assert_eq(md.to_numeric(idx), pd.to_numeric(idx))
    assert md.to_numeric("1.5") == pd.to_numeric("1.5")
    with pytest.raises(TypeError):
        pd.to_numeric(pd.DataFrame({"a": [1]}))
    with pytest.raises(TypeError):
        md.to_numeric(md.DataFrame({"a": [1]}))
    with pytest.raises(ValueError):
        md.to_numeric(md.Series(["1"]), downcast="bogus")
    with pytest.raises(ValueError):
        md.to_numeric(md.Series(["1"]), errors="bogus")


# -- date_range -----------------------------------------------------------------------------------
DATE_RANGES = [
    dict(start="2020-01-01", periods=25, freq="D"),
    dict(start="2020-01-31", end="2021-03-01", freq="MS"),
    dict(start="2020-01-31", periods=14, freq=pd.DateOffset(months=1)),
    dict(end="2020-06-30", periods=30, freq="B"),
    dict(start="2020-01-01", end="2020-01-20", freq="W-WED", name="wk"),
    dict(start="2021-03-13", periods=20, freq="6h", tz="US/Eastern"),
    dict(start="2021-03-10", periods=10, freq="D", tz="US/Eastern"),
    dict(start="2020-01-01 10:17", end="2020-01-03", freq="5h", normalize=True),
    dict(start="2020-01-01", end="2020-01-10", freq="D", inclusive="neither"),
    dict(start="2020-01-01", end="2020-01-10", freq="D", inclusive="left"),
    dict(start="2020-01-01", end="2020-01-01", freq="D", inclusive="right"),
    dict(start="2020-01-01", end="2020-12-31", periods=17),
    dict(start="2020-01-01", end="2020-12-31", periods=9, tz="Asia/Tokyo"),
    dict(start="2020-01-01", periods=12, freq="QE", unit="s"),
    dict(start="2020-01-05", end="2019-01-01", freq="D"),
    dict(start="2020-01-01", periods=0, freq="h"),
    dict(start="2020-01-01", periods=11, freq="SMS"),
    dict(start="2020-01-01 09:00", periods=30, freq="bh"),
]


@pytest.mark.parametrize("kw", DATE_RANGES, ids=lambda kw: "-".join(str(v) for v in kw.values()))
def test_date_range(kw):
    try:
        expected = quiet(pd.date_range, **kw)
    except ValueError:
        pytest.skip("this pandas refuses the frequency")
    for chunk_size in (1, 4, 100):
        assert_eq(quiet(md.date_range, **kw, chunk_size=chunk_size), expected)


@pytest.mark.slow
def test_long_date_ranges_are_laid_out_by_arithmetic():
    for kw in (dict(start="2020-01-01", periods=2_500_001, freq="s"),
               dict(start="2000-01-01", end="2001-01-01", freq="7s", inclusive="neither"),
               dict(end="2020-02-01", periods=1_200_003, freq="37ms", inclusive="left"),
               dict(start="2020-01-01", end="2020-01-01 00:00:02", freq="us", unit="us")):
        result = md.date_range(**kw, chunk_size=400_000)
        assert len(result.data.op.starts) > 1
        assert_eq(result, pd.date_range(**kw))


def test_date_range_bad_input():
    for kw in (dict(start="2020", end="2021", periods=3, freq="D"), dict(start="2020", freq="bogus", periods=2),
               dict(start="2020", end="2021", freq="D", inclusive="sideways"), dict(periods=3)):
        with pytest.raises(ValueError):
            pd.date_range(**kw)
        with pytest.raises(ValueError):
            md.date_range(**kw)


def test_date_range_is_lazy_and_usable():
    r = md.date_range("2020-01-01", periods=10, freq="D", chunk_size=3, name="d")
    assert r.shape == (10,)
    assert str(r.dtype) == str(pd.date_range("2020-01-01", periods=10, freq="D").dtype)
    assert_eq(md.to_datetime(r), pd.to_datetime(pd.date_range("2020-01-01", periods=10, freq="D", name="d")))
    assert_eq(r.str if False else r, pd.date_range("2020-01-01", periods=10, freq="D", name="d"))


# -- on Ray ---------------------------------------------------------------------------------------
def test_datetimes_on_ray(session):
    s = pd.Series(pd.to_datetime(STAMPS, format="mixed"), name="ts")
    m = md.Series(s, chunk_size=4)
    assert_eq(m.dt.year, s.dt.year)
    assert_eq(m.dt.strftime("%Y"), s.dt.strftime("%Y"))
    assert_eq(m.dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo"), s.dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo"))
    text = pd.Series(["2020-01-01 00:00:00.25", None, "2020-03-01 10:00:00.5", "2021-01-01 00:00:01.125"])
    assert_eq(md.to_datetime(md.Series(text, chunk_size=2)), pd.to_datetime(text))
    assert_eq(md.to_numeric(md.Series(["1", "2", "300"], chunk_size=2), downcast="integer"),
              pd.to_numeric(pd.Series(["1", "2", "300"]), downcast="integer"))
    r = pd.Series(pd.date_range("2021-01-01", periods=20, freq="B"))
    assert quiet(md.Series(r, chunk_size=6).dt.freq.fetch) == quiet(lambda: r.dt.freq)
