import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.entity import ChunkData, Tiled, chunk_grid
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.operand import Operand
from mars_on_ray.tensor.core import new_tensor
from mars_on_ray.tensor.rechunk import rechunk_tiled
from mars_on_ray.testing import assert_eq


class PositiveOnly(Operand):
    """A 1-d filter with unknown output extents (stands in for boolean indexing)."""

    def tile(self, ctx, out):
        tiled = ctx[out.inputs[0]]
        grid = chunk_grid(tiled.chunks.shape)
        for idx, c in np.ndenumerate(tiled.chunks):
            grid[idx] = ChunkData(self.new(), [c], (float("nan"),), out.meta, idx)
        return Tiled(grid, [[float("nan")] * tiled.chunks.shape[0]])

    def execute(self, x):
        return x[x > 0]


def positive_only(t):
    return new_tensor(PositiveOnly(), [t], (float("nan"),), t.dtype)


@pytest.mark.parametrize("src, dst", [
    ((4, 3), (5, 4)),
    ((2, 10), ((1, 5), (10,))),
    (3, (6, 1)),
    ((6, 10), 4),
    (1, 7),
])
def test_rechunk_values_and_splits(src, dst):
    a = np.arange(60).reshape(6, 10)
    r = mt.tensor(a, chunk_size=src).rechunk(dst)
    assert_eq(r, a)
    from mars_on_ray.core.chunk_sizes import normalize_chunks
    assert LocalExecutor().tile(r.data).nsplits == normalize_chunks(dst, (6, 10), 8)


def test_rechunk_each_output_chunk_is_one_operand():
    a = np.arange(60.0).reshape(6, 10)
    r = mt.tensor(a, chunk_size=2).rechunk(5)
    tiled = LocalExecutor().tile(r.data)
    assert tiled.chunks.shape == (2, 2)
    assert [len(c.inputs) for c in tiled.flat] == [9, 9, 3, 3]
    ex = LocalExecutor(fusion=False)
    np.testing.assert_array_equal(ex.compute(r.data)[0], a)
    assert ex.subtask_count == 15 + 4


def test_rechunk_tiled_unchanged_when_splits_match():
    t = mt.ones((5, 7), chunk_size=3)
    tiled = LocalExecutor().tile(t.data)
    assert rechunk_tiled(tiled, ((3, 2), (3, 3, 1))) is tiled
    other = rechunk_tiled(tiled, ((5,), (3, 3, 1)))
    assert other.nsplits == ((5,), (3, 3, 1))
    assert other.chunks.shape == (1, 3)


def test_rechunk_tiled_reuses_identical_chunks():
    tiled = LocalExecutor().tile(mt.ones((6,), chunk_size=3).data)
    out = rechunk_tiled(tiled, ((3, 1, 2),))
    assert out.chunks[0] is tiled.chunks[0]
    assert out.chunks[1] is not tiled.chunks[1]


def test_rechunk_tiled_unknown_shape_raises():
    chunks = LocalExecutor().tile(mt.ones(4, chunk_size=2).data).chunks
    tiled = Tiled(chunks, [[float("nan"), 2]])
    with pytest.raises(ValueError):
        rechunk_tiled(tiled, ((3,),))


def test_rechunk_unknown_shape_input():
    a = np.array([1, -1, 2, 3, -4, 5, 6, -7, 8])
    t = positive_only(mt.tensor(a, chunk_size=4)).rechunk(2)
    assert_eq(t, a[a > 0])
    assert LocalExecutor().tile(t.data).nsplits == ((2, 2, 2),)


def test_rechunk_0d_and_empty():
    assert_eq(mt.tensor(np.float32(2.5)).rechunk(()), np.asarray(np.float32(2.5)))
    z = np.zeros((0, 4))
    assert_eq(mt.tensor(z, chunk_size=2).rechunk(3), z)


def test_rechunk_keys_deterministic():
    a = np.arange(20)
    r1 = mt.tensor(a, chunk_size=3).rechunk(4)
    r2 = mt.tensor(a, chunk_size=3).rechunk(4)
    assert r1.key == r2.key
    assert [c.key for c in LocalExecutor().tile(r1.data).flat] == [c.key for c in LocalExecutor().tile(r2.data).flat]
    assert r1.key != mt.tensor(a, chunk_size=3).rechunk(5).key


def test_rechunk_bad_chunk_size():
    t = mt.ones((5, 5), chunk_size=2)
    with pytest.raises(ValueError):
        t.rechunk((2, 2, 2))
    with pytest.raises(ValueError):
        t.rechunk(((2, 2), 5))
    with pytest.raises(ValueError):
        t.rechunk(0)


def test_rechunk_fused_equals_unfused():
    a = np.random.default_rng(0).random((7, 9))
    r = mt.tensor(a, chunk_size=(3, 4)).rechunk((2, 5))
    fused, unfused = LocalExecutor(), LocalExecutor(fusion=False)
    np.testing.assert_array_equal(fused.compute(r.data)[0], unfused.compute(r.data)[0])
    assert fused.subtask_count <= unfused.subtask_count


def test_rechunk_dict_keeps_the_splits_of_the_axes_it_leaves_out():
    """rechunk({1: n}) re-picked the row splits automatically (merging 8 row blocks of a QR
    input into 3); as in Mars and Dask, the axes a dict leaves out keep their splits."""
    from mars_on_ray.core.local import LocalExecutor

    x = np.arange(70 * 6.0).reshape(70, 6)
    t = mt.tensor(x, chunk_size=(15, 4))
    executor = LocalExecutor(small_data=False)
    assert executor.tile(t.rechunk({1: 6}).data).nsplits == ((15, 15, 15, 15, 10), (6,))
    assert executor.tile(t.rechunk({-2: 35}).data).nsplits == ((35, 35), (4, 2))
    np.testing.assert_array_equal(executor.compute(t.rechunk({1: 5}).data)[0], x)
    with pytest.raises(ValueError):
        t.rechunk({2: 3})
    with pytest.raises(ValueError):
        t.rechunk({0: 0})
