"""mr.map on a local Ray: order, laziness, limits, retries and errors, worker deaths,
stragglers, checkpoints surviving a killed driver, status and clean-up."""
from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import numpy as np
import pytest
import ray
import ray.cloudpickle

import mars_on_ray as mr
from mars_on_ray.remote.checkpoint import JobStore

ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests/


# -- functions run in the workers; they leave one file a call so the test can count calls ----
def _mark(folder, value):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{value}-{uuid.uuid4().hex}"), "w"):
        pass


def calls(folder) -> dict:
    """How many times each input was called, from the files ``_mark`` left."""
    counts: dict = {}
    if os.path.isdir(folder):
        for name in os.listdir(folder):
            value = name.rsplit("-", 1)[0]
            counts[value] = counts.get(value, 0) + 1
    return counts


def subprocess_env(home) -> dict:
    """An isolated HOME that still finds this machine's Ray token (the cluster may need it)."""
    env = {**os.environ, "HOME": str(home)}
    token = os.path.expanduser("~/.ray/auth_token")
    if os.path.exists(token) and "RAY_AUTH_TOKEN_PATH" not in env:
        env["RAY_AUTH_TOKEN_PATH"] = token
    return env


def square(x):
    return x * x


def make_counted(folder, seconds=0.0):
    def counted(x):
        _mark(folder, x)
        time.sleep(seconds)
        return x * 10

    return counted


def make_failing(folder, bad, fail_times=10**9):
    def failing(x):
        _mark(folder, x)
        if x == bad and calls(folder).get(str(x), 0) <= fail_times:
            raise KeyError(f"no key for {x}")
        return x + 100

    return failing


def test_map_yields_results_in_input_order(ray_cluster):
    def later_is_faster(x):
        time.sleep(0.02 * (5 - x))
        return -x

    got = list(mr.map(later_is_faster, range(6), show_progress=False))
    assert got == [later_is_faster(x) for x in range(6)]
    assert list(mr.map(square, [3, 1, 2], show_progress=False)) == [9, 1, 4]
    assert list(mr.map(square, [], show_progress=False)) == []


def test_map_unordered_yields_as_tasks_finish(ray_cluster):
    def first_is_slow(x):
        time.sleep(2.0 if x == 0 else 0.01)
        return x

    got = list(mr.map(first_is_slow, range(8), ordered=False, speculation=False,
                      show_progress=False))
    assert sorted(got) == list(range(8))
    assert got[-1] == 0  # the slow one came last, not first


def test_map_is_lazy_and_streams_its_input(ray_cluster, tmp_path):
    pulled = []

    def endless():
        for i in itertools.count():
            pulled.append(i)
            yield i

    results = mr.map(make_counted(str(tmp_path / "c")), endless(), show_progress=False)
    time.sleep(0.5)
    assert pulled == [] and calls(str(tmp_path / "c")) == {}  # nothing runs before asked
    first = list(itertools.islice(results, 20))
    assert first == [10 * i for i in range(20)]
    results.close()
    # read as room frees up, never the whole input: at most the scheduler's read-ahead window
    # (remote/scheduler._window_full) plus the batches in flight. The window grows with the
    # batch size, which follows measured task times (so twice the last one, which may have
    # changed since): a bound of 5,000 failed on a fast machine (5,461 read)
    batch = 2 * results.status["batch_size"]
    in_flight = 2 * int(ray.cluster_resources()["CPU"])
    assert 20 <= len(pulled) <= max(1024, 4 * in_flight * batch) + (in_flight + 1) * batch
    assert results.status["state"] == "closed"


def test_map_batches_trivial_tasks_and_keeps_order(ray_cluster):
    results = mr.map(square, range(5000), show_progress=False)
    assert list(results) == [x * x for x in range(5000)]
    status = results.status
    assert status["done"] == 5000 and status["state"] == "finished"
    assert status["ray_tasks"] < 1000  # batched without being asked


