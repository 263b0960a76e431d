"""A Ray started by new_session with Mars tuning: a small object store spilling to several dirs."""
from __future__ import annotations

import os
import time

import numpy as np
import pytest
import ray

import mars_on_ray as mr
import mars_on_ray.tensor as mt
from mars_on_ray.services.registry import reset_handles


def spill_files(directory) -> list[str]:
    """Files Ray spilled under ``directory`` (it writes them in per-node subfolders)."""
    return [os.path.join(root, f) for root, _, files in os.walk(directory) for f in files]


def wait_until(predicate, timeout=30.0) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.fixture(scope="module")
def spilling_session(tmp_path_factory):
    """Ray started by ``new_session``: an 80 MiB object store and two spill directories."""
    if ray.is_initialized():
        ray.shutdown()
    reset_handles()
    base = tmp_path_factory.mktemp("spill")
    dirs = [str(base / "first"), str(base / "second")]
    # one spill worker: Ray's round robin over the directories is then strict, not per worker
    session = mr.new_session(address="local", cache_mem="80m", spill_dirs=":".join(dirs),
                             num_cpus=2, log_to_driver=False, _system_config={"max_io_workers": 1})
    yield session, dirs
    session.close()
    ray.shutdown()
    reset_handles()


def test_new_session_starts_ray_with_the_tuning(spilling_session):
    from ray._private.internal_api import get_memory_info_reply, get_state_from_address

    reply = get_memory_info_reply(get_state_from_address(ray.get_runtime_context().gcs_address))
    assert reply.store_stats.object_store_bytes_avail == 80 * 1024**2


def test_data_larger_than_the_store_spills_into_every_directory(spilling_session):
    session, dirs = spilling_session
    # 160 MB in 20 chunks of 8 MB: twice the object store, kept alive by the session
    data = mt.arange(20_000_000, chunk_size=1_000_000, dtype="float64").execute()
    assert wait_until(lambda: all(spill_files(d) for d in dirs))
    used = {d: len(spill_files(d)) for d in dirs}
    assert all(n > 0 for n in used.values()), used
    stats = session.storage_stats()
    assert stats["objects"] == 20 and stats["held_bytes"] >= 160_000_000
    assert stats["spilled_bytes"] >= 160_000_000 - 80 * 1024**2
    (node,) = stats["nodes"].values()
    assert node["spilled_bytes"] == stats["spilled_bytes"] and node["objects"] <= 20
    assert node["held_bytes"] <= stats["held_bytes"] and node["store_capacity_bytes"] == 80 * 1024**2
    # restored from disk, the values are right
    np.testing.assert_array_equal(data[::1_000_000].fetch(), np.arange(20) * 1_000_000.0)
    assert float(data.sum().fetch()) == float(np.arange(20_000_000, dtype="float64").sum())
    assert session.storage_stats()["restored_bytes"] > 0
    del data
    session.flush_releases()
    assert session.storage_stats()["objects"] == 0
    # released data leaves no spill files behind
    assert wait_until(lambda: not any(spill_files(d) for d in dirs)), {
        d: spill_files(d) for d in dirs}
