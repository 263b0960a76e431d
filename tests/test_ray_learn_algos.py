"""Each learn estimator family once on a local Ray, against scikit-learn."""
from __future__ import annotations

import numpy as np
from sklearn import cluster, decomposition, ensemble, linear_model, neighbors, semi_supervised
from sklearn.datasets import make_blobs
from sklearn.linear_model import LogisticRegression

import mars_on_ray.tensor as mt
from mars_on_ray.learn.cluster import KMeans
from mars_on_ray.learn.decomposition import PCA, TruncatedSVD
from mars_on_ray.learn.ensemble import BaggingClassifier, BlockwiseVotingClassifier, IsolationForest
from mars_on_ray.learn.linear_model import LinearRegression
from mars_on_ray.learn.neighbors import NearestNeighbors
from mars_on_ray.learn.semi_supervised import LabelPropagation

X, LABELS = make_blobs(400, 4, centers=4, random_state=0)
X = X / 4
RS = np.random.RandomState(0)


def test_kmeans_on_ray(session):
    init = X[:4]
    ours = KMeans(4, init=init, max_iter=20).fit(mt.tensor(X, chunk_size=(130, 3)))
    ref = cluster.KMeans(4, init=init, n_init=1, max_iter=20).fit(X)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-10)
    assert ours.n_iter_ == ref.n_iter_
    np.testing.assert_array_equal(ours.predict(X).fetch(), ref.predict(X))
    seeded = KMeans(4, random_state=0).fit(X)  # k-means|| on the workers
    assert seeded.inertia_ <= ref.inertia_ * 1.05


def test_decomposition_on_ray(session):
    data = mt.tensor(X, chunk_size=(130, 4))
    for solver in ("full", "randomized"):
        ours = PCA(2, svd_solver=solver, random_state=0).fit(data)
        ref = decomposition.PCA(2, svd_solver=solver, random_state=0).fit(X)
        np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)
        np.testing.assert_allclose(ours.transform(data).fetch(), ref.transform(X), atol=1e-9)
    ours = TruncatedSVD(2, random_state=0).fit(data)
    ref = decomposition.TruncatedSVD(2, random_state=0).fit(X)
    np.testing.assert_allclose(ours.explained_variance_, ref.explained_variance_, rtol=1e-9)


def test_linear_regression_on_ray(session):
    y = X @ RS.randn(4) + 1.5
    ours = LinearRegression().fit(mt.tensor(X, chunk_size=130), y)
    ref = linear_model.LinearRegression().fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-10)
    np.testing.assert_allclose(ours.predict(X).fetch(), ref.predict(X), atol=1e-9)


def test_neighbors_and_label_propagation_on_ray(session):
    ours = NearestNeighbors(n_neighbors=3).fit(mt.tensor(X, chunk_size=130))
    ref = neighbors.NearestNeighbors(n_neighbors=3).fit(X)
    dist, ind = ours.kneighbors(X[:50])
    rdist, rind = ref.kneighbors(X[:50])
    np.testing.assert_array_equal(ind.fetch(), rind)
    np.testing.assert_allclose(dist.fetch(), rdist, atol=1e-7)  # a point to itself: 0 vs ~6e-8 (sqrt of rounding)
    got = ours.radius_neighbors(X[:20], radius=0.2, return_distance=False).fetch()
    for a, b in zip(got, ref.radius_neighbors(X[:20], radius=0.2, return_distance=False)):
        assert sorted(a) == sorted(b)
    partial = LABELS.copy()
    partial[RS.rand(len(X)) < 0.8] = -1
    lp = LabelPropagation(kernel="knn").fit(mt.tensor(X, chunk_size=130), partial)
    ref_lp = semi_supervised.LabelPropagation(kernel="knn").fit(X, partial)
    assert lp.n_iter_ == ref_lp.n_iter_
    np.testing.assert_array_equal(lp.transduction_.fetch(), ref_lp.transduction_)


def test_ensemble_on_ray(session):
    data = mt.tensor(X, chunk_size=(130, 4))
    bag = BaggingClassifier(n_estimators=3, random_state=0).fit(data, LABELS)
    ref = ensemble.BaggingClassifier(n_estimators=3, random_state=0).fit(X, LABELS)
    assert bag.score(X, LABELS) >= ref.score(X, LABELS) - 0.05
    vote = BlockwiseVotingClassifier(LogisticRegression(), voting="soft").fit(data, LABELS)
    assert len(vote.estimators_) == 4 and (vote.predict(data).fetch() == LABELS).mean() > 0.9
    forest = IsolationForest(n_estimators=20, random_state=0, n_groups=2).fit(data)
    scores = forest.score_samples(data).fetch()
    assert scores.shape == (400,) and (scores < 0).all()
