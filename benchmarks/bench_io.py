"""I/O workloads: parquet write, parquet read + filter + groupby (explicit and lazy column
selection), and a CSV read. The input files are made once per size, untimed, in a cache folder
(``MARS_BENCH_DATA``, default ``<tmp>/mars_on_ray_bench``) that every phase reads.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time

import numpy as np
import pandas as pd

from bench_workloads import Case, _dask_compute, _mars, _mars_case, _mars_value, _new_runs

COLUMNS = ["k", "c1", "c2"]


def _data_dir(p) -> str:
    root = os.environ.get("MARS_BENCH_DATA", os.path.join(tempfile.gettempdir(), "mars_on_ray_bench"))
    return os.path.join(root, f"rows{p['io_rows']}_csv{p['csv_rows']}")


def _frame(rows: int) -> pd.DataFrame:
    """Ten float columns and an int key in [0, 1000)."""
    rng = np.random.default_rng(1)
    data = {f"c{i}": rng.random(rows) for i in range(10)}
    data["k"] = rng.integers(0, 1000, rows)
    return pd.DataFrame(data)


def _parquet_dir(p) -> str:
    """The dataset every read case reads: ``io_parts`` files written by pandas."""
    path = os.path.join(_data_dir(p), "parquet")
    if not os.path.exists(os.path.join(path, "_done")):
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        df, parts = _frame(p["io_rows"]), p["io_parts"]
        step = -(-len(df) // parts)
        for i in range(parts):
            df.iloc[i * step:(i + 1) * step].to_parquet(os.path.join(path, f"part.{i}.parquet"))
        open(os.path.join(path, "_done"), "w").close()
    return path


def _csv_file(p) -> str:
    path = os.path.join(_data_dir(p), "data.csv")
    if not os.path.exists(path + ".done"):
        import pyarrow as pa
        import pyarrow.csv as pacsv

        os.makedirs(_data_dir(p), exist_ok=True)
        pacsv.write_csv(pa.Table.from_pandas(_frame(p["csv_rows"]), preserve_index=False), path)
        open(path + ".done", "w").close()
    return path


def _expected_query(p):
    df = pd.read_parquet(_parquet_dir(p), columns=COLUMNS)
    return df[df["c1"] > 0.5].groupby("k")["c2"].sum()


def _check_query(p):
    expected = _expected_query(p)

    def check(value):
        value = value.sort_index()
        assert np.array_equal(value.index.to_numpy(), expected.index.to_numpy())
        assert np.allclose(value.to_numpy(), expected.to_numpy())
    return check


def _check_csv_sum(p):
    expected = None

    def check(value):
        nonlocal expected
        if expected is None:
            expected = pd.read_csv(_csv_file(p)).sum()
        assert np.allclose(np.asarray(value, dtype=float), expected.to_numpy(dtype=float))
    return check


def _check_written(p, root_of):
    def check(_):
        import pyarrow.parquet as pq

        rows = sum(pq.ParquetFile(os.path.join(root_of(), f)).metadata.num_rows
                   for f in os.listdir(root_of()) if f.endswith(".parquet"))
        assert rows == p["io_rows"], rows
    return check


def _out_dir(tag: str) -> str:
    path = tempfile.mkdtemp(prefix=f"mrb-{tag}-")
    return path


# ---------------------------------------------------------------- pandas

def parquet_write_numpy(p, env):
    df, parts = _frame(p["io_rows"]), p["io_parts"]
    out = {"dir": None}

    def run():
        shutil.rmtree(out["dir"] or "", ignore_errors=True)
        out["dir"] = _out_dir("pd")
        step = -(-len(df) // parts)
        for i in range(parts):
            df.iloc[i * step:(i + 1) * step].to_parquet(os.path.join(out["dir"], f"part.{i}.parquet"))
    return Case(run, _check_written(p, lambda: out["dir"]), {"parts": parts})


def parquet_read_numpy(p, env, lazy=False):
    path = _parquet_dir(p)

    def run():
        df = pd.read_parquet(path)[COLUMNS] if lazy else pd.read_parquet(path, columns=COLUMNS)
        return df[df["c1"] > 0.5].groupby("k")["c2"].sum()
    return Case(run, _check_query(p), {"reads": "all columns" if lazy else "3 columns"})


def csv_read_numpy(p, env):
    path = _csv_file(p)
    return Case(lambda: pd.read_csv(path).sum(), _check_csv_sum(p),
                {"csv_mb": round(os.path.getsize(path) / 2**20)})


# ---------------------------------------------------------------- Dask

def parquet_write_dask(p, env):
    import dask.dataframe as dd

    ddf = dd.from_pandas(_frame(p["io_rows"]), npartitions=p["io_parts"])
    if env.client is not None:
        from distributed import wait
        ddf = env.client.persist(ddf)
        wait(ddf)
    out = {"dir": None}

    def run():
        shutil.rmtree(out["dir"] or "", ignore_errors=True)
        out["dir"] = _out_dir("dask")
        if env.client is None:
            ddf.to_parquet(out["dir"], compute_kwargs={"scheduler": "threads"})
        else:
            ddf.to_parquet(out["dir"])
    return Case(run, _check_written(p, lambda: out["dir"]), {"partitions": p["io_parts"]})


def parquet_read_dask(p, env, lazy=False):
    import dask.dataframe as dd
    path = _parquet_dir(p)

    def run():
        df = dd.read_parquet(path)[COLUMNS] if lazy else dd.read_parquet(path, columns=COLUMNS)
        return _dask_compute(env, df[df["c1"] > 0.5].groupby("k")["c2"].sum())
    return Case(run, _check_query(p), {"reads": "lazy selection" if lazy else "columns="})


def csv_read_dask(p, env):
    import dask.dataframe as dd
    path = _csv_file(p)
    return Case(lambda: _dask_compute(env, dd.read_csv(path, blocksize="64MB").sum()), _check_csv_sum(p),
                {"blocksize": "64MB"})


# ---------------------------------------------------------------- mars_on_ray

def parquet_write_mars(p, env):
    _, _, md = _mars(env)
    df = _frame(p["io_rows"])
    rows = -(-len(df) // p["io_parts"])
    t0 = time.perf_counter()
    mdf = md.DataFrame(df, chunk_size=rows)
    notes = {"chunks": p["io_parts"]}
    if not getattr(env, "mars_local", False):
        mdf.execute()  # the data in the object store before timing, like Dask's persist
        notes["ingest_s"] = round(time.perf_counter() - t0, 3)
    out = {"dir": None}
    runs = _new_runs()

    def run():
        shutil.rmtree(out["dir"] or "", ignore_errors=True)
        out["dir"] = _out_dir("mars")
        return _mars_value(env, mdf.to_parquet(out["dir"]), runs)
    return _mars_case(env, run, _check_written(p, lambda: out["dir"]), notes, runs)


def parquet_read_mars(p, env, lazy=False):
    _, _, md = _mars(env)
    path = _parquet_dir(p)
    runs = _new_runs()

    def run():
        df = md.read_parquet(path)[COLUMNS] if lazy else md.read_parquet(path, columns=COLUMNS)
        return _mars_value(env, df[df["c1"] > 0.5].groupby("k")["c2"].sum(), runs)
    return _mars_case(env, run, _check_query(p), {"reads": "lazy selection" if lazy else "columns="}, runs)


def csv_read_mars(p, env):
    _, _, md = _mars(env)
    path = _csv_file(p)
    runs = _new_runs()
    return _mars_case(env, lambda: _mars_value(env, md.read_csv(path).sum(), runs), _check_csv_sum(p),
                      {"chunk_bytes": "64M (default)"}, runs)


def _lazy(func):
    def case(p, env):
        return func(p, env, lazy=True)
    return case


IO_CASES = {}
for _engine, _funcs in {
    "numpy": (parquet_write_numpy, parquet_read_numpy, csv_read_numpy),
    "dask-threads": (parquet_write_dask, parquet_read_dask, csv_read_dask),
    "dask-distributed": (parquet_write_dask, parquet_read_dask, csv_read_dask),
    "mars": (parquet_write_mars, parquet_read_mars, csv_read_mars),
    "mars-local": (parquet_write_mars, parquet_read_mars, csv_read_mars),
}.items():
    _write, _read, _csv = _funcs
    IO_CASES.update({("parquet_write", _engine): _write, ("parquet_read", _engine): _read,
                     ("parquet_lazy", _engine): _lazy(_read), ("csv_read", _engine): _csv})