def test_map_runs_at_most_max_simultaneous_tasks(ray_cluster, tmp_path):
    running = str(tmp_path / "running")
    os.makedirs(running)

    def one_at_a_time(x):
        marker = os.path.join(running, str(x))
        open(marker, "w").close()
        time.sleep(0.15)
        seen = len(os.listdir(running))
        os.remove(marker)
        return seen

    assert list(mr.map(one_at_a_time, range(6), max_simultaneous=1, show_progress=False)) == [1] * 6
    both = list(mr.map(one_at_a_time, range(6), max_simultaneous=2, show_progress=False))
    assert max(both) == 2  # the check can see two at once: the limit above is what held it to 1


def test_map_retries_then_raises_the_task_error_naming_input(ray_cluster, tmp_path):
    folder = str(tmp_path / "calls")
    with pytest.raises(KeyError, match="no key for 3") as info:
        list(mr.map(make_failing(folder, bad=3), range(6), retries=2, show_progress=False))
    notes = "\n".join(info.value.__notes__)
    assert "input 3 (3) failed after 3 attempt(s)" in notes
    assert info.value.map_index == 3 and info.value.map_input == 3
    assert calls(folder)["3"] == 3  # the first attempt and two retries


def test_map_errors_return_yields_the_exception(ray_cluster, tmp_path):
    results = mr.map(make_failing(str(tmp_path / "c"), bad=2), range(5), retries=1,
                     errors="return", show_progress=False)
    got = list(results)
    assert got[:2] == [100, 101] and got[3:] == [103, 104]
    assert isinstance(got[2], KeyError) and "input 2 (2)" in got[2].__notes__[0]
    assert results.status["failed"] == 1 and results.status["retried"] == 1


def test_map_retry_recovers_a_flaky_task(ray_cluster, tmp_path):
    folder = str(tmp_path / "c")
    results = mr.map(make_failing(folder, bad=1, fail_times=1), range(4), retries=1,
                     show_progress=False)
    assert list(results) == [100, 101, 102, 103]
    assert calls(folder)["1"] == 2 and results.status["retried"] == 1


def test_map_rejects_bad_arguments_before_running(ray_cluster):
    with pytest.raises(TypeError, match="callable"):
        mr.map(3, range(3))
    with pytest.raises(TypeError, match="not iterable"):
        mr.map(square, 5)
    with pytest.raises(ValueError, match="errors"):
        mr.map(square, range(3), errors="ignore")
    with pytest.raises(ValueError, match="job_name"):
        mr.map(square, range(3), checkpoint="/tmp/x")
    with pytest.raises(ValueError, match="max_simultaneous"):
        mr.map(square, range(3), max_simultaneous=0)
    with pytest.raises(ValueError, match="size"):
        mr.map(square, range(3), memory="lots")
    import threading

    lock = threading.Lock()
    with pytest.raises(TypeError, match="pickled"):
        mr.map(lambda x: lock, range(3))


def test_map_reruns_a_task_whose_worker_died_without_counting_a_failure(ray_cluster, tmp_path):
    folder = str(tmp_path / "c")

    def die_once(x):
        _mark(folder, x)
        if x == 2 and calls(folder)["2"] == 1:
            os.kill(os.getpid(), signal.SIGKILL)  # the worker process dies mid-task
        return x * 3

    results = mr.map(die_once, range(4), retries=0, show_progress=False)
    assert list(results) == [0, 3, 6, 9]
    assert calls(folder)["2"] == 2
    assert results.status["failed"] == 0 and results.status["retried"] == 0


def test_map_resubmits_a_straggler_and_takes_the_first_result(ray_cluster, tmp_path):
    folder = str(tmp_path / "c")

    def straggles_once(x):
        _mark(folder, x)
        attempt = calls(folder)[str(x)]
        if x == 3 and attempt == 1:
            time.sleep(120)  # far longer than its peers; the copy finishes first
        else:
            time.sleep(0.1)
        return x, attempt

    results = mr.map(straggles_once, range(12), retries=0, show_progress=False)
    got = list(results)
    assert [g[0] for g in got] == list(range(12))
    assert got[3] == (3, 2)  # the re-submitted copy's result
    assert results.status["resubmitted"] >= 1


