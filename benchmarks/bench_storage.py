"""Out-of-core jobs with a small memory budget: mars_on_ray (Ray object store + spilling) vs Dask
(threads; LocalCluster with the same memory limit), and Ray's spill / restore throughput vs the
disk's own (dd with direct I/O) measured in the same run.

    python benchmarks/bench_storage.py [--quick] [--store 300MB] [--out benchmarks/results/storage]

Jobs (each engine in its own process, so memory figures never include another engine's):
  tensor: x[i, j] = 3 i / n + j / n (n x n float64), y = sqrt(|2 sin x - x|) + 1, then
          y.sum(axis=0), y.max() and the whole y fetched (n = 12000: 1.15 GB per array)
  frame:  a DataFrame of `rows` rows (key, a, b, c): groupby(key).agg(sum/mean/max) and a
          stable sort by c (30M rows: 960 MB, over 3x a 300 MB store)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_memory import TreeMemorySampler  # noqa: E402

MiB = 1024**2


def dd_throughput(directory: str, mib: int) -> dict:
    """MB/s of dd writing then reading ``mib`` MiB in ``directory`` with O_DIRECT (no page cache)."""
    path = os.path.join(directory, "dd-probe")
    out = {}
    for name, args in (("write", ["if=/dev/zero", f"of={path}", "oflag=direct"]),
                       ("read", [f"if={path}", "of=/dev/null", "iflag=direct"])):
        proc = subprocess.run(["dd", *args, "bs=4M", f"count={max(mib // 4, 1)}"],
                              capture_output=True, text=True)
        match = re.search(r"(\d+) bytes.*copied, ([\d.]+) s", proc.stderr)
        if proc.returncode or not match:  # O_DIRECT unsupported here (tmpfs): say so
            out[f"{name}_mib_s"] = None
            out[f"{name}_error"] = proc.stderr.strip().splitlines()[-1] if proc.stderr else "?"
            continue
        out[f"{name}_mib_s"] = round(int(match.group(1)) / MiB / float(match.group(2)), 1)
    if os.path.exists(path):
        os.remove(path)
    return out


def _tensor_numpy(n: int):
    import numpy as np

    x = np.arange(n, dtype="float64")[:, None] / n * 3 + np.arange(n, dtype="float64")[None, :] / n
    y = np.sin(x)
    y *= 2
    y -= x
    np.abs(y, out=y)
    np.sqrt(y, out=y)
    y += 1
    return y.sum(axis=0), y.max(), y


def _frame_data(rows: int):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    return pd.DataFrame({"key": rng.integers(0, 1000, rows), "a": rng.random(rows),
                         "b": rng.standard_normal(rows), "c": rng.integers(0, 10**9, rows)})


AGG = {"a": "sum", "b": "mean", "c": "max"}


def run_mars(job: str, n: int, rows: int, store: int, spill_dir: str) -> dict:
    import mars_on_ray as mr

    import ray

    # new_session retries Ray's start-up on a loaded machine
    session = mr.new_session(address="local", cache_mem=store, spill_dirs=[spill_dir],
                             num_cpus=2, log_to_driver=False)
    try:
        before = session.storage_stats()
        started = time.perf_counter()
        if job == "tensor":
            import mars_on_ray.tensor as mt

            rows_t = mt.arange(n, chunk_size=2500, dtype="float64")[:, None] / n
            cols_t = mt.arange(n, chunk_size=2500, dtype="float64")[None, :] / n
            x = rows_t * 3 + cols_t
            y = mt.sqrt(mt.abs(mt.sin(x) * 2 - x)) + 1
            y.execute()
            sums, top = mr.fetch(y.sum(axis=0), y.max())
            value = y.fetch()
            result = (sums, top, value)
        else:
            import mars_on_ray.dataframe as md

            df = md.DataFrame(_frame_data(rows), chunk_size=1_500_000)
            result = mr.fetch(df.groupby("key").agg(AGG), df.sort_values("c", kind="stable"))
        seconds = time.perf_counter() - started
        after = session.storage_stats()
        (node,) = after["nodes"].values()
        (node0,) = before["nodes"].values()
        spilled = node["spilled_bytes"] - node0["spilled_bytes"]
        restored = node["restored_bytes"] - node0["restored_bytes"]
        spill_s = node["spill_seconds"] - node0["spill_seconds"]
        restore_s = node["restore_seconds"] - node0["restore_seconds"]
        return {"seconds": seconds, "result": result, "spilled_mib": round(spilled / MiB, 1),
                "restored_mib": round(restored / MiB, 1),
                "spill_mib_s": round(spilled / MiB / spill_s, 1) if spill_s else None,
                "restore_mib_s": round(restored / MiB / restore_s, 1) if restore_s else None}
    finally:
        session.close()
        ray.shutdown()


def run_dask(job: str, n: int, rows: int, store: int, spill_dir: str, cluster: bool) -> dict:
    import dask

    client = None
    if cluster:
        from dask.distributed import Client, LocalCluster

        dask.config.set({"temporary-directory": spill_dir})
        # the same memory for data as the object store, split between the 2 workers
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     memory_limit=store // 2, dashboard_address=None))
    try:
        started = time.perf_counter()
        scheduler = None if cluster else "threads"
        if job == "tensor":
            import dask.array as da

            rows_t = da.arange(n, chunks=2500, dtype="float64")[:, None] / n
            cols_t = da.arange(n, chunks=2500, dtype="float64")[None, :] / n
            x = rows_t * 3 + cols_t
            y = da.sqrt(abs(da.sin(x) * 2 - x)) + 1
            result = dask.compute(y.sum(axis=0), y.max(), y, scheduler=scheduler)
        else:
            import dask.dataframe as dd

            df = dd.from_pandas(_frame_data(rows), chunksize=1_500_000)
            result = dask.compute(df.groupby("key").agg(AGG), df.sort_values("c"),
                                  scheduler=scheduler)
        return {"seconds": time.perf_counter() - started, "result": result}
    finally:
        if client is not None:
            client.close()


def check(job: str, result, n: int, rows: int) -> bool:
    """Whether ``result`` equals NumPy's / pandas' answer."""
    import numpy as np
    import pandas as pd

    if job == "tensor":
        sums, top, value = _tensor_numpy(n)
        return (np.allclose(result[0], sums, rtol=1e-10) and float(result[1]) == float(top)
                and np.allclose(result[2], value, rtol=1e-12))
    pdf = _frame_data(rows)
    grouped, ordered = result
    try:
        pd.testing.assert_frame_equal(grouped.sort_index(), pdf.groupby("key").agg(AGG))
        pd.testing.assert_frame_equal(ordered.reset_index(drop=True)[["c"]],
                                      pdf.sort_values("c", kind="stable").reset_index(drop=True)[["c"]])
    except AssertionError:
        return False
    return True


def one(engine: str, job: str, n: int, rows: int, store: int) -> dict:
    spill_dir = tempfile.mkdtemp(prefix=f"bench-storage-{engine}-")
    sampler = TreeMemorySampler().start()
    try:
        if engine == "mars":
            out = run_mars(job, n, rows, store, spill_dir)
        else:
            out = run_dask(job, n, rows, store, spill_dir, cluster=engine == "dask-cluster")
        out.update(sampler.stop())
        out["correct"] = check(job, out.pop("result"), n, rows)
    except Exception as exc:  # a failed engine is a result, recorded as such
        out = {"error": f"{type(exc).__name__}: {exc}"[:300], **sampler.stop()}
    finally:
        shutil.rmtree(spill_dir, ignore_errors=True)
    out["seconds"] = round(out.get("seconds", float("nan")), 2)
    return out


def _run_case(cmd: list[str], timeout: float) -> dict:
    """One engine x job in its own process group, killed whole (Ray, Dask workers) on timeout."""
    import signal

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"error": f"timed out after {timeout:.0f} s (killed)"}
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": err[-300:]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n=6000, 5M rows (a few minutes)")
    ap.add_argument("--store", default="300MB", help="object store / Dask memory budget")
    ap.add_argument("--engines", nargs="+", default=["mars", "dask-threads", "dask-cluster"])
    ap.add_argument("--jobs", nargs="+", default=["tensor", "frame"])
    ap.add_argument("--out", default=os.path.join(HERE, "results", "storage"))
    ap.add_argument("--case-timeout", type=float, default=900.0, help="seconds per engine x job")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # internal: engine job
    args = ap.parse_args(argv)
    from mars_on_ray.storage.tuning import parse_size

    store = parse_size(args.store)
    n, rows = (6000, 5_000_000) if args.quick else (12000, 30_000_000)
    if args.one:
        print(json.dumps(one(*args.one, n, rows, store)))
        return 0
    report = {"store_mib": store // MiB, "n": n, "rows": rows, "cpus": os.cpu_count(), "runs": {}}
    probe_dir = tempfile.mkdtemp(prefix="bench-storage-dd-")
    report["disk"] = dd_throughput(probe_dir, 512 if not args.quick else 256)
    shutil.rmtree(probe_dir, ignore_errors=True)
    print("disk (dd, O_DIRECT):", report["disk"], flush=True)
    for job in args.jobs:
        for engine in args.engines:
            cmd = [sys.executable, __file__, "--one", engine, job, "--store", args.store]
            if args.quick:
                cmd.append("--quick")
            result = _run_case(cmd, args.case_timeout)
            report["runs"][f"{job}/{engine}"] = result
            print(job, engine, result, flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
