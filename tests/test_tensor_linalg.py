"""Contractions against NumPy: dot / matmul / inner / tensordot / vdot / outer."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.tensor.contractions import ContractBlocks
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(1)


def compute(t, fusion=True):
    return LocalExecutor(fusion).compute(t.data)[0]


def test_seed_inner_of_ones():
    a = mt.ones((2000, 2000), chunk_size=200)
    expected = np.inner(np.ones((2000, 2000)), np.ones((2000, 2000)))
    # chunk-level checks run a second full execution; smaller tests cover them
    assert_eq(mt.inner(a, a), expected, check_chunks=False)


@pytest.mark.parametrize("chunks", [(3, 3), (3, 4), (4, 3), (2, 5), (9, 1)])
def test_dot_2d_with_grids_that_do_not_line_up(chunks):
    x, y = RS.rand(7, 9), RS.rand(9, 5)
    a, b = mt.tensor(x, chunk_size=chunks[0]), mt.tensor(y, chunk_size=chunks[1])
    assert_eq(mt.dot(a, b), x.dot(y))
    assert_eq(a.dot(b), x.dot(y))
    assert_eq(a @ b, x @ y)
    assert_eq(mt.matmul(a, b), x @ y)
    assert_eq(mt.inner(a, b.T), np.inner(x, y.T))
    assert_eq(mt.tensordot(a, b, 1), np.tensordot(x, y, 1))


def test_vectors_and_matrices():
    x, v, w = RS.rand(6, 8), RS.rand(8), RS.rand(6)
    a, tv, tw = mt.tensor(x, chunk_size=(4, 3)), mt.tensor(v, chunk_size=5), mt.tensor(w, chunk_size=4)
    assert_eq(mt.dot(a, tv), x.dot(v))
    assert_eq(mt.dot(tw, a), w.dot(x))
    assert_eq(mt.dot(tv, tv), v.dot(v))
    assert_eq(a @ tv, x @ v)
    assert_eq(tw @ a, w @ x)
    assert_eq(tv @ tv, v @ v)
    assert_eq(mt.inner(a, tv), np.inner(x, v))
    assert_eq(mt.inner(tv, tv), np.inner(v, v))
    assert_eq(mt.outer(tv, tw), np.outer(v, w))
    assert_eq(mt.outer(a, tw), np.outer(x, w))
    assert_eq(mt.vdot(tv, tv), np.vdot(v, v))
    assert_eq(mt.vdot(a, mt.tensor(x, chunk_size=5)), np.vdot(x, x))
    assert_eq(x @ mt.tensor(v, chunk_size=3), x @ v)  # __rmatmul__ from an ndarray


def test_scalar_results_are_what_numpy_returns():
    v = RS.rand(10)
    tv = mt.tensor(v, chunk_size=3)
    for func in ("dot", "inner", "vdot", "matmul"):
        value = compute(getattr(mt, func)(tv, tv))
        assert type(value) is type(getattr(np, func)(v, v)), func
    assert type(compute(mt.tensordot(tv, tv, 1))) is np.ndarray  # NumPy gives a 0-d array here


def test_scalar_operands_multiply():
    x = RS.rand(4, 3)
    a = mt.tensor(x, chunk_size=2)
    assert_eq(mt.dot(a, 3.0), np.dot(x, 3.0))
    assert_eq(mt.inner(2, a), np.inner(2, x))


@pytest.mark.parametrize("shapes", [
    ((2, 3, 7, 9), (3, 9, 4)),
    ((2, 1, 5, 6), (3, 6, 4)),
    ((5, 6), (2, 6, 4)),
    ((4, 5, 6), (6,)),
    ((6,), (3, 6, 2)),
    ((1, 4, 3), (5, 3, 2)),
])
def test_matmul_broadcasts_batch_axes(shapes):
    x, y = RS.rand(*shapes[0]), RS.rand(*shapes[1])
    a, b = mt.tensor(x, chunk_size=2), mt.tensor(y, chunk_size=3)
    assert_eq(a @ b, x @ y)


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 3], [0, 1]), ([-1], [1]), (3, 1), ([0, 1], [1, 0])])
def test_tensordot_axes(axes):
    x = RS.rand(3, 4, 5, 6)
    y = RS.rand(4, 6, 2) if axes != 2 else RS.rand(5, 6, 2)
    if axes in (0, 1):
        y = RS.rand(6, 2)
    if axes == ([0, 1], [1, 0]):
        y = RS.rand(2, 3, 4)
        x = RS.rand(3, 2, 5)
    if axes == (3, 1):
        y = RS.rand(4, 6, 2)
    a, b = mt.tensor(x, chunk_size=2), mt.tensor(y, chunk_size=(3, 4, 1)[:y.ndim])
    assert_eq(mt.tensordot(a, b, axes=axes), np.tensordot(x, y, axes=axes))


@pytest.mark.parametrize("dtypes", [("int32", "int32"), ("bool", "bool"), ("int64", "float32"),
                                    ("float32", "float32"), ("complex128", "float64"),
                                    ("uint8", "int8")])
def test_result_dtype_is_numpys(dtypes):
    x = (RS.rand(5, 7) * 3).astype(dtypes[0])
    y = (RS.rand(7, 4) * 3).astype(dtypes[1])
    a, b = mt.tensor(x, chunk_size=3), mt.tensor(y, chunk_size=2)
    rtol = 1e-5 if "float32" in dtypes else 1e-7
    assert_eq(mt.dot(a, b), x.dot(y), rtol=rtol)
    assert_eq(a @ b, x @ y, rtol=rtol)
    assert_eq(mt.tensordot(a, b, 1), np.tensordot(x, y, 1), rtol=rtol)


def test_vdot_conjugates_complex():
    x = RS.rand(7) + 1j * RS.rand(7)
    y = RS.rand(7) - 2j * RS.rand(7)
    assert_eq(mt.vdot(mt.tensor(x, chunk_size=3), mt.tensor(y, chunk_size=2)), np.vdot(x, y))


def test_shape_mismatch_raises_value_error_at_build_time():
    a, b = mt.ones((2, 3), chunk_size=2), mt.ones((4, 5), chunk_size=2)
    for func in (mt.dot, mt.matmul, mt.tensordot, mt.inner):
        with pytest.raises(ValueError, match=r"\(2, 3\) and \(4, 5\)"):
            func(a, b)
    with pytest.raises(ValueError):
        a @ b
    with pytest.raises(ValueError):
        mt.ones((2, 3, 4)) @ mt.ones((3, 4, 5))  # batch axes 2 and 3 do not broadcast
    with pytest.raises(ValueError):
        mt.matmul(mt.ones((3,)), 2.0)  # NumPy: a 0-d operand is not allowed
    with pytest.raises(ValueError):
        mt.vdot(mt.ones((2, 3)), mt.ones(5))
    with pytest.raises((ValueError, IndexError)):
        mt.tensordot(a, b, axes=([0], [5]))


def test_one_operand_per_output_block():
    x, y = RS.rand(6, 8), RS.rand(8, 4)
    a, b = mt.tensor(x, chunk_size=2), mt.tensor(y, chunk_size=2)  # 3x4 and 4x2 grids
    r = mt.dot(a, b)
    tiled = LocalExecutor().tile(r.data)
    assert tiled.chunks.shape == (3, 2)
    for c in tiled.flat:
        assert isinstance(c.op, ContractBlocks) and len(c.inputs) == 8  # 4 row + 4 column blocks
    ex = LocalExecutor(fusion=False)
    np.testing.assert_allclose(ex.compute(r.data)[0], x @ y)
    assert ex.subtask_count == 12 + 8 + 6  # the sources and one task per output block


def test_misaligned_grids_are_cut_not_joined():
    x, y = RS.rand(5, 12), RS.rand(12, 5)
    a, b = mt.tensor(x, chunk_size=(5, 3)), mt.tensor(y, chunk_size=(4, 5))
    r = mt.dot(a, b)
    (block,) = LocalExecutor().tile(r.data).flat
    k = len(block.inputs) // 2
    # the union of boundaries {0,3,4,6,8,9,12} -> 6 contracted blocks, none wider than an input's
    assert [c.shape[1] for c in block.inputs[:k]] == [3, 1, 2, 2, 1, 3]
    assert [c.shape[0] for c in block.inputs[k:]] == [3, 1, 2, 2, 1, 3]
    assert_eq(r, x @ y)


def test_fused_equals_unfused():
    x, y = RS.rand(5, 6, 7), RS.rand(7, 3)
    r = mt.tensor(x, chunk_size=3) @ mt.tensor(y, chunk_size=4)
    np.testing.assert_allclose(compute(r, fusion=False), x @ y)
    np.testing.assert_allclose(compute(r), x @ y)


def test_unknown_shapes_from_boolean_indexing():
    x = RS.rand(20, 3)
    t = mt.tensor(x, chunk_size=(4, 2))
    f = t[t[:, 0] > 0.5]
    e = x[x[:, 0] > 0.5]
    assert_eq(f.T @ f, e.T @ e)
    assert_eq(mt.dot(f.T, f), e.T.dot(e))
    assert_eq(mt.inner(f, mt.tensor(np.ones(3), chunk_size=2)), np.inner(e, np.ones(3)))


def test_empty_contraction_gives_zeros():
    a, b = mt.ones((3, 0), chunk_size=2), mt.ones((0, 4), chunk_size=2)
    assert_eq(a @ b, np.ones((3, 0)) @ np.ones((0, 4)))


def test_unknown_extent_contracted_with_a_known_one():
    x = RS.rand(20, 3)
    t = mt.tensor(x, chunk_size=(4, 2))
    keep = x[:, 0] > 0.5
    f, e = t[t[:, 0] > 0.5], x[keep]
    w = RS.rand(int(keep.sum()))
    assert_eq(mt.dot(f.T, mt.tensor(w, chunk_size=3)), e.T.dot(w))
    assert_eq(f @ mt.tensor(np.ones((3, 5)), chunk_size=2), e @ np.ones((3, 5)))
    with pytest.raises(ValueError, match="not aligned"):
        compute(mt.dot(f.T, mt.ones(len(w) + 1)))


def test_matmul_batch_axis_of_unknown_extent():
    x, y = RS.rand(20, 2, 3), RS.rand(20, 3, 4)
    keep = x[:, 0, 0] > 0.4
    mask = mt.tensor(keep, chunk_size=6)
    a, b = mt.tensor(x, chunk_size=(6, 2, 2))[mask], mt.tensor(y, chunk_size=(4, 3, 3))[mask]
    assert_eq(a @ b, x[keep] @ y[keep])


def test_dot_and_inner_of_nd_operands():
    x, y = RS.rand(3, 4, 5), RS.rand(2, 5, 3)
    a, b = mt.tensor(x, chunk_size=2), mt.tensor(y, chunk_size=(1, 3, 2))
    assert_eq(mt.dot(a, b), np.dot(x, y))
    z = RS.rand(6, 5)
    assert_eq(mt.inner(a, mt.tensor(z, chunk_size=4)), np.inner(x, z))


@pytest.mark.parametrize("limit", [1, 600, 10**9])
def test_large_block_runs_are_multiplied_separately_and_summed(monkeypatch, limit):
    from mars_on_ray.config import options

    monkeypatch.setattr(options, "chunk_store_limit", limit)  # bytes stitched at once
    x, y = RS.rand(5, 12), RS.rand(12, 4)
    assert_eq(mt.tensor(x, chunk_size=(5, 3)) @ mt.tensor(y, chunk_size=(4, 2)), x @ y)
    z, w = RS.rand(3, 4, 5), RS.rand(4, 5, 2)
    assert_eq(mt.tensordot(mt.tensor(z, chunk_size=2), mt.tensor(w, chunk_size=2), axes=2),
              np.tensordot(z, w, axes=2))
    i = (RS.rand(4, 6) * 9).astype("int32")
    assert_eq(mt.tensor(i, chunk_size=2) @ mt.tensor(i.T, chunk_size=3), i @ i.T)


def test_contract_blocks_stitches_only_thin_blocks():
    """Deep blocks are multiplied one by one (stitching them only copies); thin ones are
    stitched until the run is _THICK deep, since BLAS is slow on thin products."""
    from mars_on_ray.tensor.contractions import _THICK, _runs

    thick = [np.zeros((10, _THICK))] * 3, [np.zeros((_THICK, 10))] * 3
    assert _runs(*thick, (3,), 1 << 30, (-1,)) == [(0, 1), (1, 2), (2, 3)]
    thin = [np.zeros((10, 50))] * 7, [np.zeros((50, 10))] * 7
    assert _runs(*thin, (7,), 1 << 30, (-1,)) == [(0, 3), (3, 6), (6, 7)]
    assert _runs(*thin, (7,), 2 * 2 * 500 * 8, (-1,)) == [(0, 2), (2, 4), (4, 6), (6, 7)]


@pytest.mark.parametrize("depth_chunk", [7, 130, 300])
def test_matmul_over_thin_and_deep_blocks(depth_chunk):
    rng = np.random.default_rng(3)
    a, b = rng.random((45, 700)), rng.random((700, 33))
    ta = mt.tensor(a, chunk_size=(20, depth_chunk))
    tb = mt.tensor(b, chunk_size=(depth_chunk, 15))
    assert_eq(ta @ tb, a @ b)  # in process: no session (it started a Ray of its own)
