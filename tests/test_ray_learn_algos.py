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


def test_scalers_metrics_splits_and_supervised_models_on_ray(session):
    """The scikit-learn pieces added beside Mars' list, once each on Ray."""
    from sklearn import metrics as skm
    from sklearn import model_selection as skms
    from sklearn import preprocessing as skp

    from mars_on_ray.learn.linear_model import LogisticRegression as OurLogistic
    from mars_on_ray.learn.linear_model import Ridge
    from mars_on_ray.learn.metrics import confusion_matrix, mean_squared_error
    from mars_on_ray.learn.model_selection import StratifiedKFold
    from mars_on_ray.learn.neighbors import KNeighborsClassifier
    from mars_on_ray.learn.preprocessing import OneHotEncoder, StandardScaler

    t = mt.tensor(X, chunk_size=(130, 4))
    ours, ref = StandardScaler().fit(t), skp.StandardScaler().fit(X)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=1e-12)
    np.testing.assert_allclose(ours.transform(t).fetch(), ref.transform(X), rtol=1e-10, atol=1e-12)
    codes = (X[:, :2] > 0).astype(int)
    np.testing.assert_array_equal(OneHotEncoder().fit_transform(mt.tensor(codes, chunk_size=70)).fetch(),
                                  skp.OneHotEncoder(sparse_output=False).fit_transform(codes))
    pred = (LABELS + (X[:, 0] > 1)) % 4
    np.testing.assert_array_equal(confusion_matrix(mt.tensor(LABELS, chunk_size=70), pred).fetch(),
                                  skm.confusion_matrix(LABELS, pred))
    assert np.isclose(mean_squared_error(X[:, 0], mt.tensor(X[:, 1], chunk_size=70)).fetch(),
                      skm.mean_squared_error(X[:, 0], X[:, 1]))
    ours_folds = [test for _, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, LABELS)]
    ref_folds = [test for _, test in skms.StratifiedKFold(3, shuffle=True, random_state=0).split(X, LABELS)]
    for a, b in zip(ours_folds, ref_folds):
        np.testing.assert_array_equal(np.asarray(a.fetch() if hasattr(a, "fetch") else a), b)
    knn = KNeighborsClassifier(5).fit(t, LABELS)
    np.testing.assert_array_equal(knn.predict(X[:50]).fetch(),
                                  neighbors.KNeighborsClassifier(5).fit(X, LABELS).predict(X[:50]))
    ridge = Ridge(alpha=2.0).fit(t, X[:, 0] * 3 + 1)
    np.testing.assert_allclose(ridge.coef_, linear_model.Ridge(alpha=2.0).fit(X, X[:, 0] * 3 + 1).coef_,
                               rtol=1e-8)
    logit = OurLogistic(max_iter=200).fit(t, LABELS == 1)
    np.testing.assert_allclose(logit.coef_, LogisticRegression(max_iter=200).fit(X, LABELS == 1).coef_,
                               atol=1e-4)
