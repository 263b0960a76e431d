"""learn.metrics against scikit-learn on the same data: values, dtypes, errors; chunk sizes
that do not divide the data; tensors, mars frames, NumPy and pandas inputs."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.metrics import pairwise as skp

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn import metrics as lm
from mars_on_ray.learn.metrics import pairwise as lp
from mars_on_ray.testing import assert_eq
from learn_support import compute, kinds

RS = np.random.RandomState(7)
N = 61
Y3 = RS.randint(0, 3, N)
P3 = np.where(RS.rand(N) < 0.7, Y3, RS.randint(0, 3, N))
YS = np.array(["cat", "dog", "eel"])[Y3]
PS = np.array(["cat", "dog", "eel"])[P3]
YB = RS.randint(0, 2, N)
SCORE = np.round(RS.rand(N), 2)  # ties on purpose
W = RS.rand(N)
ML_T = RS.randint(0, 2, (N, 4))
ML_P = RS.randint(0, 2, (N, 4))


@pytest.mark.parametrize("y,p", [(Y3, P3), (YS, PS), (ML_T, ML_P)])
def test_accuracy_score(y, p):
    for yy in kinds(y):
        assert_eq(lm.accuracy_score(yy, p), skm.accuracy_score(y, p))
    assert_eq(lm.accuracy_score(mt.tensor(y, chunk_size=9), p, normalize=False),
              skm.accuracy_score(y, p, normalize=False))
    assert_eq(lm.accuracy_score(mt.tensor(y, chunk_size=9), p, sample_weight=W),
              skm.accuracy_score(y, p, sample_weight=W))


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("y,p", [(Y3, P3), (YS, PS), (ML_T, ML_P)])
def test_precision_recall_f(average, y, p):
    yt = mt.tensor(y, chunk_size=8)
    for ours, theirs in zip(lm.precision_recall_fscore_support(yt, p, average=average),
                            skm.precision_recall_fscore_support(y, p, average=average)):
        if theirs is None:
            assert ours is None
        else:
            assert_eq(ours, theirs)
    for name in ("precision_score", "recall_score", "f1_score"):
        assert_eq(getattr(lm, name)(yt, p, average=average), getattr(skm, name)(y, p, average=average))
    assert_eq(lm.fbeta_score(yt, p, beta=0.5, average=average), skm.fbeta_score(y, p, beta=0.5, average=average))
    assert_eq(lm.f1_score(yt, p, average=average, sample_weight=W),
              skm.f1_score(y, p, average=average, sample_weight=W))


def test_binary_and_labels_options():
    yt = mt.tensor(YB, chunk_size=6)
    pb = (SCORE > 0.5).astype(int)
    assert_eq(lm.f1_score(yt, pb), skm.f1_score(YB, pb))
    assert_eq(lm.precision_score(yt, pb, pos_label=0), skm.precision_score(YB, pb, pos_label=0))
    assert_eq(lm.recall_score(mt.tensor(Y3, chunk_size=6), P3, labels=[2, 0], average=None),
              skm.recall_score(Y3, P3, labels=[2, 0], average=None))


def test_classification_errors_match_sklearn():
    with pytest.raises(ValueError):  # multiclass target with average='binary'
        skm.f1_score(Y3, P3)
    with pytest.raises(ValueError):
        compute(lm.f1_score(mt.tensor(Y3, chunk_size=5), P3))
    with pytest.raises(ValueError, match="inconsistent"):
        lm.accuracy_score(Y3, P3[:-1])
    with pytest.raises(ValueError):
        skm.accuracy_score(YS, P3)
    with pytest.raises(ValueError):  # a mix of label types
        compute(lm.accuracy_score(mt.tensor(YS, chunk_size=5), P3))


@pytest.mark.parametrize("y,p", [(Y3, P3), (YS, PS), (ML_T, ML_P)])
def test_multilabel_confusion_matrix(y, p):
    assert_eq(lm.multilabel_confusion_matrix(mt.tensor(y, chunk_size=11), p),
              skm.multilabel_confusion_matrix(y, p))
    assert_eq(lm.multilabel_confusion_matrix(mt.tensor(y, chunk_size=11), p, sample_weight=W),
              skm.multilabel_confusion_matrix(y, p, sample_weight=W))


def test_multilabel_confusion_matrix_samplewise():
    assert_eq(lm.multilabel_confusion_matrix(mt.tensor(ML_T, chunk_size=(9, 3)), ML_P, samplewise=True),
              skm.multilabel_confusion_matrix(ML_T, ML_P, samplewise=True))
    assert_eq(lm.multilabel_confusion_matrix(mt.tensor(ML_T, chunk_size=9), ML_P, samplewise=True, sample_weight=W),
              skm.multilabel_confusion_matrix(ML_T, ML_P, samplewise=True, sample_weight=W))
    with pytest.raises(ValueError):
        skm.multilabel_confusion_matrix(Y3, P3, samplewise=True)
    with pytest.raises(ValueError, match="Samplewise"):
        lm.multilabel_confusion_matrix(mt.tensor(Y3, chunk_size=9), P3, samplewise=True)


def test_multilabel_confusion_matrix_labels_shape_known():
    got = lm.multilabel_confusion_matrix(mt.tensor(Y3, chunk_size=11), P3, labels=[0, 2])
    assert got.shape == (2, 2, 2)
    assert_eq(got, skm.multilabel_confusion_matrix(Y3, P3, labels=[0, 2]))


@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve(drop):
    for y in kinds(YB, chunk=6):
        for ours, theirs in zip(lm.roc_curve(y, SCORE, drop_intermediate=drop),
                                skm.roc_curve(YB, SCORE, drop_intermediate=drop)):
            assert_eq(ours, theirs)
    for ours, theirs in zip(lm.roc_curve(mt.tensor(YS[:N], chunk_size=9), SCORE, pos_label="dog", sample_weight=W),
                            skm.roc_curve(YS, SCORE, pos_label="dog", sample_weight=W)):
        assert_eq(ours, theirs)


def test_roc_auc_score():
    assert_eq(lm.roc_auc_score(mt.tensor(YB, chunk_size=6), SCORE), skm.roc_auc_score(YB, SCORE))
    assert_eq(lm.roc_auc_score(mt.tensor(YB, chunk_size=6), SCORE, sample_weight=W, max_fpr=0.5),
              skm.roc_auc_score(YB, SCORE, sample_weight=W, max_fpr=0.5))
    proba = RS.rand(N, 3)
    proba /= proba.sum(axis=1, keepdims=True)
    for mc in ("ovr", "ovo"):
        assert_eq(lm.roc_auc_score(mt.tensor(Y3, chunk_size=8), mt.tensor(proba, chunk_size=(5, 2)), multi_class=mc),
                  skm.roc_auc_score(Y3, proba, multi_class=mc))
    ml_score = RS.rand(N, 4)
    assert_eq(lm.roc_auc_score(mt.tensor(ML_T, chunk_size=8), ml_score, average=None),
              skm.roc_auc_score(ML_T, ml_score, average=None))
    with pytest.raises(ValueError):
        compute(lm.roc_auc_score(mt.tensor(Y3, chunk_size=8), proba))  # multi_class='raise'


def test_auc():
    fpr, tpr, _ = skm.roc_curve(YB, SCORE)
    assert_eq(lm.auc(mt.tensor(fpr, chunk_size=4), mt.tensor(tpr, chunk_size=5)), skm.auc(fpr, tpr))
    assert_eq(lm.auc(fpr[::-1], tpr[::-1]), skm.auc(fpr[::-1], tpr[::-1]))  # decreasing x
    x = np.array([0.0, 0.5, 0.3, 1.0])
    with pytest.raises(ValueError):
        skm.auc(x, x)
    with pytest.raises(ValueError, match="neither increasing nor decreasing"):
        compute(lm.auc(mt.tensor(x, chunk_size=2), x))
    with pytest.raises(ValueError, match="At least 2 points"):
        lm.auc([1.0], [1.0])


@pytest.mark.parametrize("multioutput", ["raw_values", "uniform_average", "variance_weighted", [0.2, 0.3, 0.5]])
def test_r2_score(multioutput):
    yt = RS.rand(N, 3)
    yp = yt + RS.normal(scale=0.2, size=yt.shape)
    for a in kinds(yt, chunk=9):
        assert_eq(lm.r2_score(a, yp, multioutput=multioutput), skm.r2_score(yt, yp, multioutput=multioutput))
    assert_eq(lm.r2_score(mt.tensor(yt, chunk_size=(8, 2)), yp, multioutput=multioutput, sample_weight=W),
              skm.r2_score(yt, yp, multioutput=multioutput, sample_weight=W))


def test_r2_score_edges():
    y = RS.rand(N)
    assert_eq(lm.r2_score(mt.tensor(y, chunk_size=10), y * 0.9), skm.r2_score(y, y * 0.9))
    const = np.ones(N)
    for ff in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_eq(lm.r2_score(mt.tensor(const, chunk_size=10), y, force_finite=ff),
                      skm.r2_score(const, y, force_finite=ff))
    with pytest.raises(ValueError):
        lm.r2_score(np.ones((N, 2)), np.ones((N, 3)))
    with pytest.raises(ValueError):
        lm.r2_score(y, y, multioutput="bogus")


def test_log_loss():
    proba = RS.rand(N, 3)
    proba /= proba.sum(axis=1, keepdims=True)
    for y in kinds(YS, chunk=8):
        assert_eq(lm.log_loss(y, mt.tensor(proba, chunk_size=(6, 2))), skm.log_loss(YS, proba))
    assert_eq(lm.log_loss(mt.tensor(Y3, chunk_size=8), proba, normalize=False, sample_weight=W),
              skm.log_loss(Y3, proba, normalize=False, sample_weight=W))
    p1 = np.clip(SCORE, 0.01, 0.99)
    assert_eq(lm.log_loss(mt.tensor(YB, chunk_size=8), p1), skm.log_loss(YB, p1))
    assert_eq(lm.log_loss(mt.tensor(Y3[:10] % 2, chunk_size=4), proba[:10, :2] / proba[:10, :2].sum(1, keepdims=True),
                          labels=[0, 1]),
              skm.log_loss(Y3[:10] % 2, proba[:10, :2] / proba[:10, :2].sum(1, keepdims=True), labels=[0, 1]))
    with pytest.raises(ValueError):  # 3 classes in y_true, 2 columns of probabilities
        compute(lm.log_loss(mt.tensor(Y3, chunk_size=8), proba[:, :2]))


X = RS.rand(23, 5)
Y = RS.rand(17, 5)


@pytest.mark.parametrize("name", ["euclidean_distances", "manhattan_distances", "cosine_similarity",
                                  "cosine_distances", "rbf_kernel"])
def test_pairwise_functions(name):
    ours, theirs = getattr(lp, name), getattr(skp, name)
    assert_eq(ours(mt.tensor(X, chunk_size=(6, 2)), mt.tensor(Y, chunk_size=4)), theirs(X, Y))
    assert_eq(ours(md.DataFrame(pd.DataFrame(X), chunk_size=7)), theirs(X), atol=1e-12)
    got = compute(ours(mt.tensor(X, chunk_size=6)))
    np.testing.assert_array_equal(np.diag(got), np.diag(theirs(X)))  # exact diagonal, as scikit-learn


def test_pairwise_options_and_errors():
    assert_eq(lp.euclidean_distances(mt.tensor(X, chunk_size=6), Y, squared=True),
              skp.euclidean_distances(X, Y, squared=True))
    assert_eq(lp.rbf_kernel(mt.tensor(X, chunk_size=6), Y, gamma=0.3), skp.rbf_kernel(X, Y, gamma=0.3))
    assert_eq(lp.haversine_distances(mt.tensor(X[:, :2], chunk_size=6)), skp.haversine_distances(X[:, :2]))
    X32 = X.astype(np.float32)
    assert_eq(lp.euclidean_distances(mt.tensor(X32, chunk_size=6)), skp.euclidean_distances(X32), rtol=1e-5)
    with pytest.raises(ValueError):
        lp.haversine_distances(X)
    with pytest.raises(ValueError):
        lp.euclidean_distances(X, Y[:, :3])


@pytest.mark.parametrize("metric", ["euclidean", "cityblock", "cosine", "chebyshev", "minkowski"])
def test_pairwise_distances(metric):
    assert_eq(lm.pairwise_distances(mt.tensor(X, chunk_size=(7, 3)), Y, metric=metric),
              skm.pairwise_distances(X, Y, metric=metric))
    assert_eq(lm.pairwise_distances(mt.tensor(X, chunk_size=(7, 3)), metric=metric),
              skm.pairwise_distances(X, metric=metric), atol=1e-12)
    with pytest.raises(ValueError):
        lm.pairwise_distances(X, metric="no-such-metric")
