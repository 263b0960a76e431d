"""nanmedian / nanquantile / nanpercentile (exact, every method), divmod, real_if_close and
setxor1d vs NumPy."""
import warnings

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(11)
X = RS.rand(13, 7)
X[2, 3] = np.nan
X[:, 5] = np.nan  # an all-NaN lane along axis 0
X[4, :] = np.nan  # and along axis 1
METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's All-NaN slice warnings
        yield


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanmedian_exact(dtype, axis, keepdims):
    x = X.astype(dtype)
    t = mt.tensor(x, chunk_size=4)
    assert_eq(mt.nanmedian(t, axis=axis, keepdims=keepdims),
              np.nanmedian(x, axis=axis, keepdims=keepdims), rtol=0)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("axis", [None, 0, 1, (1, 0)])
@pytest.mark.parametrize("q", [0.3, 0, 1, np.float64(0.7), [0.1, 0.5, 1.0], [[0.2], [0.9]]])
def test_nanquantile_every_method_exact(method, axis, q):
    for x in (X, X.astype(np.float32)):
        t = mt.tensor(x, chunk_size=(4, 3))
        assert_eq(mt.nanquantile(t, q, axis=axis, method=method),
                  np.nanquantile(x, q, axis=axis, method=method), rtol=0)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nanpercentile(axis):
    t = mt.tensor(X, chunk_size=4)
    for q in (30, [5, 50, 95], 100.0):
        assert_eq(mt.nanpercentile(t, q, axis=axis), np.nanpercentile(X, q, axis=axis), rtol=0)
        assert_eq(mt.nanpercentile(t, q, axis=axis, keepdims=True, method="nearest"),
                  np.nanpercentile(X, q, axis=axis, keepdims=True, method="nearest"), rtol=0)


def test_nanquantile_edge_inputs():
    t = mt.tensor(X, chunk_size=4)
    sel = X[X > 0.4]
    assert_eq(mt.nanmedian(t[t > 0.4]), np.nanmedian(sel))  # unknown length
    nan3 = np.full((3, 5), np.nan)
    assert_eq(mt.nanmedian(mt.tensor(nan3, chunk_size=2)), np.nanmedian(nan3))
    assert_eq(mt.nanquantile(mt.tensor(nan3, chunk_size=2), 0.5, axis=1), np.nanquantile(nan3, 0.5, axis=1))
    assert_eq(mt.nanmedian(mt.tensor(np.float64(np.nan))), np.nanmedian(np.float64(np.nan)))
    assert_eq(mt.nanmedian(mt.tensor(np.zeros((0, 3))), axis=0), np.nanmedian(np.zeros((0, 3)), axis=0))
    xi = RS.randint(0, 9, (13, 7))  # no NaN possible: the plain functions
    assert_eq(mt.nanmedian(mt.tensor(xi, chunk_size=4), axis=0), np.nanmedian(xi, axis=0))
    assert_eq(mt.nanquantile(mt.tensor(xi, chunk_size=4), 0.25), np.nanquantile(xi, 0.25))


def test_nanquantile_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.nanquantile(t, 1.5)
    with pytest.raises(ValueError):
        mt.nanpercentile(t, -1, axis=0)
    with pytest.raises(ValueError):
        mt.nanquantile(t, 0.5, method="bogus")
    with pytest.raises(np.exceptions.AxisError):
        mt.nanmedian(t, axis=2)
    with pytest.raises(TypeError):
        mt.nanmedian(t, out=t)


def test_divmod_two_outputs():
    x = np.arange(-13, 13).reshape(2, 13) * 1.5
    y = np.array([2.5, -1, 0.7] * 4 + [3])
    q, r = mt.divmod(mt.tensor(x, chunk_size=4), y)
    eq, er = np.divmod(x, y)
    assert_eq(q, eq)
    assert_eq(r, er)
    xi = np.arange(-13, 13, dtype=np.int16)
    for got, want in zip(mt.divmod(mt.tensor(xi, chunk_size=5), 4), np.divmod(xi, 4)):
        assert_eq(got, want)
    for got, want in zip(mt.divmod(mt.tensor(np.float32(7)), 2), np.divmod(np.float32(7), 2)):
        assert_eq(got, want)
    with pytest.raises(TypeError):
        mt.divmod(mt.tensor(np.array(["a"])), 2)


def test_real_if_close_decides_the_dtype_from_the_data():
    z = np.array([1 + 1e-15j, 2 + 0j, 3 - 1e-16j] * 5)
    assert_eq(mt.real_if_close(mt.tensor(z, chunk_size=4)), np.real_if_close(z))
    z2 = z.copy()
    z2[7] = 1 + 1e-3j
    assert_eq(mt.real_if_close(mt.tensor(z2, chunk_size=4)), np.real_if_close(z2))
    assert_eq(mt.real_if_close(mt.tensor(z2, chunk_size=4), tol=1e-2), np.real_if_close(z2, tol=1e-2))
    assert_eq(mt.real_if_close(mt.tensor(z.astype(np.complex64), chunk_size=4)),
              np.real_if_close(z.astype(np.complex64)))
    assert_eq(mt.real_if_close(mt.tensor(X, chunk_size=4)), np.real_if_close(X))
    assert_eq(mt.real_if_close(mt.tensor(np.zeros(0, complex))), np.real_if_close(np.zeros(0, complex)))


def test_setxor1d():
    a = np.array([5, 1, 3, 3, 7, np.nan, 2, 9, np.nan, 11, 4, 0, 1])
    b = np.array([3, 8, np.nan, 1, 1, 12, 0])
    assert_eq(mt.setxor1d(mt.tensor(a, chunk_size=4), mt.tensor(b, chunk_size=3)), np.setxor1d(a, b))
    ai = np.arange(13) % 5
    assert_eq(mt.setxor1d(mt.tensor(ai, chunk_size=4), np.array([1, 7, 9])), np.setxor1d(ai, [1, 7, 9]))
    assert_eq(mt.setxor1d(mt.tensor(ai.reshape(13, 1), chunk_size=4), np.array([1.5, 2])),
              np.setxor1d(ai.reshape(13, 1), [1.5, 2]))
    u1, u2 = np.array([1, 5, 3, 9]), np.array([2, 5, 0])
    assert_eq(mt.setxor1d(mt.tensor(u1, chunk_size=3), u2, assume_unique=True),
              np.setxor1d(u1, u2, assume_unique=True))
    assert_eq(mt.setxor1d(mt.tensor(np.zeros(0)), np.zeros(0)), np.setxor1d(np.zeros(0), np.zeros(0)))
    t = mt.tensor(a, chunk_size=4)
    assert_eq(mt.setxor1d(t[t > 2], b), np.setxor1d(a[a > 2], b))
