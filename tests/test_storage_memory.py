"""Memory-aware execution: subtasks declare their estimated peak to Ray; a subtask killed for
memory fails the task with a MemoryError naming the operation."""
from __future__ import annotations

import contextlib
import json

import numpy as np
import pytest
import ray

import mars_on_ray as mr
import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.small_data import peak_bytes, plan_stage
from mars_on_ray.services.memory_rerun import groups_to_resubmit, with_more_room
from mars_on_ray.services.subtask import SubtaskPayload
from mars_on_ray.storage.memory import DECLARE_FROM, killed_for_memory, subtask_memory
from support import RecordResources, fill, map_chunks

MiB = 2**20


@pytest.fixture
def distributed():
    old = mr.options.small_data_bytes
    mr.options.small_data_bytes = 0
    yield
    mr.options.small_data_bytes = old


def _stage(t):
    chunks = LocalExecutor().tile(t.data).flat
    stage = plan_stage(chunks, set(), 2)
    return stage.specs, {c.key: c for c in topo_order(chunks)}


def test_subtasks_declare_their_peak_rounded_to_a_power_of_two_mib(distributed):
    specs, nodes = _stage(mt.ones((6000, 6000), chunk_size=3000) + 1)  # 4 chunks of 72 MB
    assert len(specs) == 4
    for spec in specs:
        peak = peak_bytes(spec.steps, nodes, set(spec.output_keys))
        declared = subtask_memory(spec, nodes, cap=64 * 2**30)
        assert peak <= declared < 2 * peak
        assert declared // MiB & (declared // MiB - 1) == 0  # a power of two MiB
        assert subtask_memory(spec, nodes, cap=100 * MiB) == 100 * MiB  # never above the node


def test_small_or_unknown_subtasks_declare_nothing(distributed):
    specs, nodes = _stage(mt.ones((100, 100), chunk_size=50) + 1)
    assert all(subtask_memory(s, nodes, cap=2**40) == 0 for s in specs)
    assert DECLARE_FROM > 100 * 100 * 8
    specs, _ = _stage(mt.ones((6000, 6000), chunk_size=3000) + 1)
    assert all(subtask_memory(s, {}, cap=2**40) == 0 for s in specs)  # sizes unknown


def test_memory_error_names_the_operation_and_the_declaration():
    exc = killed_for_memory("map_chunks", 256 * MiB, RuntimeError("Task was killed due to OOM"))
    assert isinstance(exc, MemoryError)
    assert "map_chunks" in str(exc) and "256 MiB" in str(exc)
    assert any("killed due to OOM" in note for note in exc.__notes__)


def test_ray_gives_a_subtask_the_memory_it_declared(session, distributed, tmp_path):
    record = tmp_path / "resources.json"
    t = map_chunks(fill((6000, 3000), chunk_size=(6000, 3000)), func=RecordResources(str(record)))
    np.testing.assert_array_equal(t.fetch()[::1000, ::1000], np.full((6, 3), 2.0))
    # fill's 144 MB output and the map's 144 MB output live at once: 288 MB -> 512 MiB
    assert json.loads(record.read_text())["memory"] == 512 * MiB
    assert ray.cluster_resources()["memory"] >= 512 * MiB


def test_memory_error_says_the_subtask_ran_alone():
    exc = killed_for_memory("map_chunks", 0, RuntimeError("OOM"), alone_on=4)
    assert "killed even running alone on a node (4 CPUs held)" in str(exc)


def _spec(inputs, outputs, cpus=1):
    return SubtaskPayload(inputs, outputs, "op", b"", cpus)


