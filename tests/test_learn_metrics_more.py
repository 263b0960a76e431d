"""The confusion-matrix, curve and regression-error metrics against scikit-learn on the same
data: values, dtypes, errors; chunk sizes that do not divide the rows; every input kind."""
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm

import mars_on_ray.tensor as mt
from mars_on_ray.learn import metrics as lm
from mars_on_ray.testing import assert_eq
from learn_support import compute
from learn_support import kinds as _kinds


def kinds(a, chunk=8):
    """The input kinds of ``learn_support.kinds``, in chunks of 8."""
    return _kinds(a, chunk)


RS = np.random.RandomState(17)
N = 61
Y3 = RS.randint(0, 3, N)
P3 = np.where(RS.rand(N) < 0.6, Y3, RS.randint(0, 3, N))
YS = np.array(["cat", "dog", "eel"])[Y3]
PS = np.array(["cat", "dog", "eel"])[P3]
YB = RS.randint(0, 2, N)
PB = np.where(RS.rand(N) < 0.7, YB, 1 - YB)
SCORE = np.round(RS.rand(N), 2)  # ties on purpose
W = RS.rand(N)
ML_T = RS.randint(0, 2, (N, 4))
ML_P = RS.randint(0, 2, (N, 4))
RT = RS.rand(N, 3) * 10 - 2
RP = RT + RS.randn(N, 3)


LABELS = [(Y3, P3), (YS, PS), (YB, PB)]


@pytest.mark.parametrize("y,p", LABELS)
@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_confusion_matrix_exact(y, p, normalize):
    for yy in kinds(y):
        assert_eq(lm.confusion_matrix(yy, p, normalize=normalize), skm.confusion_matrix(y, p, normalize=normalize),
                  rtol=0)
    assert_eq(lm.confusion_matrix(mt.tensor(y, chunk_size=9), p, sample_weight=W, normalize=normalize),
              skm.confusion_matrix(y, p, sample_weight=W, normalize=normalize))
    labels = list(np.unique(y)[::-1][:2])
    got = lm.confusion_matrix(mt.tensor(y, chunk_size=9), p, labels=labels)
    assert got.shape == (2, 2)
    assert_eq(got, skm.confusion_matrix(y, p, labels=labels), rtol=0)


def test_confusion_matrix_errors_match_sklearn():
    with pytest.raises(ValueError):
        lm.confusion_matrix(Y3, P3, normalize="rows")
    with pytest.raises(ValueError):
        skm.confusion_matrix(ML_T, ML_P)
    with pytest.raises(ValueError):  # multilabel is not supported
        compute(lm.confusion_matrix(mt.tensor(ML_T, chunk_size=9), ML_P))
    with pytest.raises(ValueError, match="inconsistent"):
        lm.confusion_matrix(Y3, P3[:-1])


@pytest.mark.parametrize("y,p", LABELS)
def test_confusion_based_scores_exact(y, p):
    yt = mt.tensor(y, chunk_size=8)
    for name, kw in [("balanced_accuracy_score", {}), ("balanced_accuracy_score", {"adjusted": True}),
                     ("matthews_corrcoef", {}), ("cohen_kappa_score", {}),
                     ("cohen_kappa_score", {"weights": "linear"}), ("cohen_kappa_score", {"weights": "quadratic"}),
                     ("hamming_loss", {}), ("zero_one_loss", {}), ("zero_one_loss", {"normalize": False})]:
        for yy in kinds(y):
            assert_eq(getattr(lm, name)(yy, p, **kw), getattr(skm, name)(y, p, **kw), rtol=0)
        assert_eq(getattr(lm, name)(yt, p, sample_weight=W, **kw), getattr(skm, name)(y, p, sample_weight=W, **kw),
                  rtol=1e-12)


def test_hamming_and_zero_one_multilabel():
    yt = mt.tensor(ML_T, chunk_size=(9, 3))
    for name in ("hamming_loss", "zero_one_loss"):
        assert_eq(getattr(lm, name)(yt, ML_P), getattr(skm, name)(ML_T, ML_P), rtol=0)
        assert_eq(getattr(lm, name)(yt, ML_P, sample_weight=W), getattr(skm, name)(ML_T, ML_P, sample_weight=W),
                  rtol=1e-12)


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("y,p", [(Y3, P3), (ML_T, ML_P)])
def test_jaccard_score_exact(average, y, p):
    yt = mt.tensor(y, chunk_size=8)
    assert_eq(lm.jaccard_score(yt, p, average=average), skm.jaccard_score(y, p, average=average), rtol=0)
    assert_eq(lm.jaccard_score(yt, p, average=average, sample_weight=W),
              skm.jaccard_score(y, p, average=average, sample_weight=W), rtol=1e-12)


