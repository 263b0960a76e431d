"""``mr.map`` against the usual ways of running many small Python tasks, in one run.

Workloads: 20,000 trivial tasks (``x + 1``) and 2,000 tasks sleeping 5 ms. Engines: mr.map,
raw Ray tasks (one a task), ``ray.util.multiprocessing.Pool.map`` (its own chunking), Dask
``client.map`` + ``client.gather`` on a 2x1 LocalCluster, ``concurrent.futures``'s
ProcessPoolExecutor with 2 processes (``map``, chunksize 1 as its default, and chunksize 100).
Each engine runs in its own process and is started before timing (pools, clusters and workers are warm; one untimed run
first); what is timed is submitting every task and having every result in the driver. Peak
memory is the summed RSS of this process and its children over the engine's timed runs.

    python benchmarks/bench_map.py [--repeats 3] [--out benchmarks/results/map]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

from bench_memory import TreeMemorySampler  # noqa: E402


def trivial(x):
    return x + 1


def sleepy(x):
    time.sleep(0.005)
    return x


WORKLOADS = {"trivial_20000": (trivial, 20_000), "sleep5ms_2000": (sleepy, 2_000)}


def run_mr_map(func, n, ctx):
    import mars_on_ray as mr

    return list(mr.map(func, range(n), show_progress=False))


def run_ray_tasks(func, n, ctx):
    import ray

    remote = ctx.setdefault(("ray", func), ray.remote(num_cpus=1)(func))
    return ray.get([remote.remote(i) for i in range(n)])


def run_ray_pool(func, n, ctx):
    return ctx["ray_pool"].map(func, range(n))


def run_dask(func, n, ctx):
    client = ctx["dask"]
    return client.gather(client.map(func, range(n), pure=False))


def run_futures(func, n, ctx, chunksize=1):
    return list(ctx["futures"].map(func, range(n), chunksize=chunksize))


def run_futures_100(func, n, ctx):
    return run_futures(func, n, ctx, chunksize=100)


def _time(runner, func, n, ctx, repeats):
    expected = [func(i) for i in range(n)]
    assert runner(func, n, ctx) == expected  # warm-up, checked
    times = []
    sampler = TreeMemorySampler().start()
    for _ in range(repeats):
        start = time.perf_counter()
        result = runner(func, n, ctx)
        times.append(time.perf_counter() - start)
        assert result == expected
    memory = sampler.stop()
    return {"best_s": round(min(times), 3), "median_s": round(statistics.median(times), 3),
            "peak_rss_mib": memory["peak_rss_mib"]}


ENGINES = ["mr.map", "ray tasks", "ray.util.multiprocessing.Pool", "concurrent.futures (2 procs)",
           "concurrent.futures (2 procs, chunksize=100)", "dask client.map (2x1)"]


def run_engine(engine: str, repeats: int) -> dict:
    """Start ``engine``, time both workloads on it, stop it (runs in its own process)."""
    results = {}

    def measure(runner, ctx):
        for name, (func, n) in WORKLOADS.items():
            try:
                results[name] = _time(runner, func, n, ctx, repeats)
            except Exception as exc:  # one workload failing never stops the other
                results[name] = {"error": f"{type(exc).__name__}: {exc}"}

    if engine.startswith("concurrent.futures"):
        with concurrent.futures.ProcessPoolExecutor(2) as pool:
            measure(run_futures_100 if "100" in engine else run_futures, {"futures": pool})
    elif engine.startswith("dask"):
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            measure(run_dask, {"dask": client})
    else:
        import ray

        os.environ.setdefault("RAY_raylet_start_wait_time_s", "120")  # loaded machines start slowly
        from mars_on_ray.session import init_ray  # retries a start-up a loaded machine misses

        init_ray(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        if engine == "ray.util.multiprocessing.Pool":
            from ray.util.multiprocessing import Pool

            pool = Pool(processes=2)
            measure(run_ray_pool, {"ray_pool": pool})
            pool.terminate()
        else:
            measure(run_mr_map if engine == "mr.map" else run_ray_tasks, {})
        ray.shutdown()
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default="benchmarks/results/map")
    parser.add_argument("--engine-timeout", type=float, default=900)
    parser.add_argument("--only", nargs="*", default=None, help="engines to run (names above)")
    parser.add_argument("--engine", help=argparse.SUPPRESS)  # internal: one engine, JSON out
    args = parser.parse_args(argv)
    if args.engine:
        print("RESULT " + json.dumps(run_engine(args.engine, args.repeats)), flush=True)
        return 0
    results: dict[str, dict] = {w: {} for w in WORKLOADS}
    for engine in args.only or ENGINES:
        # each engine in its own process: none of them is alive while another is measured
        try:
            done = subprocess.run([sys.executable, __file__, "--engine", engine, "--repeats",
                                   str(args.repeats)], capture_output=True, text=True,
                                  timeout=args.engine_timeout)
            lines = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
            found = json.loads(lines[-1][7:]) if lines else {
                w: {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:200]}
                for w in WORKLOADS}
        except subprocess.TimeoutExpired:
            found = {w: {"error": f"TIMEOUT after {args.engine_timeout:.0f} s"} for w in WORKLOADS}
        for name in WORKLOADS:
            results[name][engine] = found.get(name, {"error": "missing"})
            print(name, engine, results[name][engine], flush=True)
    lines = ["| workload | engine | best s | median s | vs fastest other (best) | peak RSS MiB |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, engines in results.items():
        others = [r["best_s"] for e, r in engines.items() if e != "mr.map" and "best_s" in r]
        fastest = min(others) if others else None
        for engine, r in engines.items():
            if "best_s" not in r:
                lines.append(f"| {name} | {engine} | {r['error'].splitlines()[-1][:120]} | | | |")
                continue
            ratio = f"{r['best_s'] / fastest:.2f}x" if fastest else ""
            lines.append(f"| {name} | {engine} | {r['best_s']} | {r['median_s']} | {ratio} | "
                         f"{r['peak_rss_mib']} |")
    table = "\n".join(lines)
    print(table)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
