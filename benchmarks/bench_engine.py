"""Engine workloads beyond the seed ones: a blocked matmul and a multi-aggregation groupby.

- **matmul**: `x @ y`, two random 4000x4000 [1000x1000] float64 matrices in 1000x1000 [250x250]
  chunks, built once per phase (untimed; for mars_on_ray and Dask executed/persisted first),
  so only the product and bringing it to the driver are timed. NumPy: `x @ y` with its BLAS.
- **groupby_agg**: the groupby frame (20M [1M] rows, 1000 keys), `groupby("k")[["a", "b"]]
  .agg(["sum", "mean", "count"])`: three aggregations of two columns.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from bench_workloads import Case, _dask_compute, _mars, _mars_case, _mars_value, _new_runs

AGGS = ["sum", "mean", "count"]


def _matrices(p, env):
    if getattr(env, "_matmul_inputs", None) is None:
        rng = np.random.default_rng(1)
        n = p["mm_n"]
        env._matmul_inputs = (rng.random((n, n)), rng.random((n, n)))
        env._matmul_expected = env._matmul_inputs[0] @ env._matmul_inputs[1]
    return env._matmul_inputs


def _check_matmul(env):
    def check(value):
        assert np.allclose(np.asarray(value), env._matmul_expected)
    return check


def matmul_numpy(p, env):
    x, y = _matrices(p, env)
    return Case(lambda: x @ y, _check_matmul(env), {"threads": "BLAS may use both cores"})


def matmul_dask(p, env):
    import dask.array as da
    x, y = _matrices(p, env)
    c = p["mm_chunk"]
    dx, dy = da.from_array(x, chunks=c), da.from_array(y, chunks=c)
    if env.client is not None:
        dx, dy = env.client.persist([dx, dy])
    return Case(lambda: _dask_compute(env, dx @ dy), _check_matmul(env), {"chunks": f"{c}x{c}"})


def matmul_mars(p, env):
    _, mt, _ = _mars(env)
    x, y = _matrices(p, env)
    c = p["mm_chunk"]
    tx, ty = mt.tensor(x, chunk_size=c), mt.tensor(y, chunk_size=c)
    if not getattr(env, "mars_local", False):
        tx.execute(show_progress=False)
        ty.execute(show_progress=False)
    runs = _new_runs()
    return _mars_case(env, lambda: _mars_value(env, tx @ ty, runs), _check_matmul(env),
                      {"chunks": f"{c}x{c}"}, runs)


def _expected_agg(env) -> pd.DataFrame:
    if getattr(env, "_expected_agg", None) is None:
        env._expected_agg = env.frame().groupby("k")[["a", "b"]].agg(AGGS)
    return env._expected_agg


def _check_agg(env):
    def check(value):
        expected = _expected_agg(env)
        value = value.sort_index()
        assert list(value.columns) == list(expected.columns), list(value.columns)
        assert np.array_equal(value.index.to_numpy(), expected.index.to_numpy())
        assert np.allclose(value.to_numpy(dtype=float), expected.to_numpy(dtype=float))
    return check


def groupby_agg_numpy(p, env):
    df = env.frame()
    return Case(lambda: df.groupby("k")[["a", "b"]].agg(AGGS), _check_agg(env))


def groupby_agg_dask(p, env):
    import dask.dataframe as dd
    ddf = dd.from_pandas(env.frame(), npartitions=p["gb_parts"])
    if env.client is not None:
        from distributed import wait
        ddf = env.client.persist(ddf)
        wait(ddf)
    return Case(lambda: _dask_compute(env, ddf.groupby("k")[["a", "b"]].agg(AGGS)), _check_agg(env),
                {"partitions": p["gb_parts"]})


def groupby_agg_mars(p, env):
    _, _, md = _mars(env)
    df = env.frame()
    rows = -(-len(df) // p["gb_parts"])
    t0 = time.perf_counter()
    mdf = md.DataFrame(df, chunk_size=rows)
    notes = {"partitions": p["gb_parts"], "chunk_rows": rows}
    if not getattr(env, "mars_local", False):
        mdf.execute(show_progress=False)
        notes["ingest_s"] = round(time.perf_counter() - t0, 3)
    runs = _new_runs()
    return _mars_case(env, lambda: _mars_value(env, mdf.groupby("k")[["a", "b"]].agg(AGGS), runs),
                      _check_agg(env), notes, runs)


ENGINE_CASES = {}
for _engine, (_mm, _gb) in {
    "numpy": (matmul_numpy, groupby_agg_numpy),
    "dask-threads": (matmul_dask, groupby_agg_dask),
    "dask-distributed": (matmul_dask, groupby_agg_dask),
    "mars": (matmul_mars, groupby_agg_mars),
    "mars-local": (matmul_mars, groupby_agg_mars),
}.items():
    ENGINE_CASES.update({("matmul", _engine): _mm, ("groupby_agg", _engine): _gb})
