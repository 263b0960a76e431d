"""DataFrame / Series reductions against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(1)
    frame = pd.DataFrame({"a": rs.randint(0, 10, 29), "b": rs.rand(29), "c": rs.rand(29) > 0.5,
                          "f": rs.rand(29).astype("float32"), "s": [f"v{i}" for i in range(29)]})
    frame.loc[[3, 17], "b"] = np.nan
    return frame


@pytest.mark.parametrize("how", ["sum", "min", "max", "count"])
def test_frame_reductions_all_columns(df, how):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(getattr(m, how)(), getattr(df, how)())


@pytest.mark.parametrize("how", ["sum", "prod", "min", "max", "count", "mean", "var", "std"])
def test_frame_reductions_numeric_only(df, how):
    m = md.DataFrame(df, chunk_size=6)
    assert_eq(getattr(m, how)(numeric_only=True), getattr(df, how)(numeric_only=True), rtol=1e-5)


@pytest.mark.parametrize("how", ["sum", "prod", "min", "max", "mean", "var", "std"])
def test_series_reductions_skipna(df, how):
    m = md.DataFrame(df, chunk_size=5)
    for col in ("a", "b", "c"):
        assert_eq(getattr(m[col], how)(), getattr(df[col], how)())
    assert_eq(getattr(m["b"], how)(skipna=False), getattr(df["b"], how)(skipna=False))


def test_series_count_and_string_reductions(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["b"].count(), df["b"].count())
    assert LocalExecutor().compute(m["s"].max().data)[0] == df["s"].max()
    assert LocalExecutor().compute(m["s"].sum().data)[0] == df["s"].sum()


def test_var_ddof_and_min_count(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[["a", "b"]].var(ddof=0), df[["a", "b"]].var(ddof=0))
    assert_eq(m["b"].std(ddof=2), df["b"].std(ddof=2))
    empty_b = df.assign(b=np.nan)
    assert_eq(md.DataFrame(empty_b, chunk_size=7)[["b"]].sum(min_count=1), empty_b[["b"]].sum(min_count=1))


def test_reduction_of_empty_chunks_after_filter(df):
    m = md.DataFrame(df, chunk_size=4)
    flt = m[m["a"] > 7]
    expected = df[df["a"] > 7]
    assert_eq(flt[["a", "c"]].min(), expected[["a", "c"]].min())
    assert_eq(flt["a"].max(), expected["a"].max())
    assert_eq(flt["b"].mean(), expected["b"].mean())


def test_reduction_tree_fan_in(df):
    old = options.combine_size
    try:
        options.combine_size = 2
        m = md.DataFrame(df, chunk_size=2)
        assert_eq(m.sum(numeric_only=True), df.sum(numeric_only=True))
        assert_eq(m["b"].var(), df["b"].var())
    finally:
        options.combine_size = old


def test_rowwise_reductions(df):
    m = md.DataFrame(df, chunk_size=6)
    assert_eq(m.sum(axis=1, numeric_only=True), df.sum(axis=1, numeric_only=True))
    assert_eq(m[["a", "b"]].max(axis=1), df[["a", "b"]].max(axis=1))
    assert_eq(m.count(axis=1), df.count(axis=1))


def test_bad_reductions_raise_like_pandas(df):
    m = md.DataFrame(df, chunk_size=6)
    with pytest.raises(TypeError):
        df.mean()
    with pytest.raises(TypeError):
        m.mean()
    with pytest.raises(TypeError):
        m["s"].std()
    with pytest.raises(ValueError):
        m.sum(axis=2)


def test_mixed_int_float_sum_promotes_like_pandas(df):
    m = md.DataFrame(df[["a", "b", "c"]], chunk_size=3)
    assert_eq(m.sum(), df[["a", "b", "c"]].sum())
    assert_eq(m[["a", "c"]].sum(), df[["a", "c"]].sum())
