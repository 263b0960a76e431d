"""unique (index / inverse / counts), isin, in1d, setdiff1d, union1d, intersect1d vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(2)
XI = RS.randint(0, 20, size=(7, 9))
XF = XI.astype(float)
XF[1, 1] = XF[5, 5] = XF[6, 0] = np.nan


@pytest.mark.parametrize("data", [XI, XF, XI.astype(np.int8), XI.astype(str), XI > 10,
                                  XI.astype(np.complex64)])
@pytest.mark.parametrize("chunk", [(3, 4), (7, 9), (1, 2)])
def test_unique_all_outputs(data, chunk):
    t = mt.tensor(data, chunk_size=chunk)
    got = mt.unique(t, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(data, return_index=True, return_inverse=True, return_counts=True)
    assert len(got) == 4
    for g, w in zip(got, want):
        assert_eq(g, w)
    assert_eq(mt.unique(t), np.unique(data))


def test_unique_flags_and_partitions():
    x = RS.randint(0, 1000, size=500)
    t = mt.tensor(x, chunk_size=37)
    values, counts = mt.unique(t, return_counts=True)
    assert_eq(values, np.unique(x))
    assert_eq(counts, np.unique(x, return_counts=True)[1])
    tiled = LocalExecutor().tile(values.data)
    assert len(tiled.flat) > 1  # the distinct values stay range-partitioned
    v, inv = mt.unique(t, return_inverse=True)
    assert_eq(inv, np.unique(x, return_inverse=True)[1])


def test_unique_edge_cases():
    for x in (np.array([], dtype=np.int8), np.array(5), np.empty((0, 3)), np.full(10, np.nan)):
        t = mt.tensor(x)
        for g, w in zip(mt.unique(t, return_index=True, return_inverse=True, return_counts=True),
                        np.unique(x, return_index=True, return_inverse=True, return_counts=True)):
            assert_eq(g, w)
    t = mt.tensor(XF, chunk_size=3)
    filtered = t[t > 4]  # unknown length
    assert_eq(mt.unique(filtered), np.unique(XF[XF > 4]))
    with pytest.raises(NotImplementedError):
        mt.unique(mt.tensor(np.zeros((3, 0))), axis=0)


@pytest.mark.parametrize("invert", [False, True])
def test_isin(invert):
    t = mt.tensor(XF, chunk_size=(3, 4))
    tests = np.array([1, 3, 5, np.nan, 19.0])
    assert_eq(mt.isin(t, tests, invert=invert), np.isin(XF, tests, invert=invert))
    chunked = mt.tensor(np.arange(0, 40, 3), chunk_size=4)
    assert_eq(mt.isin(t, chunked, invert=invert), np.isin(XF, np.arange(0, 40, 3), invert=invert))
    assert_eq(mt.isin(mt.tensor(np.array(3)), chunked), np.isin(np.array(3), np.arange(0, 40, 3)))
    assert_eq(mt.in1d(t, tests, invert=invert), np.isin(XF.ravel(), tests, invert=invert))
    assert_eq(mt.isin(t, [], invert=invert), np.isin(XF, [], invert=invert))


def test_set_operations():
    a = mt.tensor(XI, chunk_size=4)
    other = np.array([2, 3, 3, 50, 7, -1])
    assert_eq(mt.setdiff1d(a, other), np.setdiff1d(XI, other))
    assert_eq(mt.setdiff1d(mt.tensor([5, 1, 9, 3], chunk_size=3), [1, 2], assume_unique=True),
              np.setdiff1d([5, 1, 9, 3], [1, 2], assume_unique=True))
    assert_eq(mt.union1d(a, other + 0.5), np.union1d(XI, other + 0.5))
    assert_eq(mt.union1d(a, mt.tensor(other, chunk_size=4)), np.union1d(XI, other))
    assert_eq(mt.intersect1d(a, other), np.intersect1d(XI, other))
    assert_eq(mt.intersect1d(mt.tensor([5, 1, 9, 3], chunk_size=3), [9, 1, 2], assume_unique=True),
              np.intersect1d([5, 1, 9, 3], [9, 1, 2], assume_unique=True))
    f = mt.tensor(XF, chunk_size=5)
    assert_eq(mt.setdiff1d(f, [np.nan, 1.0]), np.setdiff1d(XF, [np.nan, 1.0]))
    assert_eq(mt.intersect1d(f, [np.nan, 1.0]), np.intersect1d(XF, [np.nan, 1.0]))


def test_isin_joins_small_test_chunks():
    x = np.arange(100)
    test = np.arange(0, 300, 3).reshape(10, 10)
    got = mt.isin(mt.tensor(x, chunk_size=10), mt.tensor(test, chunk_size=3))
    assert_eq(got, np.isin(x, test))
    tiled = LocalExecutor().tile(got.data)
    pairs = [c for c in topo_order(tiled.flat) if type(c.op).__name__ == "IsinChunk"]
    assert len(pairs) == 10  # one test piece per element chunk, not 16 per chunk


@pytest.mark.parametrize("shape,axis,chunk", [((30, 3), 0, (7, 2)), ((4, 30), 1, (3, 7)),
                                              ((6, 20, 2), 1, (4, 6, 1)), ((30, 2), -2, (30, 2))])
def test_unique_along_an_axis(shape, axis, chunk):
    a = RS.randint(0, 3, size=shape).astype(float)
    t = mt.tensor(a, chunk_size=chunk)
    got = mt.unique(t, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        assert_eq(g, w)
    assert_eq(mt.unique(t.astype(np.int32), axis=axis), np.unique(a.astype(np.int32), axis=axis))
    with pytest.raises(np.exceptions.AxisError):
        mt.unique(t, axis=len(shape))


@pytest.mark.parametrize("case", range(4))
def test_intersect1d_with_indices_is_numpy(case):
    rs = np.random.RandomState(0)
    a, b, assume_unique = [(rs.randint(0, 20, 30), rs.randint(5, 40, 25), False),
                           (rs.permutation(30), rs.permutation(np.arange(10, 50)), True),
                           (np.array([3.0, np.nan, 1, 3]), np.array([np.nan, 3, 7]), False),
                           (rs.randint(0, 5, (4, 6)), np.array([4, 1, 9]), False)][case]
    got = mt.intersect1d(mt.tensor(a, chunk_size=7), mt.tensor(b, chunk_size=6), assume_unique=assume_unique,
                         return_indices=True)
    expected = np.intersect1d(a, b, assume_unique=assume_unique, return_indices=True)
    assert len(got) == 3
    for g, e in zip(got, expected):
        assert_eq(g, e)


@pytest.mark.parametrize("x", [np.array([np.nan, 1.0, np.nan, 0.5, 1.0]), np.arange(6) % 3,
                               np.where(np.random.RandomState(2).rand(4, 5) > 0.7, np.nan, 1.0)])
def test_unique_with_equal_nan_false_counts_each_nan(x):
    t = mt.tensor(x, chunk_size=2)
    assert_eq(mt.unique(t, equal_nan=False), np.unique(x, equal_nan=False))
    # NumPy's stable sort (return_index) orders the NaNs by position, as here
    for got, want in zip(mt.unique(t, return_index=True, return_inverse=True, return_counts=True, equal_nan=False),
                         np.unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)):
        assert_eq(got, want)
