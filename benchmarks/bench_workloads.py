"""The workloads, one small function per (workload, engine).

A case function takes the size parameters and the phase's engine state and returns a ``Case``:
``run`` is what is timed (build + execute + bring the result into the driver, for every engine),
``check`` validates the result outside the timing, ``notes`` says what was chosen (chunking,
ingestion time, subtask counts). A mars case that raises is recorded as an error by the runner.
"""
from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

WORKLOADS = ("seed", "elementwise", "matmul", "groupby", "groupby_agg", "overhead", "sessions", "parquet_write", "parquet_read",
             "parquet_lazy", "csv_read", "tsqr", "sort", "percentile", "unique",
             "merge", "sort_head", "groupby_1m", "tpch_q1", "tpch_q3", "tpch_q5", "tpch_q6", "tpch_q10")

FULL = dict(seed_n=2000, seed_chunk=200, ew_n=8000, gb_rows=20_000_000, gb_keys=1000,
            gb_parts=8, oh_n=10_000, mm_n=4000, mm_chunk=1000, cold_repeats=3, warm_repeats=5,
            io_rows=20_000_000, io_parts=8, csv_rows=10_000_000)
QUICK = dict(seed_n=1000, seed_chunk=200, ew_n=2000, gb_rows=1_000_000, gb_keys=1000,
             gb_parts=4, oh_n=1000, mm_n=1000, mm_chunk=250, cold_repeats=1, warm_repeats=3,
             io_rows=1_000_000, io_parts=8, csv_rows=500_000)


@dataclass
class Timed:
    """Returned by ``run`` when the case measures its own time (e.g. inside a subprocess)."""
    seconds: float
    value: Any = None
    notes: dict = field(default_factory=dict)


@dataclass
class Case:
    run: Callable[[], Any]
    check: Callable[[Any], None] | None = None
    notes: dict = field(default_factory=dict)
    warmup: int | None = None   # None: the runner's default
    repeats: int | None = None
    between: Callable[[], None] | None = None  # untimed, after every run


class Env:
    """Engine state of one phase process (a Dask client, a Ray cluster, a mars session)."""

    def __init__(self, params: dict):
        self.p = params
        self.client = None            # dask.distributed.Client
        self.mars_error: str | None = None
        self.first_session_s: float | None = None
        self._frame = None
        self._expected_groupby = None

    def frame(self) -> pd.DataFrame:
        """The groupby input, built once per phase with NumPy: int key in [0, keys), two floats."""
        if self._frame is None:
            rng = np.random.default_rng(0)
            n = self.p["gb_rows"]
            self._frame = pd.DataFrame({"k": rng.integers(0, self.p["gb_keys"], n),
                                        "a": rng.random(n), "b": rng.random(n)})
        return self._frame

    def expected_groupby(self) -> pd.DataFrame:
        if self._expected_groupby is None:
            self._expected_groupby = self.frame().groupby("k").sum()
        return self._expected_groupby


# ---------------------------------------------------------------- checks

def check_seed(n):
    def check(value):
        value = np.asarray(value)
        assert value.shape == (n, n), value.shape
        assert np.allclose(value, n), "inner(ones, ones) should be all n"
    return check


def check_elementwise(n):
    # E[(2x+1)^2 - x] = 23/6 for x ~ U(0, 1); mean over rows, summed over n columns
    def check(value):
        value = float(np.asarray(value))
        assert abs(value / (n * 23 / 6) - 1) < 0.01, value
    return check


def check_groupby(env):
    def check(value):
        expected = env.expected_groupby()
        assert isinstance(value, pd.DataFrame), type(value)
        value = value.sort_index()
        assert list(value.columns) == list(expected.columns), list(value.columns)
        assert np.array_equal(value.index.to_numpy(), expected.index.to_numpy())
        assert np.allclose(value.to_numpy(), expected.to_numpy())
    return check


def check_overhead(n):
    def check(value):
        value = np.concatenate([np.ravel(v) for v in value]) if isinstance(value, list) else np.asarray(value)
        assert value.shape == (n,) and (value == 2).all(), value[:5]
    return check


def elementwise_expr(x):
    return ((x * 2 + 1) ** 2 - x).mean(axis=0).sum()


# ---------------------------------------------------------------- NumPy / pandas

def seed_numpy(p, env):
    n = p["seed_n"]
    return Case(lambda: np.inner(np.ones((n, n)), np.ones((n, n))), check_seed(n),
                {"threads": "BLAS may use both cores"})


