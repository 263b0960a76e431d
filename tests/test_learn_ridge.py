"""learn.linear_model Ridge against scikit-learn on uneven chunks and every input kind."""
import numpy as np
import pandas as pd
import pytest
from sklearn import linear_model as sklm
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.linear_model import Ridge

from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(1)
X = RS.randn(83, 5)
Y1 = X @ RS.randn(5) + RS.randn(83) * 0.3 + 2
Y2 = np.column_stack([Y1, X[:, 0] - Y1])
W = RS.rand(83)


@pytest.mark.parametrize("kw", [{}, {"alpha": 10.0}, {"fit_intercept": False}, {"positive": True},
                                {"alpha": 0.0, "solver": "svd"}])
@pytest.mark.parametrize("y", [Y1, Y2], ids=["1d", "2d"])
@pytest.mark.parametrize("weighted", [False, True])
def test_ridge_matches_sklearn(local_session, kw, y, weighted):
    sw = W if weighted else None
    # scikit-learn's positive solver is lbfgs, stopped at tol: compare with it converged
    ref = sklm.Ridge(**kw, **({"tol": 1e-12} if kw.get("positive") else {})).fit(X, y, sample_weight=sw)
    ours = Ridge(**kw)
    assert ours.fit(mt.tensor(X, chunk_size=(30, 3)), mt.tensor(y, chunk_size=25), sample_weight=sw) is ours
    tol = 1e-7 if kw.get("positive") else 1e-10
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=tol)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=tol)
    assert np.shape(ours.coef_) == np.shape(ref.coef_) and np.shape(ours.intercept_) == np.shape(ref.intercept_)
    assert ours.solver_ == ref.solver_ and ours.n_features_in_ == 5
    np.testing.assert_allclose(ours.predict(mt.tensor(X, chunk_size=20)).fetch(), ref.predict(X), atol=tol * 10)
    assert ours.score(X, y) == pytest.approx(ref.score(X, y), abs=tol)


def test_ridge_alpha_per_target_and_inputs(local_session):
    ref = sklm.Ridge(alpha=[0.5, 20.0]).fit(X, Y2)
    ours = Ridge(alpha=[0.5, 20.0]).fit(mt.tensor(X, chunk_size=30), Y2)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-10)
    frame = pd.DataFrame(X, columns=list("abcde"))
    for x, y in [(frame, pd.Series(Y1)), (md.DataFrame(frame, chunk_size=30), md.Series(pd.Series(Y1), chunk_size=17)),
                 (X, Y1)]:
        np.testing.assert_allclose(Ridge(alpha=3.0).fit(x, y).coef_, sklm.Ridge(alpha=3.0).fit(X, Y1).coef_,
                                   atol=1e-10)


def test_ridge_keeps_feature_names(local_session):
    frame = pd.DataFrame(X, columns=list("abcde"))
    assert list(Ridge().fit(md.DataFrame(frame, chunk_size=30), Y1).feature_names_in_) == list("abcde")
    assert not hasattr(Ridge().fit(X, Y1), "feature_names_in_")


def test_ridge_api_and_errors(local_session):
    est = Ridge(alpha=2.0, solver="lsqr")
    assert est.get_params() == sklm.Ridge(alpha=2.0, solver="lsqr").get_params()
    assert clone(est).alpha == 2.0
    with pytest.raises(NotFittedError):
        est.predict(X)
    for bad in ({"alpha": -1.0}, {"positive": True, "solver": "svd"}, {"solver": "bogus"}):
        with pytest.raises(ValueError):
            sklm.Ridge(**bad).fit(X, Y1)
        with pytest.raises(ValueError):
            Ridge(**bad).fit(mt.tensor(X, chunk_size=30), Y1)
    with pytest.raises(ValueError):
        Ridge(alpha=[1.0, 2.0, 3.0]).fit(X, Y2)
    with pytest.raises(ValueError):
        Ridge().fit(X, Y1[:-1])
    with pytest.raises(ValueError, match="features"):
        Ridge().fit(X, Y1).predict(X[:, :2])
