"""NumPy 2's array-API names (mt.concat, permute_dims, vecdot, cumulative_sum, unique_*, acos,
pow, ..., mt.linalg.vecdot / diagonal / trace / cross) against NumPy's."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(8)
X1, X2, X3 = RS.rand(7), RS.rand(7, 5), RS.rand(4, 5, 6)
I2 = RS.randint(-9, 9, (7, 5))
XS = [X1, X2, X3]


def _t(x):
    return mt.tensor(x, chunk_size=3)


@pytest.mark.parametrize("name,args", [
    ("acos", (X2,)), ("asin", (X2,)), ("atan", (X2,)), ("acosh", (X2 + 1,)), ("asinh", (X2,)),
    ("atanh", (X2 * 0.5,)), ("atan2", (X2, X2[0])), ("pow", (X2, 3)), ("bitwise_left_shift", (I2, 2)),
    ("bitwise_right_shift", (I2, 1)), ("bitwise_invert", (I2,)), ("bitwise_count", (I2,)),
])
def test_array_api_ufunc_names(name, args):
    got = getattr(mt, name)(*(_t(a) if isinstance(a, np.ndarray) else a for a in args))
    assert_eq(got, getattr(np, name)(*args))


@pytest.mark.parametrize("x", XS)
def test_concat_permute_dims_matrix_transpose(x):
    t = _t(x)
    assert_eq(mt.concat([t, t], axis=-1), np.concat([x, x], axis=-1))
    assert_eq(mt.concat([t, t], axis=None), np.concat([x, x], axis=None))
    axes = tuple(reversed(range(x.ndim)))
    assert_eq(mt.permute_dims(t, axes), np.permute_dims(x, axes))
    if x.ndim >= 2:
        assert_eq(mt.matrix_transpose(t), np.matrix_transpose(x))


@pytest.mark.parametrize("x,y,axis", [(X1, X1, -1), (X2, X2[0], -1), (X3, X3, 0), (I2, I2, 1),
                                      (X2 + 1j * X2[::-1], X2, -1), (X2 > 0.5, X2 < 0.7, -1)])
def test_vecdot_like_numpy(x, y, axis):
    assert_eq(mt.vecdot(_t(x), _t(y), axis=axis), np.vecdot(x, y, axis=axis), rtol=1e-12)
    assert_eq(mt.linalg.vecdot(_t(x), _t(y), axis=axis), np.linalg.vecdot(x, y, axis=axis), rtol=1e-12)


def test_vecdot_core_size_mismatch_is_numpys_value_error():
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        mt.vecdot(_t(X1), _t(RS.rand(4)))


def test_matvec_and_vecmat():
    v = RS.rand(5)
    assert_eq(mt.matvec(_t(X2), _t(v)), np.matvec(X2, v), rtol=1e-12)
    assert_eq(mt.vecmat(_t(X2[:, 0]), _t(X2)), np.vecmat(X2[:, 0], X2), rtol=1e-12)
    assert_eq(mt.matvec(_t(X3[:, :, :5]), _t(v)), np.matvec(X3[:, :, :5], v), rtol=1e-12)


@pytest.mark.parametrize("x,axis", [(X1, None), (X2, 0), (X3, -1), (I2.astype("i2"), 1), (np.array(5), None),
                                    (np.zeros(0), None)])
@pytest.mark.parametrize("initial", [False, True])
def test_cumulative_sum_and_prod(x, axis, initial):
    for name in ("cumulative_sum", "cumulative_prod"):
        assert_eq(getattr(mt, name)(_t(x), axis=axis, include_initial=initial),
                  getattr(np, name)(x, axis=axis, include_initial=initial))


def test_cumulative_sum_needs_an_axis_past_one_dimension():
    with pytest.raises(ValueError, match="axis"):
        mt.cumulative_sum(_t(X2))


@pytest.mark.parametrize("x", [np.round(X2 * 4), np.where(X2 > 0.7, np.nan, np.round(X2 * 4)), I2 % 4,
                               np.array([np.nan, 1.0, np.nan]), np.zeros(0)])
def test_unique_family_counts_each_nan_like_numpy(x):
    """The order is the array API's to choose (NumPy's unique_values hashes integers): ours is
    sorted, NaNs last in flat order, which is NumPy's unique_all (stable sort) order."""
    t = _t(x)
    assert_eq(mt.unique_values(t), np.sort(np.unique_values(x)))
    want = np.unique_all(x)
    for got, w in zip(mt.unique_counts(t), (want.values, want.counts)):
        assert_eq(got, w)
    got = mt.unique_inverse(t)
    assert_eq(got.values, want.values)
    assert_eq(got.inverse_indices, want.inverse_indices)
    for got, w in zip(mt.unique_all(t), want):
        assert_eq(got, w)


