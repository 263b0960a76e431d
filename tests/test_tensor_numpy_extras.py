"""Everyday NumPy functions that were missing: logspace, geomspace, tri, array_equiv,
trapezoid, ix_, apply_over_axes, place, putmask, trim_zeros vs NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(9)
X1, X2, X3 = RS.rand(7), RS.rand(7, 5), RS.rand(4, 5, 6)


def _t(x):
    return mt.tensor(x, chunk_size=3)


@pytest.mark.parametrize("args,kw", [((0, 2, 5), {}), ((1, 3, 7), dict(endpoint=False, base=2.0)),
                                     ((0, 1, 4), dict(dtype=np.float32)), ((0, 1, 0), {}),
                                     (([0, 1], [2, 3], 4), {}), (([0, 1], [2, 3], 4), dict(axis=1))])
def test_logspace(args, kw):
    assert_eq(mt.logspace(*args, **kw), np.logspace(*args, **kw))


@pytest.mark.parametrize("args,kw", [((1, 1000, 4), {}), ((-1, -1000, 7), {}), ((2, 9, 5), dict(endpoint=False)),
                                     ((1, 256, 9), dict(dtype=np.float32)), ((3, 7, 1), {}), ((3, 7, 0), {})])
def test_geomspace_has_exact_ends(args, kw):
    assert_eq(mt.geomspace(*args, **kw), np.geomspace(*args, **kw), rtol=1e-14)


def test_geomspace_errors():
    with pytest.raises(ValueError, match="cannot include zero"):
        mt.geomspace(0, 10, 3)
    with pytest.raises(NotImplementedError):
        mt.geomspace(-1, 10, 3)


@pytest.mark.parametrize("args", [(4,), (4, 3, -1), (3, 5, 2), (0,), (5, 5, -7)])
def test_tri(args):
    assert_eq(mt.tri(*args), np.tri(*args))
    assert_eq(mt.tri(*args, dtype=int), np.tri(*args, dtype=int))


@pytest.mark.parametrize("a,b", [(X2, X2), (X2, X2[:1]), (X2, X2[:2]), (X2, X1), (np.ones((3, 2)), 1.0)])
def test_array_equiv(a, b):
    assert_eq(mt.array_equiv(_t(a), b), np.array_equiv(a, b))


@pytest.mark.parametrize("x", [X1, X2, X3])
def test_trapezoid_is_trapz(x):
    assert_eq(mt.trapezoid(_t(x)), np.trapezoid(x))
    assert_eq(mt.trapezoid(_t(x), dx=0.5, axis=0), np.trapezoid(x, dx=0.5, axis=0))


def test_ix_builds_open_meshes_for_fancy_indexing():
    t = _t(X2)
    got, want = mt.ix_([0, 2, 6], [1, 3]), np.ix_([0, 2, 6], [1, 3])
    for g, w in zip(got, want):
        assert_eq(g, w)
    assert_eq(t[mt.ix_([0, 2, 6], [1, 3])], X2[np.ix_([0, 2, 6], [1, 3])])
    mask = X2[0] > 0.5
    assert_eq(t[mt.ix_([1, 4], mask)], X2[np.ix_([1, 4], mask)])
    assert_eq(mt.ix_([])[0], np.ix_([])[0])
    with pytest.raises(ValueError, match="1 dimensional"):
        mt.ix_(np.ones((2, 2), int))


@pytest.mark.parametrize("x,axes", [(X2, [0, 1]), (X3, [0, 2]), (X3, 1), (X3, [-1])])
def test_apply_over_axes(x, axes):
    assert_eq(mt.apply_over_axes(mt.sum, _t(x), axes), np.apply_over_axes(np.sum, x, axes))
    assert_eq(mt.apply_over_axes(mt.mean, _t(x), axes), np.apply_over_axes(np.mean, x, axes))


def test_apply_over_axes_rejects_a_function_losing_axes():
    with pytest.raises(ValueError, match="correct shape"):
        mt.apply_over_axes(lambda a, axis: a.sum(), _t(X3), [0])


@pytest.mark.parametrize("x,vals", [(X2, [0.0]), (X2, [9.0, 8.0, 7.0]), (np.arange(35).reshape(7, 5), [1.7, -3]),
                                    (X3, np.array([[1.0, 2.0]]))])
def test_place_cycles_the_values_over_the_true_elements(x, vals):
    t = _t(x)
    mask = x > x.mean()
    mt.place(t, _t(mask), vals)
    want = x.copy()
    np.place(want, mask, vals)
    assert_eq(t, want)


@pytest.mark.parametrize("x,vals", [(X2, [0.0]), (X2, [9.0, 8.0, 7.0]), (np.arange(35).reshape(7, 5), [1.7, -3])])
def test_putmask_cycles_the_values_over_flat_positions(x, vals):
    t = _t(x)
    mask = x > x.mean()
    mt.putmask(t, _t(mask), vals)
    want = x.copy()
    np.putmask(want, mask, vals)
    assert_eq(t, want)
    t2 = _t(x)
    mt.putmask(t2, mask, _t(-x))
    want2 = x.copy()
    np.putmask(want2, mask, -x)
    assert_eq(t2, want2)


@pytest.mark.parametrize("x", [np.array([0, 0, 1, 0, 2, 0, 0]), np.zeros(5), np.array([3.0, 0, 1]), np.zeros(0),
                               np.array([0, 0, np.nan, 0])])
@pytest.mark.parametrize("trim", ["fb", "f", "b", "B"])
def test_trim_zeros(x, trim):
    assert_eq(mt.trim_zeros(_t(x), trim), np.trim_zeros(x, trim))


@pytest.mark.parametrize("x,kw", [(np.cumsum(RS.rand(20) * 5), {}), (np.cumsum(RS.rand(4, 9) * 5, axis=1), {}),
                                  (np.cumsum(RS.rand(9, 4) * 5, axis=0), dict(axis=0, discont=4.0)),
                                  (np.array([0, 4, 8, 12, 2, 6]), dict(period=8)), (np.array([0, 4, 1, 5, 2]), dict(period=8)),
                                  (np.linspace(0, 30, 13), dict(period=10.0)), (np.zeros(0), {}), (np.array([np.nan, 1, 9.0]), {})])
def test_unwrap_like_numpy(x, kw):
    assert_eq(mt.unwrap(_t(x), **kw), np.unwrap(x, **kw), rtol=1e-12)


def test_numpy_constants_scalar_types_and_dtype_helpers_are_numpys():
    for name in ["pi", "e", "inf", "newaxis", "float32", "int64", "bool_", "complex128", "finfo", "iinfo",
                 "dtype", "can_cast", "promote_types", "issubdtype", "broadcast_shapes", "errstate"]:
        assert getattr(mt, name) is getattr(np, name)
    assert mt.AxisError is np.exceptions.AxisError
    assert np.isnan(mt.nan)
    assert mt.zeros(3, dtype=mt.float32).dtype == np.float32
    assert mt.abs is not np.abs and mt.round is not np.round  # the lazy operations keep their names
    assert mt.iscomplexobj(mt.ones(3) * 1j) and mt.isrealobj(_t(X1)) and not mt.iscomplexobj([1.0])


def test_frombuffer_and_fromiter_read_client_data():
    buf = np.arange(10, dtype=np.int32).tobytes()
    assert_eq(mt.frombuffer(buf, dtype=np.int32, count=6, offset=8, chunk_size=4),
              np.frombuffer(buf, dtype=np.int32, count=6, offset=8))
    assert_eq(mt.fromiter((i * i for i in range(9)), dtype=float, chunk_size=4),
              np.fromiter((i * i for i in range(9)), dtype=float))
    with pytest.raises(ValueError):
        mt.frombuffer(buf, dtype=np.int32, count=20)


@pytest.mark.parametrize("x,kw", [(X2, {}), (X2, dict(axis=0)), (X3, dict(axis=(0, 2), keepdims=True)),
                                  (X2, dict(axis=1, ddof=1)), (np.arange(12).reshape(3, 4), dict(axis=0)),
                                  (X2 + 1j * X2[::-1], {}), (np.where(X2 > 0.8, np.nan, X2), dict(axis=0))])
def test_var_and_std_from_a_given_mean(x, kw):
    m = x.mean(axis=kw.get("axis"), keepdims=True)
    t = _t(x)
    assert_eq(mt.var(t, mean=m, **kw), np.var(x, mean=m, **kw), rtol=1e-12)
    assert_eq(t.std(mean=_t(m), **kw), x.std(mean=m, **kw), rtol=1e-12)


@pytest.mark.parametrize("x,axis", [(X1, None), (X2, 0), (X3, -1)])
def test_std_and_var_take_the_array_api_correction(x, axis):
    assert_eq(mt.std(_t(x), axis=axis, correction=1), np.std(x, axis=axis, correction=1))
    assert_eq(_t(x).var(axis=axis, correction=1.5), np.var(x, axis=axis, correction=1.5))
    with pytest.raises(ValueError, match="simultaneously"):
        mt.var(_t(x), ddof=1, correction=1)


@pytest.mark.parametrize("mode", ["clip", "wrap", "raise"])
@pytest.mark.parametrize("x,idx,axis", [(X2, [0, 100, -1], None), (X2, [[-9, 4], [7, 2]], 0), (X3, [5, -7, 0], 2),
                                        (X1, np.array([], int), 0)])
def test_take_modes(x, idx, axis, mode):
    try:
        want = np.take(x, idx, axis=axis, mode=mode)
    except IndexError:
        with pytest.raises(IndexError):
            mt.take(_t(x), idx, axis=axis, mode=mode)
        return
    assert_eq(mt.take(_t(x), idx, axis=axis, mode=mode), want)
    assert_eq(_t(x).take(idx, axis=axis, mode=mode), x.take(idx, axis=axis, mode=mode))


def test_take_mode_errors():
    with pytest.raises(ValueError, match="clipmode"):
        mt.take(_t(X1), [0], mode="bogus")
    with pytest.raises(IndexError, match="empty"):
        mt.take(_t(np.zeros(0)), [0], mode="wrap")
