"""cumsum/cumprod/nancumsum/nancumprod across chunks, diff, ediff1d, trapz, ptp vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(5)
XF = RS.rand(7, 9)
XF[2, 3] = np.nan
XI = RS.randint(0, 4, size=(7, 9)).astype(np.int8)


def _compute(t):
    return LocalExecutor().compute(t.data)[0]


SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]


@pytest.mark.parametrize("name", SCANS)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("data", [XF, XI, XI > 1, XF.astype(np.float32)])
def test_scans(name, axis, data):
    t = mt.tensor(data, chunk_size=(3, 4))
    assert_eq(getattr(mt, name)(t, axis=axis), getattr(np, name)(data, axis=axis), rtol=1e-6)


def test_scan_options_and_methods():
    t = mt.tensor(XI, chunk_size=(3, 4))
    assert_eq(mt.cumsum(t, axis=1, dtype=np.float32), np.cumsum(XI, axis=1, dtype=np.float32))
    assert_eq(t.cumsum(axis=0), XI.cumsum(axis=0))
    assert_eq(t.cumprod(), XI.cumprod())
    for z in (np.array(3.0), np.zeros((0, 4)), np.zeros(0, dtype=int)):
        assert_eq(mt.cumsum(mt.tensor(z)), np.cumsum(z))
    assert_eq(mt.cumsum(mt.tensor(np.zeros((0, 4))), axis=1), np.cumsum(np.zeros((0, 4)), axis=1))
    with pytest.raises(np.exceptions.AxisError):
        mt.cumsum(t, axis=2)
    f = mt.tensor(XF, chunk_size=4)
    filtered = f[f > 0.3]  # unknown length
    assert_eq(mt.cumsum(filtered), np.cumsum(XF[XF > 0.3]))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 12])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_diff(n, axis):
    t = mt.tensor(XF, chunk_size=(3, 4))
    assert_eq(mt.diff(t, n=n, axis=axis), np.diff(XF, n=n, axis=axis))
    ti = mt.tensor(XI, chunk_size=(2, 1))
    assert_eq(mt.diff(ti, n=n, axis=axis, prepend=3), np.diff(XI, n=n, axis=axis, prepend=3))
    app = np.ones((2, 9)) if axis == 0 else np.ones((7, 2))
    assert_eq(mt.diff(t, n=n, axis=axis, prepend=1.5, append=app),
              np.diff(XF, n=n, axis=axis, prepend=1.5, append=app))
    assert_eq(mt.diff(t > 0.5, n=n, axis=axis), np.diff(XF > 0.5, n=n, axis=axis))


def test_diff_errors_and_edges():
    t = mt.tensor(XF, chunk_size=3)
    with pytest.raises(ValueError):
        mt.diff(t, n=-1)
    with pytest.raises(ValueError):
        mt.diff(mt.tensor(np.array(1.0)))
    with pytest.raises(np.exceptions.AxisError):
        mt.diff(t, axis=2)
    with pytest.raises(ValueError):
        mt.diff(t, prepend=np.ones((3, 3)))
    empty = np.zeros(0)
    assert_eq(mt.diff(mt.tensor(empty)), np.diff(empty))
    assert_eq(mt.diff(mt.tensor(np.arange(3), chunk_size=1), n=2), np.diff(np.arange(3), n=2))


def test_ediff1d():
    t = mt.tensor(XF, chunk_size=(3, 4))
    assert_eq(mt.ediff1d(t), np.ediff1d(XF))
    ti = mt.tensor(XI, chunk_size=(3, 4))
    assert_eq(mt.ediff1d(ti, to_begin=[1, 2], to_end=9), np.ediff1d(XI, to_begin=[1, 2], to_end=9))
    assert_eq(mt.ediff1d(mt.tensor(np.array([5])), to_end=[1]), np.ediff1d(np.array([5]), to_end=[1]))
    assert_eq(mt.ediff1d(mt.tensor(np.zeros(0)), to_begin=2.0), np.ediff1d(np.zeros(0), to_begin=2.0))
    with pytest.raises(TypeError):
        mt.ediff1d(ti, to_begin=1.5)
    with pytest.raises(TypeError):
        mt.ediff1d(mt.tensor(XI > 1))


def test_trapz():
    t = mt.tensor(XF, chunk_size=(3, 4))
    assert_eq(mt.trapz(t), np.trapezoid(XF))
    assert_eq(mt.trapz(t, dx=0.5, axis=0), np.trapezoid(XF, dx=0.5, axis=0))
    xs = np.cumsum(RS.rand(9))
    assert_eq(mt.trapz(t, x=xs), np.trapezoid(XF, x=xs))
    xs2 = np.cumsum(RS.rand(7, 9), axis=0)
    assert_eq(mt.trapz(t, x=mt.tensor(xs2, chunk_size=4), axis=0), np.trapezoid(XF, x=xs2, axis=0))
    assert_eq(mt.trapz(mt.tensor(XI, chunk_size=3)), np.trapezoid(XI))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_ptp(axis, keepdims):
    for data in (XF, XI):
        t = mt.tensor(data, chunk_size=(3, 4))
        assert_eq(mt.ptp(t, axis=axis, keepdims=keepdims), np.ptp(data, axis=axis, keepdims=keepdims))
    assert_eq(mt.tensor(XI, chunk_size=4).ptp(axis=1), np.ptp(XI, axis=1))
    with pytest.raises(TypeError):
        mt.ptp(mt.tensor(XI > 1))
    with pytest.raises(ValueError):
        _compute(mt.ptp(mt.tensor(np.zeros(0))))


def test_scan_of_zero_d_is_one_d():
    z = np.array(2.5)
    for axis in (None, 0, -1):
        assert_eq(mt.cumsum(mt.tensor(z), axis=axis), np.cumsum(z, axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        mt.cumprod(mt.tensor(z), axis=1)


def test_diff_with_lazy_prepend_and_append_matches_numpy():
    data = np.arange(35.0).reshape(5, 7) ** 2
    t = mt.tensor(data, chunk_size=(2, 3))
    first = mt.tensor(data[:, :1] - 1, chunk_size=2)
    assert_eq(mt.diff(t, prepend=first, append=100.0), np.diff(data, prepend=data[:, :1] - 1, append=100.0))
    assert_eq(mt.diff(t, n=2, axis=0, append=mt.tensor(np.ones((2, 7)))),
              np.diff(data, n=2, axis=0, append=np.ones((2, 7))))
    assert_eq(mt.diff(t, prepend=mt.tensor(3.0)), np.diff(data, prepend=3.0))