def test_a_killed_group_is_resubmitted_with_what_reads_it_directly_or_not():
    specs = [_spec([], ["a"]), _spec([], ["b"]), _spec(["a"], ["c"]), _spec(["b"], ["d"]),
             _spec(["c"], ["e"]), _spec(["x"], ["f"])]
    groups = [[0], [1], [2, 3], [4], [5]]  # [2, 3] a batch: lost as a whole
    assert groups_to_resubmit(groups, specs, killed={0}, finished=set()) == [0, 2, 3]
    assert groups_to_resubmit(groups, specs, killed={1}, finished=set()) == [1, 2, 3]
    # a finished group keeps its outputs; a killed one is resubmitted even if part finished
    assert groups_to_resubmit(groups, specs, killed={0}, finished={1, 3}) == [0, 2]
    assert groups_to_resubmit(groups, specs, killed={4}, finished={4}) == [4]


def test_more_room_is_every_cpu_of_the_largest_node_and_only_once():
    roomier = with_more_room(_spec(["a"], ["b"]), node_cpus=8)
    assert roomier.cpus == 8 and roomier.input_keys == ["a"]
    assert with_more_room(roomier, node_cpus=8) is None
    assert with_more_room(_spec([], ["b"]), node_cpus=1) is None  # one CPU: it already ran alone


@contextlib.contextmanager
def _memory_monitor_session(headroom_gib: float, num_cpus: int, **system_config):
    """A local Ray whose memory monitor kills above this machine's current use + headroom."""
    import psutil

    import support
    from mars_on_ray.services.registry import reset_handles

    if ray.is_initialized():
        ray.shutdown()
    ray.cloudpickle.register_pickle_by_value(support)
    reset_handles()
    vm = psutil.virtual_memory()
    threshold = min(0.95, (vm.total - vm.available + headroom_gib * 2**30) / vm.total)
    session = mr.new_session(address="local", num_cpus=num_cpus, log_to_driver=False,
                             _system_config={"memory_usage_threshold": threshold,
                                             "memory_monitor_refresh_ms": 100, **system_config})
    old = mr.options.small_data_bytes
    mr.options.small_data_bytes = 0  # one subtask per chunk, run side by side
    try:
        yield session
    finally:
        mr.options.small_data_bytes = old
        session.close()
        ray.shutdown()
        reset_handles()


@pytest.mark.slow
def test_subtasks_killed_for_memory_side_by_side_succeed_when_re_run_alone(tmp_path):
    """Two subtasks of 2 GiB each under a 3 GiB headroom: Ray kills one on every retry while
    the other runs; re-run alone it fits. Its sum (a combine reading the killed output in the
    same stage) is resubmitted after it and gives the right answer."""
    from support import Allocate

    log = tmp_path / "attempts"
    with _memory_monitor_session(3, num_cpus=2, task_oom_retry_delay_base_ms=100):
        pair = map_chunks(fill((2,), chunk_size=1), func=Allocate(2, seconds=5, log=str(log)),
                          label="hungry_pair")
        assert pair.sum().fetch() == 4.0
    attempts = len(log.read_text().splitlines())
    assert attempts >= 2 + 2  # killed at least twice (Ray's retries), then once alone


@pytest.mark.slow
def test_subtask_killed_for_memory_fails_with_a_memory_error_naming_the_operation():
    """Ray's memory monitor set to kill above this machine's current use + 3 GiB; one subtask
    wants 8 GiB: no hang, no endless retries (Ray's own are bounded by mars_on_ray's node
    settings; then one run alone on the node), a MemoryError naming the operation."""
    from support import Allocate

    with _memory_monitor_session(3, num_cpus=2):
        # two subtasks of one CPU each: each is re-run alone (both CPUs), and killed again
        hungry = map_chunks(fill((4,), chunk_size=2), func=Allocate(8), label="hungry_op")
        with pytest.raises(MemoryError, match="hungry_op: a subtask was killed by Ray's memory"
                                              r".*running alone on a node \(2 CPUs held\)"):
            hungry.execute()
        # the session stays usable
        np.testing.assert_array_equal(map_chunks(fill((3,), chunk_size=2)).fetch(), np.full(3, 2.0))
