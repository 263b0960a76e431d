"""Subtask workers survive a pause between jobs (ray_settings.py).

Regression: Ray kills a worker idle for 1 s when its node has more workers than CPUs, and the
supervisor actor is always one more; new workers were started between stages (each importing
pandas again), making a merge followed by a sum 5x slower than its work.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import psutil

import mars_on_ray.dataframe as md
from mars_on_ray.ray_settings import RAY_NODE_ENV


def _task_workers() -> set[int]:
    """Pids of the Ray task workers under this test process (a worker renames itself
    ``ray::IDLE`` or ``ray::<task name>``; the agents and the supervisor actor are not ones)."""
    pids = set()
    for proc in psutil.Process().children(recursive=True):
        try:
            line = " ".join(proc.cmdline())
        except psutil.Error:
            continue
        others = ("Agent", "Supervisor", "raylet", "gcs_server", "dashboard", "log_monitor")
        if ("default_worker.py" in line or line.startswith("ray::")) and not any(
                o in line for o in others):
            pids.add(proc.pid)
    return pids


def test_importing_mars_on_ray_sets_the_idle_worker_setting_for_rays_it_starts():
    for name, value in RAY_NODE_ENV.items():
        assert os.environ.get(name) == value


def test_task_workers_start_with_the_malloc_bounds(session):
    # regression: workers gave every kernel temporary back to the kernel (page faults per call)
    import ray

    @ray.remote
    def worker_env():
        return {name: os.environ.get(name) for name in RAY_NODE_ENV}

    assert ray.get(worker_env.remote()) == RAY_NODE_ENV


def test_the_kuberay_image_sets_the_node_environment():
    from pathlib import Path

    dockerfile = (Path(__file__).parents[1] / "deploy" / "kuberay" / "Dockerfile").read_text()
    for name, value in RAY_NODE_ENV.items():
        assert f"{name}={value}" in dockerfile


def test_cli_nodes_start_ray_with_the_idle_worker_setting():
    from mars_on_ray.deploy.local import NodeOptions, plan_node

    plan = plan_node(NodeOptions(role="supervisor", nproc=1))
    for name, value in RAY_NODE_ENV.items():
        assert plan.env[name] == value


def test_subtask_workers_are_not_restarted_between_stages(session):
    # a merge (one 2-CPU small-data subtask) then a sum (1-CPU subtasks): a worker more than
    # the CPUs appears, and with Ray's 1 s idle limit workers were killed and started again
    rng = np.random.default_rng(0)
    left = pd.DataFrame({"k": rng.integers(0, 100_000, 500_000), "a": rng.random(500_000)})
    right = pd.DataFrame({"k": rng.permutation(100_000), "b": rng.random(100_000)})
    expected = left.merge(right, on="k")[["a", "b"]].sum()
    mleft, mright = md.DataFrame(left, chunk_size=62_500), md.DataFrame(right, chunk_size=50_000)
    mleft.execute(show_progress=False)
    mright.execute(show_progress=False)
    seen: set[int] = set()
    for _ in range(8):
        result = mleft.merge(mright, on="k")[["a", "b"]].sum().execute(show_progress=False)
        pd.testing.assert_series_equal(result.fetch(), expected)
        del result  # computed again next time, not reused
        session.flush_releases()
        seen |= _task_workers()
    assert len(seen) <= 4, f"{len(seen)} worker processes for 2 CPUs: workers were restarted"


_STARTED_FIRST = """
import warnings
import ray
ray.init(address="local", num_cpus=1, include_dashboard=False)
import mars_on_ray as mr
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    session = mr.new_session(web=False)
print("WARNED" if any("RAY_idle_worker_killing_time_threshold_ms" in str(w.message) for w in seen)
      else "QUIET")
session.close()
ray.shutdown()
"""


def test_a_ray_started_before_the_import_is_named_in_a_warning(tmp_path):
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in RAY_NODE_ENV}
    out = subprocess.run([sys.executable, "-c", _STARTED_FIRST], env=env, capture_output=True,
                         text=True, timeout=300, cwd=tmp_path)
    assert "WARNED" in out.stdout, out.stderr[-2000:]
