"""learn data-side benchmark: metrics, MinMaxScaler and make_classification on mars_on_ray vs
scikit-learn (one process) and dask-ml, with the peak memory of each engine's process tree.

    python benchmarks/bench_learn_data.py [--rows 4000000] [--repeats 3]

Each engine runs in its own subprocess (no engine's processes alive while another is measured);
inputs are made and, for the distributed engines, uploaded / persisted before timing; a timed
run is the user-level call plus bringing the (small) result to the driver. Results are checked
against scikit-learn's outside the timing. Prints a markdown table; nothing asserts a speed.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bench_memory import MiB, TreeMemorySampler  # noqa: E402

CASES = ["accuracy", "f1_macro", "roc_auc_rounded", "roc_auc_continuous", "r2", "minmax_fit_transform",
         "make_classification"]


def make_inputs(rows: int):
    rs = np.random.RandomState(0)
    y = rs.randint(0, 3, rows)
    p = np.where(rs.rand(rows) < 0.7, y, rs.randint(0, 3, rows))
    yb = rs.randint(0, 2, rows)
    score = rs.rand(rows)
    yr = rs.rand(rows)
    pr = yr + rs.normal(scale=0.1, size=rows)
    X = rs.rand(rows // 4, 8)
    return {"y": y, "p": p, "yb": yb, "score": score, "score3": np.round(score, 3), "yr": yr, "pr": pr, "X": X}


def sklearn_cases(d, rows):
    from sklearn import datasets, metrics, preprocessing

    return {
        "accuracy": lambda: metrics.accuracy_score(d["y"], d["p"]),
        "f1_macro": lambda: metrics.f1_score(d["y"], d["p"], average="macro"),
        "roc_auc_rounded": lambda: metrics.roc_auc_score(d["yb"], d["score3"]),
        "roc_auc_continuous": lambda: metrics.roc_auc_score(d["yb"], d["score"]),
        "r2": lambda: metrics.r2_score(d["yr"], d["pr"]),
        "minmax_fit_transform": lambda: preprocessing.MinMaxScaler().fit_transform(d["X"]).sum(),
        "make_classification": lambda: datasets.make_classification(rows // 4, 20, random_state=0)[0].shape,
    }


def dask_cases(d, rows):
    import dask.array as da
    from dask.distributed import Client, LocalCluster
    from dask_ml import datasets, metrics, preprocessing

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None))
    chunk = rows // 8
    arr = {k: da.from_array(v, chunks=(chunk,) + v.shape[1:] if v.ndim == 1 else (chunk // 4, v.shape[1])).persist()
           for k, v in d.items()}
    cases = {
        "accuracy": lambda: metrics.accuracy_score(arr["y"], arr["p"]),
        "r2": lambda: metrics.r2_score(arr["yr"], arr["pr"]),
        "minmax_fit_transform": lambda: preprocessing.MinMaxScaler().fit_transform(arr["X"]).sum().compute(),
        "make_classification": lambda: datasets.make_classification(rows // 4, 20, random_state=0,
                                                                   chunks=chunk // 4)[0].compute().shape,
    }
    cases["_client"] = client
    return cases


def mars_cases(d, rows):
    import mars_on_ray as mr
    import mars_on_ray.tensor as mt
    from mars_on_ray.learn import datasets, metrics, preprocessing
    from mars_on_ray.session import init_ray  # retries a start-up a loaded machine misses

    init_ray(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    mr.new_session()
    chunk = rows // 8
    t = {k: mt.tensor(v, chunk_size=chunk if v.ndim == 1 else (chunk // 4, v.shape[1])).execute() for k, v in d.items()}
    return {
        "accuracy": lambda: metrics.accuracy_score(t["y"], t["p"]).execute().fetch(),
        "f1_macro": lambda: metrics.f1_score(t["y"], t["p"], average="macro").execute().fetch(),
        "roc_auc_rounded": lambda: metrics.roc_auc_score(t["yb"], t["score3"]).execute().fetch(),
        "roc_auc_continuous": lambda: metrics.roc_auc_score(t["yb"], t["score"]).execute().fetch(),
        "r2": lambda: metrics.r2_score(t["yr"], t["pr"]).execute().fetch(),
        "minmax_fit_transform": lambda: preprocessing.MinMaxScaler().fit_transform(t["X"]).sum().execute().fetch(),
        "make_classification": lambda: datasets.make_classification(rows // 4, 20, random_state=0,
                                                                   chunk_size=chunk // 4)[0].execute().shape,
    }


def run_engine(engine: str, rows: int, repeats: int) -> dict:
    d = make_inputs(rows)
    cases = {"sklearn": sklearn_cases, "dask-ml": dask_cases, "mars_on_ray": mars_cases}[engine](d, rows)
    results = {}
    for name in CASES:
        if name not in cases:
            continue
        try:
            value = cases[name]()  # warm-up (untimed)
            sampler = TreeMemorySampler().start()
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                value = cases[name]()
                times.append(time.perf_counter() - start)
            sampler.stop()
            results[name] = {"median_s": statistics.median(times), "best_s": min(times),
                             "peak_rss_mib": sampler.peak_rss / MiB, "value": repr(value)[:60]}
        except Exception as exc:  # recorded, the other cases go on
            results[name] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=4_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--engine", help="run one engine in this process and print its JSON")
    parser.add_argument("--engines", nargs="+", default=["sklearn", "dask-ml", "mars_on_ray"])
    args = parser.parse_args()
    if args.engine:
        print(json.dumps(run_engine(args.engine, args.rows, args.repeats)))
        return
    table = {}
    for engine in args.engines:
        out = subprocess.run([sys.executable, __file__, "--engine", engine, "--rows", str(args.rows),
                              "--repeats", str(args.repeats)], capture_output=True, text=True)
        lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
        table[engine] = json.loads(lines[-1]) if lines else {"error": out.stderr[-300:]}
    print(f"rows={args.rows:,} (MinMaxScaler / make_classification: {args.rows // 4:,} x 8 / x 20)\n")
    print("| case | " + " | ".join(f"{e} s (peak MiB)" for e in table) + " | mars / sklearn |")
    print("|---" * (len(table) + 2) + "|")
    for name in CASES:
        cells, base, ours = [], None, None
        for engine, res in table.items():
            r = res.get(name) if isinstance(res, dict) else None
            if not r:
                cells.append("n/a")
            elif "error" in r:
                cells.append("ERROR")
            else:
                cells.append(f"{r['median_s']:.2f} ({r['peak_rss_mib']:.0f})")
                base = r["median_s"] if engine == "sklearn" else base
                ours = r["median_s"] if engine == "mars_on_ray" else ours
        ratio = f"{ours / base:.2f}x" if base and ours else "n/a"
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")
    errors = {e: {k: v["error"] for k, v in res.items() if isinstance(v, dict) and "error" in v}
              for e, res in table.items() if isinstance(res, dict)}
    if any(errors.values()):
        print("\nerrors:", json.dumps(errors, indent=1))


if __name__ == "__main__":
    main()
