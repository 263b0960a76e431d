"""learn data-side families on Ray: validation, metrics, pairwise, preprocessing, datasets,
model_selection / shuffle, ParallelPostFit — each executed on the module's local Ray."""
import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn import model_selection as skms
from sklearn import preprocessing as skp
from sklearn.linear_model import LogisticRegression

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn import datasets, metrics, model_selection, preprocessing, utils, wrappers
from mars_on_ray.learn.metrics import pairwise

RS = np.random.RandomState(0)
X = RS.rand(41, 3)
Y = RS.randint(0, 3, 41)
P = np.where(RS.rand(41) < 0.6, Y, RS.randint(0, 3, 41))


def test_validation_and_type_of_target_on_ray(session):
    bad = X.copy()
    bad[4, 1] = np.inf
    np.testing.assert_array_equal(utils.check_array(mt.tensor(X, chunk_size=9)).execute().fetch(), X)
    with pytest.raises(ValueError, match="infinity"):
        utils.check_array(mt.tensor(bad, chunk_size=9)).execute()
    assert utils.multiclass.type_of_target(md.Series(pd.Series(Y), chunk_size=10)).execute().fetch() == "multiclass"


def test_metrics_on_ray(session):
    yt = mt.tensor(Y, chunk_size=9)
    assert metrics.accuracy_score(yt, P).execute().fetch() == skm.accuracy_score(Y, P)
    np.testing.assert_array_equal(metrics.f1_score(yt, P, average=None).execute().fetch(),
                                  skm.f1_score(Y, P, average=None))
    score = RS.rand(41)
    fpr, tpr, thr = metrics.roc_curve(mt.tensor(Y == 1, chunk_size=8), score)
    for got, want in zip((fpr, tpr, thr), skm.roc_curve(Y == 1, score)):
        np.testing.assert_array_equal(got.execute().fetch(), want)
    assert metrics.roc_auc_score(mt.tensor(Y == 1, chunk_size=8), score).execute().fetch() == \
        pytest.approx(skm.roc_auc_score(Y == 1, score), rel=1e-12)
    assert metrics.r2_score(mt.tensor(X, chunk_size=7), X * 1.1).execute().fetch() == \
        pytest.approx(skm.r2_score(X, X * 1.1), rel=1e-12)
    np.testing.assert_allclose(pairwise.euclidean_distances(mt.tensor(X, chunk_size=10)).execute().fetch(),
                               pairwise.skp.euclidean_distances(X), atol=1e-12)


def test_preprocessing_on_ray(session):
    scaler = preprocessing.MinMaxScaler().fit(mt.tensor(X, chunk_size=8))
    np.testing.assert_array_equal(scaler.transform(X).execute().fetch(), skp.MinMaxScaler().fit(X).transform(X))
    labels = np.array(["x", "y", "z"])[Y]
    enc = preprocessing.LabelEncoder().fit(mt.tensor(labels, chunk_size=9))
    np.testing.assert_array_equal(enc.transform(labels).execute().fetch(), skp.LabelEncoder().fit_transform(labels))
    np.testing.assert_array_equal(preprocessing.normalize(mt.tensor(X, chunk_size=6)).execute().fetch(),
                                  skp.normalize(X))


def test_datasets_split_and_wrapper_on_ray(session):
    X1, y1 = datasets.make_classification(n_samples=500, n_features=6, random_state=3, chunk_size=120)
    X2, y2 = datasets.make_classification(n_samples=500, n_features=6, random_state=3, chunk_size=77)
    np.testing.assert_array_equal(X1.execute().fetch(), X2.execute().fetch())
    a_train, a_test, b_train, b_test = model_selection.train_test_split(X1, y1, random_state=0, stratify=y1)
    x_all, y_all = X1.fetch(), y1.execute().fetch()
    want = skms.train_test_split(x_all, y_all, random_state=0, stratify=y_all)
    for got, exp in zip((a_train, a_test, b_train, b_test), want):
        np.testing.assert_array_equal(got.execute().fetch(), exp)
    shuffled = utils.shuffle(mt.tensor(X, chunk_size=7), random_state=2)
    np.testing.assert_array_equal(shuffled.execute().fetch(), utils._shuffle._sku.shuffle(X, random_state=2))
    clf = wrappers.ParallelPostFit(LogisticRegression()).fit(x_all[:100], y_all[:100])
    np.testing.assert_array_equal(clf.predict(X1).execute().fetch(),
                                  LogisticRegression().fit(x_all[:100], y_all[:100]).predict(x_all))
