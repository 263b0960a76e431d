"""Flips, roll, axis moves, broadcasting, tile/repeat, triangles, diagonals, complex parts and
whole-array comparisons against NumPy (chunks that do not divide the shapes)."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

A = np.arange(35.0).reshape(5, 7)
R = np.random.RandomState(0).rand(4, 6, 5)
V = np.arange(1, 8, dtype=np.int32)
Z = np.array([1 + 2j, -3.5, 0.5j, 2.0])


def _t(a, chunk=2):
    return mt.tensor(a, chunk_size=chunk)


def _value(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_flip(axis):
    assert_eq(mt.flip(_t(R, 3), axis), np.flip(R, axis))


def test_fliplr_flipud_and_errors():
    assert_eq(mt.fliplr(_t(A)), np.fliplr(A))
    assert_eq(mt.flipud(_t(V, 3)), np.flipud(V))
    with pytest.raises(ValueError):
        mt.fliplr(_t(V))


@pytest.mark.parametrize("shift,axis", [(3, None), (-2, None), (2, 0), (9, 1), ((1, 2), (0, 1)),
                                        ((1, 1), (1, 1)), (0, 1), (-20, 2)])
def test_roll(shift, axis):
    data = R if axis == 2 or axis == -20 else A
    assert_eq(mt.roll(_t(data, 3), shift, axis), np.roll(data, shift, axis))


def test_moveaxis_rollaxis():
    assert_eq(mt.moveaxis(_t(R), 0, -1), np.moveaxis(R, 0, -1))
    assert_eq(mt.moveaxis(_t(R), [0, 1], [-1, -2]), np.moveaxis(R, [0, 1], [-1, -2]))
    for axis, start in ((2, 0), (0, 3), (1, -1), (2, 1)):
        assert_eq(mt.rollaxis(_t(R), axis, start), np.rollaxis(R, axis, start))
    with pytest.raises(ValueError):
        mt.moveaxis(_t(R), [0, 1], [0])
    with pytest.raises(np.exceptions.AxisError):
        mt.moveaxis(_t(R), 3, 0)


def test_broadcast_to_and_arrays():
    assert_eq(mt.broadcast_to(_t(V, 3), (4, 7)), np.broadcast_to(V, (4, 7)))
    assert_eq(mt.broadcast_to(_t(A[:, :1]), (2, 5, 7)), np.broadcast_to(A[:, :1], (2, 5, 7)))
    with pytest.raises(ValueError):
        np.broadcast_to(V, (4, 6))
    with pytest.raises(ValueError):
        mt.broadcast_to(_t(V), (4, 6))
    got = mt.broadcast_arrays(_t(V, 3), _t(A[:, :1]))
    for g, w in zip(got, np.broadcast_arrays(V, A[:, :1])):
        assert_eq(g, np.ascontiguousarray(w))


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 1, 2), 0])
def test_tile(reps):
    assert_eq(mt.tile(_t(A, 3), reps), np.tile(A, reps))
    assert_eq(mt.tile(_t(V, 3), reps), np.tile(V, reps))


@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, 1), ([1, 0, 2, 1, 3], 0),
                                          (np.arange(7) % 3, 1)])
def test_repeat(repeats, axis):
    assert_eq(mt.repeat(_t(A, 3), repeats, axis), np.repeat(A, repeats, axis))


def test_repeat_errors():
    for bad in (-1, [1, 2]):
        with pytest.raises(ValueError):
            np.repeat(A, bad, 0)
        with pytest.raises(ValueError):
            mt.repeat(_t(A), bad, 0)


@pytest.mark.parametrize("k", [0, 1, -2, 9, -9])
def test_tril_triu(k):
    assert_eq(mt.tril(_t(A, 3), k), np.tril(A, k))
    assert_eq(mt.triu(_t(A, 3), k), np.triu(A, k))
    assert_eq(mt.triu(_t(R, 3), k), np.triu(R, k))
    assert_eq(mt.tril(_t(V, 3), k), np.tril(V, k))


@pytest.mark.parametrize("k", [0, 2, -1, -3, 10])
def test_diag(k):
    assert_eq(mt.diag(_t(A, 3), k), np.diag(A, k))
    assert_eq(mt.diag(_t(V, 3), k), np.diag(V, k))
    assert_eq(mt.diag(_t(A > 10, 3), k), np.diag(A > 10, k))
    assert_eq(mt.diagflat(_t(A[:2, :3]), k), np.diagflat(A[:2, :3], k))
    with pytest.raises(ValueError):
        mt.diag(_t(R))


def test_complex_parts_and_elementwise_helpers():
    for f, g in ((mt.real, np.real), (mt.imag, np.imag), (mt.angle, np.angle),
                 (mt.iscomplex, np.iscomplex), (mt.isreal, np.isreal)):
        assert_eq(f(_t(Z, 3)), g(Z))
    assert_eq(mt.angle(_t(Z, 3), deg=True), np.angle(Z, deg=True))
    x = np.linspace(-3.3, 3.3, 13)
    for f, g in ((mt.fix, np.fix), (mt.i0, np.i0), (mt.sinc, np.sinc)):
        assert_eq(f(_t(x, 4)), g(x))
    assert_eq(mt.round_(_t(x, 4), 1), np.round(x, 1))
    for f, g in ((mt.modf, np.modf), (mt.frexp, np.frexp)):
        for got, want in zip(f(_t(x, 4)), g(x)):
            assert_eq(got, want)


def test_allclose_and_array_equal():
    b = A + 1e-9
    assert _value(mt.allclose(_t(A), _t(b, 3))) == np.allclose(A, b)
    assert _value(mt.allclose(_t(A), A + 1)) == np.allclose(A, A + 1)
    n = np.array([1.0, np.nan])
    assert _value(mt.allclose(_t(n), n, equal_nan=True)) is np.True_
    assert _value(mt.array_equal(_t(A), A.copy())) == np.array_equal(A, A)
    assert _value(mt.array_equal(_t(A), A[:2])) == np.array_equal(A, A[:2])
    assert _value(mt.array_equal(_t(n), n)) == np.array_equal(n, n)
    assert _value(mt.array_equal(_t(n), n, equal_nan=True)) == np.array_equal(n, n, equal_nan=True)


@pytest.mark.parametrize("indices,axis", [([0, 4, 2, 2], 0), ([6, 0, -1], 1), ([[1, 2], [30, 0]], None),
                                          (np.array([[0], [3]]), 1)])
def test_take(indices, axis):
    assert_eq(mt.take(_t(A, 3), indices, axis), np.take(A, indices, axis))


def test_small_helpers():
    assert mt.result_type(_t(V), 1.5) == np.result_type(V, 1.5)
    assert mt.shape(_t(A)) == A.shape and mt.ndim(_t(R)) == 3
    assert_eq(mt.ascontiguousarray(_t(A), dtype="f4"), np.ascontiguousarray(A, dtype="f4"))
    assert_eq(mt.asfortranarray(_t(V)), np.asfortranarray(V))
    assert_eq(mt.copy(_t(A)), np.copy(A))


@pytest.mark.parametrize("shape,wrap,val", [((5, 5), False, 7), ((7, 3), True, 9), ((7, 3), False, 9),
                                            ((3, 3, 3), False, 1), ((4, 6), False, [1, 2, 3]),
                                            ((7, 3), True, [1, 2])])
def test_fill_diagonal_in_place(shape, wrap, val):
    a = np.arange(np.prod(shape), dtype=float).reshape(shape)
    t = _t(a.copy())
    assert mt.fill_diagonal(t, val, wrap=wrap) is None
    np.fill_diagonal(a, val, wrap=wrap)
    assert_eq(t, a)


def test_fill_diagonal_errors():
    for bad in (np.ones(3), np.ones((2, 3, 4))):
        with pytest.raises(ValueError):
            np.fill_diagonal(bad.copy(), 1)
        with pytest.raises(ValueError):
            mt.fill_diagonal(_t(bad), 1)


def test_copyto_in_place():
    where = np.array([True, False, True, False, True, True, False])
    dst, expected = _t(np.zeros((5, 7))), np.zeros((5, 7))
    mt.copyto(dst, _t(V, 3), where=where)
    np.copyto(expected, V, where=where)
    assert_eq(dst, expected)
    with pytest.raises(TypeError):
        np.copyto(np.zeros(7, dtype=np.int16), np.ones(7))
    with pytest.raises(TypeError):
        mt.copyto(_t(np.zeros(7, dtype=np.int16)), _t(np.ones(7)))
    with pytest.raises(ValueError):
        mt.copyto(_t(np.zeros(7)), _t(np.ones(4)))
    assert mt.ExecutableTuple is not None
