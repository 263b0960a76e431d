"""``sort_values(...).head(n)`` as a top-k: each chunk keeps only the rows that can be among
the first n (a partition on the first key) before its stable sort; answers stay pandas'."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture(scope="module")
def pdf():
    rng = np.random.default_rng(8)
    n = 5003
    x = rng.integers(0, 40, n).astype("float64")  # many ties
    x[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame({"x": x, "k": rng.integers(0, 3, n), "i": rng.integers(-50, 50, n),
                         "s": [f"r{j}" for j in range(n)]})


@pytest.mark.parametrize("by, ascending, na_position", [
    ("x", True, "last"), ("x", False, "last"), ("x", True, "first"), ("i", False, "last"),
    (["k", "x"], [True, False], "last"), (["x", "i"], [False, True], "first"),
])
@pytest.mark.parametrize("n", [1, 7, 300])
def test_sort_head_with_ties_and_missing_values_is_pandas_stable_order(pdf, by, ascending, na_position, n):
    df = md.DataFrame(pdf, chunk_size=611)
    expr = df.sort_values(by, ascending=ascending, na_position=na_position, kind="stable").head(n)
    assert_eq(expr, pdf.sort_values(by, ascending=ascending, na_position=na_position,
                                    kind="stable").head(n))


def test_sort_head_of_a_series_and_when_fewer_values_than_n_are_present(pdf):
    s = md.Series(pdf["x"], chunk_size=777)
    assert_eq(s.sort_values(kind="stable").head(25), pdf["x"].sort_values(kind="stable").head(25))
    few = pdf["x"].where(pdf.index < 40)  # 38 values, the rest missing: NaN rows are needed
    assert_eq(md.Series(few, chunk_size=500).sort_values(kind="stable").head(60),
              few.sort_values(kind="stable").head(60))
