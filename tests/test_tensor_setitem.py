"""t[index] = value and mt.put against NumPy: scalars, arrays, lazy tensors, masks, index lists."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from learn_support import local_session  # noqa: F401  (in-process session fixture)
from mars_on_ray.testing import assert_eq

X = np.arange(6 * 4 * 5, dtype="f8").reshape(6, 4, 5)
ROWS = X[:, 0, 0] > 30  # rows 2..5

CASES = {
    "int": (2, 7.0),
    "slice": (slice(1, 5), -1.0),
    "slice and int, array value": ((slice(1, 5), 2), np.arange(20.0).reshape(4, 5)),
    "negative steps": ((slice(None, None, -2), slice(3, 0, -1)), np.arange(15.0).reshape(3, 5)),
    "two arrays": (([0, 2, 5], [1, 3, 0]), np.arange(15.0).reshape(3, 5)),
    "arrays apart, scalar": (([0, 2, 5], slice(None), [1, 3, 0]), 9.5),
    "arrays apart, array": (([0, 2], slice(1, 3), [1, 4]), np.arange(4.0).reshape(2, 2)),
    "repeated index: last wins": (([1, 4, 1, 1],), np.arange(80.0).reshape(4, 4, 5)),
    "mask, scalar": ((X > 50,), 0.0),
    "mask, one value per True": ((X > 100,), np.arange(19.0)),
    "row mask, trailing value": ((ROWS,), np.arange(5.0)),
    "row mask, one block per row": ((ROWS,), np.arange(80.0).reshape(4, 4, 5)),
    "None in the index": ((None, 1, [0, 2]), np.array([[1.0, 2, 3, 4, 5]])),
    "ellipsis": ((Ellipsis, [0, 4]), 3.0),
    "broadcast row": ((slice(None), 1), np.arange(5.0)),
    "float into float, int value": ((0,), 2),
    "2-d index array": ((np.array([[0, 5], [3, 3]]), 1, 2), np.array([[1.0, 2], [3, 4]])),
    "empty index": (([],), 5.0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_setitem_matches_numpy(name):
    index, value = CASES[name]
    t, expected = mt.tensor(X, chunk_size=(4, 3, 2)), X.copy()
    t[index] = value
    expected[index] = value
    assert_eq(t, expected)


def test_setitem_casts_as_numpy():
    data = np.arange(10, dtype=np.int32)
    t, expected = mt.tensor(data, chunk_size=3), data.copy()
    t[2:5] = 2.7
    expected[2:5] = 2.7
    t[[0, 9]] = np.array([1.9, -3.5])
    expected[[0, 9]] = np.array([1.9, -3.5])
    assert_eq(t, expected)


def test_random_assignments_match_numpy():
    rng = np.random.default_rng(5)
    t, expected = mt.tensor(X, chunk_size=(4, 3, 2)), X.copy()
    for _ in range(12):
        rows = rng.integers(-6, 6, size=3)
        cols = slice(int(rng.integers(0, 3)), None, int(rng.choice([1, 2, -1])))
        index = (rows, cols, int(rng.integers(0, 5)))
        value = rng.random(expected[index].shape)
        t[index] = value
        expected[index] = value
    assert_eq(t, expected)


def test_setitem_keeps_untouched_chunks():
    t = mt.tensor(X, chunk_size=(2, 4, 5))
    before = t.data
    t[0, 0, 0] = -1.0
    from mars_on_ray.core.tiling import TileContext, tile_graph
    from mars_on_ray.core.graph import topo_order

    ctx = TileContext()
    for _ in tile_graph(topo_order([t.data]), ctx):
        raise AssertionError("no real shape is needed")
    assert sum(c is d for c, d in zip(ctx[t.data].flat, ctx[before].flat)) == 2


def test_lazy_index_and_lazy_value():
    t, expected = mt.tensor(X, chunk_size=(4, 3, 2)), X.copy()
    t[mt.tensor(np.array([0, 3]), chunk_size=1), 1] = mt.tensor(np.arange(10.0).reshape(2, 5), chunk_size=2)
    expected[[0, 3], 1] = np.arange(10.0).reshape(2, 5)
    assert_eq(t, expected)
    t[mt.tensor(X, chunk_size=3) > 60] = mt.tensor(np.arange(59.0), chunk_size=7)
    expected[X > 60] = np.arange(59.0)
    assert_eq(t, expected)
    t[mt.tensor(ROWS, chunk_size=4)] = mt.arange(5.0, chunk_size=2)
    expected[ROWS] = np.arange(5.0)
    assert_eq(t, expected)


def test_a_tensor_reads_its_value_before_it_is_changed():
    t = mt.tensor(X, chunk_size=3)
    t[0] = t[1] * 10
    expected = X.copy()
    expected[0] = X[1] * 10
    assert_eq(t, expected)


@pytest.mark.parametrize("index, value, error", [
    (slice(0, 2), np.ones(3), ValueError),
    (([0, 1],), np.ones(3), ValueError),
    (([0, 1], [1, 2]), np.ones((2, 2)), ValueError),
    (([0, 7],), 1.0, IndexError),
    ((0, "a"), 1.0, IndexError),
], ids=["basic broadcast", "fancy broadcast", "two arrays broadcast", "out of bounds", "bad index"])
def test_bad_assignment_raises_numpy_error(index, value, error):
    with pytest.raises(error) as expected:
        X.copy()[index] = value
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(error) as actual:
        t[index] = value
    assert str(actual.value).split(" [")[0] == str(expected.value).split(" [")[0]


def test_overflowing_value_raises_overflow_error():
    with pytest.raises(OverflowError):
        np.zeros(3, np.uint8)[0] = 300
    t = mt.tensor(np.zeros(3, np.uint8))
    with pytest.raises(OverflowError):
        t[0] = 300


def test_mask_value_count_mismatch_raises_value_error_when_run(local_session):
    t = mt.tensor(X, chunk_size=3)
    t[mt.tensor(X, chunk_size=3) > 100] = mt.tensor(np.arange(5.0))
    with pytest.raises(ValueError):
        t.execute()


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_matches_numpy(mode):
    data = np.arange(24).reshape(4, 6)
    ind = [1, -1, 5, 5] if mode == "raise" else [1, -1, 30, -40]
    a, expected = mt.tensor(data, chunk_size=(3, 4)), data.copy()
    mt.put(a, ind, [7, 8, 9], mode=mode)
    np.put(expected, ind, [7, 8, 9], mode=mode)
    assert_eq(a, expected)


def test_put_with_lazy_indices_and_method():
    data = np.arange(24.0)
    a, expected = mt.tensor(data, chunk_size=5), data.copy()
    a.put(mt.tensor(np.array([3, 20, -2]), chunk_size=2), mt.tensor(np.array([1.5, 2.5, 3.5])))
    np.put(expected, [3, 20, -2], [1.5, 2.5, 3.5])
    assert_eq(a, expected)


def test_put_bad_input_raises_numpy_error():
    a = mt.tensor(np.arange(5))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        mt.put(a, [7], 1)
    with pytest.raises(ValueError):
        mt.put(a, [0], 1, mode="bad")
    with pytest.raises(TypeError):
        mt.put(np.arange(3), [0], 1)


def test_assigning_into_a_copy_leaves_the_original():
    t = mt.tensor(X, chunk_size=3)
    changed = X.copy()
    changed[0] = -1.0
    for other in (t.copy(), mt.copy(t), mt.array(t)):
        other[0] = -1.0
        assert_eq(t, X)
        assert_eq(other, changed)
    same = mt.asarray(t)  # NumPy's asarray returns the array itself
    same[0, 0, 0] = -7.0
    assert t is same


@pytest.mark.parametrize("index, value", [(slice(2, 30, 3), 5.0), ([0, 7, 119], [1.0, 2.0, 3.0]),
                                          (slice(None), [1.0, 2.0]), (np.arange(10), np.arange(3.0))],
                         ids=["slice scalar", "list", "values repeated", "values repeated over list"])
def test_flat_assignment_matches_numpy(index, value):
    t, expected = mt.tensor(X, chunk_size=(4, 3, 2)), X.copy()
    t.flat[index] = value
    expected.flat[index] = value
    assert_eq(t, expected)
    assert_eq(t.flat[index], expected.flat[index])
