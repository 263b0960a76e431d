"""TPC-H q1, q3, q5, q6 and q10 written in the pandas API: mars_on_ray (chunks that do not
divide the tables) against duckdb's SQL answers and pandas on the same tables (SF 0.01)."""
from __future__ import annotations

import os
import shutil
import sys

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
tpch = pytest.importorskip("tpch_queries")
pytest.importorskip("duckdb")
if shutil.which("tpchgen-cli") is None:
    pytest.skip("tpchgen-cli (pip install tpchgen-cli) is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return tpch.load_tables(tpch.generate(0.01, str(tmp_path_factory.mktemp("tpch"))))


@pytest.fixture(scope="module")
def lazy_tables(tables):
    # 7 chunks of uneven size per table: nothing lines up with the tables' own order
    return {name: md.DataFrame(frame, chunk_size=max(1, -(-len(frame) // 7)))
            for name, frame in tables.items()}


def _value(obj):
    return LocalExecutor().compute(obj.data)[0] if hasattr(obj, "data") else obj


def _same_frame(actual: pd.DataFrame, expected: pd.DataFrame):
    assert list(actual.columns) == list(expected.columns)
    assert len(actual) == len(expected)
    for col in expected.columns:
        a, e = actual[col].to_numpy(), expected[col].to_numpy()
        if np.issubdtype(np.asarray(e).dtype, np.floating):
            np.testing.assert_allclose(a.astype(float), e.astype(float), rtol=1e-9, err_msg=col)
        elif np.issubdtype(np.asarray(e).dtype, np.datetime64):
            assert (pd.to_datetime(a) == pd.to_datetime(e)).all(), col
        else:
            assert [str(x) for x in a] == [str(x) for x in e], col


@pytest.mark.parametrize("name", sorted(tpch.QUERIES))
def test_tpch_query_equals_duckdb_and_pandas(name, tables, lazy_tables):
    query = tpch.QUERIES[name]
    expected_pandas = query(tables, pd)
    actual = _value(query(lazy_tables, md))
    expected_sql = tpch.duckdb_answer(tables, name)
    if name == "q6":
        assert actual == pytest.approx(expected_sql, rel=1e-9)
        assert actual == pytest.approx(expected_pandas, rel=1e-12)
        return
    pd.testing.assert_frame_equal(actual, expected_pandas, check_exact=False, rtol=1e-9)
    _same_frame(actual.reset_index(drop=True), expected_sql)
