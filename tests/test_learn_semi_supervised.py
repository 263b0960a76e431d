"""learn.semi_supervised LabelPropagation against scikit-learn on uneven chunks."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest
from sklearn import semi_supervised as sks
from sklearn.base import clone
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning

import mars_on_ray.tensor as mt
from mars_on_ray.learn.semi_supervised import LabelPropagation
from learn_support import local_session  # noqa: F401

X, Y = make_blobs(150, 3, centers=3, random_state=0)
X = X / 5
Y_PART = Y.copy()
Y_PART[np.random.RandomState(0).rand(150) < 0.7] = -1
Q = np.random.RandomState(1).rand(23, 3)


@pytest.mark.parametrize("kw", [{}, {"kernel": "knn", "n_neighbors": 5}, {"gamma": 3, "max_iter": 4}])
def test_matches_sklearn(local_session, kw):
    warns = kw.get("max_iter") == 4
    with pytest.warns(ConvergenceWarning) if warns else contextlib.nullcontext():
        ours = LabelPropagation(**kw).fit(mt.tensor(X, chunk_size=(40, 2)), Y_PART)
    with pytest.warns(ConvergenceWarning) if warns else contextlib.nullcontext():
        ref = sks.LabelPropagation(**kw).fit(X, Y_PART)
    assert ours.n_iter_ == ref.n_iter_
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    np.testing.assert_allclose(ours.label_distributions_.fetch(), ref.label_distributions_, atol=1e-12)
    np.testing.assert_array_equal(ours.transduction_.fetch(), ref.transduction_)
    np.testing.assert_allclose(ours.predict_proba(mt.tensor(Q, chunk_size=7)).fetch(), ref.predict_proba(Q),
                               atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X).fetch(), ref.predict(X))


def test_one_graph_per_iteration(local_session):
    est = LabelPropagation(gamma=3).fit(X, Y_PART)
    # persist X, one per iteration, the final distributions
    assert local_session.graphs == 1 + est.n_iter_ + 1


def test_protocol_and_errors(local_session):
    est = LabelPropagation(kernel="knn")
    assert clone(est).get_params() == est.get_params() and est.fit(X, Y_PART) is est
    with pytest.raises(ValueError):
        sks.LabelPropagation(kernel="nope").fit(X, Y_PART)
    with pytest.raises(ValueError):
        LabelPropagation(kernel="nope").fit(X, Y_PART)
    with pytest.raises(ValueError):
        LabelPropagation().fit(X, Y_PART[:-1])
    with pytest.raises(ValueError):
        LabelPropagation().fit(X, X[:, 0] + 0.5)  # continuous targets
    with pytest.raises(ValueError):
        est.predict(Q[:, :2])
