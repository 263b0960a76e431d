"""``log_loss``: the labels first (distinct ``y_true`` values, unless given), then
scikit-learn's unnormalised loss per row block against those labels, summed by a tree."""
from __future__ import annotations

import inspect

import numpy as np
from sklearn import metrics as skm

from .._blocks import row_reduce
from .._convert import to_tensor
from ..utils.validation import check_consistent_length

__all__ = ["log_loss"]

_PROBA_NAME = "y_proba" if "y_proba" in inspect.signature(skm.log_loss).parameters else "y_pred"


def _distinct(y):
    return np.unique(y)


def _union(parts):
    return np.unique(np.concatenate(parts))


def _identity(x):
    return x


def distinct_labels(y):
    """The sorted distinct values of ``y`` as a one-chunk tensor of unknown length."""
    y = to_tensor(y)
    return row_reduce(_distinct, _union, _identity, [y], shape=(float("nan"),), dtype=y.dtype,
                      label="unique_labels")


def _block_loss(y_true, y_pred, *rest):
    w, labels = (None, rest[0]) if len(rest) == 1 else rest
    loss = skm.log_loss(y_true, **{_PROBA_NAME: y_pred}, normalize=False, sample_weight=w,
                        labels=labels)
    return loss, (len(y_true) if w is None else float(np.sum(w)))


def _add(parts):
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


class _Finish:
    def __init__(self, normalize):
        self.normalize = normalize

    def __call__(self, total):
        loss, weight = total
        return float(loss / weight) if self.normalize else float(loss)

    def __mars_token__(self):
        return ("log_loss.finish", self.normalize)


def log_loss(y_true, y_pred, *, normalize=True, sample_weight=None, labels=None):
    """Cross-entropy of predicted probabilities, as scikit-learn's ``log_loss``."""
    y_true, y_pred = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(y_true, y_pred, sample_weight)
    if y_pred.ndim > 2:
        raise ValueError("Found array with dim %d. None expected <= 2." % y_pred.ndim)
    label_t = distinct_labels(y_true) if labels is None else to_tensor(np.asarray(labels))
    weights = [] if sample_weight is None else [to_tensor(sample_weight)]
    return row_reduce(_block_loss, _add, _Finish(normalize), [y_true, y_pred, *weights], [label_t],
                      dtype=np.float64, label="log_loss")
