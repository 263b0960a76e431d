"""learn.model_selection: splits equal scikit-learn's for the same random_state, any chunking."""
import numpy as np
import pandas as pd
import pytest
from sklearn import model_selection as skms

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.model_selection import KFold, train_test_split
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(3)
X = RS.rand(29, 3)
Y = RS.randint(0, 3, 29)
DF = pd.DataFrame(X, columns=["a", "b", "c"], index=np.arange(29) * 2)


@pytest.mark.parametrize("chunk", [4, 10])
@pytest.mark.parametrize("kwargs", [{}, {"test_size": 0.3}, {"train_size": 10, "test_size": 5},
                                    {"shuffle": False}, {"test_size": 7, "shuffle": False}])
def test_train_test_split_equals_sklearn(chunk, kwargs):
    got = train_test_split(mt.tensor(X, chunk_size=chunk), md.Series(pd.Series(Y), chunk_size=chunk + 1),
                           random_state=0, **kwargs)
    want = skms.train_test_split(X, pd.Series(Y), random_state=0, **kwargs)
    assert len(got) == len(want) == 4
    for g, w in zip(got, want):
        assert_eq(g, w)


@pytest.mark.parametrize("stratify_kind", ["numpy", "tensor", "series"])
def test_train_test_split_stratify(stratify_kind):
    strat = {"numpy": Y, "tensor": mt.tensor(Y, chunk_size=6),
             "series": md.Series(pd.Series(Y), chunk_size=6)}[stratify_kind]
    got = train_test_split(md.DataFrame(DF, chunk_size=8), Y, test_size=0.25, random_state=2, stratify=strat)
    want = skms.train_test_split(DF, Y, test_size=0.25, random_state=2, stratify=Y)
    for g, w in zip(got, want):
        assert_eq(g, w)


def test_train_test_split_errors_like_sklearn():
    for kwargs in [{"test_size": 1.5}, {"test_size": -1}, {"train_size": 0.8, "test_size": 0.5},
                   {"test_size": 40}, {"shuffle": False, "stratify": Y}]:
        with pytest.raises(ValueError):
            skms.train_test_split(X, **kwargs)
        with pytest.raises(ValueError):
            train_test_split(mt.tensor(X, chunk_size=4), **kwargs)
    with pytest.raises(ValueError, match="At least one array"):
        train_test_split()
    with pytest.raises(ValueError, match="inconsistent"):
        train_test_split(X, Y[:-1])


@pytest.mark.parametrize("kwargs", [{"n_splits": 3}, {"n_splits": 4, "shuffle": True, "random_state": 5}])
def test_kfold_equals_sklearn(kwargs):
    ours, theirs = KFold(**kwargs), skms.KFold(**kwargs)
    assert ours.get_n_splits() == theirs.get_n_splits()
    t = mt.tensor(X, chunk_size=7)
    for (tr, te), (wtr, wte) in zip(ours.split(t), theirs.split(X)):
        np.testing.assert_array_equal(tr, wtr)
        np.testing.assert_array_equal(te, wte)
    tr, te = next(ours.split(t))
    assert_eq(t[te], X[te])
    with pytest.raises(ValueError):
        list(KFold(n_splits=40).split(t))
    with pytest.raises(ValueError):
        KFold(n_splits=1)
