"""Windows, cumulative operations and row-wise groupby run on Ray (the op test files cover the
API on the local executor). Chunk sizes do not divide the data, so carries and borrowed rows
cross subtask boundaries."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture(scope="module")
def df():
    rs = np.random.RandomState(0)
    n = 203
    frame = pd.DataFrame({"k": rs.randint(0, 6, n), "v": rs.rand(n), "w": rs.randint(-9, 9, n)},
                         index=[f"r{i % 50}" for i in range(n)])
    frame.iloc[rs.rand(n) > 0.8, 1] = np.nan
    return frame


def test_cumulative_and_fills(df):
    m = md.DataFrame(df, chunk_size=29)
    assert_eq(m.cumsum(), df.cumsum())
    assert_eq(m["v"].cummax(), df["v"].cummax())
    assert_eq(m.ffill(), df.ffill())
    assert_eq(m.bfill(limit=2), df.bfill(limit=2))
    assert_eq(m.fillna(0, limit=3), df.fillna(0, limit=3))


def test_shift_diff_pct_change(df):
    m = md.DataFrame(df, chunk_size=29)
    assert_eq(m.shift(31), df.shift(31))
    assert_eq(m.diff(-3), df.diff(-3))
    assert_eq(m["v"].pct_change(2, fill_method=None), df["v"].pct_change(2, fill_method=None))


def test_rolling_expanding_ewm(df):
    m = md.DataFrame(df, chunk_size=29)
    assert_eq(m.rolling(40, min_periods=5).mean(), df.rolling(40, min_periods=5).mean())
    assert_eq(m.rolling(7, center=True).max(), df.rolling(7, center=True).max())
    assert_eq(m.expanding(3).std(), df.expanding(3).std())
    assert_eq(m.expanding().median(), df.expanding().median())
    assert_eq(m.ewm(span=10).mean(), df.ewm(span=10).mean(), rtol=1e-6)
    assert_eq(m["v"].ewm(alpha=0.3, adjust=False).mean(), df["v"].ewm(alpha=0.3, adjust=False).mean(),
              rtol=1e-6)
    assert_eq(m.ewm(com=3).var(), df.ewm(com=3).var(), rtol=1e-6)


def test_groupby_rowwise_and_apply(df):
    m = md.DataFrame(df, chunk_size=29)
    assert_eq(m.groupby("k").cumsum(), df.groupby("k").cumsum())
    assert_eq(m.groupby("k").cumcount(), df.groupby("k").cumcount())
    assert_eq(m.groupby("k").v.transform("mean"), df.groupby("k").v.transform("mean"))
    assert_eq(m.groupby("k").head(3), df.groupby("k").head(3))
    assert_eq(m.groupby("k", sort=False).v.apply(lambda s: s.max() - s.min()),
              df.groupby("k", sort=False).v.apply(lambda s: s.max() - s.min()))
    assert_eq(m.groupby("k")[["v", "w"]].skew(), df.groupby("k")[["v", "w"]].skew())
    got = m.groupby("k").sample(n=2, random_state=0).execute().fetch()
    assert (got.groupby("k").size() == 2).all()


def test_time_rolling_on_ray():
    rng = np.random.default_rng(5)
    idx = pd.DatetimeIndex(np.sort(rng.integers(0, 10**5, 90)) * 10**7)
    pdf = pd.DataFrame({"a": rng.standard_normal(90)}, index=idx)
    m = md.DataFrame(pdf, chunk_size=11)
    assert_eq(m.rolling("30s", center=True).mean(), pdf.rolling("30s", center=True).mean())