def test_jaccard_score_samples_average():
    assert_eq(lm.jaccard_score(mt.tensor(ML_T, chunk_size=8), ML_P, average="samples"),
              skm.jaccard_score(ML_T, ML_P, average="samples"), rtol=1e-14)


def test_jaccard_score_binary_and_errors():
    assert_eq(lm.jaccard_score(mt.tensor(YB, chunk_size=7), PB), skm.jaccard_score(YB, PB), rtol=0)
    assert_eq(lm.jaccard_score(mt.tensor(YB, chunk_size=7), PB, pos_label=0), skm.jaccard_score(YB, PB, pos_label=0),
              rtol=0)
    with pytest.raises(ValueError):
        skm.jaccard_score(Y3, P3)
    with pytest.raises(ValueError):  # multiclass with average='binary'
        compute(lm.jaccard_score(mt.tensor(Y3, chunk_size=7), P3))


@pytest.mark.parametrize("y,p", LABELS + [(ML_T, ML_P)])
@pytest.mark.parametrize("digits", [2, 4])
def test_classification_report_text_and_dict(y, p, digits):
    for yy in kinds(y):
        assert compute(lm.classification_report(yy, p, digits=digits)) == \
            skm.classification_report(y, p, digits=digits)
    yt = mt.tensor(y, chunk_size=9)
    ours = compute(lm.classification_report(yt, p, output_dict=True))
    theirs = skm.classification_report(y, p, output_dict=True)
    # 'samples avg' (multilabel) is a mean over rows: summed by distinct row, equal to rounding
    assert ours.pop("samples avg", None) == pytest.approx(theirs.pop("samples avg", None), rel=1e-14)
    assert ours == theirs
    # float weights: supports summed in another order, equal to rounding
    ours = compute(lm.classification_report(yt, p, sample_weight=W, output_dict=True))
    theirs = skm.classification_report(y, p, sample_weight=W, output_dict=True)
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value, rel=1e-12)
    text = compute(lm.classification_report(yt, p, sample_weight=np.round(W * 8)))
    assert text == skm.classification_report(y, p, sample_weight=np.round(W * 8))


def test_classification_report_labels_and_target_names():
    yt = mt.tensor(Y3, chunk_size=9)
    names = ["zero", "one", "two"]
    assert compute(lm.classification_report(yt, P3, target_names=names)) == \
        skm.classification_report(Y3, P3, target_names=names)
    assert compute(lm.classification_report(yt, P3, labels=[2, 0])) == skm.classification_report(Y3, P3,
                                                                                                   labels=[2, 0])
    with pytest.raises(ValueError):
        skm.classification_report(Y3, P3, target_names=names[:2])
    with pytest.raises(ValueError, match="target_names"):
        compute(lm.classification_report(yt, P3, target_names=names[:2]))


@pytest.mark.parametrize("drop", [False, True])
def test_precision_recall_curve_exact(drop):
    for y in kinds(YB, chunk=6):
        for ours, theirs in zip(lm.precision_recall_curve(y, SCORE, drop_intermediate=drop),
                                skm.precision_recall_curve(YB, SCORE, drop_intermediate=drop)):
            assert_eq(ours, theirs, rtol=0)
    for ours, theirs in zip(lm.precision_recall_curve(mt.tensor(YS, chunk_size=9), SCORE, pos_label="dog",
                                                      sample_weight=W),
                            skm.precision_recall_curve(YS, SCORE, pos_label="dog", sample_weight=W)):
        assert_eq(ours, theirs)


