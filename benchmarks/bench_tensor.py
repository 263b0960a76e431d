"""Tensor workloads of the NumPy-breadth issue (matmul is `bench_engine`'s):

- **tsqr**: `qr(x)` of a tall-skinny 2M x 20 [200k x 20] float64 matrix in 250k-row chunks
  [50k]; NumPy: `np.linalg.qr`. Checked: Q R == x and Q orthonormal.
- **sort**: `sort(x)` of 50M [2M] float64 in 5M-row chunks [250k]. NumPy: `np.sort`.
- **percentile**: `percentile(x, [1, 50, 99])` of the same 50M (exact, linear method).
- **unique**: `unique(y)` of 50M [2M] int64 with 1M [100k] distinct values.

Inputs are built once per phase with NumPy (untimed); for mars_on_ray and Dask on a
LocalCluster they are executed/persisted before timing, so the timed work is the operation
and bringing its result to the driver.
"""
from __future__ import annotations

import numpy as np

from bench_workloads import Case, _dask_compute, _mars, _mars_case, _mars_value, _new_runs

SIZES = {"full": dict(qr_rows=2_000_000, qr_cols=20, qr_chunk=250_000, sort_n=50_000_000,
                      sort_chunk=5_000_000, uniq_n=50_000_000, uniq_k=1_000_000),
         "quick": dict(qr_rows=200_000, qr_cols=20, qr_chunk=50_000, sort_n=2_000_000,
                       sort_chunk=250_000, uniq_n=2_000_000, uniq_k=100_000)}
Q = [1, 50, 99]


def _sizes(p):
    return SIZES["quick" if p["mm_n"] <= 1000 else "full"]


def _inputs(p, env):
    if getattr(env, "_tensor_inputs", None) is None:
        s, rng = _sizes(p), np.random.default_rng(7)
        env._tensor_inputs = {"qr": rng.standard_normal((s["qr_rows"], s["qr_cols"])),
                              "sort": rng.standard_normal(s["sort_n"]),
                              "unique": rng.integers(0, s["uniq_k"], s["uniq_n"])}
    return env._tensor_inputs


def _source(name):
    return "sort" if name == "percentile" else name


def _check(name, env, approximate=False):
    """The answer check of operation ``name`` (inputs already built by ``_inputs``);
    ``approximate``: a percentile within 0.05 of the exact one (Dask's merge of per-chunk
    percentiles is not exact)."""
    x = env._tensor_inputs[_source(name)]

    def check(value):
        if approximate:
            assert np.allclose(np.asarray(value), np.percentile(x, Q), atol=0.05)
            return
        if name == "qr":
            q, r = (np.asarray(v) for v in value)
            assert np.allclose(q @ r, x) and np.allclose(q.T @ q, np.eye(x.shape[1]))
        elif name == "sort":
            assert np.array_equal(np.asarray(value), np.sort(x))
        elif name == "percentile":
            assert np.allclose(np.asarray(value), np.percentile(x, Q))
        else:
            assert np.array_equal(np.asarray(value), np.unique(x))
    return check


def _expr(name, lib, t):
    if name == "qr":
        return lib.linalg.qr(t)
    if name == "sort":
        return lib.sort(t)
    if name == "percentile":
        return lib.percentile(t, Q)
    return lib.unique(t)


def _chunks(name, p):
    s = _sizes(p)
    return (s["qr_chunk"], s["qr_cols"]) if name == "qr" else s["sort_chunk"]


def numpy_case(name):
    def make(p, env):
        x = _inputs(p, env)[_source(name)]
        run = (lambda: np.linalg.qr(x)) if name == "qr" else (lambda: _expr(name, np, x))
        return Case(run, _check(name, env))
    return make


def dask_case(name):
    def make(p, env):
        import dask.array as da
        x = da.from_array(_inputs(p, env)[_source(name)], chunks=_chunks(name, p))
        if env.client is not None:
            x = env.client.persist(x)
        if name == "sort":  # dask has no sort: the closest is topk of everything
            return Case(lambda: -_dask_compute(env, da.topk(-x, x.shape[0])), _check("sort", env),
                        {"note": "dask.array has no sort; -topk(-x, n)"})
        if name == "qr":
            return Case(lambda: _dask_compute_all(env, da.linalg.qr(x)), _check("qr", env))
        if name == "unique":
            return Case(lambda: _dask_compute(env, da.unique(x)), _check("unique", env))
        return Case(lambda: _dask_compute(env, da.percentile(x, Q)), _check("percentile", env, True),
                    {"note": "dask's percentile is approximate (per-chunk merge)"})
    return make


def _dask_compute_all(env, objs):
    import dask

    return dask.compute(*objs, scheduler="threads") if env.client is None else dask.compute(*objs)


def mars_case(name):
    def make(p, env):
        _, mt, _ = _mars(env)
        t = mt.tensor(_inputs(p, env)[_source(name)], chunk_size=_chunks(name, p))
        if not getattr(env, "mars_local", False):
            t.execute(show_progress=False)
        runs = _new_runs()
        if name == "qr":
            def run():
                q, r = mt.linalg.qr(t)
                return _mars_value(env, q, runs), r.fetch()
        else:
            def run():
                return _mars_value(env, _expr(name, mt, t), runs)
        return _mars_case(env, run, _check(name, env),
                          {"chunks": str(_chunks(name, p))}, runs)
    return make


TENSOR_WORKLOADS = ("tsqr", "sort", "percentile", "unique")
_NAMES = {"tsqr": "qr", "sort": "sort", "percentile": "percentile", "unique": "unique"}
TENSOR_CASES = {}
for _workload, _name in _NAMES.items():
    TENSOR_CASES.update({
        (_workload, "numpy"): numpy_case(_name),
        (_workload, "dask-threads"): dask_case(_name),
        (_workload, "dask-distributed"): dask_case(_name),
        (_workload, "mars"): mars_case(_name),
        (_workload, "mars-local"): mars_case(_name),
    })
