"""Crash-resumable results: execute(checkpoint=URL) persists chunks by key, re-runs load them."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import mars_on_ray as mr
from mars_on_ray.storage.checkpoint import (SUFFIX, check_url, load_chunk, persisted_keys,
                                            save_chunk)
from support import fill, map_chunks

HERE = os.path.dirname(os.path.abspath(__file__))


def chunk_files(directory) -> list[str]:
    return sorted(f for f in os.listdir(directory) if f.endswith(SUFFIX)) if os.path.isdir(
        directory) else []


def test_chunks_are_saved_atomically_and_read_back(tmp_path):
    url = f"file://{tmp_path}/ckpt"
    save_chunk(url, "k1", np.arange(5))
    (tmp_path / "ckpt" / ".k2.0123.tmp").write_bytes(b"half a chunk")  # a crash mid-write
    (tmp_path / "ckpt" / "notes.txt").write_text("not a chunk")
    assert persisted_keys(url) == {"k1"}
    np.testing.assert_array_equal(load_chunk(url, "k1"), np.arange(5))
    save_chunk(url, "k1", np.arange(5))  # the same key again: kept as it is
    assert sorted(os.listdir(tmp_path / "ckpt")) == [".k2.0123.tmp", "k1.chunk", "notes.txt"]
    assert persisted_keys(f"file://{tmp_path}/missing") == set()
    # plain paths and other fsspec filesystems work the same way
    save_chunk(str(tmp_path / "plain"), "k", {"a": 1})
    assert persisted_keys(str(tmp_path / "plain")) == {"k"}
    save_chunk("memory://mars-ckpt-test", "m", [1, 2])
    assert load_chunk("memory://mars-ckpt-test", "m") == [1, 2]


def test_bad_checkpoint_urls_are_clear_errors(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="cannot be written"):
        check_url(str(blocker / "sub"))
    with pytest.raises(ValueError, match="cannot be written"):
        check_url("nosuchprotocol://bucket/x")
    with pytest.raises(ValueError, match="URL or path string"):
        check_url(42)


@pytest.fixture
def distributed(session):
    """Subtask counts of the distributed plan (the small-data path would fuse all into one)."""
    old = mr.options.small_data_bytes
    mr.options.small_data_bytes = 0
    yield session
    mr.options.small_data_bytes = old


def test_rerun_loads_persisted_chunks_instead_of_computing(distributed, tmp_path):
    url = f"file://{tmp_path}/ckpt"
    t = map_chunks(map_chunks(fill((9,), value=2.0, chunk_size=2)))
    t.execute(checkpoint=url)
    assert distributed.last_task["subtasks"] == 5 and distributed.last_task["loaded"] == 0
    assert len(chunk_files(tmp_path / "ckpt")) == 5
    expected = np.full(9, 4.0)
    for removed, rerun in ((0, 0), (2, 2)):  # all persisted; then two chunks lost
        for name in chunk_files(tmp_path / "ckpt")[:removed]:
            os.remove(tmp_path / "ckpt" / name)
        other = mr.new_session(default=False)  # a new session stores nothing yet
        try:
            again = map_chunks(map_chunks(fill((9,), value=2.0, chunk_size=2)))  # built anew
            other.execute(again, checkpoint=url)
            assert other.last_task["subtasks"] == rerun
            assert other.last_task["loaded"] == 5 - rerun
            np.testing.assert_array_equal(other.fetch(again), expected)
        finally:
            other.close()


def test_checkpointed_chunks_feed_new_work(distributed, tmp_path):
    url = str(tmp_path / "ckpt")
    base = map_chunks(fill((6,), value=1.0, chunk_size=3))
    base.execute(checkpoint=url)
    other = mr.new_session(default=False)
    try:
        top = map_chunks(map_chunks(fill((6,), value=1.0, chunk_size=3)))
        other.execute(top, checkpoint=url)  # the base chunks load, only the top map runs
        assert other.last_task["loaded"] == 2 and other.last_task["subtasks"] == 2
        np.testing.assert_array_equal(other.fetch(top), np.full(6, 3.0))
    finally:
        other.close()


def test_execute_with_a_bad_checkpoint_fails_before_running(distributed, tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="checkpoint .* cannot be written"):
        map_chunks(fill((3,), chunk_size=2)).execute(checkpoint=str(tmp_path / "file" / "c"))


DRIVER = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {tests!r})
    import ray.cloudpickle
    import support
    ray.cloudpickle.register_pickle_by_value(support)
    import mars_on_ray as mr
    from support import fill, map_chunks, sleep_then_add_one
    mr.options.small_data_bytes = 0
    s = mr.new_session(address="local", num_cpus=2, log_to_driver=False)
    t = map_chunks(fill(({n},), value=1.0, chunk_size=1), func=sleep_then_add_one)
    t.execute(checkpoint={url!r})
    print(json.dumps({{"subtasks": s.last_task["subtasks"], "loaded": s.last_task["loaded"],
                      "sum": float(t.fetch().sum())}}))
""")


def _kill_tree(proc: subprocess.Popen) -> None:
    import psutil

    try:
        tree = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        tree = []
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and the Ray it started
    for p in tree:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    proc.wait()


@pytest.mark.slow
def test_driver_and_cluster_killed_half_way_resume_from_the_checkpoint(tmp_path):
    n = 24  # subtasks of 0.5 s each on 2 CPUs: about 6 s of work
    ckpt = tmp_path / "ckpt"
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(tests=HERE, n=n, url=f"file://{ckpt}"))
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": os.pathsep.join(
        p for p in (os.path.dirname(HERE), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.Popen([sys.executable, str(script)], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.time() + 300
        while len(chunk_files(ckpt)) < n // 3 and time.time() < deadline and proc.poll() is None:
            time.sleep(0.1)
        seen = len(chunk_files(ckpt))
    finally:
        _kill_tree(proc)
    assert n // 3 <= seen < n, f"killed at {seen} of {n} chunks"
    survived = len(chunk_files(ckpt))

    rerun = subprocess.run([sys.executable, str(script)], env=env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    result = json.loads(rerun.stdout.strip().splitlines()[-1])
    assert result["sum"] == 2.0 * n
    assert result["loaded"] == survived  # every chunk written before the kill is reused
    assert result["subtasks"] == n - survived  # and only the others run again
    assert len(chunk_files(ckpt)) == n
