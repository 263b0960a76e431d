"""Sorting, top-k and the key-statistics shuffle (duplicates, value_counts, nunique, unique,
monotonicity) run on Ray."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture
def df():
    rs = np.random.RandomState(7)
    n = 300
    frame = pd.DataFrame({"k": rs.randint(0, 20, n), "v": rs.rand(n), "s": rs.choice(["p", "q", "r"], n)},
                         index=[f"i{j}" for j in rs.permutation(n)])
    frame.loc[frame.index[::17], "v"] = np.nan
    return frame


@pytest.fixture(params=["tree", "shuffle"])
def strategy(request):
    old = options.groupby_tree_max_groups
    options.groupby_tree_max_groups = 10**9 if request.param == "tree" else 0
    yield request.param
    options.groupby_tree_max_groups = old


def test_sort_on_ray(df):
    m = md.DataFrame(df, chunk_size=41)
    assert_eq(m.sort_values(["k", "s"], ascending=[True, False], kind="stable"),
              df.sort_values(["k", "s"], ascending=[True, False], kind="stable"))
    assert_eq(m.sort_values("v", na_position="first", ignore_index=True),
              df.sort_values("v", na_position="first", ignore_index=True))
    assert_eq(m.sort_index(ascending=False), df.sort_index(ascending=False))
    assert_eq(m["k"].sort_values(kind="stable"), df["k"].sort_values(kind="stable"))


def test_top_k_on_ray(df):
    m = md.DataFrame(df, chunk_size=41)
    assert_eq(m.nlargest(7, ["k", "v"]), df.nlargest(7, ["k", "v"]))
    assert_eq(m["k"].nsmallest(9, keep="all"), df["k"].nsmallest(9, keep="all"))
    assert_eq(m.sort_values("v").head(5), df.sort_values("v").head(5))


def test_duplicates_on_ray(df, strategy):
    m = md.DataFrame(df, chunk_size=41)
    assert_eq(m.drop_duplicates(["k", "s"], keep="last"), df.drop_duplicates(["k", "s"], keep="last"))
    assert_eq(m.duplicated("k", keep=False), df.duplicated("k", keep=False))
    assert_eq(m["s"].drop_duplicates(ignore_index=True), df["s"].drop_duplicates(ignore_index=True))


def test_counts_on_ray(df, strategy):
    m = md.DataFrame(df, chunk_size=41)
    assert_eq(m["k"].value_counts(), df["k"].value_counts())
    assert_eq(m.value_counts(["s", "k"], normalize=True), df.value_counts(["s", "k"], normalize=True))
    assert_eq(m["v"].nunique(), df["v"].nunique())
    assert_eq(m.nunique(dropna=False), df.nunique(dropna=False))
    assert_eq(m["s"].unique(), df["s"].unique())


def test_monotonic_on_ray(df):
    m = md.DataFrame(df, chunk_size=41)
    assert m["k"].is_monotonic_increasing is False  # Python bools, computed on the session
    assert m["k"].sort_values().is_monotonic_increasing is True
    assert m.sort_index(ascending=False).index.is_monotonic_decreasing is True


def test_unsorted_and_multi_key_groupby_shuffles_on_ray(df, monkeypatch):
    # sort=False: groups range-partitioned by first appearance, one result chunk per range;
    # sorted on several keys: the reduced groups range-partitioned as sort_index does
    monkeypatch.setattr(options, "groupby_tree_max_groups", 0)
    m = md.DataFrame(df, chunk_size=47)
    assert_eq(m.groupby("k", sort=False).agg({"v": ["sum", "max"]}), df.groupby("k", sort=False).agg({"v": ["sum", "max"]}))
    assert_eq(m.groupby("s", sort=False, as_index=False)["v"].median(),
              df.groupby("s", sort=False, as_index=False)["v"].median())
    assert_eq(m.groupby("k")["v"].rank(), df.groupby("k")["v"].rank())
    assert_eq(m.groupby(["s", "k"]).agg({"v": ["sum", "median"]}), df.groupby(["s", "k"]).agg({"v": ["sum", "median"]}))