def elementwise_numpy(p, env):
    n = p["ew_n"]
    rng = np.random.default_rng(0)
    return Case(lambda: elementwise_expr(rng.random((n, n))), check_elementwise(n))


def groupby_numpy(p, env):
    df = env.frame()
    return Case(lambda: df.groupby("k").sum(), check_groupby(env))


# ---------------------------------------------------------------- Dask (threads / distributed)

def _dask_compute(env, obj):
    if env.client is None:
        return obj.compute(scheduler="threads")
    return obj.compute()


def seed_dask(p, env):
    import dask.array as da
    n, c = p["seed_n"], p["seed_chunk"]

    def run():
        a = da.ones((n, n), chunks=c)
        return _dask_compute(env, a @ a.T)  # dask.array has no inner(); a @ a.T is inner(a, a)
    return Case(run, check_seed(n), {"chunks": f"{c}x{c}", "expr": "a @ a.T"})


def elementwise_dask(p, env):
    import dask.array as da
    n = p["ew_n"]
    probe = da.random.random((n, n))
    notes = {"chunks": f"auto: {probe.chunksize[0]}x{probe.chunksize[1]} ({probe.npartitions} chunks)"}
    return Case(lambda: _dask_compute(env, elementwise_expr(da.random.random((n, n)))),
                check_elementwise(n), notes)


def groupby_dask(p, env):
    import dask.dataframe as dd
    df = env.frame()
    t0 = time.perf_counter()
    ddf = dd.from_pandas(df, npartitions=p["gb_parts"])
    if env.client is not None:  # ship the partitions to the workers before timing
        from distributed import wait
        ddf = env.client.persist(ddf)
        wait(ddf)
    notes = {"partitions": p["gb_parts"], "ingest_s": round(time.perf_counter() - t0, 3)}
    return Case(lambda: _dask_compute(env, ddf.groupby("k").sum()), check_groupby(env), notes)


# ---------------------------------------------------------------- raw Ray (same cluster as mars)

def overhead_ray(p, env):
    import ray
    n = p["oh_n"]

    @ray.remote
    def one():  # nested, so Ray pickles it by value (this module is not importable in workers)
        return np.ones(1) + 1
    return Case(lambda: ray.get([one.remote() for _ in range(n)]), check_overhead(n),
                {"tasks": n})


# ---------------------------------------------------------------- mars_on_ray

def _mars(env):
    if env.mars_error:
        raise RuntimeError(f"new_session() failed: {env.mars_error}")
    import mars_on_ray as mr
    import mars_on_ray.dataframe as md
    import mars_on_ray.tensor as mt
    return mr, mt, md


def _new_runs() -> dict:
    return {"subtasks": [], "fetch_s": [], "task_s": {}}


def _mars_value(env, expr, runs: dict):
    """Compute ``expr`` into the driver; records the run's subtask count and fetch time."""
    if getattr(env, "mars_local", False):
        from mars_on_ray.core.local import LocalExecutor
        executor = LocalExecutor()
        value = executor.compute(expr.data)[0]
        runs["subtasks"].append(executor.subtask_count)
        return value
    import mars_on_ray as mr
    expr.execute(show_progress=False)
    t0 = time.perf_counter()
    value = expr.fetch()
    runs["fetch_s"].append(round(time.perf_counter() - t0, 3))
    last = mr.get_default_session().last_task or {}
    runs["subtasks"].append(last.get("subtasks"))
    runs["task_s"].clear()  # the service-side split of the last run (tile / fuse / run)
    runs["task_s"].update({k: round(v, 3) for k, v in (last.get("seconds") or {}).items()
                           if isinstance(v, (int, float))})
    return value


def _mars_case(env, run, check, notes, runs: dict):
    """A mars Case that records per-run subtasks and fetch times (warm-up first), and lets
    released results go between runs.

    Between runs the driver drops its objects and waits for the session to release their
    chunks, so that no timed run is served from the results of the previous one (same keys).
    """
    def between():
        gc.collect()
        time.sleep(0.0 if getattr(env, "mars_local", False) else 0.3)
    return Case(run, check, {**notes, "subtasks_per_run": runs["subtasks"],
                             "fetch_s_per_run": runs["fetch_s"], "last_task_s": runs["task_s"]},
                between=between)


def seed_mars(p, env):
    _, mt, _ = _mars(env)
    n, c = p["seed_n"], p["seed_chunk"]

    runs = _new_runs()

    def run():
        a = mt.ones((n, n), chunk_size=c)
        return _mars_value(env, mt.inner(a, a), runs)
    return _mars_case(env, run, check_seed(n), {"chunks": f"{c}x{c}"}, runs)


