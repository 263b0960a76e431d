"""learn.wrappers.ParallelPostFit: the wrapped estimator's results, block by block."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.decomposition import PCA
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.wrappers import ParallelPostFit
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(5)
X = RS.rand(53, 4)
Y = (X[:, 0] + X[:, 1] > 1).astype(int)
DF = pd.DataFrame(X, columns=list("abcd"))


def test_classifier_methods_equal_the_estimator():
    clf = ParallelPostFit(LogisticRegression())
    assert clf.fit(mt.tensor(X[:30], chunk_size=7), Y[:30]) is clf
    ref = LogisticRegression().fit(X[:30], Y[:30])
    np.testing.assert_array_equal(clf.coef_, ref.coef_)
    np.testing.assert_array_equal(clf.classes_, ref.classes_)
    t = mt.tensor(X, chunk_size=(8, 3))
    assert_eq(clf.predict(t), ref.predict(X))
    assert_eq(clf.predict_proba(t), ref.predict_proba(X))
    assert_eq(clf.predict_log_proba(t), ref.predict_log_proba(X))
    assert_eq(clf.decision_function(X), ref.decision_function(X))
    assert_eq(clf.score(t, Y), ref.score(X, Y))


def test_regressor_and_transformer_with_frames():
    reg = ParallelPostFit(LinearRegression()).fit(DF, X[:, 2])
    ref = LinearRegression().fit(DF, X[:, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # feature names are given back to the estimator
        assert_eq(reg.predict(md.DataFrame(DF, chunk_size=9)), ref.predict(DF))
        assert_eq(reg.predict(DF), ref.predict(DF))
    assert_eq(reg.score(mt.tensor(X, chunk_size=10), X[:, 2]), ref.score(X, X[:, 2]))
    pca = ParallelPostFit(PCA(n_components=2)).fit(X)
    assert_eq(pca.transform(mt.tensor(X, chunk_size=11)), PCA(n_components=2).fit(X).transform(X))


def test_prefitted_estimator_and_scoring():
    ref = LogisticRegression().fit(X, Y)
    wrapped = ParallelPostFit(ref, scoring="accuracy")
    assert_eq(wrapped.predict(mt.tensor(X, chunk_size=6)), ref.predict(X))
    assert wrapped.score(mt.tensor(X, chunk_size=6), Y) == ref.score(X, Y)


def test_params_clone_and_errors():
    p = ParallelPostFit(LogisticRegression(C=0.5))
    assert p.get_params()["estimator__C"] == 0.5
    p.set_params(estimator__C=2.0)
    assert clone(p).estimator.C == 2.0
    with pytest.raises(NotFittedError):
        ParallelPostFit(LogisticRegression()).predict(X)
    with pytest.raises(AttributeError):
        ParallelPostFit(LinearRegression()).fit(X, X[:, 0]).predict_proba(X)
    fitted = ParallelPostFit(LinearRegression()).fit(X, X[:, 0])
    with pytest.raises(ValueError):
        fitted.predict(X[:, :3])  # the estimator's own feature-count error, at build time
