"""t[index]: basic indexing, boolean masks and integer arrays against NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

X = np.arange(7 * 9 * 4, dtype="f8").reshape(7, 9, 4)

BASIC = [
    0, -1, 6, (2, 3), (-7, -9, -4), slice(None), slice(2, 5), slice(1, None, 2),
    slice(None, None, -1), slice(None, None, -3), slice(5, 1, -2), slice(-100, 100),
    slice(100, 200), slice(3, 3), slice(5, 2), (slice(None), 4), (Ellipsis, 1),
    (1, Ellipsis), (None, 2), (slice(1, 6, 2), None, slice(None, None, -4), 3),
    (Ellipsis, None), (None, Ellipsis, None), (np.int64(2), slice(0, 9, 4), np.int32(-1)),
    (slice(6, None, -5), slice(8, 0, -3)), (4, Ellipsis, slice(1, 3), None), (),
]


@pytest.mark.parametrize("index", BASIC, ids=repr)
def test_basic_indexing(index):
    t = mt.tensor(X, chunk_size=(3, 4, 3))
    assert_eq(t[index], X[index])


def test_basic_indexing_random_slices_match_numpy():
    rng = np.random.default_rng(1)
    t = mt.tensor(X, chunk_size=(2, 4, 3))
    for _ in range(60):
        index = []
        for n in X.shape:
            kind = rng.integers(3)
            if kind == 0:
                index.append(int(rng.integers(-n, n)))
            else:
                lo, hi = rng.integers(-n - 2, n + 2, size=2)
                step = int(rng.choice([-3, -2, -1, 1, 2, 3]))
                index.append(slice(int(lo), int(hi), step))
        assert_eq(t[tuple(index)], X[tuple(index)])


def test_slicing_keeps_only_needed_chunks():
    t = mt.ones((1000, 1000), chunk_size=100)
    part = t[5:10, 150:250]
    tiled = LocalExecutor().tile(part.data)
    sources = [c for c in topo_order(tiled.flat) if not c.inputs]
    assert tiled.nsplits == ((5,), (50, 50))
    assert len(sources) == 2
    ex = LocalExecutor()
    np.testing.assert_array_equal(ex.compute(part.data)[0], np.ones((5, 100)))
    assert len(ex.values) < 10


@pytest.mark.parametrize("index", [7, -8, (0, 9), (0, 0, 4), (0, 0, 0, 0), (Ellipsis, Ellipsis),
                                   1.5, "a", (0, 1.0)], ids=repr)
def test_bad_index_raises_index_error_at_build(index):
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(IndexError):
        X[index]
    with pytest.raises(IndexError):
        t[index]


def test_index_on_zero_length_axis():
    x = np.zeros((0, 3))
    t = mt.tensor(x, chunk_size=2)
    assert_eq(t[:, 1], x[:, 1])
    assert_eq(t[::-1], x[::-1])
    with pytest.raises(IndexError):
        t[0]


def test_indexing_fused_equals_unfused():
    t = mt.tensor(X, chunk_size=(3, 4, 3))
    r = t[1:, ::-2][:, 1, None][::2]
    expected = X[1:, ::-2][:, 1, None][::2]
    np.testing.assert_array_equal(LocalExecutor().compute(r.data)[0], expected)
    np.testing.assert_array_equal(LocalExecutor(fusion=False).compute(r.data)[0], expected)


# --- boolean masks --------------------------------------------------------------------------

@pytest.mark.parametrize("mask_ndim", [1, 2, 3])
@pytest.mark.parametrize("mask_chunks", [None, 2, (5, 4, 1)])
def test_boolean_mask_tensor(mask_ndim, mask_chunks):
    rng = np.random.default_rng(mask_ndim)
    m = rng.random(X.shape[:mask_ndim]) > 0.4
    t = mt.tensor(X, chunk_size=(3, 4, 3))
    chunks = mask_chunks[:mask_ndim] if isinstance(mask_chunks, tuple) else mask_chunks
    r = t[mt.tensor(m, chunk_size=chunks)]
    assert np.isnan(r.shape[0]) and r.shape[1:] == X[m].shape[1:]
    assert_eq(r, X[m])


def test_boolean_mask_ndarray_and_list():
    x = np.arange(10.)
    t = mt.tensor(x, chunk_size=3)
    m = x % 3 == 0
    assert_eq(t[m], x[m])
    assert_eq(t[m.tolist()], x[m])


def test_boolean_mask_all_false_and_all_true():
    t = mt.tensor(X, chunk_size=4)
    none = np.zeros(X.shape, dtype=bool)
    assert_eq(t[mt.tensor(none, chunk_size=3)], X[none])
    assert_eq(t[np.ones(7, dtype=bool)], X[np.ones(7, dtype=bool)])


def test_boolean_mask_bands_are_cut_to_the_chunk_limit(monkeypatch):
    from mars_on_ray.config import options

    monkeypatch.setattr(options, "chunk_store_limit", 400)  # 400 bytes: about one row of X
    m = X > 40
    t = mt.tensor(X, chunk_size=(3, 4, 3))
    r = t[mt.tensor(m, chunk_size=2)]
    assert LocalExecutor().tile(r.data).chunks.shape[0] == 7
    assert_eq(r, X[m])


def test_boolean_mask_chunks_have_unknown_shape():
    t = mt.tensor(X, chunk_size=3)
    tiled = LocalExecutor().tile(t[X > 3].data)
    assert all(np.isnan(c.shape[0]) for c in tiled.flat)


def test_boolean_mask_shape_mismatch_raises_index_error():
    t = mt.tensor(X, chunk_size=3)
    for bad in (np.ones(6, dtype=bool), np.ones((7, 8), dtype=bool), np.ones((7, 9, 4, 1), dtype=bool)):
        with pytest.raises(IndexError):
            X[bad]
        with pytest.raises(IndexError):
            t[bad]


M0, M1, M2, ML = X[:, 0, 0] % 2 == 0, X[0, :, 0] % 3 == 0, X[0] % 3 == 0, X[0, 0] > 1
MIXED_MASKS = [(slice(None), M1), (M0, slice(1, 3)), (M0, None), (Ellipsis, ML), (slice(None), M2),
               (M0, Ellipsis, 1), (slice(None), M1, slice(None, None, -2)), (M0, slice(None), ML)]


@pytest.mark.parametrize("index", range(len(MIXED_MASKS)))
def test_boolean_mask_with_slices(index):
    t = mt.tensor(X, chunk_size=(3, 4, 3))
    index = MIXED_MASKS[index]
    try:
        expected = X[index]
    except IndexError:  # two masks whose nonzero() arrays do not broadcast
        with pytest.raises(IndexError):
            t[index]
        return
    assert_eq(t[index], expected)


@pytest.mark.parametrize("index", [(Ellipsis, M0, Ellipsis), (slice(None), slice(None), M1), (M2, 1, 1)],
                         ids=["two ellipses", "mask on wrong axis", "too many"])
def test_boolean_mask_with_bad_index_raises_index_error(index):
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(IndexError) as expected:
        X[index]
    with pytest.raises(IndexError) as actual:
        t[index]
    assert str(actual.value) == str(expected.value)


# --- integer arrays -------------------------------------------------------------------------

FANCY = [[3, 0, 6, 6, -1], (slice(None), [8, 0, 4]), (Ellipsis, [3, 3, 0]), np.array([], dtype=int),
         (slice(1, 5), [-9, 8]), (None, [1, 2]), np.arange(7)[::-1], (slice(None), np.array([], int))]


@pytest.mark.parametrize("index", FANCY, ids=repr)
def test_integer_array_indexing(index):
    t = mt.tensor(X, chunk_size=(2, 4, 3))
    assert_eq(t[index], X[index])


def test_integer_array_many_indices_random():
    rng = np.random.default_rng(3)
    idx = rng.integers(-9, 9, size=40)
    t = mt.tensor(X, chunk_size=(2, 4, 3))
    assert_eq(t[:, idx], X[:, idx])


def test_integer_array_out_of_bounds_raises_index_error():
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(IndexError):
        X[[0, 7]]
    with pytest.raises(IndexError):
        t[[0, 7]]
    with pytest.raises(IndexError):
        t[np.array([0.5])]
