"""rolling / expanding / ewm against pandas, with windows shorter and longer than a chunk.

Chunks of 7 rows over 41 (not dividing), missing values, a chunk with nothing but missing
values, duplicated and non-default index labels, unknown extents after a filter.
"""
import numpy as np
import pandas as pd
import pytest
from pandas.errors import DataError

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.scan import Neighbours, Scan
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 41
    frame = pd.DataFrame({"a": rs.rand(n), "b": rs.randint(-9, 9, n), "c": rs.rand(n) * 100,
                          "n": np.nan}, index=[f"r{i % 13}" for i in range(n)])
    frame.iloc[[0, 3, 7, 8, 9, 10, 11, 12, 13, 20, 40], 0] = np.nan  # chunk 1 all missing
    return frame


AGGS = ["sum", "mean", "min", "max", "std", "var", "count", "median"]


@pytest.mark.parametrize("window", [1, 2, 7, 10, 30, 50])
@pytest.mark.parametrize("center", [False, True])
def test_rolling_aggregations(df, window, center):
    m = md.DataFrame(df, chunk_size=7)
    for how in AGGS:
        assert_eq(getattr(m.rolling(window, center=center), how)(),
                  getattr(df.rolling(window, center=center), how)())
    for mp in (0, 1, 3):
        assert_eq(m["a"].rolling(window, min_periods=min(mp, window), center=center).mean(),
                  df["a"].rolling(window, min_periods=min(mp, window), center=center).mean())


def test_rolling_borrows_neighbour_rows_only(df):
    m = md.DataFrame(df, chunk_size=7)
    tiled = LocalExecutor().tile(m.rolling(3).sum().data)
    assert len(tiled.flat) == 6 and all(isinstance(c.op, Neighbours) for c in tiled.flat)
    assert [len(c.inputs) for c in tiled.flat] == [1, 2, 2, 2, 2, 2]
    longer = LocalExecutor().tile(m.rolling(16).sum().data)  # spans three chunks before
    assert [len(c.inputs) for c in longer.flat] == [1, 2, 3, 4, 4, 4]


@pytest.mark.parametrize("closed", ["right", "left", "both", "neither"])
def test_rolling_closed(df, closed):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.rolling(4, closed=closed).sum(), df.rolling(4, closed=closed).sum())
    assert_eq(m["c"].rolling(9, closed=closed, min_periods=1).max(),
              df["c"].rolling(9, closed=closed, min_periods=1).max())


def test_rolling_apply_agg_quantile(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.rolling(3).apply(lambda x: x[-1] - x[0], raw=True),
              df.rolling(3).apply(lambda x: x[-1] - x[0], raw=True))
    assert_eq(m["b"].rolling(5).apply(lambda x: x.iloc[0]),
              df["b"].rolling(5).apply(lambda x: x.iloc[0]))
    assert_eq(m.rolling(3).agg(["sum", "max"]), df.rolling(3).agg(["sum", "max"]))
    assert_eq(m.rolling(3).aggregate({"a": "sum", "b": "min"}),
              df.rolling(3).aggregate({"a": "sum", "b": "min"}))
    assert_eq(m.rolling(8).quantile(0.3), df.rolling(8).quantile(0.3))
    assert_eq(m.rolling(8).skew(), df.rolling(8).skew())
    assert_eq(m.rolling(8)[["a", "c"]].sum(), df.rolling(8)[["a", "c"]].sum())


def test_rolling_win_type(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.rolling(4, win_type="triang").mean(), df.rolling(4, win_type="triang").mean())
    assert_eq(m["c"].rolling(11, win_type="gaussian").sum(std=2),
              df["c"].rolling(11, win_type="gaussian").sum(std=2))


def test_rolling_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(ValueError):
        m.rolling(-1)
    with pytest.raises(ValueError):
        m.rolling(3, min_periods=5)
    with pytest.raises(ValueError):  # a time window needs a datetime-like index, as in pandas
        m.rolling("2s")
    with pytest.raises(ValueError):
        m.rolling(2, step=-1)
    strings = md.DataFrame(pd.DataFrame({"x": list("abc"), "y": [1.0, 2, 3]}))
    with pytest.raises(DataError):
        strings.rolling(2).sum()


@pytest.mark.parametrize("min_periods", [0, 1, 3, 12])
def test_expanding(df, min_periods):
    m = md.DataFrame(df, chunk_size=7)
    for how in ["sum", "mean", "min", "max", "std", "var", "count"]:
        assert_eq(getattr(m.expanding(min_periods), how)(), getattr(df.expanding(min_periods), how)())
        assert_eq(getattr(m["a"].expanding(min_periods), how)(),
                  getattr(df["a"].expanding(min_periods), how)())
    assert_eq(m.expanding(min_periods).var(ddof=0), df.expanding(min_periods).var(ddof=0))
    assert_eq(m.expanding(min_periods).median(), df.expanding(min_periods).median())
    assert_eq(m["c"].expanding(min_periods).apply(np.ptp, raw=True),
              df["c"].expanding(min_periods).apply(np.ptp, raw=True))


