"""t[index] with integer arrays: several at once, broadcast, mixed with ints / slices / None /
Ellipsis, boolean arrays among them, lazy tensors as indices; against NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from learn_support import local_session  # noqa: F401  (in-process session fixture)
from mars_on_ray.testing import assert_eq

X = np.arange(6 * 4 * 5, dtype="f8").reshape(6, 4, 5)
B0 = (X[:, 0, 0] // 20) % 3 != 1  # rows 0, 2, 3, 5
B01 = X[:, :, 0] > 30

CASES = {
    "two arrays": ([0, 2, 5], [1, 3, 0]),
    "broadcast columns x row": (np.array([[0], [2]]), np.array([1, 3])),
    "arrays apart": ([0, 1], slice(None), [2, 4]),
    "2-d array": np.array([[0, 1], [2, 5]]),
    "int then array": (1, [0, 2]),
    "int, slice, array (apart)": (1, slice(None), [0, 2]),
    "None first": (None, [0, 3], Ellipsis, 1),
    "None between": (slice(None), [0], None, [1]),
    "mask and array": (B0, [0, 1, 2, 3]),
    "mask and broadcast array": (B0, slice(1, 3), [[4], [0]]),
    "negative": ([-1, 0], [-2, 1]),
    "array in the middle": (slice(None), [3, 0, 3], slice(1, 4)),
    "reversed slice, 2-d broadcast": (slice(None, None, -2), [[3], [0]], [1, 4]),
    "0-d arrays only": (np.array(1), 2, 3),
    "empty lists": ([], []),
    "repeated": [5, 5, 0, 5],
    "2-d mask": B01,
    "2-d mask and array": (B01, [1]),
    "last axis": (Ellipsis, [4, 0, 2, 2]),
    "ellipsis between arrays": ([0], Ellipsis, [1]),
    "numpy int types": (np.array([1, 2], dtype=np.uint8), np.array([0, 3], dtype=np.int16)),
    "True": True,
    "False": False,
    "True and an int": (True, 0),
    "int and True": (0, True),
    "ellipsis then True": (Ellipsis, True),
    "slice and False": (slice(1, 3), False),
    "True and an array": (np.True_, [0, 1]),
    "0-d boolean array": np.array(True),
}


@pytest.mark.parametrize("name", list(CASES))
def test_advanced_index_matches_numpy(name):
    t = mt.tensor(X, chunk_size=(4, 3, 2))
    assert_eq(t[CASES[name]], X[CASES[name]])


def _random_index(rng, shape):
    items, axis = [], 0
    while axis < len(shape):
        kind = rng.choice(["array", "array", "int", "slice", "none"])
        if kind == "none":
            items.append(None)
            continue
        n = shape[axis]
        if kind == "array":
            size = [(3,), (2, 1), (1, 3), (1,)][rng.integers(4)]
            items.append(rng.integers(-n, n, size=size))
        elif kind == "int":
            items.append(int(rng.integers(-n, n)))
        else:
            bounds = [None, -3, 0, 1, 4]
            items.append(slice(bounds[rng.integers(5)], bounds[rng.integers(5)], [None, 1, 2, -1][rng.integers(4)]))
        axis += 1
    return tuple(items[:rng.integers(1, len(items) + 1)])


def test_random_mixed_indexes_match_numpy():
    rng = np.random.default_rng(7)
    t = mt.tensor(X, chunk_size=(4, 3, 2))
    seen = 0
    for _ in range(60):
        index = _random_index(rng, X.shape)
        try:
            expected = X[index]
        except IndexError:
            with pytest.raises(IndexError):
                t[index]
            continue
        seen += 1
        assert_eq(t[index], expected, check_chunks=False)
    assert seen > 40


def test_many_points_across_many_chunks():
    rng = np.random.default_rng(1)
    data = rng.random((50, 40))
    rows, cols = rng.integers(0, 50, 3000), rng.integers(-40, 40, 3000)
    assert_eq(mt.tensor(data, chunk_size=(7, 9))[rows, cols], data[rows, cols])


def test_lazy_integer_tensor_indexes():
    t = mt.tensor(X, chunk_size=(4, 3, 2))
    idx = mt.tensor(np.array([0, 5, 2, -1]), chunk_size=3)
    assert_eq(t[idx], X[[0, 5, 2, -1]])
    assert_eq(t[idx, [1]], X[[0, 5, 2, -1], [1]])
    assert_eq(t[1, mt.tensor(np.array([[1], [3]]), chunk_size=1), [0, 4]], X[1, [[1], [3]], [0, 4]])
    # an index computed by the graph: its length is known only when it has run
    picked = mt.flatnonzero(mt.tensor(B0, chunk_size=4))
    assert_eq(t[:, 2][picked], X[:, 2][np.flatnonzero(B0)])


def test_lazy_mask_with_an_integer_or_array():
    t = mt.tensor(X, chunk_size=(4, 3, 2))
    mask = mt.tensor(B0, chunk_size=4)
    assert_eq(t[mask, 2], X[B0, 2])
    assert_eq(t[mask, [2]], X[B0, [2]])


@pytest.mark.parametrize("index", [([0, 1], [0, 1, 2]), ([0, 6], [0, 1]), (slice(None), [0], [9]),
                                   (np.array([1.0]),), (B0[:4], [1]), (["a"],), ([0], [0], [0], [0])],
                         ids=["not broadcastable", "out of bounds", "out of bounds later axis",
                              "float array", "mask too short", "strings", "too many"])
def test_bad_advanced_index_raises_numpy_error(index):
    with pytest.raises(IndexError) as expected:
        X[index]
    with pytest.raises(IndexError) as actual:
        mt.tensor(X, chunk_size=3)[index]
    assert str(actual.value) == str(expected.value)


def test_lazy_index_out_of_bounds_raises_index_error_when_run(local_session):
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(IndexError, match="out of bounds"):
        t[mt.tensor(np.array([0, 9]))].execute()


def test_where_with_one_argument_is_nonzero():
    cond = X % 7 == 0
    got = mt.where(mt.tensor(cond, chunk_size=(4, 3, 2)))
    expected = np.where(cond)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_eq(g, e)