def test_average_precision_score():
    assert_eq(lm.average_precision_score(mt.tensor(YB, chunk_size=6), SCORE), skm.average_precision_score(YB, SCORE),
              rtol=0)
    assert_eq(lm.average_precision_score(mt.tensor(YB, chunk_size=6), SCORE, sample_weight=W),
              skm.average_precision_score(YB, SCORE, sample_weight=W))
    ml_score = np.round(RS.rand(N, 4), 2)
    for average in (None, "micro", "macro", "weighted", "samples"):
        assert_eq(lm.average_precision_score(mt.tensor(ML_T, chunk_size=8), ml_score, average=average),
                  skm.average_precision_score(ML_T, ml_score, average=average), rtol=1e-12)
    proba = RS.rand(N, 3)
    assert_eq(lm.average_precision_score(mt.tensor(Y3, chunk_size=8), proba),
              skm.average_precision_score(Y3, proba), rtol=0)
    with pytest.raises(ValueError):
        skm.average_precision_score(Y3, SCORE)
    with pytest.raises(ValueError):
        compute(lm.average_precision_score(mt.tensor(Y3, chunk_size=8), SCORE))


REGRESSION = ["mean_squared_error", "root_mean_squared_error", "mean_absolute_error",
              "mean_absolute_percentage_error", "explained_variance_score", "median_absolute_error"]
MULTIOUTPUT = ["raw_values", "uniform_average", [0.2, 0.3, 0.5]]


@pytest.mark.parametrize("name", REGRESSION + ["mean_squared_log_error", "root_mean_squared_log_error"])
@pytest.mark.parametrize("multioutput", MULTIOUTPUT)
def test_regression_metrics(name, multioutput):
    yt, yp = (RT + 2, np.abs(RP)) if "log" in name else (RT, RP)
    ours, theirs = getattr(lm, name), getattr(skm, name)
    for a in kinds(yt):
        assert_eq(ours(a, yp, multioutput=multioutput), theirs(yt, yp, multioutput=multioutput), rtol=1e-13)
    assert_eq(ours(mt.tensor(yt, chunk_size=(8, 2)), yp, multioutput=multioutput, sample_weight=W),
              theirs(yt, yp, multioutput=multioutput, sample_weight=W), rtol=1e-13)
    for a in kinds(yt[:, 0]):
        assert_eq(ours(a, yp[:, 0]), theirs(yt[:, 0], yp[:, 0]), rtol=1e-13)


def test_median_absolute_error_exact():
    yt, yp = RT[:, 0], np.round(RP[:, 0], 1)  # ties, odd and even lengths
    for n in (N, N - 1):
        assert_eq(lm.median_absolute_error(mt.tensor(yt[:n], chunk_size=8), yp[:n]),
                  skm.median_absolute_error(yt[:n], yp[:n]), rtol=0)
        ws = np.round(W[:n] * 4)  # ties in the weights' cumulative sum too
        assert_eq(lm.median_absolute_error(mt.tensor(yt[:n], chunk_size=8), yp[:n], sample_weight=ws),
                  skm.median_absolute_error(yt[:n], yp[:n], sample_weight=ws), rtol=0)


def test_explained_variance_force_finite():
    const = np.ones(N)
    for ff in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_eq(lm.explained_variance_score(mt.tensor(const, chunk_size=10), RT[:, 0], force_finite=ff),
                      skm.explained_variance_score(const, RT[:, 0], force_finite=ff))
            assert_eq(lm.explained_variance_score(mt.tensor(const, chunk_size=10), const, force_finite=ff),
                      skm.explained_variance_score(const, const, force_finite=ff))


def test_max_error():
    for a in kinds(RT[:, 0]):
        assert_eq(lm.max_error(a, RP[:, 0]), skm.max_error(RT[:, 0], RP[:, 0]), rtol=0)
    with pytest.raises(ValueError):
        skm.max_error(RT, RP)
    with pytest.raises(ValueError, match="Multioutput"):
        lm.max_error(mt.tensor(RT, chunk_size=8), RP)


def test_regression_errors_match_sklearn():
    with pytest.raises(ValueError):
        skm.mean_squared_error(RT, RP[:, :2])
    with pytest.raises(ValueError):
        lm.mean_squared_error(mt.tensor(RT, chunk_size=8), RP[:, :2])
    with pytest.raises(ValueError):
        lm.mean_absolute_error(RT, RP, multioutput="bogus")
    with pytest.raises(ValueError, match="inconsistent"):
        lm.mean_squared_error(RT, RP[:-1])
    with pytest.raises(ValueError):
        skm.mean_squared_log_error(RT, RP)
    with pytest.raises(ValueError, match="-1"):
        compute(lm.mean_squared_log_error(mt.tensor(RT - 5, chunk_size=8), RP))
