"""learn estimators vs scikit-learn (one process) and dask-ml, one run, with peak memory.

    python benchmarks/bench_learn.py                 # KMeans 2M x 10, PCA 10M x 20
    python benchmarks/bench_learn.py --scale 0.25    # the same shapes with fewer rows

KMeans: k=8, 10 Lloyd iterations (tol=0, max_iter=10), init = the first 8 rows.
PCA: 10 components; scikit-learn's and mars_on_ray's 'auto' (covariance_eigh for tall data)
and 'full' (LAPACK / TSQR), dask-ml's 'auto' (TSQR for tall data).
Each engine runs in its own process, one after the other; peak memory is the summed RSS of
that process and its children (Ray or Dask workers) while the fits run, the data included.
Data: NumPy with fixed seeds, the same in every engine (built untimed, then handed over:
dask ``from_array(...).persist()``, mars ``mt.tensor(...).execute()``). Results are checked
across engines (KMeans centers, PCA explained variance) after the run (dask-ml's inertia_
follows another definition, so centers are compared).
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
from bench_memory import TreeMemorySampler  # noqa: E402

ENGINES = ("sklearn", "dask-ml", "mars_on_ray")


def kmeans_data(n):
    rng = np.random.default_rng(0)
    centers = rng.uniform(-10, 10, (8, 10))
    X = np.empty((n, 10))
    for lo in range(0, n, 500_000):
        hi = min(n, lo + 500_000)
        X[lo:hi] = centers[rng.integers(8, size=hi - lo)] + rng.standard_normal((hi - lo, 10))
    return X


def pca_data(n):
    rng = np.random.default_rng(1)
    mix = rng.standard_normal((20, 20)) * np.linspace(3, 0.1, 20)[:, None]
    X = np.empty((n, 20))
    for lo in range(0, n, 500_000):
        hi = min(n, lo + 500_000)
        X[lo:hi] = rng.standard_normal((hi - lo, 20)) @ mix + 5
    return X


def _time(fit, repeats):
    fit()  # warm-up (worker imports, first graph)
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fit()
        times.append(time.perf_counter() - start)
    return times, result


def _cases(engine, args):
    """(name, fit) pairs of this engine; each fit returns the figures checked across engines."""
    n_km, n_pca = int(2_000_000 * args.scale), int(10_000_000 * args.scale)
    rows_km, rows_pca = -(-n_km // 8), -(-n_pca // 16)
    Xk = kmeans_data(n_km)
    init = Xk[:8].copy()
    Xp = pca_data(n_pca)
    if engine == "sklearn":
        from sklearn.cluster import KMeans
        from sklearn.decomposition import PCA

        km = lambda: KMeans(8, init=init, n_init=1, max_iter=10, tol=0).fit(Xk).cluster_centers_  # noqa: E731
        return [("kmeans", km),
                ("pca auto", lambda: PCA(10).fit(Xp).explained_variance_),
                ("pca full", lambda: PCA(10, svd_solver="full").fit(Xp).explained_variance_)], None
    if engine == "dask-ml":
        import dask
        import dask.array as da
        from dask_ml.cluster import KMeans
        from dask_ml.decomposition import PCA

        dask.config.set(scheduler="threads", num_workers=2)
        dk = da.from_array(Xk, chunks=(rows_km, 10)).persist()
        dp = da.from_array(Xp, chunks=(rows_pca, 20)).persist()
        km = lambda: KMeans(8, init=init, max_iter=10, tol=0, n_init=1).fit(dk).cluster_centers_  # noqa: E731
        return [("kmeans", km),
                ("pca auto", lambda: np.asarray(PCA(10).fit(dp).explained_variance_))], None
    import mars_on_ray as mr
    import mars_on_ray.tensor as mt
    from mars_on_ray.learn.cluster import KMeans
    from mars_on_ray.learn.decomposition import PCA
    from mars_on_ray.session import init_ray  # retries a start-up a loaded machine misses

    init_ray(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    session = mr.new_session()
    tk = mt.tensor(Xk, chunk_size=(rows_km, 10)).execute()
    tp = mt.tensor(Xp, chunk_size=(rows_pca, 20)).execute()
    km = lambda: KMeans(8, init=init, max_iter=10, tol=0).fit(tk).cluster_centers_  # noqa: E731
    return [("kmeans", km),
            ("pca auto", lambda: PCA(10).fit(tp).explained_variance_),
            ("pca full", lambda: PCA(10, svd_solver="full").fit(tp).explained_variance_)], session


def run_phase(engine, args):
    out = {}
    cases, _session = _cases(engine, args)
    for name, fit in cases:
        sampler = TreeMemorySampler().start()
        times, result = _time(fit, args.repeats)
        mem = sampler.stop()
        out[name] = {"times": times, "result": np.ravel(result).tolist(), **mem}
        print(f"[{engine}] {name}: {min(times):.2f}s  peak {mem['peak_rss_mib']:.0f} MiB", file=sys.stderr)
    print(json.dumps(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the rows (memory / time)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--phase", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=None, help="write results.json here")
    args = parser.parse_args()
    if args.phase:
        return run_phase(args.phase, args)
    results = {}
    for engine in ENGINES:
        cmd = [sys.executable, __file__, "--phase", engine, "--scale", str(args.scale),
               "--repeats", str(args.repeats)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        sys.stderr.write(proc.stderr[-3000:] if proc.returncode else "")
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        results[engine] = json.loads(lines[-1]) if lines else {"error": proc.stderr[-2000:]}
    print(f"\nload average at the end: {os.getloadavg()}; scale={args.scale} (KMeans {int(2e6 * args.scale):,} x 10, PCA {int(1e7 * args.scale):,} x 20), "
          f"best of {args.repeats} after a warm-up; peak = summed RSS of the engine's processes\n")
    print("| case | engine | best s | median s | vs sklearn | vs dask-ml | peak RSS MiB | result check |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for case in ("kmeans", "pca auto", "pca full"):
        ref = results.get("sklearn", {}).get(case)
        dref = results.get("dask-ml", {}).get(case) or results.get("dask-ml", {}).get("pca auto") \
            if case.startswith("pca") else results.get("dask-ml", {}).get(case)
        for engine in ENGINES:
            r = results.get(engine, {}).get(case)
            if r is None:
                continue
            best = min(r["times"])
            vs_sk = f"{best / min(ref['times']):.2f}x" if ref else "-"
            vs_dk = f"{best / min(dref['times']):.2f}x" if dref else "-"
            check = "-" if not ref else \
                ("equal" if np.allclose(r["result"], ref["result"], rtol=1e-6) else "DIFFERS")
            print(f"| {case} | {engine} | {best:.2f} | {statistics.median(r['times']):.2f} | {vs_sk} | {vs_dk} "
                  f"| {r['peak_rss_mib']:.0f} | {check} |")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
