"""learn.ensemble: bagging, blockwise voting and isolation forests against scikit-learn."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn import ensemble as ske
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import roc_auc_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import mars_on_ray.tensor as mt
from mars_on_ray.learn import ensemble as E
from learn_support import local_session  # noqa: F401

X, Y = make_classification(300, 6, n_informative=4, random_state=0)
XR, YR = make_regression(300, 5, noise=5.0, random_state=0)
BOUNDS = [70, 140, 210, 280]  # the row blocks of chunk_size 70


def test_bagging_classifier_estimators_are_sklearn_fits_on_the_drawn_rows(local_session):
    kw = dict(n_estimators=5, random_state=0, max_samples=0.5, max_features=0.7)
    ours = E.BaggingClassifier(**kw).fit(mt.tensor(X, chunk_size=(70, 4)), Y)
    proba = np.zeros((len(X), 2))
    for est, feats, rows in zip(ours.estimators_, ours.estimators_features_, ours.estimators_samples_):
        ref = DecisionTreeClassifier(random_state=est.random_state).fit(X[rows][:, feats], Y[rows])
        np.testing.assert_array_equal(est.predict_proba(X[:, feats]), ref.predict_proba(X[:, feats]))
        proba[:, est.classes_] += ref.predict_proba(X[:, feats])
    np.testing.assert_allclose(ours.predict_proba(mt.tensor(X, chunk_size=77)).fetch(), proba / 5)
    np.testing.assert_array_equal(ours.predict(X).fetch(), ours.classes_[(proba / 5).argmax(1)])
    assert ours.score(X, Y) >= ske.BaggingClassifier(**kw).fit(X, Y).score(X, Y) - 0.05


def test_bagging_classifier_keeps_label_types(local_session):
    labels = np.array(["no", "yes"])[Y]
    ours = E.BaggingClassifier(LogisticRegression(), n_estimators=3, bootstrap=False, max_samples=100,
                               random_state=2).fit(X, labels)
    assert list(ours.classes_) == ["no", "yes"]
    assert set(ours.predict(X).fetch()) <= {"no", "yes"}


def test_bagging_regressor(local_session):
    ours = E.BaggingRegressor(n_estimators=4, random_state=1, bootstrap_features=True).fit(
        mt.tensor(XR, chunk_size=(90, 5)), YR)
    expect = np.mean([DecisionTreeRegressor(random_state=e.random_state).fit(XR[r][:, f], YR[r]).predict(XR[:, f])
                      for e, f, r in zip(ours.estimators_, ours.estimators_features_, ours.estimators_samples_)], 0)
    np.testing.assert_allclose(ours.predict(XR).fetch(), expect)
    ref = ske.BaggingRegressor(n_estimators=4, random_state=1, bootstrap_features=True).fit(XR, YR)
    assert ours.score(XR, YR) >= ref.score(XR, YR) - 0.05


@pytest.mark.parametrize("voting", ["hard", "soft"])
def test_blockwise_voting_classifier_fits_one_clone_per_block(local_session, voting):
    ours = E.BlockwiseVotingClassifier(LogisticRegression(), voting=voting).fit(
        mt.tensor(X, chunk_size=(70, 4)), mt.tensor(Y, chunk_size=70))
    refs = [LogisticRegression().fit(x, y) for x, y in zip(np.split(X, BOUNDS), np.split(Y, BOUNDS))]
    assert len(ours.estimators_) == len(refs)
    for est, ref in zip(ours.estimators_, refs):
        np.testing.assert_allclose(est.coef_, ref.coef_)
    if voting == "soft":
        proba = np.mean([r.predict_proba(X) for r in refs], 0)
        np.testing.assert_allclose(ours.predict_proba(X).fetch(), proba)
        expect = proba.argmax(1)
    else:
        votes = np.stack([r.predict(X) for r in refs])
        expect = (votes.mean(0) > 0.5).astype(int)  # two classes, five voters: no ties
        with pytest.raises(AttributeError):
            ours.predict_proba(X)
    np.testing.assert_array_equal(ours.predict(mt.tensor(X, chunk_size=33)).fetch(), expect)


def test_blockwise_voting_regressor(local_session):
    ours = E.BlockwiseVotingRegressor(Ridge()).fit(mt.tensor(XR, chunk_size=70), YR)
    refs = [Ridge().fit(x, y) for x, y in zip(np.split(XR, BOUNDS), np.split(YR, BOUNDS))]
    np.testing.assert_allclose(ours.predict(XR).fetch(), np.mean([r.predict(XR) for r in refs], 0))


def test_isolation_forest(local_session):
    rs = np.random.RandomState(0)
    data = np.vstack([rs.randn(280, 2), rs.uniform(-6, 6, (20, 2))])
    truth = np.r_[np.zeros(280), np.ones(20)]
    ours = E.IsolationForest(n_estimators=40, random_state=0, contamination=0.07, n_groups=3).fit(
        mt.tensor(data, chunk_size=77))
    ref = ske.IsolationForest(n_estimators=40, random_state=0, contamination=0.07).fit(data)
    scores = ours.score_samples(data).fetch()
    sizes = [f.n_estimators for f in ours._forests]
    assert sizes == [14, 13, 13] and all(f.max_samples == 256 for f in ours._forests)
    combined = -np.prod([(-f.score_samples(data)) ** (n / 40) for f, n in zip(ours._forests, sizes)], 0)
    np.testing.assert_allclose(scores, combined)
    assert ours.offset_ == pytest.approx(np.percentile(scores, 7))
    np.testing.assert_allclose(ours.decision_function(data).fetch(), scores - ours.offset_)
    assert roc_auc_score(truth, -scores) >= roc_auc_score(truth, -ref.score_samples(data)) - 0.03
    assert (ours.predict(data).fetch() == ref.predict(data)).mean() >= 0.95
    auto = E.IsolationForest(n_estimators=10, random_state=0).fit(data)
    assert auto.offset_ == -0.5 and set(auto.predict(data).fetch()) <= {-1, 1}


def test_protocol_and_errors(local_session):
    for est in [E.BaggingClassifier(n_estimators=2), E.BlockwiseVotingRegressor(Ridge()), E.IsolationForest()]:
        assert clone(est).get_params().keys() == est.get_params().keys()
    for ours, ref in [(E.BaggingClassifier(max_samples=2.5), ske.BaggingClassifier(max_samples=2.5)),
                      (E.IsolationForest(contamination=0.9), ske.IsolationForest(contamination=0.9))]:
        with pytest.raises(ValueError):
            ref.fit(X, Y)
        with pytest.raises(ValueError):
            ours.fit(X, Y)
    with pytest.raises(ValueError):
        E.BlockwiseVotingClassifier(LogisticRegression(), voting="x").fit(X, Y)
    with pytest.raises(ValueError):
        E.BaggingRegressor().fit(XR, YR[:-1])
    fitted = E.BaggingClassifier(n_estimators=2, random_state=0).fit(X, Y)
    with pytest.raises(ValueError):
        fitted.predict(X[:, :3])