def elementwise_mars(p, env):
    _, mt, _ = _mars(env)
    n = p["ew_n"]
    notes = {}
    try:
        from mars_on_ray.core.local import LocalExecutor
        nsplits = LocalExecutor().tile(mt.random.rand(n, n).data).nsplits
        notes["chunks"] = (f"auto: {max(nsplits[0])}x{max(nsplits[1])} "
                           f"({len(nsplits[0]) * len(nsplits[1])} chunks)")
    except Exception as exc:  # the note is a nicety; the timing is what matters
        notes["chunks"] = f"auto (unknown: {type(exc).__name__})"
    runs = _new_runs()
    return _mars_case(env, lambda: _mars_value(env, elementwise_expr(mt.random.rand(n, n)), runs),
                      check_elementwise(n), notes, runs)


def groupby_mars(p, env):
    _, _, md = _mars(env)
    df = env.frame()
    rows = -(-len(df) // p["gb_parts"])
    t0 = time.perf_counter()
    mdf = md.DataFrame(df, chunk_size=rows)
    notes = {"partitions": p["gb_parts"], "chunk_rows": rows}
    if not getattr(env, "mars_local", False):
        try:
            mdf.execute()  # upload the chunks before timing, like Dask's persist
            notes["ingest_s"] = round(time.perf_counter() - t0, 3)
        except Exception as exc:  # the warm-up run uploads them then (mdf stays alive)
            notes["ingest"] = f"in the warm-up (executing the bare source failed: {type(exc).__name__})"
    runs = _new_runs()
    return _mars_case(env, lambda: _mars_value(env, mdf.groupby("k").sum(), runs),
                      check_groupby(env), notes, runs)


def overhead_mars(p, env):
    _, mt, _ = _mars(env)
    n = p["oh_n"]
    runs = _new_runs()
    notes = {"chunks": n, "graph_s": _graph_seconds(mt.ones(n, chunk_size=1) + 1),
             "small_data": "off (this measures the per-subtask cost of the distributed path)"}
    from mars_on_ray.config import using

    def run():
        with using({"small_data_bytes": 0}):
            return _mars_value(env, mt.ones(n, chunk_size=1) + 1, runs)
    return _mars_case(env, run, check_overhead(n), notes, runs)


def _graph_seconds(expr):
    """In-process optimize + tile + fuse time of ``expr`` (the supervisor-side graph work)."""
    try:
        from mars_on_ray.core.fusion import build_steps, fuse
        from mars_on_ray.core.optimizer import optimize
        from mars_on_ray.core.tiling import TileContext, tile_graph
        t0 = time.perf_counter()
        ctx = TileContext()
        plan = optimize([expr.data])
        driver = tile_graph(list(plan.order), ctx)
        try:
            driver.send(None)
        except StopIteration:
            pass
        chunks = list(ctx[plan.roots[0]].flat)
        fuse(build_steps(chunks, set()), {c.key for c in chunks})
        return round(time.perf_counter() - t0, 3)
    except Exception as exc:
        return f"? ({type(exc).__name__})"


def sessions_warm(p, env):
    mr, _, _ = _mars(env)
    notes = {"first_new_session_s": env.first_session_s,
             "what": "new_session() with Ray and the services already running"}

    def check(session):
        assert session is not None
    return Case(mr.new_session, check, notes, warmup=0, repeats=p["warm_repeats"])


ATTACH_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
import mars_on_ray as mr, mars_on_ray.tensor as mt, mars_on_ray.dataframe as md
t1 = time.perf_counter()
mr.new_session(address=sys.argv[1])
t2 = time.perf_counter()
time.sleep(5)  # let the services and Ray's daemons settle, then the resting memory of the tree
import psutil
tree = [psutil.Process(), *psutil.Process().children(recursive=True)]
pss = 0
for proc in tree:
    try:
        pss += proc.memory_full_info().pss
    except psutil.Error:
        pass
print("BENCH_RESULT " + json.dumps({"import_s": t1 - t0, "new_session_s": t2 - t1,
                                    "resting_pss_mb": pss / 2**20, "processes": len(tree)}), flush=True)
"""


def _timed_script(script, args, env, timeout):
    """Run ``script`` in a fresh interpreter; the Timed it reports, or a RuntimeError."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script, *args], env=env, timeout=timeout,
                          capture_output=True, text=True)
    total = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH_RESULT "):
            data = json.loads(line.split(" ", 1)[1])
            notes = {k: round(v, 3) for k, v in data.items() if k != "new_session_s"}
            return Timed(data["new_session_s"], notes={**notes, "process_total_s": round(total, 3)})
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    raise RuntimeError(f"subprocess failed (rc={proc.returncode}): " + " | ".join(tail))


