"""average, cov, corrcoef, grids (indices, meshgrid, mgrid, ogrid, r_, c_), unravel_index,
delete, insert and small helpers against NumPy on uneven chunks."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(5)
A = RS.rand(4, 9)
W = RS.rand(9)
V = np.arange(11.0)


def _t(a, chunk=3):
    return mt.tensor(a, chunk_size=chunk)


def _v(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_average(axis):
    assert_eq(mt.average(_t(A), axis=axis), np.average(A, axis=axis))
    w = W if axis == 1 else (A * 2 if axis is None else RS.rand(4))
    assert_eq(mt.average(_t(A), axis=axis, weights=w), np.average(A, axis=axis, weights=w))
    avg, total = mt.average(_t(A), axis=axis, weights=w, returned=True)
    e_avg, e_total = np.average(A, axis=axis, weights=w, returned=True)
    np.testing.assert_allclose(_v(avg), e_avg)
    np.testing.assert_allclose(_v(total), e_total)
    assert_eq(mt.average(_t(np.arange(12).reshape(3, 4))), np.average(np.arange(12).reshape(3, 4)))


def test_average_errors():
    for kw in ({"weights": W}, {"weights": RS.rand(2, 2), "axis": 1}, {"weights": RS.rand(3), "axis": 1}):
        with pytest.raises(Exception) as err:
            np.average(A, **kw)
        with pytest.raises(err.type):
            mt.average(_t(A), **kw)


@pytest.mark.parametrize("kw", [{}, {"rowvar": False}, {"bias": True}, {"ddof": 3}])
def test_cov_and_corrcoef(kw):
    assert_eq(mt.cov(_t(A), **kw), np.cov(A, **kw))
    assert_eq(mt.cov(_t(A[0]), A[1], **kw), np.cov(A[0], A[1], **kw))
    kw.pop("bias", None), kw.pop("ddof", None)
    assert_eq(mt.corrcoef(_t(A), **kw), np.corrcoef(A, **kw))
    assert_eq(mt.corrcoef(_t(A[0]), A[2]), np.corrcoef(A[0], A[2]))


def test_cov_of_one_variable_is_0d():
    assert_eq(mt.cov(_t(V)), np.cov(V))
    with pytest.raises(ValueError):
        mt.cov(_t(np.ones((2, 2, 2))))


def test_indices_and_grids():
    assert_eq(mt.indices((3, 5)), np.indices((3, 5)))
    for got, want in zip(mt.indices((3, 5), sparse=True), np.indices((3, 5), sparse=True)):
        assert_eq(got, want)
    for indexing in ("xy", "ij"):
        for got, want in zip(mt.meshgrid(_t(V[:4]), _t(V[:3]), _t(V[:2]), indexing=indexing),
                             np.meshgrid(V[:4], V[:3], V[:2], indexing=indexing)):
            assert_eq(got, np.ascontiguousarray(want))
    with pytest.raises(ValueError):
        mt.meshgrid(_t(V), indexing="zz")
    assert_eq(mt.mgrid[0:3, 1:9:2], np.mgrid[0:3, 1:9:2])
    assert_eq(mt.mgrid[-1:1:7j], np.mgrid[-1:1:7j])
    for got, want in zip(mt.ogrid[0:3, 0:4], np.ogrid[0:3, 0:4]):
        assert_eq(got, want)
    assert_eq(mt.r_[1:4, [7, 8], 0, _t(V, 4)], np.r_[1:4, [7, 8], 0, V])
    assert_eq(mt.c_[_t(V, 4), V * 2], np.c_[V, V * 2])


def test_unravel_index():
    flat = np.array([0, 7, 19, 11, 3])
    for order in ("C", "F"):
        for got, want in zip(mt.unravel_index(_t(flat, 2), (4, 5), order=order),
                             np.unravel_index(flat, (4, 5), order=order)):
            assert_eq(got, want)
    with pytest.raises(ValueError):
        np.unravel_index(flat, (4, 5), order="Q")
    with pytest.raises(ValueError):
        mt.unravel_index(_t(flat), (4, 5), order="Q")


@pytest.mark.parametrize("obj,axis", [(1, 0), ([0, 2], 1), (slice(1, 7, 2), 1), ([3, 0, 10], None)])
def test_delete(obj, axis):
    assert_eq(mt.delete(_t(A), obj, axis=axis), np.delete(A, obj, axis=axis))


@pytest.mark.parametrize("obj,values,axis", [(2, 5.0, 1), ([1, 3], 5.0, 1), (2, np.arange(4.0), 1),
                                             ([0, 0, 3], [9, 8, 7], None), (4, [1, 2], None),
                                             (1, np.arange(9.0), 0)])
def test_insert(obj, values, axis):
    assert_eq(mt.insert(_t(A), obj, values, axis=axis), np.insert(A, obj, values, axis=axis))


def test_small_helpers():
    assert list(mt.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert_eq(mt.scalar(3.5), np.asarray(3.5))
    assert_eq(mt.product(_t(A), axis=0), np.prod(A, axis=0))


@pytest.mark.parametrize("kw", [dict(fweights=[1, 2, 0, 3, 1, 1, 2]), dict(aweights=[0.5, 1, 2, 0.1, 1, 3, 0.7]),
                                dict(fweights=[1, 2, 1, 3, 1, 1, 2], aweights=[0.5, 1, 2, 0.1, 1, 3, 0.7]),
                                dict(fweights=[1, 2, 1, 3, 1, 1, 2], aweights=[0.5, 1, 2, 0.1, 1, 3, 0.7], ddof=0),
                                dict(aweights=[0.5, 1, 2, 0.1, 1, 3, 0.7], bias=True)],
                         ids=["fweights", "aweights", "both", "both ddof=0", "aweights bias"])
def test_cov_with_weights_matches_numpy(kw):
    data = np.random.RandomState(2).rand(3, 7)
    assert_eq(mt.cov(mt.tensor(data, chunk_size=(2, 3)), **kw), np.cov(data, **kw))
    lazy = {k: (mt.tensor(np.asarray(v), chunk_size=4) if k.endswith("weights") else v) for k, v in kw.items()}
    assert_eq(mt.cov(mt.tensor(data, chunk_size=(2, 3)), **lazy), np.cov(data, **kw))


@pytest.mark.parametrize("kw, error", [(dict(fweights=[1, 2.5, 1]), TypeError), (dict(fweights=[1, -2, 1]), ValueError),
                                       (dict(aweights=[1, 2]), RuntimeError), (dict(aweights=[[1, 2, 3]]), RuntimeError)])
def test_cov_bad_weights_raise_numpy_errors(kw, error):
    data = np.ones((2, 3))
    with pytest.raises(error):
        np.cov(data, **kw)
    with pytest.raises(error):
        mt.cov(mt.tensor(data), **kw)
