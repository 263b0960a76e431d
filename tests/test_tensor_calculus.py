"""interp and gradient vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(6)
X = RS.rand(13, 7) * 10
X[2, 3] = np.nan
XP = np.sort(RS.rand(9) * 10)
FP = RS.rand(9)


def test_interp_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    assert_eq(mt.interp(t, XP, FP), np.interp(X, XP, FP))
    assert_eq(mt.interp(t, mt.tensor(XP, chunk_size=4), mt.tensor(FP, chunk_size=2), left=-1, right=5.5),
              np.interp(X, XP, FP, left=-1, right=5.5))
    assert_eq(mt.interp(t, XP, FP + 1j * FP), np.interp(X, XP, FP + 1j * FP))
    assert_eq(mt.interp(t, XP, FP, period=3), np.interp(X, XP, FP, period=3))
    assert_eq(mt.interp(t[t > 5], XP, FP), np.interp(X[X > 5], XP, FP))
    assert_eq(mt.interp(mt.tensor(np.float64(4.2)), XP, FP), np.interp(np.float64(4.2), XP, FP))
    assert_eq(mt.interp(mt.tensor(np.arange(13), chunk_size=5), [0, 12], [1, 2]),
              np.interp(np.arange(13), [0, 12], [1, 2]))


def test_interp_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.interp(t, XP, FP[:3])
    with pytest.raises(ValueError):
        mt.interp(t, [], [])
    with pytest.raises(ValueError):
        mt.interp(t, XP, FP, period=0)
    with pytest.raises(ValueError):
        mt.interp(t, np.ones((2, 2)), FP)


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("data", [X, RS.randint(0, 50, (13, 7)), X.astype(np.float32)])
def test_gradient_like_numpy(edge_order, data):
    t = mt.tensor(data, chunk_size=4)
    for got, want in zip(mt.gradient(t, edge_order=edge_order), np.gradient(data, edge_order=edge_order)):
        assert_eq(got, want)
    assert_eq(mt.gradient(t, 2.0, axis=1, edge_order=edge_order),
              np.gradient(data, 2.0, axis=1, edge_order=edge_order))
    coords0, coords1 = np.cumsum(RS.rand(13)), np.arange(7) * 3  # uneven, even
    for got, want in zip(mt.gradient(t, coords0, coords1, edge_order=edge_order),
                         np.gradient(data, coords0, coords1, edge_order=edge_order)):
        assert_eq(got, want)
    assert_eq(mt.gradient(t, mt.tensor(coords0, chunk_size=5), axis=0, edge_order=edge_order),
              np.gradient(data, coords0, axis=0, edge_order=edge_order))
    assert_eq(mt.gradient(t, np.float32(0.5), axis=-1, edge_order=edge_order),
              np.gradient(data, np.float32(0.5), axis=-1, edge_order=edge_order))


def test_gradient_small_and_three_dimensional():
    x3 = RS.rand(3, 5, 4)
    for got, want in zip(mt.gradient(mt.tensor(x3, chunk_size=2), 1.5, axis=(0, 2)),
                         np.gradient(x3, 1.5, axis=(0, 2))):
        assert_eq(got, want)
    two = np.array([1.0, 4.0])
    assert_eq(mt.gradient(mt.tensor(two)), np.gradient(two))


def test_gradient_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.gradient(mt.tensor(np.ones(2)), edge_order=2)
    with pytest.raises(ValueError):
        mt.gradient(t, edge_order=3)
    with pytest.raises(TypeError):
        mt.gradient(t, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError):
        mt.gradient(t, np.arange(5), np.arange(7))
    with pytest.raises(ValueError):
        mt.gradient(t, np.ones((13, 2)), 1.0)
    with pytest.raises(np.exceptions.AxisError):
        mt.gradient(t, axis=2)
