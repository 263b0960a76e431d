"""sort / argsort / partition / argpartition against NumPy: PSRS across chunks, blockwise
along whole lanes, ties, NaN, dtypes, empty and 0-d input, errors."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(0)
TIES = RS.randint(0, 10, size=41).astype(float)
TIES[[3, 17, 30]] = np.nan
X2 = RS.rand(7, 9)
X3 = RS.randint(0, 5, size=(5, 6, 4))


@pytest.mark.parametrize("chunk", [7, 41, 1, 10])
def test_sort_1d_across_chunks(chunk):
    t = mt.tensor(TIES, chunk_size=chunk)
    assert_eq(mt.sort(t), np.sort(TIES))
    assert_eq(mt.argsort(t), np.argsort(TIES, kind="stable"))


@pytest.mark.parametrize("dtype", ["int8", "uint32", "bool", "float32", "complex128", "U3",
                                   "datetime64[s]"])
def test_sort_dtypes(dtype):
    x = RS.randint(0, 6, size=23).astype(dtype)
    t = mt.tensor(x, chunk_size=5)
    assert_eq(mt.sort(t), np.sort(x))
    assert_eq(mt.argsort(t), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_sort_2d(axis):
    t = mt.tensor(X2, chunk_size=(3, 4))
    assert_eq(mt.sort(t, axis=axis), np.sort(X2, axis=axis))
    assert_eq(mt.argsort(t, axis=axis), np.argsort(X2, axis=axis, kind="stable"))


@pytest.mark.parametrize("axis", [0, 1, 2, None])
def test_sort_3d_ties_are_stable(axis):
    t = mt.tensor(X3, chunk_size=(2, 4, 3))
    assert_eq(mt.sort(t, axis=axis), np.sort(X3, axis=axis))
    assert_eq(mt.argsort(t, axis=axis), np.argsort(X3, axis=axis, kind="stable"))


def test_sort_keeps_input_chunking_and_uses_several_partitions():
    t = mt.tensor(TIES, chunk_size=7)
    tiled = LocalExecutor().tile(mt.sort(t).data)
    assert tiled.nsplits == ((7, 7, 7, 7, 7, 6),)
    kinds = {type(c.op).__name__ for c in tiled.flat}
    assert kinds <= {"MergeRuns", "RechunkChunk"}


def test_sort_empty_and_zero_d():
    e = np.array([], dtype=float)
    assert_eq(mt.sort(mt.tensor(e)), np.sort(e))
    assert_eq(mt.argsort(mt.tensor(e)), np.argsort(e))
    e2 = np.empty((0, 3))
    assert_eq(mt.sort(mt.tensor(e2), axis=0), np.sort(e2, axis=0))
    z = np.array(3.0)
    assert_eq(mt.sort(mt.tensor(z), axis=None), np.sort(z, axis=None))
    with pytest.raises(np.exceptions.AxisError):
        mt.sort(mt.tensor(z))
    with pytest.raises(np.exceptions.AxisError):
        mt.argsort(mt.tensor(X2), axis=2)


def test_sort_unknown_shape():
    t = mt.tensor(TIES, chunk_size=6)
    filtered = t[t > 3]
    expected = TIES[TIES > 3]
    assert_eq(mt.sort(filtered), np.sort(expected))
    assert_eq(mt.argsort(filtered), np.argsort(expected, kind="stable"))


def test_sort_methods_are_in_place():
    t = mt.tensor(X2, chunk_size=4)
    assert t.sort(axis=0) is None
    assert_eq(t, np.sort(X2, axis=0))
    t = mt.tensor(TIES, chunk_size=8)
    t.partition(5)
    value = LocalExecutor().compute(t.data)[0]
    _check_partition(value, np.partition(TIES, 5), 5)
    assert_eq(mt.tensor(X2, chunk_size=3).argsort(axis=1), np.argsort(X2, axis=1, kind="stable"))


def _check_partition(value, expected, kth):
    kth = np.atleast_1d(kth)
    assert value.shape == expected.shape and value.dtype == expected.dtype
    np.testing.assert_array_equal(value[..., kth], expected[..., kth])
    np.testing.assert_array_equal(np.sort(value, axis=-1), np.sort(expected, axis=-1))
    for k in kth % value.shape[-1]:
        left, right = value[..., :k], value[..., k + 1:]
        pivot = value[..., k:k + 1]
        assert np.all(~(left > pivot)) and np.all(~(right < pivot))


@pytest.mark.parametrize("kth", [0, 5, -1, [2, 20]])
def test_partition(kth):
    x = RS.rand(4, 25)
    whole_lanes = mt.tensor(x, chunk_size=(2, 25))
    assert_eq(mt.partition(whole_lanes, kth), np.partition(x, kth))  # NumPy's own kernel
    assert_eq(mt.argpartition(whole_lanes, kth), np.argpartition(x, kth))
    chunked = mt.tensor(x, chunk_size=(3, 7))
    value = LocalExecutor().compute(mt.partition(chunked, kth).data)[0]
    _check_partition(value, np.partition(x, kth), kth)
    idx = LocalExecutor().compute(mt.argpartition(chunked, kth).data)[0]
    _check_partition(np.take_along_axis(x, idx, -1), np.partition(x, kth), kth)
    flat = mt.tensor(x[0], chunk_size=6)
    value = LocalExecutor().compute(mt.partition(flat, kth).data)[0]
    _check_partition(value, np.partition(x[0], kth), kth)


def test_partition_errors():
    t = mt.tensor(TIES, chunk_size=7)
    with pytest.raises(ValueError):
        mt.partition(t, 41)
    with pytest.raises(ValueError):
        mt.argpartition(t, -42)
    with pytest.raises(TypeError):
        mt.partition(t, 1.5)
    with pytest.raises(np.exceptions.AxisError):
        mt.partition(t, 1, axis=1)


@pytest.mark.parametrize("shape,chunk,axis", [((3, 50), (2, 7), 1), ((3, 50), (1, 50), 1),
                                              ((2, 40, 2), (1, 6, 2), 1), ((40, 2), (9, 1), 0),
                                              ((0, 30), (1, 7), 1)])
def test_sort_few_lanes_by_lane_psrs(shape, chunk, axis):
    x = RS.randint(0, 10, size=shape).astype(float)
    if x.size:
        x.flat[7] = np.nan
    t = mt.tensor(x, chunk_size=chunk)
    assert_eq(mt.sort(t, axis=axis), np.sort(x, axis=axis))
    assert_eq(mt.argsort(t, axis=axis), np.argsort(x, axis=axis, kind="stable"))
    value = LocalExecutor().compute(mt.partition(t, 3, axis=axis).data)[0]
    _check_partition(np.moveaxis(value, axis, -1), np.moveaxis(np.partition(x, 3, axis=axis), axis, -1), 3)
    tiled = LocalExecutor().tile(mt.sort(t, axis=axis).data)
    if x.size and chunk[axis] < shape[axis]:
        assert {type(c.op).__name__ for c in tiled.flat} == {"StackLanes"}


def test_sort_of_chunks_that_turn_out_empty():
    t = mt.tensor(np.arange(20.0), chunk_size=6)
    empty = t[t > 100]
    assert_eq(mt.sort(empty), np.array([]))
    assert_eq(mt.argsort(empty), np.array([], dtype=np.intp))
    some = t[(t > 13) | (t < 2)]  # some chunks empty, others not
    assert_eq(mt.sort(-some), np.sort(-np.r_[0.0, 1, 14, 15, 16, 17, 18, 19]))


@pytest.mark.parametrize("with_nan", [False, True])
def test_psrs_spreads_heavy_duplicates(with_nan):
    x = np.where(RS.rand(400) < 0.8, 5.0, RS.rand(400))
    if with_nan:
        x[RS.rand(400) < 0.5] = np.nan
    t = mt.tensor(x, chunk_size=50)
    assert_eq(mt.sort(t), np.sort(x))
    assert_eq(mt.argsort(t), np.argsort(x, kind="stable"))
    for expr in (mt.sort(t), mt.argsort(t)):
        ex = LocalExecutor()
        tiled = ex.tile(expr.data)
        ex._run(tiled.flat)
        merged = {c.key: c for c in topo_order(tiled.flat) if type(c.op).__name__ == "MergeRuns"}
        sizes = [len(ex.values[k]) for k in merged if k in ex.values]
        assert sizes and max(sizes) <= 2 * 400 / len(sizes)  # no range holds most of the data


def test_zero_d_and_empty_like_numpy():
    z = np.array(2.5)
    assert_eq(mt.argsort(mt.tensor(z)), np.argsort(z))  # NumPy takes it as 1-d
    assert_eq(mt.argsort(mt.tensor(z), axis=0), np.argsort(z, axis=0))
    assert_eq(mt.argpartition(mt.tensor(z), 0), np.argpartition(z, 0))
    with pytest.raises(np.exceptions.AxisError):
        mt.argsort(mt.tensor(z), axis=1)
    with pytest.raises(np.exceptions.AxisError):
        mt.partition(mt.tensor(z), 0)
    e = np.zeros((2, 0))
    assert_eq(mt.partition(mt.tensor(e), 5), np.partition(e, 5))  # no kth check on empty
