"""polyfit (TSQR least squares) and polyval vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(8)
X = np.linspace(-2, 3, 13)
Y = 3 * X ** 3 - X + 0.5 + RS.rand(13) * 0.1
Y2 = np.stack([Y, 2 * Y + 1], axis=1)


@pytest.mark.parametrize("deg", [0, 1, 3, 5])
def test_polyfit_like_numpy(deg):
    x = mt.tensor(X, chunk_size=4)
    assert_eq(mt.polyfit(x, mt.tensor(Y, chunk_size=5), deg), np.polyfit(X, Y, deg), rtol=1e-6)
    assert_eq(mt.polyfit(x, mt.tensor(Y2, chunk_size=5), deg), np.polyfit(X, Y2, deg), rtol=1e-6)
    w = RS.rand(13)
    assert_eq(mt.polyfit(x, Y, deg, w=w), np.polyfit(X, Y, deg, w=w), rtol=1e-6)
    got, want = mt.polyfit(x, Y, deg, full=True), np.polyfit(X, Y, deg, full=True)
    for g, e in zip(got, want):
        assert_eq(g, e, rtol=1e-6)
    assert_eq(mt.polyfit(mt.tensor(np.arange(13), chunk_size=4), np.arange(13) ** 2, 2),
              np.polyfit(np.arange(13), np.arange(13) ** 2, 2), atol=1e-9)


def test_polyfit_errors_like_numpy():
    x = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.polyfit(x, Y, -1)
    with pytest.raises(TypeError):
        mt.polyfit(mt.tensor(np.ones((2, 2))), Y[:2], 1)
    with pytest.raises(TypeError):
        mt.polyfit(x, Y[:5], 1)
    with pytest.raises(TypeError):
        mt.polyfit(mt.tensor(np.zeros(0)), np.zeros(0), 1)
    with pytest.raises(TypeError):
        mt.polyfit(x, np.ones((13, 2, 2)), 1)
    with pytest.raises(ValueError):
        mt.polyfit(x[:3], Y[:3], 3, cov=True)


@pytest.mark.parametrize("cov", [True, "unscaled"])
def test_polyfit_covariance(cov):
    x = mt.tensor(X, chunk_size=4)
    for y in (Y, Y2):
        for got, want in zip(mt.polyfit(x, mt.tensor(y, chunk_size=5), 3, cov=cov), np.polyfit(X, y, 3, cov=cov)):
            assert_eq(got, want, rtol=1e-6)


def test_polyval_horner_like_numpy():
    p = np.array([3.0, 0, -1, 0.5])
    x = mt.tensor(X, chunk_size=4)
    assert_eq(mt.polyval(p, x), np.polyval(p, X))
    assert_eq(mt.polyval(mt.tensor(p), x), np.polyval(p, X))
    xi = np.arange(13)
    assert_eq(mt.polyval([1, 2, 3], mt.tensor(xi, chunk_size=4)), np.polyval([1, 2, 3], xi))
    assert_eq(mt.polyval(np.float32([1, 2]), mt.tensor(xi.astype(np.float32), chunk_size=4)),
              np.polyval(np.float32([1, 2]), xi.astype(np.float32)))
    assert_eq(mt.polyval(p, mt.tensor(np.float64(2))), np.polyval(p, np.float64(2)))
    assert_eq(mt.polyval([], x), np.polyval([], X))
    nan = X.copy()
    nan[4] = np.nan
    assert_eq(mt.polyval(p, mt.tensor(nan, chunk_size=5)), np.polyval(p, nan))
