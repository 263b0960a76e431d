"""Classification metrics: scikit-learn's functions run once on the distinct label rows
(see ``_compress``), so values, averaging options, warnings and errors are scikit-learn's."""
from __future__ import annotations

import numpy as np
from sklearn import metrics as skm

from .._blocks import pick, row_map
from .._convert import to_tensor
from ..utils.validation import check_consistent_length
from ._compress import compressed

__all__ = ["accuracy_score", "precision_recall_fscore_support", "precision_score", "recall_score",
           "f1_score", "fbeta_score", "multilabel_confusion_matrix"]


def _n_labels(labels):
    return float("nan") if labels is None else len(labels)


def _accuracy(rows, counts, normalize):
    return skm.accuracy_score(rows[0], rows[1], normalize=normalize, sample_weight=counts)


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or, ``normalize=False``, weighted count) of exactly matching label rows."""
    return compressed(_accuracy, [y_true, y_pred], sample_weight, dtype=np.float64,
                      kwargs={"normalize": normalize}, label="accuracy_score")


def _mcm(rows, counts, labels, samplewise, weighted):
    out = skm.multilabel_confusion_matrix(rows[0], rows[1], sample_weight=counts, labels=labels,
                                          samplewise=samplewise)
    return out if weighted else out.astype(np.int64)


def multilabel_confusion_matrix(y_true, y_pred, *, sample_weight=None, labels=None, samplewise=False):
    """One 2 x 2 confusion matrix per label (class-wise), as scikit-learn's."""
    if samplewise:  # one matrix per sample: row block by row block
        return _samplewise_mcm(y_true, y_pred, sample_weight, labels)
    weighted = sample_weight is not None
    return compressed(_mcm, [y_true, y_pred], sample_weight, shape=(_n_labels(labels), 2, 2),
                      dtype=np.float64 if weighted else np.int64,
                      kwargs={"labels": labels, "samplewise": samplewise, "weighted": weighted},
                      label="multilabel_confusion_matrix")


def _mcm_rows(y_true, y_pred, *w, labels):
    return skm.multilabel_confusion_matrix(y_true, y_pred, sample_weight=w[0] if w else None, labels=labels,
                                           samplewise=True)


def _samplewise_mcm(y_true, y_pred, sample_weight, labels):
    yt, yp = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(yt, yp, sample_weight)
    if yt.ndim != 2 or yp.ndim != 2:
        raise ValueError("Samplewise metrics are not available outside of multilabel classification.")
    weights = [] if sample_weight is None else [to_tensor(sample_weight)]
    dtype = np.float64 if weights else np.int64
    return row_map(_mcm_rows, [yt, yp, *weights], shape=(yt.shape[0], 2, 2), dtype=dtype,
                   kwargs={"labels": labels}, label="multilabel_confusion_matrix")


def _prfs(rows, counts, weighted, **kwargs):
    p, r, f, s = skm.precision_recall_fscore_support(rows[0], rows[1], sample_weight=counts, **kwargs)
    if s is not None and not weighted:
        s = np.asarray(s).astype(np.int64)
    return p, r, f, s


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1, average=None,
                                    warn_for=("precision", "recall", "f-score"), sample_weight=None,
                                    zero_division="warn"):
    """(precision, recall, F-beta, support) as lazy tensors; support is None when averaged."""
    weighted = sample_weight is not None
    kwargs = {"beta": beta, "labels": labels, "pos_label": pos_label, "average": average,
              "warn_for": tuple(warn_for), "zero_division": zero_division, "weighted": weighted}
    both = compressed(_prfs, [y_true, y_pred], sample_weight, kwargs=kwargs,
                      label="precision_recall_fscore_support")
    shape = () if average is not None else (_n_labels(labels),)
    out = [pick(both, i, shape=shape, dtype=np.float64, label="precision_recall_fscore_support")
           for i in range(3)]
    if average is not None:
        return (*out, None)
    support = pick(both, 3, shape=shape, dtype=np.float64 if weighted else np.int64,
                   label="precision_recall_fscore_support")
    return (*out, support)


def _one(rows, counts, func, **kwargs):
    return getattr(skm, func)(rows[0], rows[1], sample_weight=counts, **kwargs)


def _score(func, y_true, y_pred, sample_weight, average, labels, **kwargs):
    shape = () if average is not None else (_n_labels(labels),)
    kwargs.update(func=func, average=average, labels=labels)
    return compressed(_one, [y_true, y_pred], sample_weight, shape=shape, dtype=np.float64,
                      kwargs=kwargs, label=func)


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary", sample_weight=None,
                zero_division="warn"):
    """The F-beta score, as scikit-learn's."""
    return _score("fbeta_score", y_true, y_pred, sample_weight, average, labels, beta=beta,
                  pos_label=pos_label, zero_division=zero_division)


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    """The F1 score, as scikit-learn's."""
    return _score("f1_score", y_true, y_pred, sample_weight, average, labels, pos_label=pos_label,
                  zero_division=zero_division)


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                    zero_division="warn"):
    """Precision tp / (tp + fp), as scikit-learn's."""
    return _score("precision_score", y_true, y_pred, sample_weight, average, labels, pos_label=pos_label,
                  zero_division=zero_division)


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                 zero_division="warn"):
    """Recall tp / (tp + fn), as scikit-learn's."""
    return _score("recall_score", y_true, y_pred, sample_weight, average, labels, pos_label=pos_label,
                  zero_division=zero_division)
