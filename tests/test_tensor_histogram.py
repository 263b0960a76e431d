"""searchsorted, digitize, bincount, histogram, histogram_bin_edges against NumPy."""
import warnings

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(3)
X = RS.randn(101)
XI = RS.randint(0, 30, size=57)
# NumPy itself warns here (Stone's bound reached, zero spread in Doane's estimator)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


def compute(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(side):
    a = np.sort(np.concatenate([X, X[:10], [np.nan, np.nan]]))
    ta = mt.tensor(a, chunk_size=10)
    v = np.array([[-1, 0.5, np.nan], [a[5], a[50], a[9]]])
    assert_eq(mt.searchsorted(ta, v, side=side), np.searchsorted(a, v, side=side))
    assert_eq(mt.searchsorted(ta, mt.tensor(v, chunk_size=2), side=side),
              np.searchsorted(a, v, side=side))
    assert_eq(mt.searchsorted(ta, 0.25, side=side), np.searchsorted(a, 0.25, side=side))
    order = np.argsort(X)
    assert_eq(mt.searchsorted(mt.tensor(X, chunk_size=13), v, side=side, sorter=order),
              np.searchsorted(X, v, side=side, sorter=order))
    assert_eq(mt.tensor(a, chunk_size=7).searchsorted([0.0, 1.0], side=side),
              a.searchsorted([0.0, 1.0], side=side))
    empty = np.array([], dtype=float)
    assert_eq(mt.searchsorted(mt.tensor(empty), [1.0], side=side), np.searchsorted(empty, [1.0], side=side))


def test_searchsorted_errors():
    with pytest.raises(ValueError):
        mt.searchsorted(mt.tensor(np.ones((2, 2))), 1)
    with pytest.raises(ValueError):
        mt.searchsorted(mt.tensor(X), 1, side="middle")
    with pytest.raises(ValueError):
        mt.searchsorted(mt.tensor(X), 1, sorter=np.arange(3))


@pytest.mark.parametrize("right", [False, True])
def test_digitize(right):
    t = mt.tensor(X.reshape(1, -1), chunk_size=(1, 13))
    for bins in ([-1, 0, 1], [1.5, 0, -0.5], [0.0], np.array([-2, -1, 0, 0.5])):
        assert_eq(mt.digitize(t, bins, right=right), np.digitize(X.reshape(1, -1), bins, right=right))
    assert_eq(mt.digitize(t, mt.tensor([-1, 0, 1], chunk_size=2), right=right),
              np.digitize(X.reshape(1, -1), [-1, 0, 1], right=right))
    assert_eq(mt.digitize(mt.tensor(XI, chunk_size=9), [3, 10], right=right),
              np.digitize(XI, [3, 10], right=right))


def test_digitize_errors():
    t = mt.tensor(X, chunk_size=13)
    with pytest.raises(ValueError):
        mt.digitize(t, [0, 2, 1])
    with pytest.raises(ValueError):
        mt.digitize(t, [[0, 1]])
    with pytest.raises(TypeError):
        mt.digitize(mt.tensor(X.astype(complex)), [0, 1])


def test_bincount():
    t = mt.tensor(XI, chunk_size=10)
    assert_eq(mt.bincount(t), np.bincount(XI))
    assert_eq(mt.bincount(t, minlength=50), np.bincount(XI, minlength=50))
    w = X[:57]
    assert_eq(mt.bincount(t, weights=mt.tensor(w, chunk_size=7)), np.bincount(XI, w))
    assert_eq(mt.bincount(t, weights=w.astype(np.float32), minlength=3),
              np.bincount(XI, w.astype(np.float32), minlength=3))
    small = np.array([0, 0, 5], dtype=np.uint8)
    assert_eq(mt.bincount(mt.tensor(small, chunk_size=1)), np.bincount(small))
    empty = np.array([], dtype=np.intp)
    assert_eq(mt.bincount(mt.tensor(empty), minlength=4), np.bincount(empty, minlength=4))


def test_bincount_errors():
    with pytest.raises(TypeError):
        mt.bincount(mt.tensor(X))
    with pytest.raises(ValueError):
        mt.bincount(mt.tensor(np.ones((2, 2), dtype=int)))
    with pytest.raises(ValueError):
        mt.bincount(mt.tensor(XI), weights=np.ones(3))
    with pytest.raises(ValueError):
        mt.bincount(mt.tensor(XI), minlength=-1)
    with pytest.raises(ValueError):
        compute(mt.bincount(mt.tensor(np.array([1, -1, 2]), chunk_size=2)))


@pytest.mark.parametrize("bins", [10, 3, [-2, -1, 0, 0.5, 3], *ESTIMATORS])
@pytest.mark.parametrize("range_", [None, (-1, 2)])
@pytest.mark.parametrize("density", [None, True])
def test_histogram(bins, range_, density):
    t = mt.tensor(X, chunk_size=13)
    counts, edges = mt.histogram(t, bins=bins, range=range_, density=density)
    want_counts, want_edges = np.histogram(X, bins=bins, range=range_, density=density)
    assert_eq(edges, want_edges)
    assert_eq(counts, want_counts)
    assert_eq(mt.histogram_bin_edges(t, bins=bins, range=range_),
              np.histogram_bin_edges(X, bins=bins, range=range_))


@pytest.mark.parametrize("bins", [10, 1, *ESTIMATORS])
def test_histogram_integers_and_2d(bins):
    x = XI.reshape(3, 19)
    counts, edges = mt.histogram(mt.tensor(x, chunk_size=(2, 5)), bins=bins)
    want_counts, want_edges = np.histogram(x, bins=bins)
    assert_eq(edges, want_edges)
    assert_eq(counts, want_counts)
    constant = np.full(9, 4, dtype=np.int16)
    for got, want in zip(mt.histogram(mt.tensor(constant, chunk_size=4), bins=bins),
                         np.histogram(constant, bins=bins)):
        assert_eq(got, want)


def test_histogram_weights():
    t = mt.tensor(X, chunk_size=13)
    for w in (X, np.arange(101), np.arange(101).astype(np.float32)):
        for density in (None, True):
            got = mt.histogram(t, bins=7, weights=mt.tensor(w, chunk_size=5), density=density)
            want = np.histogram(X, bins=7, weights=w, density=density)
            assert_eq(got[0], want[0])
            assert_eq(got[1], want[1])


def test_histogram_edge_cases():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        empty = np.array([], dtype=float)
        for bins in (5, "auto", [0, 1, 2]):
            for got, want in zip(mt.histogram(mt.tensor(empty), bins=bins), np.histogram(empty, bins=bins)):
                assert_eq(got, want)
        t = mt.tensor(X, chunk_size=13)
        filtered = t[t > 0]
        for got, want in zip(mt.histogram(filtered, bins="fd"), np.histogram(X[X > 0], bins="fd")):
            assert_eq(got, want)
        nan = X.copy()
        nan[3] = np.nan
        with pytest.raises(ValueError):
            compute(mt.histogram(mt.tensor(nan, chunk_size=13))[1])
        got = mt.histogram(mt.tensor(nan, chunk_size=13), range=(0, 1))
        want = np.histogram(nan, range=(0, 1))
        assert_eq(got[0], want[0])


def test_histogram_errors():
    t = mt.tensor(X, chunk_size=13)
    with pytest.raises(ValueError):
        mt.histogram(t, bins=0)
    with pytest.raises(TypeError):
        mt.histogram(t, bins=2.5)
    with pytest.raises(ValueError):
        mt.histogram(t, bins=[[1, 2]])
    with pytest.raises(ValueError):
        mt.histogram(t, bins=[3, 1, 2])
    with pytest.raises(ValueError):
        mt.histogram(t, bins="bogus")
    with pytest.raises(TypeError):
        mt.histogram(t, bins="auto", weights=X)
    with pytest.raises(ValueError):
        mt.histogram(t, range=(2, 1))
    with pytest.raises(ValueError):
        mt.histogram(t, weights=np.ones(3))


def test_histogram_of_booleans_counts_them_as_uint8():
    b = X > 0.3
    with pytest.warns(RuntimeWarning):
        got = mt.histogram(mt.tensor(b, chunk_size=13), bins=3)
    want = np.histogram(b, bins=3)
    assert_eq(got[0], want[0])
    assert_eq(got[1], want[1])
