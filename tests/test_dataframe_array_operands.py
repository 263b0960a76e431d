"""Frames with NumPy arrays, lists and tensors as operands (pandas pairs them by position),
and NumPy ufuncs on frames, against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

S = pd.Series(np.arange(10.0), index=list("aabbccddee"), name="s")  # repeated labels: by position
DF = pd.DataFrame({"x": np.arange(10), "y": np.arange(10.0) / 3}, index=list("aabbccddee"))
ARR = np.arange(10) * 2
A2 = np.arange(20.0).reshape(10, 2)

CASES = {
    "series + array": (lambda s, d: s + ARR),
    "array + series": (lambda s, d: ARR + s),
    "series - list": (lambda s, d: s - list(range(10))),
    "series.add(fill_value)": (lambda s, d: s.add(np.where(ARR > 5, np.nan, ARR), fill_value=0)),
    "series > array": (lambda s, d: s > ARR),
    "series.rsub(array)": (lambda s, d: s.rsub(ARR)),
    "frame + 2-d array": (lambda s, d: d + A2),
    "frame * a row per column": (lambda s, d: d * np.array([1, 10])),
    "frame ** 1-row 2-d array": (lambda s, d: d ** np.array([[1, 2]])),
    "array - frame": (lambda s, d: A2 - d),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("chunk_size", [3, 10])
def test_array_operands_pair_by_position(name, chunk_size):
    op = CASES[name]
    got = op(md.Series(S, chunk_size=chunk_size), md.DataFrame(DF, chunk_size=chunk_size))
    assert_eq(got, op(S, DF))


def test_tensor_operands_pair_by_position():
    assert_eq(md.Series(S, chunk_size=3) * mt.tensor(ARR, chunk_size=4), S * ARR)
    assert_eq(md.DataFrame(DF, chunk_size=4) / mt.tensor(A2 + 1, chunk_size=3), DF / (A2 + 1))
    assert_eq(md.DataFrame(DF, chunk_size=4) - mt.tensor(np.array([1.0, 2.0])), DF - np.array([1.0, 2.0]))


@pytest.mark.parametrize("ufunc", [np.exp, np.sqrt, np.negative, np.isnan])
def test_numpy_ufuncs_on_frames_stay_lazy(ufunc):
    got = ufunc(md.DataFrame(DF, chunk_size=4))
    assert isinstance(got, md.DataFrame)
    assert_eq(got, ufunc(DF))
    assert_eq(ufunc(md.Series(S, chunk_size=3)), ufunc(S))
    assert_eq(np.maximum(md.Series(S, chunk_size=3), 4.0), np.maximum(S, 4.0))


def test_array_of_the_wrong_length_raises_value_error():
    for bad in (lambda s, d: s + np.arange(3), lambda s, d: d + np.arange(3), lambda s, d: d + np.ones((10, 3))):
        with pytest.raises(ValueError):
            bad(S, DF)
        with pytest.raises(ValueError):
            bad(md.Series(S, chunk_size=3), md.DataFrame(DF, chunk_size=4))
