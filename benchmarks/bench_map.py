"""``mr.map`` against the usual ways of running many small Python tasks, in one run.

Workloads: 20,000 trivial tasks (``x + 1``) and 2,000 tasks sleeping 5 ms. Engines: mr.map,
raw Ray tasks (one a task), ``ray.util.multiprocessing.Pool.map`` (its own chunking), Dask
``client.map`` + ``client.gather`` on a 2x1 LocalCluster, ``concurrent.futures``'s
ProcessPoolExecutor with 2 processes (``map``, chunksize 1 as its default, and chunksize 100).
Each engine is started before timing (pools, clusters and workers are warm; one untimed run
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default="benchmarks/results/map")
    args = parser.parse_args(argv)
    results: dict[str, dict] = {w: {} for w in WORKLOADS}

    def measure(engine, runner, ctx):
        for name, (func, n) in WORKLOADS.items():
            try:
                results[name][engine] = _time(runner, func, n, ctx, args.repeats)
            except Exception as exc:  # one engine failing never stops the others
                results[name][engine] = {"error": f"{type(exc).__name__}: {exc}"}
            print(name, engine, results[name][engine], flush=True)

    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        measure("concurrent.futures (2 procs)", run_futures, {"futures": pool})
        measure("concurrent.futures (2 procs, chunksize=100)", run_futures_100, {"futures": pool})

    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        measure("dask client.map (2x1)", run_dask, {"dask": client})

    import ray
    from ray.util.multiprocessing import Pool

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    ctx: dict = {}
    measure("ray tasks", run_ray_tasks, ctx)
    measure("mr.map", run_mr_map, ctx)
    pool = Pool(processes=2)
    measure("ray.util.multiprocessing.Pool", run_ray_pool, {"ray_pool": pool})
    pool.terminate()
    ray.shutdown()

    lines = ["| workload | engine | best s | median s | vs fastest other (best) | peak RSS MiB |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, engines in results.items():
        others = [r["best_s"] for e, r in engines.items() if e != "mr.map" and "best_s" in r]
        fastest = min(others) if others else None
        for engine, r in engines.items():
            if "best_s" not in r:
                lines.append(f"| {name} | {engine} | {r['error']} | | | |")
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
