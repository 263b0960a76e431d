"""to_numpy against pandas: a lazy tensor block for block, pandas' dtype and na_value."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    n = np.arange(23)
    return pd.DataFrame({"a": n, "b": np.where(n % 4 == 0, np.nan, n * 0.5),
                         "s": [None if i % 5 == 0 else f"x{i}" for i in n]})


def test_frame_to_numpy_is_a_2d_tensor_with_pandas_dtype(df):
    m = md.DataFrame(df, chunk_size=5)
    res = m[["a", "b"]].to_numpy()
    assert isinstance(res, mt.Tensor) and res.shape == (23, 2)
    assert_eq(res, df[["a", "b"]].to_numpy())
    assert_eq(m.to_numpy(na_value="z"), df.to_numpy(na_value="z"))
    assert_eq(m[["a", "b"]].to_numpy(na_value=-1), df[["a", "b"]].to_numpy(na_value=-1))
    assert_eq(m[["a", "b"]].to_numpy(dtype="float32"), df[["a", "b"]].to_numpy(dtype="float32"))
    assert LocalExecutor().tile(res.data).nsplits == ((5, 5, 5, 5, 3), (2,))


def test_series_to_numpy_with_dtype_and_na_value(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["b"].to_numpy(), df["b"].to_numpy())
    assert_eq(m["b"].to_numpy(na_value=0), df["b"].to_numpy(na_value=0))
    assert_eq(m["s"].to_numpy(na_value="z"), df["s"].to_numpy(na_value="z"))
    assert_eq(m["a"].to_numpy(dtype=float), df["a"].to_numpy(dtype=float))


def test_to_numpy_after_a_filter(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 3], df[df["a"] > 3]
    assert_eq(flt[["a", "b"]].to_numpy(), expected[["a", "b"]].to_numpy())
    assert_eq(flt["s"].to_numpy(na_value=""), expected["s"].to_numpy(na_value=""))


def test_values_is_the_lazy_to_numpy():
    """``df.values`` / ``s.values`` did not exist (AttributeError)."""
    frame = pd.DataFrame({"a": np.arange(7), "b": np.arange(7) * 0.5}, index=list("abcdefg"))
    m = md.DataFrame(frame, chunk_size=3)
    assert_eq(m.values, frame.values)
    assert_eq(m["b"].values, frame["b"].values)
    assert_eq(m[["a", "b"]].values.sum(), frame[["a", "b"]].values.sum())
