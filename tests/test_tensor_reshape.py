"""transpose / swapaxes / reshape / ravel / squeeze / expand_dims against NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.tensor.rechunk import RechunkChunk
from mars_on_ray.testing import assert_eq

X3 = np.arange(2 * 3 * 4, dtype="f8").reshape(2, 3, 4)


def _ops(t):
    """Operand types of every chunk reachable from ``t``'s tiled form."""
    from mars_on_ray.core.graph import topo_order

    return {type(c.op) for c in topo_order(LocalExecutor().tile(t.data).flat)}


@pytest.mark.parametrize("axes", [None, (0, 1, 2), (2, 0, 1), (1, 2, 0), (-1, 0, -2)])
def test_transpose(axes):
    t = mt.tensor(X3, chunk_size=(1, 2, 3))
    assert_eq(mt.transpose(t, axes), np.transpose(X3, axes))
    assert_eq(t.transpose(axes), X3.transpose(axes))


def test_transpose_star_args_and_T():
    x = np.arange(35).reshape(5, 7)
    t = mt.tensor(x, chunk_size=3)
    assert_eq(t.T, x.T)
    assert_eq(mt.tensor(X3, chunk_size=2).transpose(2, 1, 0), X3.transpose(2, 1, 0))


@pytest.mark.parametrize("axes", [(0, 1), (0, 0, 1), (0, 1, 3)])
def test_transpose_bad_axes_raise_like_numpy(axes):
    t = mt.tensor(X3, chunk_size=2)
    with pytest.raises(ValueError) as expected:
        X3.transpose(axes)
    with pytest.raises(type(expected.value)):
        t.transpose(axes)


def test_swapaxes():
    t = mt.tensor(X3, chunk_size=(1, 2, 3))
    assert_eq(mt.swapaxes(t, 0, 2), np.swapaxes(X3, 0, 2))
    assert_eq(mt.swapaxes(t, -1, 1), np.swapaxes(X3, -1, 1))
    with pytest.raises(np.exceptions.AxisError):
        mt.swapaxes(t, 0, 3)


RESHAPES = [
    ((24,), 5, (2, 3, 4)),
    ((24,), 7, (4, -1)),
    ((4, 6), (3, 4), (24,)),
    ((4, 6), (3, 4), (6, 4)),
    ((4, 6), (2, 6), (2, 2, 6)),
    ((6, 35), (4, 10), (10, 21)),
    ((2, 3, 4), (1, 2, 3), (6, 4)),
    ((2, 3, 4), (1, 2, 3), (2, 12)),
    ((2, 3, 4), (2, 2, 2), (4, 3, 2)),
    ((1, 12), (1, 5), (12,)),
    ((12,), 5, (1, 12, 1)),
    ((3, 1, 4), (2, 1, 3), (3, 4)),
    ((3, 4), (2, 3), (3, 1, 4, 1)),
    ((5, 7), 3, (7, 5)),
    ((1,), 1, ()),
    ((0, 4), 2, (2, 0)),
]


@pytest.mark.parametrize("shape, chunks, newshape", RESHAPES)
def test_reshape(shape, chunks, newshape):
    x = np.arange(int(np.prod(shape)), dtype="i8").reshape(shape)
    t = mt.tensor(x, chunk_size=chunks)
    assert_eq(t.reshape(newshape), x.reshape(newshape))
    assert_eq(mt.reshape(t, newshape), np.reshape(x, newshape))


def test_reshape_of_scalar_tensor():
    t = mt.tensor(np.float64(3.5))
    assert_eq(t.reshape(1, 1), np.float64(3.5).reshape(1, 1))


def test_reshape_star_shape_and_ravel():
    t = mt.tensor(X3, chunk_size=2)
    assert_eq(t.reshape(4, 6), X3.reshape(4, 6))
    assert_eq(t.reshape(-1, 2), X3.reshape(-1, 2))
    assert_eq(mt.ravel(t), X3.ravel())