def sessions_attach(p, env):
    """new_session(address) from a new driver process while the cluster and services run."""
    _mars(env)
    import ray
    address = ray.get_runtime_context().gcs_address
    return Case(lambda: _timed_script(ATTACH_SCRIPT, [address], dict(os.environ), 120), None,
                {"what": "a second driver process attaching (ray.init connect included)"},
                warmup=0, repeats=p["warm_repeats"])


COLD_SCRIPT = """
import json, time
t0 = time.perf_counter()
import mars_on_ray as mr, mars_on_ray.tensor as mt, mars_on_ray.dataframe as md
t1 = time.perf_counter()
session = mr.new_session()
t2 = time.perf_counter()
time.sleep(5)  # let the services and Ray's daemons settle, then the resting memory of the tree
import psutil
tree = [psutil.Process(), *psutil.Process().children(recursive=True)]
pss = 0
for proc in tree:
    try:
        pss += proc.memory_full_info().pss
    except psutil.Error:
        pass
print("BENCH_RESULT " + json.dumps({"import_s": t1 - t0, "new_session_s": t2 - t1,
                                    "resting_pss_mb": pss / 2**20, "processes": len(tree)}), flush=True)
try:
    session.close()
except Exception:
    pass
import ray
ray.shutdown()
"""


def sessions_cold(p, env):
    """new_session() in a fresh interpreter with no Ray running (it starts an embedded Ray)."""
    def run():
        tmp = tempfile.mkdtemp(prefix="mrb", dir="/tmp")  # short: Ray's socket paths are long
        envvars = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        # an isolated temp dir and HOME: never attach to another Ray on this machine
        envvars.update(RAY_TMPDIR=tmp, HOME=tmp)
        try:
            return _timed_script(COLD_SCRIPT, [], envvars, 240)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return Case(run, None, {"what": "fresh interpreter, no Ray running; isolated RAY_TMPDIR/HOME"},
                warmup=0, repeats=p["cold_repeats"])


CASES: dict[tuple[str, str], Callable[[dict, Env], Case]] = {
    ("seed", "numpy"): seed_numpy,
    ("elementwise", "numpy"): elementwise_numpy,
    ("groupby", "numpy"): groupby_numpy,
    **{(w, e): f for e in ("dask-threads", "dask-distributed")
       for w, f in (("seed", seed_dask), ("elementwise", elementwise_dask), ("groupby", groupby_dask))},
    ("overhead", "ray"): overhead_ray,
    **{(w, e): f for e in ("mars", "mars-local")
       for w, f in (("seed", seed_mars), ("elementwise", elementwise_mars),
                    ("groupby", groupby_mars), ("overhead", overhead_mars))},
    ("sessions", "mars-warm"): sessions_warm,
    ("sessions", "mars-attach"): sessions_attach,
    ("sessions", "mars-cold"): sessions_cold,
}

from bench_dataframe import DATAFRAME_CASES  # noqa: E402  (these import this module's helpers)
from bench_engine import ENGINE_CASES  # noqa: E402
from bench_io import IO_CASES  # noqa: E402
from bench_tensor import TENSOR_CASES  # noqa: E402

CASES.update(DATAFRAME_CASES)
CASES.update(ENGINE_CASES)
CASES.update(IO_CASES)
CASES.update(TENSOR_CASES)

# Phases: one process each, in this order, so that one engine's processes never inflate
# another's memory figures. The Ray phase holds raw Ray and mars (the same cluster).
PHASES = {
    "numpy": ["numpy"],
    "dask-threads": ["dask-threads"],
    "dask-distributed": ["dask-distributed"],
    "ray": ["ray", "mars", "mars-warm", "mars-attach"],
    "cold": ["mars-cold"],
    "mars-local": ["mars-local"],
}
DEFAULT_PHASES = ("numpy", "dask-threads", "dask-distributed", "ray", "cold")


def phase_cases(phase: str, workloads) -> list[tuple[str, str]]:
    """The (workload, engine) cases of a phase, workload-major (sessions last)."""
    return [(w, e) for w in workloads for e in PHASES[phase] if (w, e) in CASES]