def test_expanding_is_a_scan(df):
    m = md.DataFrame(df, chunk_size=7)
    tiled = LocalExecutor().tile(m.expanding().sum().data)
    assert len(tiled.flat) == 6 and all(isinstance(c.op, Scan) for c in tiled.flat)


def test_windows_on_unknown_extents_and_empty(df):
    m = md.DataFrame(df, chunk_size=6)
    sel, expected = m[m["b"] > -3], df[df["b"] > -3]
    assert_eq(sel.rolling(4).mean(), expected.rolling(4).mean())
    assert_eq(sel.expanding(2).std(), expected.expanding(2).std())
    empty = df.iloc[:0]
    assert_eq(md.DataFrame(empty).rolling(3).sum(), empty.rolling(3).sum())
    assert_eq(md.DataFrame(empty).expanding().mean(), empty.expanding().mean())


def test_constant_values_have_zero_variance():
    s = pd.Series([3.0] * 20 + [4.0] * 5)
    m = md.Series(s, chunk_size=6)
    assert_eq(m.expanding().var(), s.expanding().var())
    assert_eq(m.rolling(5).std(), s.rolling(5).std())


@pytest.mark.parametrize("adjust", [True, False])
@pytest.mark.parametrize("ignore_na", [False, True])
@pytest.mark.parametrize("params", [{"com": 0.5}, {"span": 5}, {"alpha": 0.9}, {"halflife": 3}],
                         ids=repr)
def test_ewm(df, adjust, ignore_na, params):
    m = md.DataFrame(df, chunk_size=7)
    for mp in (0, 3):
        kw = dict(params, adjust=adjust, ignore_na=ignore_na, min_periods=mp)
        assert_eq(m.ewm(**kw).mean(), df.ewm(**kw).mean(), rtol=1e-6)
        assert_eq(m["a"].ewm(**kw).mean(), df["a"].ewm(**kw).mean(), rtol=1e-6)
        # adjust=False renormalizes after every observation: var / std over gaps of missing
        # values are not supported (a clear error), the mean is
        cols = ["a", "b", "c"] if adjust or ignore_na else ["b", "c"]
        for how in ("var", "std"):
            assert_eq(getattr(m[cols].ewm(**kw), how)(), getattr(df[cols].ewm(**kw), how)(), rtol=1e-6)
        assert_eq(m[cols].ewm(**kw).var(bias=True), df[cols].ewm(**kw).var(bias=True), rtol=1e-6)
        if adjust:
            assert_eq(m.ewm(**kw).sum(), df.ewm(**kw).sum(), rtol=1e-6)


def test_ewm_is_a_scan_and_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    tiled = LocalExecutor().tile(m.ewm(span=4).mean().data)
    assert len(tiled.flat) == 6 and all(isinstance(c.op, Scan) for c in tiled.flat)
    with pytest.raises(NotImplementedError):
        LocalExecutor().compute(m["a"].ewm(com=1, adjust=False).var().data)
    with pytest.raises(NotImplementedError):
        m.ewm(com=1, adjust=False).sum()
    with pytest.raises(ValueError):
        m.ewm(com=1, span=2)
    with pytest.raises(ValueError):
        m.ewm(alpha=2)
    with pytest.raises(NotImplementedError):
        m.ewm(halflife="1D", times=pd.date_range("2020", periods=41))
    with pytest.raises(DataError):
        md.DataFrame(pd.DataFrame({"x": list("abc")})).ewm(com=1).mean()


def test_ewm_long_and_unknown_extents(df):
    rs = np.random.RandomState(5)
    s = pd.Series(rs.randn(300).cumsum())
    s[rs.rand(300) > 0.8] = np.nan
    m = md.Series(s, chunk_size=23)
    for kw in ({"com": 50}, {"alpha": 0.3, "adjust": False}, {"span": 10, "ignore_na": True}):
        assert_eq(m.ewm(**kw).mean(), s.ewm(**kw).mean(), rtol=1e-6)
    assert_eq(m.ewm(com=50).std(), s.ewm(com=50).std(), rtol=1e-6)
    sel = md.DataFrame(df, chunk_size=6)
    sel, expected = sel[sel["b"] > -2], df[df["b"] > -2]
    assert_eq(sel.ewm(com=2).mean(), expected.ewm(com=2).mean(), rtol=1e-6)


