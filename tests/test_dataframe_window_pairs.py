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


def test_window_pairs_unsupported_forms_raise_not_implemented(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(NotImplementedError):
        m.rolling(3).corr(m["b"])
    with pytest.raises(NotImplementedError):
        m["a"].rolling(3).corr(m["b"], pairwise=True)
    with pytest.raises(NotImplementedError):
        m["a"].rolling(3).corr(md.Series(df["b"].reset_index(drop=True)))


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
