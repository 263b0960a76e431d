"""learn.neighbors NearestNeighbors against scikit-learn on uneven chunks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import neighbors as skn
from sklearn.base import clone

import mars_on_ray.tensor as mt
from mars_on_ray.learn.neighbors import NearestNeighbors
from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(0)
X = RS.rand(130, 4)
Q = RS.rand(37, 4)


@pytest.mark.parametrize("kw", [{}, {"metric": "manhattan"}, {"p": 3}, {"metric": "cosine"}])
def test_kneighbors_matches_sklearn(local_session, kw):
    ours = NearestNeighbors(n_neighbors=4, **kw).fit(mt.tensor(X, chunk_size=(45, 3)))
    ref = skn.NearestNeighbors(n_neighbors=4, **kw).fit(X)
    for query, args in [(mt.tensor(Q, chunk_size=10), (Q,)), (None, ())]:
        dist, ind = ours.kneighbors(query)
        rdist, rind = ref.kneighbors(*args)
        np.testing.assert_allclose(dist.fetch(), rdist, atol=1e-12)
        got = ind.fetch()
        assert got.dtype == rind.dtype and dist.fetch().dtype == rdist.dtype
        np.testing.assert_array_equal(got, rind)
    np.testing.assert_array_equal(ours.kneighbors(Q, 2, return_distance=False).fetch(),
                                  ref.kneighbors(Q, 2, return_distance=False))


@pytest.mark.parametrize("query", [Q, None], ids=["queries", "self"])
def test_radius_neighbors_matches_sklearn(local_session, query):
    ours = NearestNeighbors(radius=0.3).fit(pd.DataFrame(X))
    ref = skn.NearestNeighbors(radius=0.3).fit(X)
    args = () if query is None else (query,)
    dist, ind = ours.radius_neighbors(*args, sort_results=True)
    rdist, rind = ref.radius_neighbors(*args, sort_results=True)
    got_d, got_i = dist.fetch(), ind.fetch()
    assert got_i.dtype == object and len(got_i) == len(rind)
    for a, b, c, d in zip(got_i, rind, got_d, rdist):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(c, d, atol=1e-12)
    unsorted = ours.radius_neighbors(*args, radius=0.2, return_distance=False).fetch()
    for a, b in zip(unsorted, ref.radius_neighbors(*args, radius=0.2, return_distance=False)):
        assert sorted(a) == sorted(b)


def test_protocol_and_errors(local_session):
    est = NearestNeighbors(n_neighbors=3)
    assert clone(est).get_params() == est.get_params() and est.fit(X) is est
    ref = skn.NearestNeighbors(n_neighbors=3).fit(X)
    for bad in [200, 0, 130]:  # 130: more than the others when X is None
        with pytest.raises(ValueError):
            ref.kneighbors(None if bad == 130 else Q, bad)
        with pytest.raises(ValueError):
            est.kneighbors(None if bad == 130 else Q, bad)
    with pytest.raises(ValueError):
        est.kneighbors(Q[:, :2])
    with pytest.raises(ValueError):
        NearestNeighbors(metric="nope").fit(X)
