"""Fusion of the steps of one chunk, and row blocks that pair up while their sizes are unknown.

Regressions (TPC-H q6 at SF1, 0.72 s -> 0.23 s): the comparisons combined into one mask were
split into six subtasks per chunk (fan-in from several groups always started a new group), and
``f[mask]["a"] * f[mask]["b"]`` waited for the filtered chunks' real sizes (an extra stage).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.config import using
from mars_on_ray.core.fusion import build_steps, fuse
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

N_CHUNKS = 5


def _frame():
    rng = np.random.default_rng(3)
    n = 1003
    return pd.DataFrame({"a": rng.random(n), "b": rng.random(n), "c": rng.integers(0, 50, n)})


def _subtasks(expr, source) -> list:
    """The fused subtasks of ``expr`` when ``source``'s chunks are stored (as after execute)."""
    executor = LocalExecutor()
    tiled = executor.tile(expr.data)
    stored = {c.key for c in executor.tile(source.data).flat}
    steps = build_steps(list(tiled.flat), stored)
    return fuse(steps, {c.key for c in tiled.flat})


def test_masks_of_one_chunk_combined_fuse_into_one_subtask_per_chunk():
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=-(-len(pdf) // N_CHUNKS))
    expr = df[(df["a"] > 0.2) & (df["b"] < 0.7) & (df["c"] >= 3) & (df["a"] <= 0.9)]
    specs = _subtasks(expr, df)
    assert len(specs) == N_CHUNKS, [s.label for s in specs]
    assert_eq(expr, pdf[(pdf["a"] > 0.2) & (pdf["b"] < 0.7) & (pdf["c"] >= 3) & (pdf["a"] <= 0.9)])


def test_tree_reduction_partials_stay_in_parallel_subtasks():
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=-(-len(pdf) // N_CHUNKS))
    expr = (df["a"] * df["b"]).sum()
    specs = _subtasks(expr, df)
    # one partial per chunk in its own subtask, then the combine: never one serial subtask
    assert len(specs) > N_CHUNKS, [s.label for s in specs]
    assert_eq(expr, (pdf["a"] * pdf["b"]).sum())


def test_columns_of_one_filtered_frame_pair_up_without_their_sizes():
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=-(-len(pdf) // N_CHUNKS))
    kept = df[df["a"] > 0.5]
    expr = (kept["a"] * kept["b"]).sum()
    with using({"small_data_bytes": 0}):
        plan = str(mr.explain(expr))
    assert "real shapes" not in plan, plan
    kept_p = pdf[pdf["a"] > 0.5]
    assert_eq(expr, (kept_p["a"] * kept_p["b"]).sum())
    assert_eq(kept["a"] - kept["b"] * 2, kept_p["a"] - kept_p["b"] * 2)


def test_a_pruned_frame_read_by_many_column_steps_of_its_chunk_fuses_with_them():
    # the column selection pruning puts in front of a frame in memory feeds every column
    # step of its chunk (a fan-out of 5 here, all within the chunk): one subtask per chunk
    pdf = _frame().assign(unused=lambda f: f["a"].astype(str))
    df = md.DataFrame(pdf, chunk_size=-(-len(pdf) // N_CHUNKS))
    kept = df[(df["a"] > 0.2) & (df["b"] < 0.7) & (df["c"] >= 3) & (df["a"] <= 0.9)]
    expr = (kept["a"] * kept["b"]).sum()
    specs = _subtasks(expr, df)
    partials = [s for s in specs if len(s.steps) > 1]
    assert len(partials) == N_CHUNKS, [s.label for s in specs]
    p = pdf[(pdf["a"] > 0.2) & (pdf["b"] < 0.7) & (pdf["c"] >= 3) & (pdf["a"] <= 0.9)]
    assert_eq(expr, (p["a"] * p["b"]).sum())


def test_groups_that_claimed_each_others_broadcast_constants_do_not_wait_for_each_other():
    """Two client arrays broadcast over the row blocks of a reshaped range: the fused
    subtasks each claimed one array the other read, a cycle (a KeyError in the local executor,
    a subtask that never starts on Ray)."""
    from mars_on_ray.core.fusion import _topological

    y = mt.arange(7, chunk_size=3).reshape(-1, 1)
    t = y * np.array([1.0, 2.0]) + np.array([0.0, 1.0])
    expected = np.arange(7.0).reshape(-1, 1) * np.array([1.0, 2.0]) + np.array([0.0, 1.0])
    np.testing.assert_array_equal(LocalExecutor().compute(t.data)[0], expected)
    tiled = LocalExecutor().tile(t.data)
    specs = fuse(build_steps(tiled.flat, set()), {c.key for c in tiled.flat})
    produced = set()
    for spec in specs:  # in order, every subtask reads only what earlier ones produced
        assert set(spec.input_keys) <= produced
        produced.update(spec.output_keys)
    assert _topological({0: {1}, 1: set()}) == [1, 0] and _topological({0: {1}, 1: {0}}) is None
