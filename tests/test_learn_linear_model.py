"""learn.linear_model LinearRegression against scikit-learn on uneven chunks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import linear_model as sklm
from sklearn.base import clone

import mars_on_ray.tensor as mt
from mars_on_ray.learn.linear_model import LinearRegression
from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(0)
X = RS.randn(230, 5)
Y1 = X @ RS.randn(5) + RS.randn(230) * 0.1 + 2
Y2 = np.column_stack([Y1, X[:, 0] - Y1])
W = RS.rand(230)


@pytest.mark.parametrize("kw", [{}, {"fit_intercept": False}, {"positive": True}])
@pytest.mark.parametrize("y", [Y1, Y2], ids=["1d", "2d"])
@pytest.mark.parametrize("weighted", [False, True])
def test_matches_sklearn(local_session, kw, y, weighted):
    sw = W if weighted else None
    ours = LinearRegression(**kw).fit(mt.tensor(X, chunk_size=(70, 3)), mt.tensor(y, chunk_size=50),
                                      sample_weight=sw)
    ref = sklm.LinearRegression(**kw).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-10)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-10)
    assert np.shape(ours.coef_) == np.shape(ref.coef_) and np.shape(ours.intercept_) == np.shape(ref.intercept_)
    pred = ours.predict(mt.tensor(X, chunk_size=33))
    np.testing.assert_allclose(pred.fetch(), ref.predict(X), atol=1e-9)
    if not kw:
        assert ours.rank_ == ref.rank_
    np.testing.assert_allclose(ours.score(X, y), ref.score(X, y), atol=1e-12)


def test_pandas_inputs_protocol_and_errors(local_session):
    est = LinearRegression()
    assert est.fit(pd.DataFrame(X), pd.Series(Y1)) is est and clone(est).get_params() == est.get_params()
    np.testing.assert_allclose(est.coef_, sklm.LinearRegression().fit(X, Y1).coef_, atol=1e-10)
    with pytest.raises(ValueError):
        sklm.LinearRegression().fit(X, Y1[:-1])
    with pytest.raises(ValueError):
        LinearRegression().fit(X, Y1[:-1])
    with pytest.raises(ValueError):
        est.predict(X[:, :2])
