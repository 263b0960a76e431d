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



@pytest.mark.parametrize("case", ["sorted", "first_row_smallest", "sorted_within_chunks_only",
                                  "sorted_descending", "nan_last_sorted", "reversed"])
@pytest.mark.parametrize("n", [1, 4])
def test_sort_head_index_type_under_pandas22_depends_on_the_whole_sort(case, n):
    """pandas keeps a RangeIndex after sort_values only when the whole sort leaves the rows in
    place (pandas 3: or reverses them), whatever head(n) then takes; under pandas 2.2 a one-row
    head got a RangeIndex always (CI, stop 17), under pandas 3 a sorted frame's head an Index."""
    x = np.arange(40, dtype="float64")
    ascending = case != "sorted_descending"
    if case == "first_row_smallest":
        x[1:] = x[1:][::-1]
    elif case == "sorted_within_chunks_only":
        x = np.concatenate([x[20:], x[:20]])
    elif case == "sorted_descending":
        x = x[::-1].copy()
    elif case == "nan_last_sorted":
        x[-3:] = np.nan
    elif case == "reversed":
        x = x[::-1].copy()
    pdf = pd.DataFrame({"x": x, "y": np.arange(40)})
    df = md.DataFrame(pdf, chunk_size=7)
    assert_eq(df.sort_values("x", ascending=ascending, kind="stable").head(n),
              pdf.sort_values("x", ascending=ascending, kind="stable").head(n))
    assert_eq(df["x"].sort_values(ascending=ascending, kind="stable").head(n),
              pdf["x"].sort_values(ascending=ascending, kind="stable").head(n))


@pytest.mark.parametrize("data", ["reversed", "sorted", "evenly_spaced_picks", "ties"])
@pytest.mark.parametrize("how", ["nsmallest", "nlargest"])
@pytest.mark.parametrize("keep", ["first", "last", "all"])
def test_nlargest_nsmallest_index_type_of_a_range_index_is_pandas(data, how, keep):
    """pandas 3 gives a RangeIndex when the picked labels are evenly spaced; pandas 2.2 an
    Index, except a Series asked for all its rows (sorted then): ours gave an Index always."""
    x = {"reversed": np.arange(40.0)[::-1], "sorted": np.arange(40.0),
         "evenly_spaced_picks": np.where(np.arange(40) % 2 == 0, 100.0, np.arange(40.0)),
         "ties": np.random.default_rng(1).integers(0, 10, 40).astype("float64")}[data]
    pdf = pd.DataFrame({"x": x})
    for n in (0, 1, 3, 40, 45):
        assert_eq(getattr(md.DataFrame(pdf, chunk_size=7), how)(n, "x", keep=keep),
                  getattr(pdf, how)(n, "x", keep=keep))
        assert_eq(getattr(md.Series(pdf["x"], chunk_size=7), how)(n, keep=keep),
                  getattr(pdf["x"], how)(n, keep=keep))
