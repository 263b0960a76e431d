"""Sessions on a local Ray: execute/fetch, isolation, lifecycle, errors, cancellation."""
from __future__ import annotations

import time

import numpy as np
import pytest
import ray

import mars_on_ray as mr
from mars_on_ray.services import NAMESPACE, SERVICE_NAMES, get_service
from support import fill, map_chunks, object_store_used, sleep_then_add_one, stored_chunks

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture(autouse=True)
def distributed_path():
    """These tests count the subtasks of the distributed plan: the small-data path is off
    (tests/test_small_data.py covers it)."""
    old = mr.options.small_data_bytes
    mr.options.small_data_bytes = 0
    yield
    mr.options.small_data_bytes = old


def _wait_until(predicate, timeout=10.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_services_live_in_one_detached_named_supervisor_actor():
    supervisor = ray.get_actor("mars_on_ray.supervisor", namespace=NAMESPACE)
    assert ray.get(supervisor.ready.remote())
    for name in SERVICE_NAMES:
        assert ray.get(get_service(name).ready.remote())
    with pytest.raises(KeyError, match="no service named"):
        get_service("nope")


def test_execute_returns_the_object_and_fetch_the_value(session):
    t = map_chunks(fill((7, 5), value=2.0, chunk_size=3))
    assert t.execute() is t
    np.testing.assert_array_equal(t.fetch(), np.full((7, 5), 3.0))
    assert session.last_task["subtasks"] == 6  # fill -> map fused per chunk


def test_fetch_without_execute_runs_the_graph():
    np.testing.assert_array_equal(map_chunks(fill((4,), chunk_size=3)).fetch(), np.full(4, 2.0))


def test_execute_several_objects_computes_shared_work_once(session):
    base = map_chunks(fill((6, 6), chunk_size=3))  # 4 chunks
    left, right = map_chunks(base), map_chunks(map_chunks(base))
    mr.execute(left, right)
    np.testing.assert_array_equal(left.fetch(), np.full((6, 6), 3.0))
    np.testing.assert_array_equal(right.fetch(), np.full((6, 6), 4.0))
    # per chunk one subtask: base and both branches reading it fuse together, base runs once
    assert session.last_task["subtasks"] == 4


def test_executed_results_are_reused_not_recomputed(session):
    base = map_chunks(fill((6,), chunk_size=2)).execute()
    top = map_chunks(base).execute()
    assert session.last_task["subtasks"] == 3  # only the new map step, base is stored
    np.testing.assert_array_equal(top.fetch(), np.full(6, 3.0))


def test_two_sessions_are_isolated(session):
    other = mr.new_session(default=False)
    try:
        t = map_chunks(fill((4,), chunk_size=2))
        session.execute(t)
        before = stored_chunks()
        assert before.get(other.session_id, 0) == 0
        other.execute(t)  # runs again in the other session: nothing is shared
        assert other.last_task["subtasks"] == 2
        np.testing.assert_array_equal(other.fetch(t), session.fetch(t))
        other.close()
        assert stored_chunks().get(other.session_id, 0) == 0
        np.testing.assert_array_equal(session.fetch(t), np.full(4, 2.0))
        with pytest.raises(RuntimeError, match="closed"):
            other.execute(t)
    finally:
        other.close()


def test_new_session_attaches_to_running_ray():
    s = mr.new_session(default=False)  # its speed is the benchmarks' business (warm sessions)
    assert ray.get(get_service("session").exists.remote(s.session_id))
    s.close()
    assert mr.get_default_session() is not s


def test_garbage_collected_objects_free_their_chunks(session):
    session.flush_releases()  # releases of earlier tests' objects are applied first
    baseline_chunks = stored_chunks().get(session.session_id, 0)
    t = map_chunks(fill((1000, 1000), chunk_size=250)).execute()  # 8 MB in 16 chunks
    assert stored_chunks()[session.session_id] == baseline_chunks + 16
    # Ray frees released objects asynchronously in its raylet, so the store's use is read
    # with t held; earlier objects still being freed only lower it further
    held = object_store_used()
    assert held >= 8_000_000
    del t
    session.flush_releases()
    assert stored_chunks()[session.session_id] == baseline_chunks
    assert _wait_until(lambda: object_store_used() <= held - 8_000_000)


def test_release_landing_after_the_baseline_is_awaited_by_flush_releases(session):
    """Regression (CI: ``assert 16 == (2 + 16)``): releases sent in the background were not
    all awaited, so one from an earlier test landed after a test read its baseline."""
    session.flush_releases()
    baseline = stored_chunks().get(session.session_id, 0)
    objs = [map_chunks(fill((4,), value=float(i), chunk_size=2)).execute() for i in range(6)]
    assert stored_chunks()[session.session_id] == baseline + 12
    while objs:  # several releases in flight at once, each sent by its own background flush
        objs.pop()
        time.sleep(0.06)
    session.flush_releases()
    assert stored_chunks()[session.session_id] == baseline
    assert session._pending_decrefs == []


def test_small_results_come_back_with_their_refs_and_drop_them_when_released(session):
    """One round trip less per execution: the refs of a result with few chunks come with the
    finished task's status; fetching needs no ``get_refs`` and releasing drops them."""
    t = map_chunks(fill((6,), value=2.0, chunk_size=4)).execute()
    refs = session._result_refs[t.key]
    assert len(refs) == 2 and all(isinstance(r, ray.ObjectRef) for r in refs)
    np.testing.assert_array_equal(t.fetch(), np.full(6, 3.0))
    key = t.key
    del t
    session.flush_releases()
    assert key not in session._result_refs


def test_execute_waits_only_for_releases_of_keys_in_its_graph(session):
    """A release in flight delays only an execution whose graph holds the released key."""
    session.flush_releases()
    a = map_chunks(fill((4,), value=1.0, chunk_size=2)).execute()
    a_key = a.key
    del a
    assert session._releasing_any({a_key})
    assert not session._releasing_any({"some-other-key"})
    session.flush_releases()
    assert not session._releasing_any({a_key})
    # executing the released graph again recomputes it (its release landed first)
    np.testing.assert_array_equal(map_chunks(fill((4,), value=1.0, chunk_size=2)).fetch(),
                                  np.full(4, 2.0))


def test_objects_in_reference_cycles_are_released_by_flush_releases(session):
    session.flush_releases()
    baseline = stored_chunks().get(session.session_id, 0)
    t = map_chunks(fill((6,), value=5.0, chunk_size=4)).execute()
    holder = {"t": t}
    holder["self"] = holder  # only the garbage collector frees this
    del t, holder
    session.flush_releases()
    assert stored_chunks()[session.session_id] == baseline


def test_subtask_error_keeps_type_names_operation_and_session_stays_usable(session):
    session.flush_releases()
    baseline = stored_chunks().get(session.session_id, 0)
    bad = map_chunks(map_chunks(fill((6,), chunk_size=2)), fail_at=(1,), label="my_transform")
    with pytest.raises(ZeroDivisionError, match="planned failure") as info:
        bad.execute()
    assert any("my_transform" in note for note in getattr(info.value, "__notes__", []))
    # a failed task frees what it made
    assert stored_chunks().get(session.session_id, 0) == baseline
    np.testing.assert_array_equal(map_chunks(fill((3,), chunk_size=2)).fetch(), np.full(3, 2.0))


def test_in_memory_input_is_uploaded_once(session):
    mt = pytest.importorskip("mars_on_ray.tensor")
    if not hasattr(mt, "tensor"):
        pytest.skip("mt.tensor not available yet")
    data = np.arange(20_000.0).reshape(100, 200)
    t = mt.tensor(data, chunk_size=30)
    np.testing.assert_array_equal(map_chunks(t).fetch(), data + 1)
    # the source chunks are stored; the graph sent to the services carries no data
    import pickle

    from mars_on_ray.core.graph import FlatGraph

    assert len(pickle.dumps(FlatGraph([t.data]))) < data.nbytes


def test_cancelled_task_frees_what_it_made(session):
    from mars_on_ray.core.graph import FlatGraph
    from mars_on_ray.services import get_service

    session.flush_releases()
    baseline = stored_chunks().get(session.session_id, 0)
    slow = map_chunks(map_chunks(fill((40,), chunk_size=1)), func=sleep_then_add_one)
    task = get_service("task")
    task_id = ray.get(task.submit.remote(session.session_id, FlatGraph([slow.data]), [slow.key],
                                          mr.options.snapshot()))
    time.sleep(1.0)
    ray.get(task.cancel.remote(task_id))
    status = ray.get(task.wait.remote(task_id, 30))
    assert status["done"] and "error" in status
    assert stored_chunks().get(session.session_id, 0) <= baseline
    ray_progress = ray.get(get_service("scheduling").progress.remote(task_id))
    assert ray_progress == (0, 0)  # the scheduler forgot the task and its refs


def test_progress_bar_shows_for_long_work(capsys):
    slow = map_chunks(fill((4,), chunk_size=1), func=sleep_then_add_one)
    slow.execute(show_progress=True)
    err = capsys.readouterr().err
    assert "map_chunks" in err and "100%" in err


def test_no_progress_bar_for_quick_work(capsys):
    map_chunks(fill((4,), chunk_size=2)).execute()
    assert "%|" not in capsys.readouterr().err


def test_subtask_whose_worker_dies_is_retried(tmp_path, session):
    from support import DieOnce

    t = map_chunks(fill((6,), chunk_size=3), func=DieOnce(str(tmp_path / "died")))
    np.testing.assert_array_equal(t.fetch(), np.full(6, 2.0))
    assert (tmp_path / "died").exists()
