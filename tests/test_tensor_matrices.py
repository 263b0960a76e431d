"""rot90, trace, kron, cross, vander, resize vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(9)
X = RS.rand(13, 7)
X[2, 3] = np.nan
X3 = RS.rand(5, 6, 7)


@pytest.mark.parametrize("k", [-1, 0, 1, 2, 3, 5])
def test_rot90(k):
    assert_eq(mt.rot90(mt.tensor(X, chunk_size=4), k), np.rot90(X, k))
    assert_eq(mt.rot90(mt.tensor(X3, chunk_size=4), k, axes=(2, 0)), np.rot90(X3, k, axes=(2, 0)))
    assert_eq(mt.rot90(mt.tensor(np.zeros((0, 3))), k), np.rot90(np.zeros((0, 3)), k))


def test_rot90_errors_like_numpy():
    t = mt.tensor(X)
    for axes in ((0,), (1, 1), (0, 2), (0, -2)):
        with pytest.raises(ValueError):
            mt.rot90(t, axes=axes)


@pytest.mark.parametrize("offset", [0, 1, -3, 6, 9, -20])
def test_trace(offset):
    assert_eq(mt.trace(mt.tensor(X, chunk_size=4), offset), np.trace(X, offset))
    assert_eq(mt.trace(mt.tensor(X3, chunk_size=4), offset, axis1=2, axis2=0),
              np.trace(X3, offset, axis1=2, axis2=0))
    xi = RS.randint(0, 5, (13, 7)).astype(np.int8)
    assert_eq(mt.trace(mt.tensor(xi, chunk_size=4), offset), np.trace(xi, offset))
    assert_eq(mt.trace(mt.tensor(xi, chunk_size=4), offset, dtype=np.float32), np.trace(xi, offset, dtype=np.float32))


def test_trace_ignores_nan_and_inf_off_the_diagonal_and_errors():
    x = np.full((5, 5), np.inf)
    np.fill_diagonal(x, 1.0)
    assert_eq(mt.trace(mt.tensor(x, chunk_size=2)), np.trace(x))
    assert_eq(mt.trace(mt.tensor(np.zeros((0, 3)))), np.trace(np.zeros((0, 3))))
    with pytest.raises(ValueError):
        mt.trace(mt.tensor(np.zeros(3)))
    with pytest.raises(ValueError):
        mt.trace(mt.tensor(X), axis1=1, axis2=1)


def test_kron():
    a, b = RS.rand(3, 4), RS.randint(0, 4, (2, 5))
    assert_eq(mt.kron(mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=3)), np.kron(a, b))
    assert_eq(mt.kron(mt.tensor(a[0], chunk_size=3), b), np.kron(a[0], b))
    assert_eq(mt.kron(mt.tensor(X3, chunk_size=3), b), np.kron(X3, b))
    assert_eq(mt.kron(mt.tensor(b, chunk_size=3), np.float32(2)), np.kron(b, np.float32(2)))
    assert_eq(mt.kron(mt.tensor(np.zeros((0, 2))), b), np.kron(np.zeros((0, 2)), b))


def test_cross():
    u, v = RS.rand(13, 3), RS.rand(13, 3)
    assert_eq(mt.cross(mt.tensor(u, chunk_size=4), mt.tensor(v, chunk_size=5)), np.cross(u, v))
    for a, b in ((u[:, :2], v[:, :2]), (u, v[:, :2]), (u[:, :2], v)):  # deprecated, still working
        with pytest.warns(DeprecationWarning):
            got = mt.cross(mt.tensor(a, chunk_size=4), b)
        with pytest.warns(DeprecationWarning):
            assert_eq(got, np.cross(a, b))
    assert_eq(mt.cross(mt.tensor(u.T, chunk_size=4), v.T, axisa=0, axisb=0, axisc=0),
              np.cross(u.T, v.T, axisa=0, axisb=0, axisc=0))
    assert_eq(mt.cross(mt.tensor(u, chunk_size=4), v[0]), np.cross(u, v[0]))  # broadcast
    ui = RS.randint(-3, 3, (13, 3))
    assert_eq(mt.cross(mt.tensor(ui, chunk_size=4), v.astype(np.float32)), np.cross(ui, v.astype(np.float32)))
    with pytest.raises(ValueError):
        mt.cross(mt.tensor(X), X)


@pytest.mark.parametrize("N", [None, 0, 1, 3, 6])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(N, increasing):
    y, yi = RS.rand(13), np.arange(13) - 6
    assert_eq(mt.vander(mt.tensor(y, chunk_size=4), N, increasing), np.vander(y, N, increasing))
    assert_eq(mt.vander(mt.tensor(yi, chunk_size=4), N, increasing), np.vander(yi, N, increasing))
    assert_eq(mt.vander(mt.tensor(y > 0.5, chunk_size=4), N, increasing), np.vander(y > 0.5, N, increasing))


def test_vander_errors_like_numpy():
    with pytest.raises(ValueError):
        mt.vander(mt.tensor(X))
    with pytest.raises(ValueError):
        mt.vander(mt.tensor(X[0]), -1)


@pytest.mark.parametrize("shape", [(4, 9), (30,), 5, (0, 3), (2, 3, 4), ()])
def test_resize(shape):
    assert_eq(mt.resize(mt.tensor(X, chunk_size=4), shape), np.resize(X, shape))
    assert_eq(mt.resize(mt.tensor(np.zeros((0, 2))), shape), np.resize(np.zeros((0, 2)), shape))


def test_resize_errors_like_numpy():
    with pytest.raises(ValueError):
        mt.resize(mt.tensor(X), (-1, 3))
