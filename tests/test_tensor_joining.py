"""concatenate, the stack family, block, append and the split family against NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

A = np.arange(35.0).reshape(5, 7)
B = np.arange(21, dtype=np.int32).reshape(3, 7)
C = np.arange(10, dtype=np.int64).reshape(5, 2)
V = np.arange(7.0)
W = np.arange(4, dtype=np.int16)


def _t(a, chunk=(2, 3)):
    return mt.tensor(a, chunk_size=chunk[: a.ndim] if a.ndim else None)


def _values(ts):
    return [LocalExecutor().compute(t.data)[0] for t in ts]


def test_concatenate_rows_columns_flat_and_dtype():
    assert_eq(mt.concatenate([_t(A), _t(B, (2, 2))]), np.concatenate([A, B]))
    assert_eq(mt.concatenate([_t(A), _t(C, (4, 1))], axis=1), np.concatenate([A, C], axis=1))
    assert_eq(mt.concatenate([_t(A), _t(C)], axis=None), np.concatenate([A, C], axis=None))
    assert_eq(mt.concatenate([_t(A), _t(B)], axis=-2), np.concatenate([A, B], axis=-2))
    assert_eq(mt.concatenate([_t(B), B], dtype="f4"), np.concatenate([B, B], dtype="f4"))
    assert_eq(mt.concatenate([_t(A[:0]), _t(A)]), np.concatenate([A[:0], A]))
    assert_eq(mt.concatenate([_t(V, (3,)), [1, 2]]), np.concatenate([V, [1, 2]]))


def test_concatenate_errors_are_numpys():
    for args, kw in (([A, C], {}), ([A, V], {}), ([A, B], {"axis": 2}), ([np.float64(1), V], {})):
        with pytest.raises(Exception) as np_err:
            np.concatenate(args, **kw)
        with pytest.raises(np_err.type):
            mt.concatenate([_t(np.asarray(a)) for a in args], **kw)
    with pytest.raises(ValueError):
        mt.concatenate([])
    with pytest.raises(TypeError):
        np.concatenate([B, B], dtype="i2", casting="safe")
    with pytest.raises(TypeError):
        mt.concatenate([_t(B), _t(B)], dtype="i2", casting="safe")


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack(axis):
    assert_eq(mt.stack([_t(A), _t(A, (3, 4)), A], axis=axis), np.stack([A, A, A], axis=axis))


def test_stack_shapes_must_match():
    with pytest.raises(ValueError):
        np.stack([A, B])
    with pytest.raises(ValueError):
        mt.stack([_t(A), _t(B)])


def test_hstack_vstack_dstack_column_stack_row_stack():
    assert_eq(mt.hstack([_t(A), _t(C)]), np.hstack([A, C]))
    assert_eq(mt.hstack([_t(V, (3,)), _t(W, (3,))]), np.hstack([V, W]))
    assert_eq(mt.vstack([_t(A), _t(B), _t(V, (3,))]), np.vstack([A, B, V]))
    assert_eq(mt.row_stack([_t(A), V]), np.vstack([A, V]))
    assert_eq(mt.dstack([_t(A), _t(A)]), np.dstack([A, A]))
    assert_eq(mt.dstack([_t(V, (4,)), _t(V, (3,))]), np.dstack([V, V]))
    assert_eq(mt.column_stack([_t(np.arange(5.0), (2,)), _t(C)]), np.column_stack([np.arange(5.0), C]))
    with pytest.raises(TypeError):
        mt.hstack(_t(A))


def test_atleast_nd():
    for f, g in ((mt.atleast_1d, np.atleast_1d), (mt.atleast_2d, np.atleast_2d), (mt.atleast_3d, np.atleast_3d)):
        for a in (np.float64(3.0), V, A):
            assert_eq(f(mt.tensor(a)), g(a))
        got = f(mt.tensor(V), mt.tensor(A))
        assert isinstance(got, tuple) and len(got) == 2


def test_block():
    a, b = np.eye(2), np.ones((2, 3))
    c, d = np.zeros((1, 2)), np.full((1, 3), 7.0)
    assert_eq(mt.block([[_t(a), _t(b)], [_t(c), _t(d)]]), np.block([[a, b], [c, d]]))
    assert_eq(mt.block([_t(V, (3,)), _t(W, (3,))]), np.block([V, W]))
    assert_eq(mt.block([[_t(V, (3,))], [V]]), np.block([[V], [V]]))
    for bad in (([V], [[V]]), []):
        with pytest.raises(ValueError):
            np.block(list(bad))
        with pytest.raises(ValueError):
            mt.block(list(bad))
    with pytest.raises(TypeError):
        mt.block((V, V))


def test_append():
    assert_eq(mt.append(_t(A), _t(C)), np.append(A, C))
    assert_eq(mt.append(_t(A), _t(B), axis=0), np.append(A, B, axis=0))


@pytest.mark.parametrize("how", [3, [2, 5], [0, 9], [4, 2]])
def test_array_split_and_split(how):
    got, want = _values(mt.array_split(_t(A), how, axis=1)), np.array_split(A, how, axis=1)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert [p.shape for p in mt.array_split(_t(A), how, axis=1)] == [w.shape for w in want]


def test_split_family_and_errors():
    for g, w in zip(_values(mt.split(_t(A), 5)), np.split(A, 5)):
        np.testing.assert_array_equal(g, w)
    for g, w in zip(_values(mt.hsplit(_t(A), [3])), np.hsplit(A, [3])):
        np.testing.assert_array_equal(g, w)
    for g, w in zip(_values(mt.vsplit(_t(A), [1, 4])), np.vsplit(A, [1, 4])):
        np.testing.assert_array_equal(g, w)
    cube = np.arange(24).reshape(2, 3, 4)
    for g, w in zip(_values(mt.dsplit(mt.tensor(cube, chunk_size=2), 2)), np.dsplit(cube, 2)):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError):
        np.split(A, 3, axis=1)
    with pytest.raises(ValueError):
        mt.split(_t(A), 3, axis=1)
    with pytest.raises(ValueError):
        mt.vsplit(_t(V, (3,)), 2)
    with pytest.raises(np.exceptions.AxisError):
        mt.split(_t(A), 2, axis=3)


def test_concatenate_of_unknown_lengths():
    a = _t(A)
    picked = a[a[:, 0] > 10]  # rows known only after execution
    expected = np.concatenate([A[A[:, 0] > 10], A])
    np.testing.assert_array_equal(LocalExecutor().compute(mt.concatenate([picked, a]).data)[0], expected)


def test_concatenate_with_dtype_casts_and_keys_differ():
    """dtype= was declared but not applied, and the key was the same as without it."""
    a = np.random.RandomState(0).rand(7, 5)
    t = mt.tensor(a, chunk_size=3)
    got = mt.concatenate([t, t], dtype=np.float32)
    assert got.key != mt.concatenate([t, t]).key
    assert_eq(got, np.concatenate([a, a], dtype=np.float32))
    assert_eq(mt.concatenate([t, mt.tensor(np.arange(5))[None]], dtype=np.int64, casting="unsafe"),
              np.concatenate([a, np.arange(5)[None]], dtype=np.int64, casting="unsafe"))
    with pytest.raises(TypeError):
        mt.concatenate([t, t], dtype=np.int64)
