"""learn.linear_model LogisticRegression (lbfgs, one graph per evaluation) against
scikit-learn: coefficients within 1e-4, predictions and probabilities, errors."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import linear_model as sklm
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.linear_model import LogisticRegression

from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(2)
X = RS.randn(83, 4)
Y2 = (X @ [1.0, -2.0, 0.5, 0.0] + 0.5 * RS.randn(83) > 0).astype(int)
Y3 = np.digitize(X @ [1.0, 1.0, -1.0, 0.5] + 0.3 * RS.randn(83), [-1.0, 1.0])
YS = np.array(["ant", "bee", "cow"])[Y3]
W = RS.rand(83) + 0.2


def check_close(ours, ref):
    assert ours.coef_.shape == ref.coef_.shape and ours.intercept_.shape == ref.intercept_.shape
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-4)
    np.testing.assert_array_equal(ours.classes_, ref.classes_)


@pytest.mark.parametrize("y", [Y2, Y3, YS], ids=["binary", "multiclass", "strings"])
@pytest.mark.parametrize("kw", [{}, {"C": 0.1}, {"fit_intercept": False}, {"C": np.inf}])
def test_logistic_regression_matches_sklearn(local_session, y, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = sklm.LogisticRegression(**kw).fit(X, y)
        ours = LogisticRegression(**kw)
        assert ours.fit(mt.tensor(X, chunk_size=(30, 3)), mt.tensor(y, chunk_size=25)) is ours
    check_close(ours, ref)
    q = mt.tensor(X[::-1], chunk_size=20)
    np.testing.assert_allclose(ours.predict_proba(q).fetch(), ref.predict_proba(X[::-1]), atol=1e-4)
    np.testing.assert_allclose(ours.decision_function(q).fetch(), ref.decision_function(X[::-1]), atol=1e-3)
    np.testing.assert_array_equal(ours.predict(q).fetch(), ref.predict(X[::-1]))
    assert ours.score(X, y) == ref.score(X, y)
    # how far the optimum was reached: as many L-BFGS iterations, give or take a few
    assert abs(int(ours.n_iter_[0]) - int(ref.n_iter_[0])) <= 3


def test_logistic_regression_weights_and_inputs(local_session):
    ref = sklm.LogisticRegression().fit(X, Y3, sample_weight=W)
    check_close(LogisticRegression().fit(mt.tensor(X, chunk_size=30), Y3, sample_weight=W), ref)
    for cw in ("balanced", {0: 2.0, 2: 0.5}):
        ref = sklm.LogisticRegression(class_weight=cw).fit(X, Y3)
        check_close(LogisticRegression(class_weight=cw).fit(mt.tensor(X, chunk_size=30), Y3), ref)
    frame = pd.DataFrame(X, columns=list("abcd"))
    ref = sklm.LogisticRegression().fit(frame, Y2)
    for x in (frame, md.DataFrame(frame, chunk_size=30), X):
        ours = LogisticRegression().fit(x, pd.Series(Y2))
        check_close(ours, ref)
    assert list(LogisticRegression().fit(frame, Y2).feature_names_in_) == list("abcd")


@pytest.mark.parametrize("y", [Y2, Y3], ids=["binary", "multiclass"])
def test_warm_start_starts_from_previous_coefficients(local_session, y):
    ours = LogisticRegression(warm_start=True).fit(mt.tensor(X, chunk_size=30), y)
    again = ours.fit(mt.tensor(X, chunk_size=30), y)
    ref = sklm.LogisticRegression(warm_start=True).fit(X, y)
    assert again.n_iter_[0] <= 2  # already at the optimum
    check_close(again, sklm.LogisticRegression(warm_start=True).fit(X, y).fit(X, y))
    check_close(again, ref)


def test_logistic_regression_api_and_errors(local_session):
    est = LogisticRegression(C=2.0)
    assert est.get_params() == sklm.LogisticRegression(C=2.0).get_params()
    assert clone(est).C == 2.0
    with pytest.raises(NotFittedError):
        est.predict(X)
    with pytest.raises(ValueError):
        sklm.LogisticRegression(C=-1.0).fit(X, Y2)
    with pytest.raises(ValueError):
        LogisticRegression(C=-1.0).fit(X, Y2)
    with pytest.raises(ValueError, match="Unknown label type"):
        LogisticRegression().fit(mt.tensor(X, chunk_size=30), mt.tensor(X[:, 0], chunk_size=30))
    with pytest.raises(ValueError, match="one class"):
        LogisticRegression().fit(X, np.zeros(83))
    with pytest.raises(ValueError):
        sklm.LogisticRegression(dual=True).fit(X, Y2)
    with pytest.raises(ValueError, match="dual=False"):
        LogisticRegression(dual=True).fit(X, Y2)
    with pytest.raises(NotImplementedError, match="solver"):
        LogisticRegression(solver="saga").fit(X, Y2)
    with pytest.raises(NotImplementedError, match="l1"):
        LogisticRegression(l1_ratio=1.0).fit(X, Y2)
    with pytest.raises(ValueError, match="features"):
        LogisticRegression().fit(X, Y2).predict(X[:, :2])
    with pytest.warns(ConvergenceWarning):
        LogisticRegression(max_iter=2).fit(mt.tensor(X, chunk_size=30), Y3)
