"""Reshaping on a local Ray: melt, stack, explode, get_dummies, transpose, dot, rebalance, plot."""
from __future__ import annotations

import sys
import types
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    return pd.DataFrame({"a": rs.randint(0, 4, 41), "b": rs.rand(41), "s": [f"x{i % 3}" for i in range(41)]},
                        index=[f"r{i % 29}" for i in range(41)])


def test_melt_stack_explode_on_ray(df):
    m = md.DataFrame(df, chunk_size=7)
    flt, expected = m[m["a"] > 0], df[df["a"] > 0]
    assert_eq(flt.melt(id_vars=["s"]), expected.melt(id_vars=["s"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(m[["a", "b"]].stack(), df[["a", "b"]].stack())
    lists = df["a"].map(lambda n: list(range(n)))
    assert_eq(md.Series(lists, chunk_size=6).explode(ignore_index=True), lists.explode(ignore_index=True))


def test_get_dummies_and_transpose_learn_on_the_session(session, df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(md.get_dummies(m[m["a"] > 0], columns=["a", "s"]), pd.get_dummies(df[df["a"] > 0], columns=["a", "s"]))
    assert_eq(m.T, df.T)


def test_dot_and_rebalance_on_ray(session, df):
    m = md.DataFrame(df[["a", "b"]], chunk_size=6)
    other = pd.DataFrame(np.arange(6.0).reshape(2, 3), index=["a", "b"], columns=["p", "q", "r"])
    assert_eq(m @ md.DataFrame(other), df[["a", "b"]] @ other)
    assert_eq(m["b"] @ m, df["b"] @ df[["a", "b"]])
    r = m.rebalance(num_partitions=3)
    assert_eq(r, df[["a", "b"]])
    assert r.to_ray_dataset().num_blocks() == 3  # the chunks as Ray holds them


def test_plot_computes_on_the_session(df, monkeypatch):
    drawn = []
    module = types.ModuleType("mars_ray_test_plot_backend")
    module.plot = lambda data, **kw: drawn.append(data) or "ok"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    m = md.DataFrame(df, chunk_size=7)
    assert m[m["a"] > 1].plot.line(backend=module.__name__) == "ok"
    pd.testing.assert_frame_equal(drawn[0], df[df["a"] > 1])


def test_unstack_cat_resample_crosstab_merge_asof_on_ray(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.groupby(["s", "a"])["b"].sum().unstack(), df.groupby(["s", "a"])["b"].sum().unstack())
    assert_eq(m["s"].astype("category").cat.codes, df["s"].astype("category").cat.codes)
    assert_eq(md.crosstab(m["s"], m["a"], margins=True), pd.crosstab(df["s"], df["a"], margins=True))
    timed = df.assign(t=pd.date_range("2021-01-01", periods=len(df), freq="7h"))
    mt_ = md.DataFrame(timed, chunk_size=7)
    assert_eq(mt_.resample("1D", on="t")["b"].mean(), timed.resample("1D", on="t")["b"].mean())
    assert_eq(mt_.groupby(pd.Grouper(key="t", freq="2D"))["b"].sum(),
              timed.groupby(pd.Grouper(key="t", freq="2D"))["b"].sum())
    right = pd.DataFrame({"t": pd.date_range("2021-01-01", periods=9, freq="1D"), "r": np.arange(9.0)})
    assert_eq(md.merge_asof(mt_, md.DataFrame(right, chunk_size=4), on="t"), pd.merge_asof(timed, right, on="t"))


def test_label_slices_lazy_positions_and_sorting_columns_on_ray(df):
    m, p = md.DataFrame(df.sort_index(), chunk_size=7), df.sort_index()
    m.loc["r10":"r15", "b"] = -1.0
    p.loc["r10":"r15", "b"] = -1.0
    assert_eq(m, p)
    import mars_on_ray.tensor as mt

    perm = np.random.RandomState(2).permutation(len(df))
    assert_eq(m.iloc[mt.tensor(perm, chunk_size=10)], p.iloc[perm])
    assert_eq(m[["a", "b"]].sort_values("r20", axis=1), p[["a", "b"]].sort_values("r20", axis=1))
    assert len(m[m["a"] > 1]) == int((p["a"] > 1).sum())