def test_reshape_random_shapes_match_numpy():
    rng = np.random.default_rng(0)
    for _ in range(25):
        shape = tuple(int(s) for s in rng.integers(1, 6, size=rng.integers(1, 4)))
        x = np.arange(int(np.prod(shape))).reshape(shape)
        chunks = tuple(int(rng.integers(1, s + 1)) for s in shape)
        factors = [d for d in range(1, x.size + 1) if x.size % d == 0]
        a = int(rng.choice(factors))
        newshape = (a, -1) if rng.random() < 0.5 else (x.size // a, a, 1)
        assert_eq(mt.tensor(x, chunk_size=chunks).reshape(newshape), x.reshape(newshape))


@pytest.mark.parametrize("newshape", [(5, 5), (7, -1), (-1, -1), (-2, -1)])
def test_reshape_bad_shape_raises_value_error_at_build(newshape):
    t = mt.tensor(X3, chunk_size=2)
    with pytest.raises(ValueError):
        X3.reshape(newshape)
    with pytest.raises(ValueError):
        t.reshape(newshape)


def test_reshape_chunkwise_does_not_rechunk():
    x = np.arange(48).reshape(4, 12)
    t = mt.tensor(x, chunk_size=(2, 12))
    assert RechunkChunk not in _ops(t.reshape(2, 2, 3, 4))
    assert RechunkChunk not in _ops(t.reshape(48))
    assert RechunkChunk not in _ops(mt.tensor(x, chunk_size=(1, 5)).reshape(4, 12, 1))
    assert RechunkChunk in _ops(mt.tensor(x, chunk_size=(2, 5)).reshape(48))


def test_reshape_result_chunk_reads_one_band_of_input_chunks():
    t = mt.ones((1000, 1000), chunk_size=100)
    tiled = LocalExecutor().tile(t.reshape(10_000, 100).data)
    assert tiled.nsplits == ((1000,) * 10, (100,))
    assert all(len(c.inputs[0].inputs) == 10 for c in tiled.flat)


def test_reshape_bands_are_cut_to_the_chunk_limit(monkeypatch):
    from mars_on_ray.config import options

    monkeypatch.setattr(options, "chunk_store_limit", 8 * 12 * 2)  # two rows of 12 float64
    x = np.arange(96.).reshape(8, 12)
    r = mt.tensor(x, chunk_size=(5, 5)).reshape(-1, 4)
    assert LocalExecutor().tile(r.data).nsplits == ((6, 6, 3, 6, 3), (4,))  # rows (2, 2, 1, 2, 1)
    assert_eq(r, x.reshape(-1, 4))


def test_reshape_fused_equals_unfused():
    x = np.arange(60.).reshape(5, 12)
    r = (mt.tensor(x, chunk_size=(2, 5)).reshape(6, 10)).T.reshape(-1)
    fused = LocalExecutor().compute(r.data)[0]
    unfused = LocalExecutor(fusion=False).compute(r.data)[0]
    np.testing.assert_array_equal(fused, x.reshape(6, 10).T.reshape(-1))
    np.testing.assert_array_equal(unfused, fused)


@pytest.mark.parametrize("shape", [(6, 4), (4, -1), (24,), (2, 3, 2, 2)])
def test_reshape_in_fortran_order_matches_numpy(shape):
    t = mt.tensor(X3, chunk_size=(1, 2, 3))
    assert_eq(t.reshape(shape, order="F"), X3.reshape(shape, order="F"))
    assert_eq(mt.ravel(t, order="F"), np.ravel(X3, order="F"))
    assert_eq(t.reshape(shape, order="A"), X3.reshape(shape, order="A"))
    with pytest.raises(ValueError):
        t.reshape(shape, order="X")


def test_squeeze_and_expand_dims():
    x = np.arange(12.).reshape(1, 3, 1, 4)
    t = mt.tensor(x, chunk_size=2)
    assert_eq(mt.squeeze(t), np.squeeze(x))
    assert_eq(mt.squeeze(t, axis=2), np.squeeze(x, axis=2))
    assert_eq(mt.squeeze(t, axis=(0, -2)), np.squeeze(x, axis=(0, -2)))
    with pytest.raises(ValueError):
        mt.squeeze(t, axis=1)
    assert_eq(mt.expand_dims(t, 0), np.expand_dims(x, 0))
    assert_eq(mt.expand_dims(t, (1, -1)), np.expand_dims(x, (1, -1)))
    with pytest.raises(np.exceptions.AxisError):
        mt.expand_dims(t, 6)
