"""learn.contrib.xgboost: distributed training on Ray (2 workers) equals XGBoost trained in
one process on the same data and parameters.

Tolerance: exact for these sizes. XGBoost's collective merges the workers' quantile
sketches and all-reduces gradient histograms; with fewer distinct values per feature than
``max_bin`` the cuts are the same as one process finds, and sums of a few hundred doubles in
another order differ far below what changes a split. Predictions are float32 sums of leaf
values (up to ~4 here): they agree to float32 rounding, rtol 1e-5 with atol 1e-6 (a value near
0 keeps the absolute rounding error of the larger terms it was summed from).
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

xgb = pytest.importorskip("xgboost")

import mars_on_ray.dataframe as md  # noqa: E402
import mars_on_ray.tensor as mt  # noqa: E402
from mars_on_ray.learn.contrib import xgboost as mxgb  # noqa: E402
from mars_on_ray.testing import assert_eq  # noqa: E402

pytestmark = pytest.mark.usefixtures("session")

PARAMS = {"tree_method": "hist", "max_depth": 3, "nthread": 1, "seed": 0}
RTOL = 1e-5
ATOL = 1e-6


def _data(n=203, k=4, classes=2, seed=0):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, k)), 2)
    score = X[:, 0] + 0.5 * X[:, 1] - 0.25 * X[:, 2]
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, classes + 1)[1:-1]))
    return X, y


def test_train_equals_single_process_on_two_workers(session):
    X, y = _data()
    params = dict(PARAMS, objective="binary:logistic")
    dtrain = mxgb.MarsDMatrix(mt.tensor(X, chunk_size=(70, 3)), label=mt.tensor(y, chunk_size=45))
    history: dict = {}
    booster = mxgb.train(params, dtrain, num_boost_round=8, n_workers=2,
                         evals=[(dtrain, "train")], evals_result=history)
    expected_history: dict = {}
    single = xgb.train(params, xgb.DMatrix(X, label=y), num_boost_round=8,
                       evals=[(xgb.DMatrix(X, label=y), "train")], evals_result=expected_history)
    assert booster.num_boosted_rounds() == 8
    pred = mxgb.predict(booster, mt.tensor(X, chunk_size=(60, 4)))
    assert_eq(pred, single.predict(xgb.DMatrix(X)), rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(history["train"]["logloss"], expected_history["train"]["logloss"],
                               rtol=RTOL, atol=ATOL)


def test_regressor_on_dataframe_with_weights(session):
    X, _ = _data(n=157, k=3)
    rng = np.random.default_rng(1)
    y = X @ np.array([1.0, -2.0, 0.5]) + np.round(rng.normal(size=len(X)), 1)
    w = rng.integers(1, 4, size=len(X)).astype(float)
    pdf = pd.DataFrame(X, columns=["a", "b", "c"])
    model = mxgb.XGBRegressor(n_estimators=6, max_depth=3, tree_method="hist", n_jobs=1)
    model.fit(md.DataFrame(pdf, chunk_size=50), md.Series(pd.Series(y), chunk_size=40),
              sample_weight=mt.tensor(w, chunk_size=33), n_workers=2)
    ref = xgb.XGBRegressor(n_estimators=6, max_depth=3, tree_method="hist", n_jobs=1)
    ref.fit(pdf, y, sample_weight=w)
    assert list(model.feature_names_in_) == ["a", "b", "c"]
    assert model.n_features_in_ == 3
    assert_eq(model.predict(md.DataFrame(pdf, chunk_size=37)), ref.predict(pdf), rtol=RTOL, atol=ATOL)


def test_classifier_multiclass_with_eval_set(session):
    X, y = _data(n=211, classes=3)
    Xv, yv = _data(n=61, classes=3, seed=3)
    model = mxgb.XGBClassifier(n_estimators=5, max_depth=2, tree_method="hist", n_jobs=1)
    model.fit(mt.tensor(X, chunk_size=(55, 4)), mt.tensor(y, chunk_size=55),
              eval_set=[(Xv, yv)], verbose=False, n_workers=2)
    ref = xgb.XGBClassifier(n_estimators=5, max_depth=2, tree_method="hist", n_jobs=1)
    ref.fit(X, y, eval_set=[(Xv, yv)], verbose=False)
    assert model.n_classes_ == 3 and list(model.classes_) == [0, 1, 2]
    assert model.objective == "multi:softprob"
    assert_eq(model.predict_proba(mt.tensor(X, chunk_size=(64, 4))), ref.predict_proba(X),
              rtol=RTOL, atol=ATOL)
    assert_eq(model.predict(X), ref.predict(X))
    np.testing.assert_allclose(model.evals_result()["validation_0"]["mlogloss"],
                               ref.evals_result()["validation_0"]["mlogloss"], rtol=RTOL, atol=ATOL)


def test_sklearn_api_clone_and_params():
    from sklearn.base import clone

    model = mxgb.XGBClassifier(n_estimators=3, max_depth=2)
    copy = clone(model)
    assert type(copy) is mxgb.XGBClassifier
    assert copy.get_params()["max_depth"] == 2
    assert copy.set_params(max_depth=4).max_depth == 4


def test_bad_input_is_refused_at_build_time():
    X, y = _data(n=20)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        mxgb.MarsDMatrix(X, label=y[:10])
    with pytest.raises(ValueError, match="2-d"):
        mxgb.MarsDMatrix(X[:, 0], label=y)
    with pytest.raises(TypeError, match="xgboost.Booster"):
        mxgb.predict(object(), X)
    with pytest.raises(TypeError, match="pairs"):
        mxgb.train({}, mxgb.MarsDMatrix(X, label=y), evals=[mxgb.MarsDMatrix(X, label=y)])


def test_classifier_refuses_labels_xgboost_refuses(session):
    X, y = _data(n=40)
    with pytest.raises(ValueError, match="Invalid classes"):
        mxgb.XGBClassifier(n_estimators=2).fit(X, y + 1)


def test_missing_xgboost_names_the_extra():
    code = ("import sys; sys.modules['xgboost'] = None\n"
            "from mars_on_ray.learn.contrib.xgboost import XGBClassifier\n"
            "try:\n    XGBClassifier()\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert "pip install 'mars_on_ray[xgboost]'" in out.stdout, out.stderr


def test_more_workers_than_cpus_fails_fast_instead_of_hanging(session):
    X, y = _data(n=30)
    dtrain = mxgb.MarsDMatrix(mt.tensor(X, chunk_size=(10, 4)), label=y)
    with pytest.raises(ValueError, match="need 3 CPUs"):
        mxgb.train(dict(PARAMS), dtrain, num_boost_round=2, n_workers=3)
