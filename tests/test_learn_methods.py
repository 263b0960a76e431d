"""predict_proba / decision_function / score / fit_predict / fit_transform / inverse_transform
and the other methods scikit-learn's estimators have, on chunked input, against scikit-learn."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.cluster as skc
import sklearn.decomposition as skd
import sklearn.ensemble as ske
import sklearn.linear_model as sklm
import sklearn.neighbors as skn
from sklearn.base import clone

import mars_on_ray.tensor as mt
from mars_on_ray.learn import cluster, decomposition, ensemble, neighbors
from mars_on_ray.learn import linear_model as lm
from learn_support import local_session  # noqa: F401
from test_learn_estimator_protocol import CASES, CAT, X, YC

# randomised differently from scikit-learn (their own tests compare them), or fitted on ours' draws
RANDOM = ("KMeans", "BaggingClassifier", "BaggingRegressor", "IsolationForest")
DETERMINISTIC = [c for c in CASES if c[1] is not None and type(c[0]).__name__ not in RANDOM]
DETERMINISTIC.append((cluster.KMeans(3, init=X[:3], n_init=1), skc.KMeans(3, init=X[:3], n_init=1), None))
METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function", "score", "score_samples",
           "fit_predict", "fit_transform", "transform", "inverse_transform", "kneighbors")


def _v(out):
    if isinstance(out, (tuple, list)):
        return type(out)(_v(o) for o in out)
    return np.asarray(out.fetch()) if hasattr(out, "fetch") else out


def _call(est, method, Xk, y):
    if method in ("fit_predict", "fit_transform"):
        est = clone(est)
    args = (Xk,) if y is None or method not in ("score", "fit_predict", "fit_transform") else (Xk, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(est, method)(*args)


@pytest.mark.parametrize("ours, sk, y", DETERMINISTIC, ids=[type(c[0]).__name__ for c in DETERMINISTIC])
def test_every_method_scikit_learn_has_matches_it_on_chunked_input(local_session, ours, sk, y):
    categorical = isinstance(y, str)
    Xn, yn = (CAT.to_numpy(), None) if categorical else (X, y)
    Xk = Xn if categorical else mt.tensor(Xn, chunk_size=(10, 3))
    yk = None if yn is None else mt.tensor(yn, chunk_size=9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = clone(ours).fit(Xk) if yk is None else clone(ours).fit(Xk, yk)
    sk = clone(sk).fit(Xn) if yn is None else clone(sk).fit(Xn, yn)
    compared = []
    for method in METHODS:
        if not hasattr(sk, method):
            continue
        assert hasattr(ours, method), method
        if method == "inverse_transform":
            T = sk.transform(Xn)
            got = ours.inverse_transform(T if categorical else mt.tensor(T, chunk_size=7))
            want = sk.inverse_transform(T)
        else:
            got, want = _call(ours, method, Xk, yk), _call(sk, method, Xn, yn)
        got = _v(got)
        if np.asarray(want).dtype.kind in "fc":
            np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=1e-5, atol=1e-7,
                                       err_msg=method)
        else:
            np.testing.assert_array_equal(got, want, err_msg=method)
        assert np.shape(got) == np.shape(want), method
        if hasattr(want, "dtype"):
            assert np.asarray(got).dtype == want.dtype, method
        compared.append(method)
    assert compared


def test_pca_score_samples_score_and_covariance_match_sklearn(local_session):
    data = np.random.RandomState(3).randn(61, 6) @ np.random.RandomState(4).randn(6, 6)
    for whiten in (False, True):
        ours = decomposition.PCA(3, whiten=whiten).fit(mt.tensor(data, chunk_size=(13, 4)))
        ref = skd.PCA(3, whiten=whiten).fit(data)
        np.testing.assert_allclose(ours.get_covariance(), ref.get_covariance(), rtol=1e-8)
        np.testing.assert_allclose(ours.get_precision(), ref.get_precision(), rtol=1e-7)
        got = ours.score_samples(mt.tensor(data, chunk_size=9))
        assert got.dtype == np.float64 and got.shape == (61,)
        np.testing.assert_allclose(got.fetch(), ref.score_samples(data), rtol=1e-8)
        assert ours.score(data) == pytest.approx(ref.score(data), rel=1e-10)


@pytest.mark.parametrize("mode", ["connectivity", "distance"])
def test_kneighbors_graph_and_radius_neighbors_graph_match_sklearn(local_session, mode):
    t = mt.tensor(X, chunk_size=(10, 3))
    ours, ref = neighbors.NearestNeighbors(n_neighbors=4, radius=1.3).fit(t), skn.NearestNeighbors(
        n_neighbors=4, radius=1.3).fit(X)
    for query in (None, X[:17]):
        got, want = ours.kneighbors_graph(query, mode=mode), ref.kneighbors_graph(query, mode=mode)
        assert type(got) is type(want) and got.shape == want.shape
        np.testing.assert_allclose(got.toarray(), want.toarray(), atol=1e-7)
        got = ours.radius_neighbors_graph(query, mode=mode, sort_results=mode == "distance")
        want = ref.radius_neighbors_graph(query, mode=mode, sort_results=mode == "distance")
        assert sp.issparse(got) and got.shape == want.shape and got.nnz == want.nnz
        np.testing.assert_allclose(got.toarray(), want.toarray(), atol=1e-7)
    knn = neighbors.KNeighborsClassifier(3).fit(t, YC).kneighbors_graph(X[:5], mode=mode)
    np.testing.assert_allclose(knn.toarray(), skn.KNeighborsClassifier(3).fit(X, YC).kneighbors_graph(
        X[:5], mode=mode).toarray(), atol=1e-7)
    with pytest.raises(ValueError, match='Unsupported mode, must be one of "connectivity", or "distance"'):
        ours.kneighbors_graph(mode="bogus")


def test_bagging_classifier_predict_log_proba_is_the_log_of_predict_proba(local_session):
    ours = ensemble.BaggingClassifier(n_estimators=4, random_state=0).fit(mt.tensor(X, chunk_size=10), YC)
    proba = ours.predict_proba(X).fetch()
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(ours.predict_log_proba(mt.tensor(X, chunk_size=7)).fetch(), np.log(proba))
    assert hasattr(ske.BaggingClassifier(), "predict_log_proba")


def test_logistic_regression_sparsify_and_densify_as_sklearn(local_session):
    ours = lm.LogisticRegression().fit(mt.tensor(X, chunk_size=10), YC)
    ref = sklm.LogisticRegression().fit(X, YC)
    assert ours.sparsify() is ours and type(ours.coef_) is type(ref.sparsify().coef_)
    np.testing.assert_allclose(ours.predict_proba(X).fetch(), ref.predict_proba(X), rtol=1e-5)
    assert isinstance(ours.densify().coef_, np.ndarray)