def _timed(n=57, seed=0, tz=None):
    rng = np.random.default_rng(seed)
    idx = pd.DatetimeIndex(np.sort(rng.integers(0, 10**5, n)) * 10**7, tz=tz)
    return pd.DataFrame({"a": rng.standard_normal(n), "b": np.arange(n, dtype="i8")}, index=idx)


@pytest.mark.parametrize("window", ["2s", "35s", pd.Timedelta("500ms"), pd.offsets.Second(7)])
@pytest.mark.parametrize("kw", [{}, {"min_periods": 2}, {"closed": "both"}, {"closed": "left"},
                                {"center": True}], ids=str)
def test_time_rolling_matches_pandas_across_chunks(window, kw):
    pdf = _timed()
    m = md.DataFrame(pdf, chunk_size=7)
    for how in ("sum", "mean", "count", "max", "std"):
        assert_eq(getattr(m.rolling(window, **kw), how)(), getattr(pdf.rolling(window, **kw), how)())


def test_time_rolling_on_column_apply_series_and_tz():
    pdf = _timed(tz="Europe/Paris")
    m = md.DataFrame(pdf, chunk_size=6)
    f = lambda v: v[-1] - v[0]  # noqa: E731
    assert_eq(m["a"].rolling("10s").apply(f, raw=True), pdf["a"].rolling("10s").apply(f, raw=True))
    flat = _timed().reset_index(names="t")
    mf = md.DataFrame(flat, chunk_size=5)
    assert_eq(mf.rolling("20s", on="t").sum(), flat.rolling("20s", on="t").sum())
    assert_eq(mf.rolling("20s", on="t").max(), flat.rolling("20s", on="t").max())
    with pytest.raises(ValueError):  # pandas' own limitation, at build time here
        flat.rolling("20s", on="t").agg(["sum", "max"])
    with pytest.raises(ValueError):
        mf.rolling("20s", on="t").agg(["sum", "max"])


def test_rolling_on_a_column_then_selecting_columns_keeps_the_on_column():
    flat = _timed().reset_index(names="t")
    mf = md.DataFrame(flat, chunk_size=5)
    for key in (["a"], "a", ["t", "a"]):
        assert_eq(mf.rolling("20s", on="t")[key].sum(), flat.rolling("20s", on="t")[key].sum())
    assert_eq(mf.rolling(3, on="t")[["a"]].mean(), flat.rolling(3, on="t")[["a"]].mean())


def test_time_rolling_window_spanning_many_chunks_borrows_only_reaching_chunks():
    pdf = _timed(200, seed=3)
    m = md.DataFrame(pdf, chunk_size=9)
    assert_eq(m.rolling("5000s").mean(), pdf.rolling("5000s").mean())  # spans many chunks
    assert_eq(m.rolling("1s").sum(), pdf.rolling("1s").sum())  # mostly one row


def test_time_rolling_unsorted_index_is_pandas_value_error():
    pdf = _timed()
    shuffled = pdf.iloc[np.r_[7:14, 0:7, 14:57]]
    with pytest.raises(ValueError, match="monotonic"):
        shuffled.rolling("2s").sum()
    with pytest.raises(ValueError, match="monotonic"):
        LocalExecutor().compute(md.DataFrame(shuffled, chunk_size=7).rolling("2s").sum().data)


def test_rolling_with_step_and_on_is_pandas():
    """Were NotImplementedErrors ("rolling with on=, step= ..."): every step-th window
    (pandas' ``[::step]`` of all windows) and an ``on`` column passed through."""
    rs = np.random.RandomState(0)
    df = pd.DataFrame({"a": rs.rand(23), "b": rs.rand(23), "t": pd.date_range("2020", periods=23)},
                      index=[f"r{i:02d}" for i in range(23)])
    m = md.DataFrame(df, chunk_size=5)
    num, mnum = df[["a", "b"]], m[["a", "b"]]
    assert_eq(mnum.rolling(4, step=3).mean(), num.rolling(4, step=3).mean())
    assert_eq(mnum.rolling(4, step=2, center=True).max(), num.rolling(4, step=2, center=True).max())
    assert_eq(m["a"].rolling(3, step=4).apply(np.sum, raw=True),
              df["a"].rolling(3, step=4).apply(np.sum, raw=True))
    assert_eq(mnum.rolling(3, step=2).agg(["sum", "min"]), num.rolling(3, step=2).agg(["sum", "min"]))
    assert_eq(m.rolling(3, on="t").sum(), df.rolling(3, on="t").sum())
    assert_eq(m.rolling(3, on="t", step=2).sum(), df.rolling(3, on="t", step=2).sum())
    with pytest.raises(NotImplementedError, match="frequency windows"):  # pandas' own refusal
        m.set_index("t").rolling("2D", step=2)
