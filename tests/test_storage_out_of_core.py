"""Work several times larger than the object store (300 MB): right answers, spilled data in the
chosen directories, nothing left in them once the session closes. Slow: gigabytes on 2 cores."""
from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd
import pytest
import ray

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.services.registry import reset_handles

pytestmark = pytest.mark.slow

STORE = 300 * 1024**2


def spill_files(directory) -> list[str]:
    return [os.path.join(root, f) for root, _, files in os.walk(directory) for f in files]


def wait_until(predicate, timeout=60.0) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


@pytest.fixture
def small_store(tmp_path):
    """A Ray started by new_session with a 300 MB object store and two spill directories;
    yields (session, dirs, spilled-files seen per dir while it ran)."""
    if ray.is_initialized():
        ray.shutdown()
    reset_handles()
    dirs = [str(tmp_path / "spill-a"), str(tmp_path / "spill-b")]
    # new_session retries Ray's start-up on a loaded machine
    session = mr.new_session(address="local", cache_mem=STORE, spill_dirs=dirs,
                             num_cpus=2, log_to_driver=False)
    try:
        yield session, dirs
        session.close()
        # the session's objects are freed: Ray deletes their spill files
        assert wait_until(lambda: not any(spill_files(d) for d in dirs)), {
            d: spill_files(d) for d in dirs}
    finally:
        ray.shutdown()
        reset_handles()


def _assert_spilled_to(session, dirs) -> None:
    stats = session.storage_stats()
    assert stats["spilled_bytes"] > 0
    assert all(spill_files(d) for d in dirs), {d: spill_files(d) for d in dirs}


def test_tensor_chain_and_reduction_over_1gb_with_a_300mb_store(small_store):
    session, dirs = small_store
    n = 12_000  # 12000 x 12000 float64: 1.15 GB per intermediate
    rows = mt.arange(n, chunk_size=2500, dtype="float64")[:, None] / n
    cols = mt.arange(n, chunk_size=2500, dtype="float64")[None, :] / n
    x = rows * 3 + cols  # broadcast: every chunk made where it is used
    y = mt.sqrt(mt.abs(mt.sin(x) * 2 - x)) + 1  # an elementwise chain, 1.15 GB
    y.execute()  # held: the 1.15 GB result cannot stay in a 300 MB store
    col_sums, total = mr.fetch(y.sum(axis=0), y.max())
    _assert_spilled_to(session, dirs)
    value = y.fetch()  # the whole 1.15 GB result back to the client
    del y, x

    expected = np.arange(n, dtype="float64")[:, None] / n * 3 + np.arange(n, dtype="float64")[None, :] / n
    value_ref = np.sin(expected)
    value_ref *= 2
    value_ref -= expected
    np.abs(value_ref, out=value_ref)
    np.sqrt(value_ref, out=value_ref)
    value_ref += 1
    del expected
    np.testing.assert_allclose(value, value_ref, rtol=1e-12)
    np.testing.assert_allclose(col_sums, value_ref.sum(axis=0), rtol=1e-10)
    assert total == value_ref.max()


def test_dataframe_groupby_and_sort_over_3x_the_store(small_store):
    session, dirs = small_store
    rows = 30_000_000  # 4 columns x 8 bytes: 960 MB, over 3x the store
    rng = np.random.default_rng(0)
    pdf = pd.DataFrame({"key": rng.integers(0, 1000, rows), "a": rng.random(rows),
                        "b": rng.standard_normal(rows), "c": rng.integers(0, 10**9, rows)})
    assert pdf.memory_usage(index=True).sum() > 3 * STORE
    df = md.DataFrame(pdf, chunk_size=1_500_000)
    grouped = df.groupby("key").agg({"a": "sum", "b": "mean", "c": "max"})
    ordered = df.sort_values("c", kind="stable")
    got_grouped, got_sorted = mr.fetch(grouped, ordered)
    _assert_spilled_to(session, dirs)
    pd.testing.assert_frame_equal(got_grouped, pdf.groupby("key").agg({"a": "sum", "b": "mean",
                                                                         "c": "max"}))
    del df, grouped, ordered
    expected = pdf.sort_values("c", kind="stable")
    pd.testing.assert_frame_equal(got_sorted, expected)