def test_map_close_cancels_what_is_running(ray_cluster, tmp_path):
    folder = str(tmp_path / "c")
    results = mr.map(make_counted(folder, seconds=0.5), range(100), show_progress=False)
    assert next(results) == 0
    results.close()
    time.sleep(1.5)
    count = sum(calls(folder).values())
    time.sleep(1.5)
    assert sum(calls(folder).values()) == count < 20  # nothing new starts after close


def test_map_leaves_nothing_in_the_object_store(ray_cluster):
    import support

    before = support.object_store_used()

    def big(x):
        return np.full(2_000_000, x, dtype=np.float64)  # 16 MB a result

    results = mr.map(big, range(6), show_progress=False)
    for i, value in enumerate(results):
        assert value.shape == (2_000_000,) and value[0] == i
    del value
    deadline = time.time() + 10
    while support.object_store_used() > before + 1_000_000 and time.time() < deadline:
        time.sleep(0.2)
    assert support.object_store_used() <= before + 1_000_000


# -- checkpoints ---------------------------------------------------------------------------
DRIVER = textwrap.dedent("""
    import os, sys, time, uuid, ray
    import mars_on_ray as mr
    ray.init(address={address!r})
    def slow(x):
        os.makedirs({calls!r}, exist_ok=True)
        open(os.path.join({calls!r}, f"{{x}}-{{uuid.uuid4().hex}}"), "w").close()
        time.sleep(0.4)
        return {{"input": x, "square": x * x}}
    for value in mr.map(slow, range({n}), checkpoint={checkpoint!r}, job_name="squares",
                        max_simultaneous=2, show_progress=False):
        print(value, flush=True)
""")


def test_map_rerun_after_the_driver_was_killed_computes_only_what_is_missing(ray_cluster, tmp_path):
    n = 16
    checkpoint = str(tmp_path / "ckpt")
    first_calls, second_calls = str(tmp_path / "calls1"), str(tmp_path / "calls2")
    address = ray_cluster.get_runtime_context().gcs_address
    script = DRIVER.format(address=address, calls=first_calls, n=n, checkpoint=checkpoint)
    log = open(tmp_path / "driver.log", "w")
    driver = subprocess.Popen([sys.executable, "-c", script], stdout=log, stderr=log,
                              env=subprocess_env(tmp_path))
    store = JobStore(checkpoint, "squares")
    try:
        deadline = time.time() + 120
        while len(store.stored_keys()) < 5 and time.time() < deadline:
            time.sleep(0.1)
    finally:
        driver.send_signal(signal.SIGKILL)  # the driver dies mid-job
        driver.wait()
        log.close()
    time.sleep(2)  # Ray ends the dead driver's tasks
    stored = store.stored_keys()
    assert 5 <= len(stored) < n, (tmp_path / "driver.log").read_text()[-3000:]
    done_before = {x for x in range(n) if store.key(x) in stored}
    with open(os.path.join(store.path("results"), ".tmp-halfwritten-x.pkl"), "wb") as f:
        f.write(b"\x80")  # what a killed writer leaves: never read, removed at the end

    def slow(x):
        _mark(second_calls, x)
        return {"input": x, "square": x * x}

    results = mr.map(slow, range(n), checkpoint=checkpoint, job_name="squares",
                     show_progress=False)
    assert list(results) == [{"input": x, "square": x * x} for x in range(n)]
    rerun = {int(k) for k in calls(second_calls)}
    assert rerun == set(range(n)) - done_before  # only the missing ones ran again
    assert all(v == 1 for v in calls(second_calls).values())
    assert results.status["from_checkpoint"] == len(done_before)
    assert not [p for p in os.listdir(store.path("results")) if p.startswith(".tmp-")]
    status = json.loads(open(store.path("status.json")).read())
    assert status["state"] == "finished" and status["done"] == n
    assert "squares" in open(store.path("status.html")).read()


