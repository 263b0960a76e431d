"""take_along_axis, put_along_axis and lexsort across chunks vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(3)
X = RS.rand(13, 7)
X[2, 3] = np.nan


def _compute(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_axis_gathers_from_every_chunk_of_a_lane(axis):
    t = mt.tensor(X, chunk_size=4)
    order = np.argsort(X, axis=axis)
    picks = np.take(order, [0, 5, 2, -1], axis=axis)
    picks.flat[3] = -2  # negative indices count from the end
    for idx, want in ((order, order), (picks, picks), (mt.tensor(picks, chunk_size=3), picks)):
        assert_eq(mt.take_along_axis(t, idx, axis=axis), np.take_along_axis(X, want, axis=axis))


def test_take_along_axis_broadcasts_and_flattens():
    t = mt.tensor(X, chunk_size=4)
    one = np.array([[2], [12]])  # broadcast along axis 1
    assert_eq(mt.take_along_axis(t, one, axis=0), np.take_along_axis(X, one, axis=0))
    row = mt.tensor(X[:1], chunk_size=3)  # the array broadcast along axis 0
    idx = np.argsort(X, axis=1)
    assert_eq(mt.take_along_axis(row, idx, axis=1), np.take_along_axis(X[:1], idx, axis=1))
    col = np.array([[6], [0], [3]] * 4 + [[1]])
    assert_eq(mt.take_along_axis(t, col, axis=1), np.take_along_axis(X, col, axis=1))
    flat = np.array([3, 90, 4, 90])
    assert_eq(mt.take_along_axis(t, flat, axis=None), np.take_along_axis(X, flat, axis=None))
    empty = np.zeros((0, 7), np.intp)
    assert_eq(mt.take_along_axis(t, empty, axis=0), np.take_along_axis(X, empty, axis=0))
    sel = X[X > 0.5]
    f = t[t > 0.5]  # unknown length
    assert_eq(mt.take_along_axis(f, np.array([0, 3, 1]), axis=0), np.take_along_axis(sel, np.array([0, 3, 1]), axis=0))


def test_take_along_axis_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(IndexError):
        mt.take_along_axis(t, np.zeros((1, 7)), axis=0)
    with pytest.raises(ValueError):
        mt.take_along_axis(t, np.zeros(7, int), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        mt.take_along_axis(t, np.zeros((1, 7), int), axis=2)
    with pytest.raises(ValueError):
        mt.take_along_axis(t, np.zeros((1, 3), int), axis=0)
    with pytest.raises(IndexError):
        _compute(mt.take_along_axis(t, np.full((1, 7), 13), axis=0))
    with pytest.raises(IndexError):
        _compute(mt.take_along_axis(t, np.full((1, 7), -14), axis=0))


@pytest.mark.parametrize("axis", [0, 1])
def test_put_along_axis_rebinds_like_put(axis):
    order = np.argsort(X, axis=axis)
    idx = np.take(order, [0, 4, -1], axis=axis)
    for values in (9.5, np.arange(idx.size, dtype=float).reshape(idx.shape), np.float32(-1)):
        t = mt.tensor(X, chunk_size=4)
        assert mt.put_along_axis(t, idx, values, axis=axis) is None
        expected = X.copy()
        np.put_along_axis(expected, idx, values, axis=axis)
        assert_eq(t, expected)


def test_put_along_axis_repeated_indices_last_write_wins():
    t = mt.tensor(X, chunk_size=4)
    idx = np.array([[1, 1, 5]] * 13)
    values = np.arange(39.0).reshape(13, 3)
    mt.put_along_axis(t, idx, values, axis=1)
    expected = X.copy()
    np.put_along_axis(expected, idx, values, axis=1)
    assert_eq(t, expected)
    ti = mt.tensor(np.arange(13), chunk_size=5)
    mt.put_along_axis(ti, np.array([12, 0, -1]), 2.7, axis=None)  # cast to the tensor's dtype
    expected = np.arange(13)
    np.put_along_axis(expected, np.array([12, 0, -1]), 2.7, axis=None)
    assert_eq(ti, expected)
    with pytest.raises(TypeError):
        mt.put_along_axis(X.copy(), idx, 1.0, axis=1)
    with pytest.raises(IndexError):
        t2 = mt.tensor(X, chunk_size=4)
        mt.put_along_axis(t2, np.full((1, 7), 20), 1.0, axis=0)
        _compute(t2)


def test_lexsort_exact_across_chunks():
    k1 = RS.randint(0, 3, 13)
    k2 = RS.rand(13).round(1)
    k2[3] = k2[8] = np.nan
    k3 = RS.randint(0, 2, 13).astype(bool)
    assert_eq(mt.lexsort([mt.tensor(k, chunk_size=4) for k in (k1, k2, k3)]), np.lexsort((k1, k2, k3)))
    assert_eq(mt.lexsort((k1, mt.tensor(k2, chunk_size=5))), np.lexsort((k1, k2)))
    keys = np.stack([k1, k2])
    assert_eq(mt.lexsort(mt.tensor(keys, chunk_size=4)), np.lexsort(keys))
    k3d = RS.randint(0, 3, (2, 6, 13))
    assert_eq(mt.lexsort(mt.tensor(k3d, chunk_size=4), axis=1), np.lexsort(k3d, axis=1))
    assert_eq(mt.lexsort(mt.tensor(k3d, chunk_size=4)), np.lexsort(k3d))
    assert_eq(mt.lexsort([mt.tensor(np.zeros(0))]), np.lexsort([np.zeros(0)]))
    with pytest.raises(TypeError):
        mt.lexsort([])
    with pytest.raises(ValueError):
        mt.lexsort([k1, k1[:5]])
    with pytest.raises(np.exceptions.AxisError):
        mt.lexsort([k1], axis=1)


@pytest.mark.parametrize("args", [(4,), (5, 1), (5, -2, 7), (3, 0, 6), (0,), (4, 9)])
def test_tri_indices(args):
    for name in ("tril_indices", "triu_indices"):
        got, want = getattr(mt, name)(*args), getattr(np, name)(*args)
        assert len(got) == 2
        for g, w in zip(got, want):
            assert_eq(g, w)


def test_indices_from_arrays():
    a = np.zeros((5, 7))
    for name in ("tril_indices_from", "triu_indices_from"):
        for g, w in zip(getattr(mt, name)(mt.tensor(a, chunk_size=3), k=1), getattr(np, name)(a, k=1)):
            assert_eq(g, w)
        with pytest.raises(ValueError):
            getattr(mt, name)(mt.tensor(np.zeros(3)))
    for g, w in zip(mt.diag_indices(5, 3), np.diag_indices(5, 3)):
        assert_eq(g, w)
    for g, w in zip(mt.diag_indices_from(mt.tensor(np.zeros((4, 4, 4)))), np.diag_indices_from(np.zeros((4, 4, 4)))):
        assert_eq(g, w)
    with pytest.raises(ValueError):
        mt.diag_indices_from(mt.tensor(np.zeros((4, 3))))
    with pytest.raises(ValueError):
        mt.diag_indices_from(mt.tensor(np.zeros(4)))


def test_ravel_multi_index():
    i, j = RS.randint(0, 6, (13,)), RS.randint(0, 7, (13,))
    assert_eq(mt.ravel_multi_index((mt.tensor(i, chunk_size=4), j), (6, 7)), np.ravel_multi_index((i, j), (6, 7)))
    assert_eq(mt.ravel_multi_index((mt.tensor(i, chunk_size=4), j + 5), (6, 7), mode="wrap", order="F"),
              np.ravel_multi_index((i, j + 5), (6, 7), mode="wrap", order="F"))
    assert_eq(mt.ravel_multi_index((mt.tensor(i, chunk_size=4), j + 5), (6, 7), mode=("raise", "clip")),
              np.ravel_multi_index((i, j + 5), (6, 7), mode=("raise", "clip")))
    ii = i.reshape(13, 1)
    assert_eq(mt.ravel_multi_index((mt.tensor(ii, chunk_size=4), j[:5]), (6, 7)),
              np.ravel_multi_index((ii, j[:5]), (6, 7)))
    with pytest.raises(ValueError):
        _compute(mt.ravel_multi_index((mt.tensor(i, chunk_size=4), j + 5), (6, 7)))
    with pytest.raises(ValueError):
        mt.ravel_multi_index((i,), (6, 7))
    with pytest.raises(TypeError):
        mt.ravel_multi_index((i * 1.0, j), (6, 7))
    with pytest.raises(ValueError):
        mt.ravel_multi_index((i, j), (6, 7), mode="bogus")
