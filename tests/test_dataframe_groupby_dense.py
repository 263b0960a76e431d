"""groupby sums and counts by direct addressing (dataframe/groupby_dense.py) against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.dataframe.groupby_dense import dense_combine, dense_partial
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(5)
    n = 301
    frame = pd.DataFrame({"k": rs.randint(-40, 60, n), "f": rs.rand(n), "i": rs.randint(-9, 9, n),
                          "b": rs.rand(n) > 0.5, "k32": rs.randint(0, 7, n).astype("int32")})
    frame.loc[frame.index[::7], "f"] = np.nan
    frame.loc[frame["k"] == 13, "f"] = np.nan  # a group of missing values only: sum 0, count 0
    return frame


def test_dense_partial_applies_and_equals_pandas(df):
    parts = (("f", "sum"), ("f", "count"), ("i", "sum"), ("b", "sum"), (None, "size"))
    res = dense_partial(df, ("k",), parts)
    assert res is not None
    g = df.groupby("k")
    expected = pd.DataFrame({"p0": g["f"].sum(), "p1": g["f"].count(), "p2": g["i"].sum(),
                             "p3": g["b"].sum(), "p4": g.size()})
    pd.testing.assert_frame_equal(res, expected, check_dtype=False)
    assert res["p2"].dtype == np.int64 and res.index.dtype == np.int64
    combined = dense_combine(pd.concat([res.iloc[::2], res.iloc[1::2], res.iloc[:5]]))
    again = pd.concat([res.iloc[::2], res.iloc[1::2], res.iloc[:5]]).groupby(level=0).sum()
    pd.testing.assert_frame_equal(combined, again, check_dtype=False)


def test_dense_partial_leaves_other_keys_and_aggregations_alone(df):
    assert dense_partial(df, ("k",), (("f", "min"),)) is None
    assert dense_partial(df.assign(k=df["k"] * 10**9), ("k",), (("f", "sum"),)) is None  # sparse
    assert dense_partial(df.assign(k=df["k"].astype(float)), ("k",), (("f", "sum"),)) is None
    huge = df.assign(i=df["i"] * 2**60)  # sums float64 cannot hold exactly
    assert dense_partial(huge, ("k",), (("i", "sum"),)) is None
    assert dense_partial(df, ("k", "k32"), (("f", "sum"),)) is None


@pytest.mark.parametrize("chunk_size", [17, 64, 301])
@pytest.mark.parametrize("many_groups", [False, True])
def test_groupby_sums_of_dense_int_keys_are_pandas(df, chunk_size, many_groups):
    old = options.groupby_tree_max_groups
    if many_groups:  # the shuffle of partials (range partitioned), not the tree
        options.groupby_tree_max_groups = 4
    try:
        m = md.DataFrame(df, chunk_size=chunk_size)
        assert_eq(m.groupby("k").sum(), df.groupby("k").sum())
        assert_eq(m.groupby("k")[["f", "i"]].agg(["sum", "count", "mean"]),
                  df.groupby("k")[["f", "i"]].agg(["sum", "count", "mean"]))
        assert_eq(m.groupby("k32").size(), df.groupby("k32").size())
        assert_eq(m.groupby("k32", as_index=False)["i"].sum(),
                  df.groupby("k32", as_index=False)["i"].sum())
    finally:
        options.groupby_tree_max_groups = old