def test_map_checkpoint_of_one_job_never_serves_another(ray_cluster, tmp_path):
    checkpoint = str(tmp_path / "ckpt")
    first, second = str(tmp_path / "a"), str(tmp_path / "b")
    assert list(mr.map(make_counted(first), range(4), checkpoint=checkpoint, job_name="a",
                       show_progress=False)) == [0, 10, 20, 30]
    assert list(mr.map(make_counted(second), range(4), checkpoint=checkpoint, job_name="b",
                       show_progress=False)) == [0, 10, 20, 30]
    assert calls(second) == {str(x): 1 for x in range(4)}  # job b computed everything itself
    again = mr.map(make_counted(second), range(6), checkpoint=checkpoint, job_name="a",
                   show_progress=False)
    assert list(again) == [0, 10, 20, 30, 40, 50]
    assert again.status["from_checkpoint"] == 4 and calls(second)["5"] == 1
    assert JobStore(checkpoint, "a").key(1) != JobStore(checkpoint, "b").key(1)


def test_job_store_on_an_fsspec_filesystem_writes_atomically():
    store = JobStore("memory://ckpt-test", "job1")
    store.open_job({"function": "f"})
    store.save(store.key(("a", 1)), {"v": 1})
    store.fs.pipe(store.path("results", ".tmp-deadbeef-x.pkl"), b"half")  # a writer that died
    assert store.stored_keys() == {store.key(("a", 1))}
    assert store.load(store.key(("a", 1))) == {"v": 1}
    store.remove_temporaries()
    assert [p.rsplit("/", 1)[1] for p in store.fs.ls(store.path("results"), detail=False)] == [
        f"{store.key(('a', 1))}.pkl"]
    store.fs.mv(store.root, store.root.replace("job1", "job2"), recursive=True)
    with pytest.raises(ValueError, match="holds job 'job1'"):  # a renamed folder is refused
        JobStore("memory://ckpt-test", "job2").open_job({})
    with pytest.raises(ValueError, match="job_name"):
        JobStore("memory://ckpt-test", "a/b")
    assert JobStore("x", "j").key(1) != JobStore("x", "j").key(1.0)


def test_map_checkpoint_takes_a_file_url(ray_cluster, tmp_path):
    url = f"file://{tmp_path}/ckpt"
    assert list(mr.map(square, range(3), checkpoint=url, job_name="sq", show_progress=False)) == [0, 1, 4]
    assert len(JobStore(url, "sq").stored_keys()) == 3
    assert list(mr.map(square, range(3), checkpoint=url, job_name="sq", show_progress=False)) == [0, 1, 4]


def test_map_straggler_copy_and_original_finishing_in_one_poll(ray_cluster, monkeypatch):
    """Regression (KeyError on an ObjectRef): with every task copied, a copy and its original
    often finish between two polls; the results must still be right and in order."""
    from mars_on_ray.remote import scheduler

    monkeypatch.setattr(scheduler, "STRAGGLER_MIN_SECONDS", 0.0)
    monkeypatch.setattr(scheduler, "STRAGGLER_FACTOR", 0.0)
    monkeypatch.setattr(scheduler, "STRAGGLER_MIN_FINISHED", 1)

    until = time.time() + 6.0

    def both_attempts_end_together(x):
        if x == 0:  # the original and its copy both return at `until`
            time.sleep(max(0.0, until - time.time()))
        else:
            time.sleep(0.05)
        return -x

    results = mr.map(both_attempts_end_together, range(6), ordered=False, max_simultaneous=4,
                     show_progress=False)
    got = [next(results) for _ in range(5)]
    time.sleep(max(0.0, until - time.time()) + 1.0)  # both attempts finish while we wait
    got += list(results)
    assert sorted(got) == sorted(-x for x in range(6))
    assert results.status["resubmitted"] > 0
