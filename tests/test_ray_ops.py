"""A slice of every primitive run on Ray (the op test files cover the API on the local executor)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


def test_seed_example_on_ray():
    a = mt.ones((2000, 2000), chunk_size=200)
    b = mt.inner(a, a)
    assert b.execute() is b
    np.testing.assert_array_equal(b.fetch(), np.full((2000, 2000), 2000.0))
    pd.testing.assert_series_equal(md.DataFrame(a).sum().execute().fetch(),
                                   pd.DataFrame(np.ones((2000, 2000))).sum())


def test_elementwise_chain_and_reduction_fuse(session):
    data = np.random.default_rng(0).random((300, 200))
    x = mt.tensor(data, chunk_size=(70, 90))
    expr = ((x * 2 + 1) ** 2 - x).mean(axis=0).sum()
    assert_eq(expr, ((data * 2 + 1) ** 2 - data).mean(axis=0).sum())
    x.execute()
    expr2 = ((x * 2 + 1) ** 2 - x).mean(axis=0)
    expr2.execute()
    # 15 chunks: each elementwise chain + its partial mean is one subtask, plus the combine tree
    assert session.last_task["subtasks"] < 15 * 2


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_reductions_on_ray(axis):
    data = np.random.default_rng(1).normal(size=(57, 33))
    t = mt.tensor(data, chunk_size=(10, 7))
    assert_eq(t.var(axis=axis, ddof=1), data.var(axis=axis, ddof=1))
    assert_eq(t.argmax(axis=axis if not isinstance(axis, tuple) else None),
              data.argmax(axis=axis if not isinstance(axis, tuple) else None))


def test_dot_on_unaligned_grids_on_ray():
    a_np, b_np = np.arange(12 * 9.0).reshape(12, 9), np.arange(9 * 5.0).reshape(9, 5)
    a, b = mt.tensor(a_np, chunk_size=(5, 4)), mt.tensor(b_np, chunk_size=(3, 2))
    assert_eq(a @ b, a_np @ b_np)
    with pytest.raises(ValueError):
        mt.dot(a, a)


def test_boolean_mask_retiles_and_refreshes_shape_on_ray():
    data = np.random.default_rng(2).random((40, 30))
    t = mt.tensor(data, chunk_size=(15, 12))
    picked = t[t > 0.5]
    assert np.isnan(picked.shape[0])
    assert_eq((picked + 1).sum(), (data[data > 0.5] + 1).sum())
    picked.execute()
    assert picked.shape == (int((data > 0.5).sum()),)  # known after execution
    assert_eq(picked[:7].reshape(7, 1), data[data > 0.5][:7].reshape(7, 1))


def test_shape_operations_on_ray():
    data = np.arange(6 * 8 * 5).reshape(6, 8, 5)
    t = mt.tensor(data, chunk_size=(4, 3, 2))
    assert_eq(t.transpose(2, 0, 1).reshape(10, 24), data.transpose(2, 0, 1).reshape(10, 24))
    assert_eq(t[1:, ::-2, 3], data[1:, ::-2, 3])
    assert_eq(t.rechunk(5), data)


def test_dataframe_pipeline_on_ray():
    rng = np.random.default_rng(3)
    pdf = pd.DataFrame({"k": rng.integers(0, 7, 500), "a": rng.random(500), "b": rng.integers(0, 9, 500)})
    df = md.DataFrame(pdf, chunk_size=120)
    assert_eq(df[["a", "b"]] * 2 + 1, pdf[["a", "b"]] * 2 + 1)
    assert_eq(df.mean(), pdf.mean())
    assert_eq(df["a"].max(), pdf["a"].max())
    assert_eq(df.head(130), pdf.head(130))
    with pytest.raises(KeyError):
        df["missing"]


@pytest.mark.parametrize("max_groups", [10_000, 0])  # tree reduction, then forced shuffle
def test_groupby_strategies_on_ray(max_groups, monkeypatch):
    monkeypatch.setattr(mr.options, "groupby_tree_max_groups", max_groups)
    rng = np.random.default_rng(4)
    pdf = pd.DataFrame({"k": rng.integers(0, 50, 2000), "v": rng.random(2000), "w": rng.random(2000)})
    df = md.DataFrame(pdf, chunk_size=300)
    assert_eq(df.groupby("k").agg({"v": "sum", "w": ["min", "mean"]}),
              pdf.groupby("k").agg({"v": "sum", "w": ["min", "mean"]}))
    assert_eq(df.groupby("k")["v"].count(), pdf.groupby("k")["v"].count())


def test_regression_stored_chunk_known_by_meta_reaches_next_stage():
    """A chunk stored by an earlier task, whose shape a later task only looked up, must still be
    passed to that task's subtasks (it was dropped: KeyError in the scheduler)."""
    data = np.arange(50.0)
    t = mt.tensor(data, chunk_size=8)
    picked = t[t % 3 == 0].execute()
    assert_eq(picked[2:5] * 2, data[data % 3 == 0][2:5] * 2)
