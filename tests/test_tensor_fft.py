"""mt.fft: every transform equals numpy.fft on chunkings that do not divide the shape."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RNG = np.random.default_rng(0)
X3 = RNG.standard_normal((7, 9, 6)) + 1j * RNG.standard_normal((7, 9, 6))
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]


def _input(func, dtype):
    x = X3 if dtype == complex else X3.real
    return (x * 10).astype(dtype) if dtype == np.int64 else x.astype(dtype)


def _tol(dtype):
    return dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("func", ONE_D)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, complex, np.int64])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": 1, "n": 5}, {"n": 11, "norm": "ortho"},
                                    {"axis": -2, "norm": "forward"}])
def test_one_d(func, dtype, kwargs):
    x = _input(func, dtype)
    t = mt.tensor(x, chunk_size=(3, 4, 5))
    if dtype == complex and func in ("rfft", "ihfft"):  # real input only
        with pytest.raises(TypeError):
            getattr(np.fft, func)(x, **kwargs)
        with pytest.raises(TypeError):
            getattr(mt.fft, func)(t, **kwargs)
        return
    expected = getattr(np.fft, func)(x, **kwargs)
    assert_eq(getattr(mt.fft, func)(t, **kwargs), expected, **_tol(dtype))


@pytest.mark.filterwarnings("ignore:`axes` should not be `None`:DeprecationWarning")  # NumPy's s without axes
@pytest.mark.parametrize("func", N_D)
@pytest.mark.parametrize("kwargs", [{}, {"axes": (0, 2)}, {"s": (5, 8)}, {"s": (4, 10), "axes": (2, 0)},
                                    {"axes": (1,), "norm": "ortho"}, {"axes": (-1, 0, 1), "norm": "forward"},
                                    {"s": (4, 6, 8), "axes": (0, 2, 0)}])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, complex])
def test_n_d(func, kwargs, dtype):
    if func.endswith("2") and "axes" in kwargs and len(kwargs["axes"]) != 2:
        kwargs = {**kwargs, "axes": (0, 1), **({"s": kwargs["s"][:2]} if "s" in kwargs else {})}
    x = _input(func, dtype)
    t = mt.tensor(x, chunk_size=(4, 2, 5))
    if dtype == complex and func.startswith("rfft"):  # real input only
        with pytest.raises(TypeError):
            getattr(np.fft, func)(x, **kwargs)
        with pytest.raises(TypeError):
            getattr(mt.fft, func)(t, **kwargs)
        return
    expected = getattr(np.fft, func)(x, **kwargs)
    assert_eq(getattr(mt.fft, func)(t, **kwargs), expected, **_tol(dtype))


def test_other_axes_stay_split():
    t = mt.tensor(X3, chunk_size=(3, 4, 5))
    tiled = LocalExecutor().tile(mt.fft.fft(t, axis=1).data)
    assert tiled.nsplits == ((3, 3, 1), (9,), (5, 1))
    tiled = LocalExecutor().tile(mt.fft.rfft2(mt.tensor(X3.real, chunk_size=(3, 4, 5))).data)
    assert tiled.nsplits == ((3, 3, 1), (9,), (4,))


@pytest.mark.parametrize("n, d, chunk_size", [(10, 1.0, 3), (9, 0.25, 4), (1, 2.0, 1), (2, 0.5, None)])
def test_freqs(n, d, chunk_size):
    assert_eq(mt.fft.fftfreq(n, d, chunk_size=chunk_size), np.fft.fftfreq(n, d))
    assert_eq(mt.fft.rfftfreq(n, d, chunk_size=chunk_size), np.fft.rfftfreq(n, d))
    for bad, exc in [(2.5, ValueError), (0, ZeroDivisionError)]:
        for func in ["fftfreq", "rfftfreq"]:
            with pytest.raises(exc):
                getattr(np.fft, func)(bad)
            with pytest.raises(exc):
                getattr(mt.fft, func)(bad)


@pytest.mark.parametrize("func", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, 0, (1,), (0, 2), -1])
def test_shifts(func, axes):
    x = np.arange(7 * 9 * 6).reshape(7, 9, 6)
    assert_eq(getattr(mt.fft, func)(mt.tensor(x, chunk_size=(3, 4, 5)), axes=axes),
              getattr(np.fft, func)(x, axes=axes))
    assert_eq(getattr(mt.fft, func)(mt.tensor(np.arange(11.0), chunk_size=4)), getattr(np.fft, func)(np.arange(11.0)))


def test_round_trip_and_1d_input():
    x = RNG.standard_normal(101)
    t = mt.tensor(x, chunk_size=17)
    assert_eq(mt.fft.irfft(mt.fft.rfft(t), n=101), np.fft.irfft(np.fft.rfft(x), n=101), rtol=1e-10, atol=1e-12)
    assert_eq(mt.fft.ifft(mt.fft.fft(t)), np.fft.ifft(np.fft.fft(x)), rtol=1e-10, atol=1e-12)


def test_errors_like_numpy():
    t = mt.tensor(X3, chunk_size=4)
    cases = [(lambda m: m.fft.fft(t if m is mt else X3, n=0), ValueError),
             (lambda m: m.fft.fft(t if m is mt else X3, axis=3), IndexError),
             (lambda m: m.fft.fft(t if m is mt else X3, n=4, axis=-4), np.exceptions.AxisError),
             (lambda m: m.fft.fftn(t if m is mt else X3, axes=(0, 3)), IndexError),
             (lambda m: m.fft.fftn(t if m is mt else X3, s=(2, 2), axes=(0, 3)), np.exceptions.AxisError),
             (lambda m: m.fft.fft(t if m is mt else X3, norm="bad"), ValueError),
             (lambda m: m.fft.fftn(t if m is mt else X3, s=(3, 4), axes=(0,)), ValueError),
             (lambda m: m.fft.irfft(np.zeros(1) if m is np else mt.zeros(1)), ValueError),
             (lambda m: m.fft.fft(np.zeros((3, 0)) if m is np else mt.zeros((3, 0))), ValueError),
             (lambda m: m.fft.fftshift(t if m is mt else X3, axes=5), IndexError)]
    for make, exc in cases:
        with pytest.raises(exc):
            make(np)
        with pytest.raises(exc):
            make(mt)


def test_empty_other_axis_and_length_one():
    x = np.zeros((0, 5))
    assert_eq(mt.fft.fft(mt.tensor(x, chunk_size=2)), np.fft.fft(x))
    assert_eq(mt.fft.rfftn(mt.tensor(x, chunk_size=2), axes=(1,)), np.fft.rfftn(x, axes=(1,)))
    assert_eq(mt.fft.fftshift(mt.tensor(x, chunk_size=2)), np.fft.fftshift(x))
    one = np.array([2.5])
    for func in ["fft", "ifft", "rfft", "ihfft"]:
        assert_eq(getattr(mt.fft, func)(mt.tensor(one)), getattr(np.fft, func)(one))


def test_unknown_lengths():
    from test_rechunk import positive_only

    a = np.array([1.0, -2, 3, 4, -5, 6, 7])
    x, kept = positive_only(mt.tensor(a, chunk_size=2)), a[a > 0]
    assert_eq(mt.fft.rfft(x), np.fft.rfft(kept))
    assert_eq(mt.fft.irfft(x), np.fft.irfft(kept))
    assert_eq(mt.fft.fft(x, n=4), np.fft.fft(kept, n=4))
    assert_eq(mt.fft.ifftshift(x), np.fft.ifftshift(kept))
