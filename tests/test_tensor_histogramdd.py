"""histogramdd / histogram2d vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(10)
S = RS.rand(13, 3)
W = RS.rand(13)


@pytest.mark.parametrize("kw", [{}, {"bins": 4}, {"bins": (2, 3, 4)},
                                {"bins": [np.array([0, .3, 1]), 3, np.linspace(0, 1, 5)]},
                                {"range": [(0, 1), (0.2, 0.8), (0, 2)]}, {"density": True},
                                {"weights": W}, {"weights": W, "density": True, "bins": 3}])
def test_histogramdd_like_numpy(kw):
    ours = dict(kw)
    if "weights" in ours:
        ours["weights"] = mt.tensor(W, chunk_size=5)
    hist, edges = mt.histogramdd(mt.tensor(S, chunk_size=4), **ours)
    expected, expected_edges = np.histogramdd(S, **kw)
    assert_eq(hist, expected)
    assert len(edges) == len(expected_edges)
    for got, want in zip(edges, expected_edges):
        assert_eq(got, want)


@pytest.mark.parametrize("kw", [{}, {"bins": 5}, {"bins": [3, 4]}, {"bins": np.linspace(0, 1, 4)},
                                {"density": True}, {"range": [[0, 0.5], [0, 2]]}])
def test_histogram2d_like_numpy(kw):
    x, y = S[:, 0], S[:, 1]
    got = mt.histogram2d(mt.tensor(x, chunk_size=4), mt.tensor(y, chunk_size=3), **kw)
    for g, w in zip(got, np.histogram2d(x, y, **kw)):
        assert_eq(g, w)


def test_histogramdd_edge_inputs():
    nan = S.copy()
    nan[3, 1] = np.nan  # outside every bin, like NumPy with an explicit range
    hist, _ = mt.histogramdd(mt.tensor(nan, chunk_size=4), range=[(0, 1)] * 3)
    assert_eq(hist, np.histogramdd(nan, range=[(0, 1)] * 3)[0])
    same = np.ones((5, 2))  # one value: NumPy widens the range by 0.5 each side
    assert_eq(mt.histogramdd(mt.tensor(same, chunk_size=2))[0], np.histogramdd(same)[0])
    empty = np.zeros((0, 2))
    assert_eq(mt.histogramdd(mt.tensor(empty))[0], np.histogramdd(empty)[0])
    t = mt.tensor(S, chunk_size=4)
    sel = S[S[:, 0] > 0.5]
    assert_eq(mt.histogramdd(t[t[:, 0] > 0.5], bins=3)[0], np.histogramdd(sel, bins=3)[0])
    assert_eq(mt.histogramdd(mt.tensor(S[:, 0], chunk_size=4))[0], np.histogramdd(S[:, 0])[0])


def test_histogramdd_errors_like_numpy():
    t = mt.tensor(S, chunk_size=4)
    with pytest.raises(ValueError):
        mt.histogramdd(t, bins=(2, 3))
    with pytest.raises(ValueError):
        mt.histogramdd(t, bins=0)
    with pytest.raises(ValueError):
        mt.histogramdd(t, bins=[np.array([1, 0]), 2, 2])
    with pytest.raises(ValueError):
        mt.histogramdd(t, range=[(0, 1)])
    with pytest.raises(ValueError):
        mt.histogramdd(mt.tensor(np.array([[np.nan, 1.0]])))
    with pytest.raises(ValueError):
        mt.histogram2d(mt.tensor(S[:, 0]), S[:5, 1])
