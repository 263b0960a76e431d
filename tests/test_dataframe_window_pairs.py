"""Rolling / expanding corr and cov of a Series with a Series against pandas (23 rows in
chunks of 5: windows across chunk boundaries, NaN in either Series, duplicate labels)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.rand(23), "b": rs.rand(23) + np.arange(23) * 0.1, "i": rs.randint(0, 5, 23)},
                         index=[i % 7 for i in range(23)])
    frame.iloc[[2, 9, 10], 0] = np.nan
    frame.iloc[4, 1] = np.nan
    return frame


@pytest.mark.parametrize("kwargs", [dict(window=3), dict(window=4, min_periods=2), dict(window=7, center=True),
                                    dict(window=12)], ids=repr)
@pytest.mark.parametrize("how", ["corr", "cov"])
def test_rolling_pair_matches_pandas(df, kwargs, how):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(getattr(m["a"].rolling(**kwargs), how)(m["b"]), getattr(df["a"].rolling(**kwargs), how)(df["b"]))
    assert_eq(getattr(m["i"].rolling(**kwargs), how)(m["a"]), getattr(df["i"].rolling(**kwargs), how)(df["a"]))


@pytest.mark.parametrize("kwargs", [{}, dict(min_periods=4)], ids=repr)
@pytest.mark.parametrize("how", ["corr", "cov"])
def test_expanding_pair_is_a_scan_of_co_moments(df, kwargs, how):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(getattr(m["a"].expanding(**kwargs), how)(m["b"]), getattr(df["a"].expanding(**kwargs), how)(df["b"]))
    assert_eq(getattr(m["i"].expanding(**kwargs), how)(m["b"]), getattr(df["i"].expanding(**kwargs), how)(df["b"]))


def test_window_pairs_with_ddof_itself_and_after_a_filter(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["a"].rolling(4).cov(m["b"], ddof=0), df["a"].rolling(4).cov(df["b"], ddof=0))
    assert_eq(m["a"].expanding().cov(m["b"], ddof=0), df["a"].expanding().cov(df["b"], ddof=0))
    assert_eq(m["b"].rolling(5).corr(), df["b"].rolling(5).corr())
    assert_eq(m["b"].expanding().cov(), df["b"].expanding().cov())
    flt, expected = m[m["i"] > 0], df[df["i"] > 0]
    assert_eq(flt["a"].rolling(3).corr(flt["b"]), expected["a"].rolling(3).corr(expected["b"]))
    assert_eq(flt["a"].expanding(2).cov(flt["b"]), expected["a"].expanding(2).cov(expected["b"]))


def test_window_pairs_of_differently_indexed_objects_raise_not_implemented(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(NotImplementedError):
        m["a"].rolling(3).corr(md.Series(df["b"].reset_index(drop=True)))
    with pytest.raises(NotImplementedError):
        m.expanding().cov(md.DataFrame(df.reset_index(drop=True)))


@pytest.fixture
def other(df):
    rs = np.random.RandomState(1)
    frame = pd.DataFrame({"b": rs.rand(23), "z": rs.rand(23), "a": rs.rand(23)}, index=df.index)
    frame.iloc[[0, 7], 1] = np.nan
    return frame


WINDOWS = [("rolling", dict(window=4)), ("rolling", dict(window=7, center=True, min_periods=2)),
           ("rolling", dict(window=12)), ("expanding", {}), ("expanding", dict(min_periods=3))]


@pytest.mark.parametrize("kind,kwargs", WINDOWS, ids=repr)
@pytest.mark.parametrize("how", ["corr", "cov"])
def test_frame_window_pairs_match_pandas_pairwise_and_by_column(df, other, kind, kwargs, how):
    df = df.rename_axis(columns="cols")
    m, mo = md.DataFrame(df, chunk_size=5), md.DataFrame(other, chunk_size=4)
    win, expected = getattr(m, kind)(**kwargs), getattr(df, kind)(**kwargs)
    assert_eq(getattr(win, how)(), getattr(expected, how)())  # every column pair: a MultiIndex
    assert_eq(getattr(win, how)(pairwise=False), getattr(expected, how)(pairwise=False))
    assert_eq(getattr(win, how)(mo), getattr(expected, how)(other))  # matching columns, the rest NaN
    assert_eq(getattr(win, how)(mo, pairwise=True), getattr(expected, how)(other, pairwise=True))
    assert_eq(getattr(win, how)(m["b"]), getattr(expected, how)(df["b"]))
    assert_eq(getattr(getattr(m["b"], kind)(**kwargs), how)(m), getattr(getattr(df["b"], kind)(**kwargs), how)(df))
    flt, fexp = m[m["i"] > 0], df[df["i"] > 0]  # unknown chunk extents
    assert_eq(getattr(getattr(flt, kind)(**kwargs), how)(), getattr(getattr(fexp, kind)(**kwargs), how)())


def test_frame_window_pairs_numeric_only_ddof_and_errors(df):
    mixed = df.assign(s=[f"x{i}" for i in range(23)])
    m = md.DataFrame(mixed, chunk_size=5)
    # pandas' rolling sums run over all rows: its zeros can be 1e-15 off
    assert_eq(m.rolling(3).cov(numeric_only=True, ddof=0), mixed.rolling(3).cov(numeric_only=True, ddof=0),
              atol=1e-12)
    assert_eq(m.expanding().corr(numeric_only=True), mixed.expanding().corr(numeric_only=True))
    assert_eq(m["a"].rolling(3).corr(m["b"], pairwise=True), df["a"].rolling(3).corr(df["b"], pairwise=True))
    with pytest.raises(Exception) as expected:
        mixed.rolling(3).corr()
    with pytest.raises(expected.type):  # pandas' DataError for strings, at build time
        m.rolling(3).corr()
    with pytest.raises(ValueError, match="other must be"):
        m.rolling(3).corr(other=[1, 2])
    dup = md.DataFrame(df.set_axis(["a", "a", "i"], axis=1), chunk_size=5)
    with pytest.raises(ValueError, match="not unique"):
        dup.rolling(3).corr(md.DataFrame(df, chunk_size=5))


@pytest.mark.parametrize("kind,args", [("rolling", (2,)), ("expanding", ())])
def test_empty_pairwise_result_takes_the_other_columns_as_pandas(df, kind, args):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 5], df[df["a"] > 5]
    assert_eq(getattr(flt[["a", "b"]], kind)(*args).corr(flt[["b"]], pairwise=True),
              getattr(expected[["a", "b"]], kind)(*args).corr(expected[["b"]], pairwise=True))
    assert_eq(getattr(m.iloc[:0], kind)(*args).cov(), getattr(df.iloc[:0], kind)(*args).cov())


EWM_PAIRS = [{"span": 3}, {"alpha": 0.3, "min_periods": 3}, {"com": 2, "ignore_na": True},
             {"halflife": 2, "adjust": False, "ignore_na": True}]


@pytest.mark.parametrize("kwargs", EWM_PAIRS, ids=repr)
def test_ewm_corr_and_cov_of_two_series(kwargs):
    """Were AttributeErrors ('ExponentialMovingWindow' has no 'corr'): pairs masked where
    either is missing, cov from the variances of x + y, x and y in one scan."""
    rs = np.random.RandomState(0)
    pdf = pd.DataFrame({"a": rs.rand(23), "b": rs.randint(0, 9, 23).astype(float)},
                       index=[f"r{i % 20}" for i in range(23)])
    pdf.iloc[[3, 8, 9], 0] = np.nan
    pdf.iloc[[4, 9, 15], 1] = np.nan
    m = md.DataFrame(pdf, chunk_size=5)
    # the subtraction leaves ~1e-17 where pandas' cov is exactly 0
    assert_eq(m["a"].ewm(**kwargs).corr(m["b"]), pdf["a"].ewm(**kwargs).corr(pdf["b"]), atol=1e-12)
    assert_eq(m["a"].ewm(**kwargs).cov(m["b"]), pdf["a"].ewm(**kwargs).cov(pdf["b"]), atol=1e-12)
    assert_eq(m["a"].ewm(**kwargs).cov(m["b"], bias=True), pdf["a"].ewm(**kwargs).cov(pdf["b"], bias=True),
              atol=1e-12)
    flt, pflt = m[m["b"] > 2], pdf[pdf["b"] > 2]
    assert_eq(flt["a"].ewm(**kwargs).corr(m["b"]), pflt["a"].ewm(**kwargs).corr(pdf["b"]), atol=1e-12)
    with pytest.raises(NotImplementedError):
        m.ewm(span=3).corr()