def test_isdtype_and_size():
    assert mt.isdtype(np.float32, "real floating") and not mt.isdtype(np.int8, "real floating")
    assert mt.size(_t(X3)) == X3.size and mt.size(_t(X3), 1) == 5


@pytest.mark.parametrize("x,offset", [(X2, 0), (X2, 2), (X3, -1), (RS.rand(2, 3, 3), 1)])
def test_linalg_diagonal_and_trace_use_the_last_two_axes(x, offset):
    assert_eq(mt.linalg.diagonal(_t(x), offset=offset), np.linalg.diagonal(x, offset=offset))
    assert_eq(mt.linalg.trace(_t(x), offset=offset), np.linalg.trace(x, offset=offset))


def test_linalg_cross_takes_3_vectors_only():
    a, b = RS.rand(5, 3), RS.rand(5, 3)
    assert_eq(mt.linalg.cross(_t(a), _t(b)), np.linalg.cross(a, b))
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        mt.linalg.cross(_t(a[:, :2]), _t(b[:, :2]))


@pytest.mark.parametrize("x,axis", [(X2, 0), (X3, 1), (X3, -1), (X1, 0)])
def test_unstack(x, axis):
    got, want = mt.unstack(_t(x), axis=axis), np.unstack(x, axis=axis)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_eq(g, w)


def test_isposinf_isneginf_sort_complex():
    x = np.array([1.0, np.inf, -np.inf, np.nan, -0.0, 2.0, -np.inf])
    assert_eq(mt.isposinf(_t(x)), np.isposinf(x))
    assert_eq(mt.isneginf(_t(x)), np.isneginf(x))
    with pytest.raises(TypeError):
        mt.isposinf(_t(x + 1j))
    for v in (np.array([5, 3, 6, 2, 1], "i1"), np.array([1 + 2j, 2 - 1j, 3 - 2j, 3 - 3j, 3 + 5j]), X1):
        assert_eq(mt.sort_complex(_t(v)), np.sort_complex(v))


def test_einsum_path_fromfunction_asanyarray():
    a, b = RS.rand(4, 5), RS.rand(5, 6)
    assert mt.einsum_path("ij,jk->ik", _t(a), _t(b), optimize="optimal") == \
        np.einsum_path("ij,jk->ik", a, b, optimize="optimal")
    f = lambda i, j: i * 10 + j  # noqa: E731
    assert_eq(mt.fromfunction(f, (4, 5)), np.fromfunction(f, (4, 5)))
    assert_eq(mt.fromfunction(f, (3, 2), dtype=int), np.fromfunction(f, (3, 2), dtype=int))
    assert_eq(mt.asanyarray([[1, 2]], dtype=np.float32), np.asanyarray([[1, 2]], dtype=np.float32))


def test_array_api_namespace_and_device():
    t = _t(X2)
    assert t.__array_namespace__() is mt and t.device == "cpu" and t.to_device("cpu") is t
    with pytest.raises(ValueError):
        t.to_device("cuda")


@pytest.mark.parametrize("x,axis", [(X1 > 0.5, None), (X2 > 0.5, 0), (X2 > 0.5, 1), (X3 > 0.5, -1), (I2, 0),
                                    (np.zeros((0, 3), bool), 0), (RS.rand(20) > 0.5, None)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_and_unpackbits(x, axis, bitorder):
    packed = np.packbits(x, axis=axis, bitorder=bitorder)
    got = mt.packbits(_t(x), axis=axis, bitorder=bitorder)
    assert_eq(got, packed)
    for count in (None,) if x.size == 0 else (None, 5, -3, 40):  # NumPy pads an empty input with garbage
        want = np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder)
        assert_eq(mt.unpackbits(_t(packed), axis=axis, count=count, bitorder=bitorder), want)


def test_packbits_errors_like_numpy():
    with pytest.raises(ValueError, match="-count larger"):
        mt.unpackbits(_t(np.zeros(1, np.uint8)), count=-9)
    with pytest.raises(TypeError):
        mt.packbits(_t(X1))
    with pytest.raises(TypeError):
        mt.unpackbits(_t(I2))
