"""Tensor methods NumPy arrays have, Mars' own (map_chunk, rebalance, to_dataframe), and choose."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

A = np.arange(35).reshape(5, 7)
Z = np.array([[1 + 2j, 3], [-1j, 4.5]])


def _t(a, chunk=(2, 3)):
    return mt.tensor(a, chunk_size=chunk)


def test_numpy_methods():
    t = _t(A)
    assert_eq(t.ravel(), A.ravel())
    assert_eq(t.flatten(), A.flatten())
    assert_eq(t.flat[3:9], A.flat[3:9])
    assert_eq(_t(A[:, :1]).squeeze(), A[:, :1].squeeze())
    assert_eq(t.swapaxes(0, 1), A.swapaxes(0, 1))
    assert_eq(t.take([5, 0, 34]), A.take([5, 0, 34]))
    assert_eq(t.repeat(2, axis=0), A.repeat(2, axis=0))
    assert_eq((t / 3).round(2), (A / 3).round(2))
    assert_eq(_t(Z, 1).conj(), Z.conj())
    assert_eq(_t(Z, 1).conjugate(), Z.conjugate())
    assert_eq(_t(Z, 1).real, Z.real)
    assert_eq(_t(Z, 1).imag, Z.imag)
    assert_eq(t.copy(), A.copy())
    assert_eq(t.view("f8"), A.view("f8"))
    with pytest.raises(NotImplementedError):
        t.view("i4")
    np.testing.assert_array_equal(LocalExecutor().compute(t.data)[0], A)


def test_choose():
    idx = np.array([[0, 1, 2, 1, 0, 2, 1]])
    choices = [A[0], A[1] * 10, -A[2]]
    assert_eq(mt.choose(_t(idx, 4), choices), np.choose(idx, choices))
    assert_eq(_t(idx, 4).choose(choices), idx.choose(choices))
    bad = np.array([0, 3, 1, 1, 1, 1, 1])
    assert_eq(mt.choose(_t(bad, 4), choices, mode="clip"), np.choose(bad, choices, mode="clip"))
    assert_eq(mt.choose(_t(bad, 4), choices, mode="wrap"), np.choose(bad, choices, mode="wrap"))
    with pytest.raises(ValueError):
        np.choose(bad, choices)
    with pytest.raises(ValueError):
        LocalExecutor().compute(mt.choose(_t(bad, 4), choices).data)
    with pytest.raises(ValueError):
        mt.choose(_t(bad), choices, mode="bogus")


def test_mars_methods():
    t = _t(A)
    assert_eq(t.map_chunk(lambda x: x * 2 + 1), A * 2 + 1)
    sums = LocalExecutor().compute(t.map_chunk(lambda x: x.sum(axis=0, keepdims=True)).data)[0]
    assert sums.sum() == A.sum()
    rebalanced = t.rebalance(num_partitions=2)
    assert_eq(rebalanced, A)
    assert LocalExecutor().tile(rebalanced.data).nsplits[0] == (3, 2)
    frame = LocalExecutor().compute(_t(A).to_dataframe(columns=list("abcdefg")).data)[0]
    pd.testing.assert_frame_equal(frame, pd.DataFrame(A, columns=list("abcdefg")))
    assert t.to_cpu() is t
    with pytest.raises(NotImplementedError):
        t.to_gpu()
