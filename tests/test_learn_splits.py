"""The cross-validators and cross_validate / cross_val_score against scikit-learn: the same
positions for the same random_state whatever the chunking; scores equal to scikit-learn's."""
import numpy as np
import pandas as pd
import pytest
from sklearn import linear_model as sklm
from sklearn import model_selection as skms

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.linear_model import LinearRegression
from mars_on_ray.learn.model_selection import (GroupKFold, KFold, ShuffleSplit, StratifiedKFold,
                                               StratifiedShuffleSplit, cross_val_score, cross_validate)

from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(9)
N = 37
X = RS.rand(N, 3)
Y = RS.randint(0, 3, N)
YR = X @ [1.0, -2.0, 0.5] + 0.1 * RS.randn(N)
GROUPS = RS.randint(0, 7, N)
DF = pd.DataFrame(X, columns=["a", "b", "c"])


def lazy_kinds(a, chunk=8):
    yield mt.tensor(a, chunk_size=chunk)
    if a.ndim == 1:
        yield md.Series(pd.Series(a), chunk_size=chunk + 2)
    else:
        yield md.DataFrame(pd.DataFrame(a), chunk_size=chunk + 2)
    yield a


def same_splits(ours, theirs):
    ours, theirs = list(ours), list(theirs)
    assert len(ours) == len(theirs) > 0
    for (a, b), (c, d) in zip(ours, theirs):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)


@pytest.mark.parametrize("kwargs", [{}, {"n_splits": 4, "shuffle": True, "random_state": 0}])
def test_stratified_kfold_positions(local_session, kwargs):
    ref = skms.StratifiedKFold(**kwargs).split(X, Y)
    for x in lazy_kinds(X):
        for y in lazy_kinds(Y, chunk=7):
            same_splits(StratifiedKFold(**kwargs).split(x, y), skms.StratifiedKFold(**kwargs).split(X, Y))
    same_splits(StratifiedKFold(**kwargs).split(md.DataFrame(DF, chunk_size=9), Y), ref)
    assert StratifiedKFold(**kwargs).get_n_splits() == skms.StratifiedKFold(**kwargs).get_n_splits()


@pytest.mark.parametrize("kwargs", [{"n_splits": 3, "random_state": 1}, {"n_splits": 4, "test_size": 0.3,
                                                                          "random_state": 2},
                                    {"n_splits": 2, "train_size": 20, "test_size": 10, "random_state": 5}])
def test_shuffle_splits_positions(local_session, kwargs):
    for x in lazy_kinds(X):
        same_splits(ShuffleSplit(**kwargs).split(x), skms.ShuffleSplit(**kwargs).split(X))
        same_splits(StratifiedShuffleSplit(**kwargs).split(x, mt.tensor(Y, chunk_size=6)),
                    skms.StratifiedShuffleSplit(**kwargs).split(X, Y))


def test_group_kfold_positions(local_session):
    for g in lazy_kinds(GROUPS, chunk=6):
        same_splits(GroupKFold(n_splits=3).split(mt.tensor(X, chunk_size=8), Y, g),
                    skms.GroupKFold(n_splits=3).split(X, Y, GROUPS))
    with pytest.raises(ValueError):
        list(skms.GroupKFold(n_splits=3).split(X, Y))
    with pytest.raises(ValueError, match="groups"):
        list(GroupKFold(n_splits=3).split(mt.tensor(X, chunk_size=8), Y))


def test_split_errors_match_sklearn(local_session):
    with pytest.raises(ValueError):
        list(skms.StratifiedKFold(n_splits=20).split(X, Y))
    with pytest.raises(ValueError):
        list(StratifiedKFold(n_splits=20).split(mt.tensor(X, chunk_size=8), mt.tensor(Y, chunk_size=8)))
    with pytest.raises(ValueError, match="inconsistent"):
        list(StratifiedKFold(3).split(mt.tensor(X, chunk_size=8), Y[:-1]))


@pytest.mark.parametrize("cv,sk_cv", [(3, 3), (KFold(4, shuffle=True, random_state=0),
                                                skms.KFold(4, shuffle=True, random_state=0)),
                                       (ShuffleSplit(3, random_state=1), skms.ShuffleSplit(3, random_state=1))])
def test_cross_val_score_linear_regression(local_session, cv, sk_cv):
    want = skms.cross_val_score(sklm.LinearRegression(), X, YR, cv=sk_cv)
    for x in (mt.tensor(X, chunk_size=8), md.DataFrame(DF, chunk_size=10), X):
        got = cross_val_score(LinearRegression(), x, mt.tensor(YR, chunk_size=7), cv=cv)
        np.testing.assert_allclose(got, want, rtol=1e-10)


def test_cross_validate_scorers_and_train_scores(local_session):
    scoring = ["r2", "neg_mean_squared_error", "neg_mean_absolute_error"]
    want = skms.cross_validate(sklm.LinearRegression(), X, YR, cv=3, scoring=scoring, return_train_score=True,
                               return_indices=True)
    got = cross_validate(LinearRegression(), mt.tensor(X, chunk_size=8), mt.tensor(YR, chunk_size=8), cv=3,
                         scoring=scoring, return_train_score=True, return_indices=True, return_estimator=True)
    for key in [k for k in want if k.startswith(("test_", "train_"))]:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-10, err_msg=key)
    assert set(got) == set(want) | {"estimator"}
    assert len(got["fit_time"]) == 3 and len(got["estimator"]) == 3
    for a, b in zip(got["indices"]["test"], want["indices"]["test"]):
        np.testing.assert_array_equal(a, b)
    assert isinstance(got["estimator"][0], LinearRegression) and hasattr(got["estimator"][0], "coef_")


def test_cross_validate_sample_weight_taken_per_fold(local_session):
    w = RS.rand(N) + 0.1
    want = skms.cross_validate(sklm.LinearRegression(), X, YR, cv=4, params={"sample_weight": w})
    for weights in (w, mt.tensor(w, chunk_size=9), list(w)):
        got = cross_validate(LinearRegression(), mt.tensor(X, chunk_size=8), YR, cv=4,
                             params={"sample_weight": weights})
        np.testing.assert_allclose(got["test_score"], want["test_score"], rtol=1e-10)


class _FailingFit(LinearRegression):
    def fit(self, X, y, sample_weight=None):
        raise RuntimeError("no fit today")


def test_cross_validate_error_score(local_session):
    from sklearn.exceptions import FitFailedWarning

    with pytest.raises(ValueError, match="scoring"):
        cross_val_score(LinearRegression(), X, YR, scoring="no_such_scorer")
    with pytest.warns(FitFailedWarning):
        got = cross_val_score(_FailingFit(), mt.tensor(X, chunk_size=8), YR, cv=3)
    assert np.isnan(got).all() and len(got) == 3
    with pytest.raises(RuntimeError, match="no fit today"):
        cross_val_score(_FailingFit(), mt.tensor(X, chunk_size=8), YR, cv=3, error_score="raise")
