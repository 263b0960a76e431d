"""Statistics on Ray: every family once (values stages of quantile and cut run on the services)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture(scope="module")
def df():
    rs = np.random.RandomState(11)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 61), "b": rs.rand(61) * 100, "c": rs.rand(61) > 0.3,
                          "s": [f"x{i % 4}" for i in range(61)]},
                         index=[f"r{i % 53:02d}" for i in range(61)])
    frame.iloc[[3, 17], 1] = np.nan
    return frame


def test_reductions_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    num = ["a", "b", "c"]
    assert_eq(m.all(), df.all())
    assert_eq(m["c"].any(), df["c"].any())
    assert_eq(m[num].skew(), df[num].skew())
    assert_eq(m[num].kurt(), df[num].kurt())
    assert_eq(m["b"].sem(), df["b"].sem())
    assert_eq(m[num].memory_usage(), df[num].memory_usage())


def test_quantile_median_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    num = ["a", "b"]
    assert_eq(m[num].quantile([0.1, 0.5, 0.95]), df[num].quantile([0.1, 0.5, 0.95]))
    assert_eq(m["b"].quantile(0.3, interpolation="nearest"), df["b"].quantile(0.3, interpolation="nearest"))
    assert_eq(m[num].median(), df[num].median())


def test_corr_cov_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    num = ["a", "b", "c"]
    assert_eq(m[num].corr(), df[num].corr())
    assert_eq(m[num].cov(), df[num].cov())
    assert_eq(m[num].corr(method="spearman"), df[num].corr(method="spearman"))
    assert_eq(m["a"].corr(m["b"]), df["a"].corr(df["b"]))
    assert_eq(m["b"].autocorr(2), df["b"].autocorr(2))
    assert_eq(m[num].corrwith(m["b"]), df[num].corrwith(df["b"]))


def test_describe_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    assert_eq(m.describe(include="all"), df.describe(include="all"))


def test_cut_qcut_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    assert_eq(md.cut(m["b"], [0, 25, 50, 100]), pd.cut(df["b"], [0, 25, 50, 100]))
    res, bins = md.cut(m["b"], 4, retbins=True)
    expected, expected_bins = pd.cut(df["b"], 4, retbins=True)
    pd.testing.assert_series_equal(res.fetch(), expected)
    np.testing.assert_array_equal(bins.fetch(), expected_bins)
    pd.testing.assert_series_equal(md.qcut(m["b"], 5).fetch(), pd.qcut(df["b"], 5))


def test_rank_mode_idxmax_clip_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    assert_eq(m[["a", "b"]].rank(method="min", na_option="top"), df[["a", "b"]].rank(method="min", na_option="top"))
    assert_eq(m["a"].mode(), df["a"].mode())
    assert_eq(m[["a", "b"]].idxmax(), df[["a", "b"]].idxmax())
    assert_eq(m["b"].clip(10, m["b"].median()), df["b"].clip(10, df["b"].median()))
    assert_eq(m["b"].interpolate(), df["b"].interpolate())
    assert_eq(m["b"] - m["b"].mean(), df["b"] - df["b"].mean())


def test_groupby_additions_on_ray(df):
    m = md.DataFrame(df, chunk_size=9)
    assert_eq(m.groupby("s")["b"].quantile([0.25, 0.5]), df.groupby("s")["b"].quantile([0.25, 0.5]))
    assert_eq(m.groupby("s")["b"].idxmax(), df.groupby("s")["b"].idxmax())
    assert_eq(m.groupby("s").nth(1), df.groupby("s").nth(1))
    assert_eq(m.groupby("s").filter(lambda g: g["b"].mean() > 50), df.groupby("s").filter(lambda g: g["b"].mean() > 50))
    assert_eq(m.groupby("s")["b"].rolling(3).sum(), df.groupby("s")["b"].rolling(3).sum())
    assert_eq(m.groupby("s")["a"].value_counts(), df.groupby("s")["a"].value_counts())
    assert_eq(m.groupby(np.arange(len(df)) % 3)["b"].sum(), df.groupby(np.arange(len(df)) % 3)["b"].sum())
    assert len(m.groupby("s")) == df.groupby("s").ngroups
    assert_eq(m.groupby("s").get_group("x1"), df.groupby("s").get_group("x1"))
