"""argwhere, nonzero, flatnonzero, extract, compress, count_nonzero vs NumPy (C order)."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.config import options
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(4)
X3 = RS.randint(0, 3, size=(7, 9, 4))
XF = RS.rand(5, 6)
XF[XF < 0.4] = 0
XF[1, 1] = np.nan


@pytest.mark.parametrize("data,chunk", [(X3, (3, 4, 3)), (X3, (7, 9, 4)), (XF, (2, 5)),
                                        (X3[0, :, 0], 4), (X3 > 1, (2, 2, 2))])
def test_positions(data, chunk):
    t = mt.tensor(data, chunk_size=chunk)
    assert_eq(mt.argwhere(t), np.argwhere(data))
    assert_eq(mt.flatnonzero(t), np.flatnonzero(data))
    got, want = mt.nonzero(t), np.nonzero(data)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_eq(g, w)
    for g, w in zip(t.nonzero(), data.nonzero()):
        assert_eq(g, w)
    assert_eq(mt.count_nonzero(t), np.count_nonzero(data))


def test_positions_with_row_cuts():
    t = mt.tensor(X3, chunk_size=(7, 4, 3))
    old = options.chunk_store_limit
    options.chunk_store_limit = 100  # a band of 7 rows is cut into several operands
    try:
        assert_eq(mt.argwhere(t), np.argwhere(X3))
        assert_eq(mt.flatnonzero(t), np.flatnonzero(X3))
    finally:
        options.chunk_store_limit = old


def test_positions_edge_cases():
    for z in (np.array(0), np.array(5), np.zeros((0, 3)), np.zeros(4)):
        t = mt.tensor(z)
        assert_eq(mt.argwhere(t), np.argwhere(z))
        assert_eq(mt.flatnonzero(t), np.flatnonzero(z))
        assert_eq(mt.count_nonzero(t), np.count_nonzero(z))
    with pytest.raises(ValueError):
        mt.nonzero(mt.tensor(np.array(1)))
    t = mt.tensor(XF, chunk_size=2)
    filtered = t[t > 0.5]  # unknown length
    assert_eq(mt.flatnonzero(filtered > 0.7), np.flatnonzero(XF[XF > 0.5] > 0.7))


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_count_nonzero(axis, keepdims):
    t = mt.tensor(X3, chunk_size=(3, 4, 3))
    assert_eq(mt.count_nonzero(t, axis=axis, keepdims=keepdims),
              np.count_nonzero(X3, axis=axis, keepdims=keepdims))


def test_extract():
    t = mt.tensor(X3, chunk_size=(3, 4, 3))
    assert_eq(mt.extract(t % 2 == 0, t), np.extract(X3 % 2 == 0, X3))
    assert_eq(mt.extract(t, t * 10), np.extract(X3, X3 * 10))  # non-boolean condition
    cond = RS.rand(20) > 0.5
    assert_eq(mt.extract(cond, t), np.extract(cond, X3))  # shorter condition: flattened
    with pytest.raises(NotImplementedError):
        mt.extract(np.ones(400), t)


def test_compress():
    t = mt.tensor(X3, chunk_size=(3, 4, 3))
    assert_eq(mt.compress([1, 0, 1], t, axis=1), np.compress([1, 0, 1], X3, axis=1))
    cond = [True, False, True, True, False, False, True]
    assert_eq(mt.compress(mt.tensor(cond, chunk_size=3), t, axis=0), np.compress(cond, X3, axis=0))
    assert_eq(mt.compress(mt.tensor([True, False, True]), t, axis=-1),
              np.compress([True, False, True], X3, axis=-1))
    assert_eq(t.compress([0, 1, 1, 0, 1]), X3.compress([0, 1, 1, 0, 1]))
    assert_eq(mt.compress([False] * 4, t, axis=2), np.compress([False] * 4, X3, axis=2))
    with pytest.raises(IndexError):
        mt.compress([0, 0, 0, 0, 1], t, axis=2)
    with pytest.raises(ValueError):
        mt.compress([[1]], t)
    with pytest.raises(np.exceptions.AxisError):
        mt.compress([1], t, axis=3)
