"""One phase of the suite, run in its own process: set an engine up, measure its cases.

Events are appended to a JSON-lines file as they happen (``setup``, ``start``, ``result``) so
that the parent keeps what finished if this process hangs and is killed.
"""
from __future__ import annotations

import gc
import json
import statistics
import time
import traceback

from bench_memory import TreeMemorySampler
from bench_workloads import CASES, Env, Timed


def _error(exc: BaseException) -> dict:
    first = (str(exc).strip().splitlines() or [""])[0]
    return {"status": "error", "error": f"{type(exc).__name__}: {first}"[:300],
            "traceback": traceback.format_exc()[-3000:]}


def setup(phase: str, env: Env) -> dict:
    """Start the engine of ``phase``; returns notes. Mars failures are kept in ``env``."""
    notes: dict = {}
    if phase == "dask-distributed":
        from distributed import Client, LocalCluster
        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        env.client = Client(cluster)
        env.cluster = cluster
        notes["cluster_start_s"] = round(time.perf_counter() - t0, 3)
    elif phase == "ray":
        import ray

        import mars_on_ray  # noqa: F401  (before ray.init, as the README says: ray_settings.py)
        t0 = time.perf_counter()
        # address="local": always a new cluster of our own, never one found on the machine
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        notes["ray_init_s"] = round(time.perf_counter() - t0, 3)
        try:
            import mars_on_ray as mr
            t0 = time.perf_counter()
            env.session = mr.new_session()
            env.first_session_s = round(time.perf_counter() - t0, 3)
            notes["first_new_session_s"] = env.first_session_s
        except Exception as exc:
            env.mars_error = _error(exc)["error"]
            notes["mars_error"] = env.mars_error
    elif phase == "mars-local":
        env.mars_local = True
    return notes


def teardown(phase: str, env: Env) -> None:
    if env.client is not None:
        env.client.close()
        env.cluster.close()
    if phase == "ray":
        import ray
        ray.shutdown()


def measure(case, warmup: int, repeats: int) -> dict:
    """Warm up, then time ``repeats`` runs while sampling the process tree's memory."""
    warmup = case.warmup if case.warmup is not None else warmup
    repeats = case.repeats if case.repeats is not None else repeats
    notes = dict(case.notes)
    t0 = time.perf_counter()
    for _ in range(warmup):
        value = case.run()
        if case.check:
            case.check(value.value if isinstance(value, Timed) else value)
        del value
        if case.between:
            case.between()
    warmup_s = (time.perf_counter() - t0) / warmup if warmup else None
    gc.collect()
    sampler = TreeMemorySampler().start()
    times = []
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            value = case.run()
            elapsed = time.perf_counter() - t0
            if isinstance(value, Timed):  # measured inside the case; its notes per run
                elapsed = value.seconds
                for k, v in value.notes.items():
                    notes.setdefault(k, []).append(v)
                value = value.value
            times.append(elapsed)
            if case.check:
                case.check(value)
            del value  # do not hold one result while the next run executes
            if case.between:
                case.between()
    finally:
        memory = sampler.stop()
    return {"status": "ok", "times_s": [round(t, 4) for t in times],
            "median_s": round(statistics.median(times), 4), "min_s": round(min(times), 4),
            "warmup_s": round(warmup_s, 4) if warmup_s is not None else None,
            "memory": memory, "notes": notes}


def run_phase(phase: str, cases: list[tuple[str, str]], params: dict, events_path: str,
              warmup: int, repeats: int) -> None:
    def emit(**event):
        with open(events_path, "a") as f:
            f.write(json.dumps(event, default=str) + "\n")

    env = Env(params)
    t0 = time.perf_counter()
    try:
        notes = setup(phase, env)
    except Exception as exc:
        emit(event="setup", phase=phase, **_error(exc))
        return
    emit(event="setup", phase=phase, status="ok", seconds=round(time.perf_counter() - t0, 3),
         notes=notes)
    for workload, engine in cases:
        emit(event="start", workload=workload, engine=engine, t=time.time())
        try:
            case = CASES[(workload, engine)](params, env)
            result = measure(case, warmup, repeats)
        except Exception as exc:
            result = _error(exc)
        emit(event="result", workload=workload, engine=engine, **result)
        gc.collect()
    try:
        teardown(phase, env)
    except Exception:
        pass
