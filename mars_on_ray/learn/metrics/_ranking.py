"""ROC curves and areas: scikit-learn's functions on distinct (label, score) rows with counts;
``auc`` as an ordered tree of per-block trapezoids."""
from __future__ import annotations

import numpy as np
from sklearn import metrics as skm

from .._blocks import pick, row_reduce
from .._convert import to_tensor
from ._compress import compressed

__all__ = ["roc_curve", "roc_auc_score", "auc", "precision_recall_curve", "average_precision_score"]


def _curve_of(rows, counts, name, pos_label, drop_intermediate):
    return getattr(skm, name)(rows[0], rows[1], pos_label=pos_label, sample_weight=counts,
                              drop_intermediate=drop_intermediate)


def _curve(name, y_true, y_score, pos_label, sample_weight, drop_intermediate):
    """scikit-learn's curve ``name`` once on the distinct (label, score) rows with their
    counts: its three arrays as lazy tensors."""
    both = compressed(_curve_of, [y_true, y_score], sample_weight,
                      kwargs={"name": name, "pos_label": pos_label,
                              "drop_intermediate": drop_intermediate}, label=name)
    nan = float("nan")
    return tuple(pick(both, i, shape=(nan,), dtype=np.float64, label=name) for i in range(3))


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """(fpr, tpr, thresholds) of a binary classifier, as lazy tensors."""
    return _curve("roc_curve", y_true, y_score, pos_label, sample_weight, drop_intermediate)


def _roc_auc(rows, counts, weighted, **kwargs):
    y_true, y_score = rows
    if not weighted and kwargs.get("multi_class") == "ovo" and np.ndim(y_score) == 2:
        # one-vs-one takes no sample_weight: give it the rows as many times as they occur
        y_true, y_score = np.repeat(y_true, counts, axis=0), np.repeat(y_score, counts, axis=0)
        return skm.roc_auc_score(y_true, y_score, **kwargs)
    return skm.roc_auc_score(y_true, y_score, sample_weight=counts, **kwargs)


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None, max_fpr=None,
                  multi_class="raise", labels=None):
    """Area under the ROC curve (binary, multilabel, one-vs-rest / one-vs-one multiclass)."""
    kwargs = {"average": average, "max_fpr": max_fpr, "multi_class": multi_class, "labels": labels,
              "weighted": sample_weight is not None}
    shape = () if average is not None else (float("nan"),)
    return compressed(_roc_auc, [y_true, y_score], sample_weight, shape=shape, dtype=np.float64,
                      kwargs=kwargs, label="roc_auc_score")


def _auc_partial(x, y):
    """(first x, first y, last x, last y, area, any dx < 0, all dx <= 0, n) of one block."""
    if len(x) == 0:
        return None
    dx = np.diff(x)
    return (x[0], y[0], x[-1], y[-1], np.trapezoid(y, x), bool(np.any(dx < 0)), bool(np.all(dx <= 0)), len(x))


def _auc_merge(parts):
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    x0, y0, xl, yl, area, neg, nonpos, n = parts[0]
    for q in parts[1:]:
        step = q[0] - xl
        area = area + q[4] + step * (q[1] + yl) / 2.0
        neg = neg or q[5] or step < 0
        nonpos = nonpos and q[6] and step <= 0
        xl, yl, n = q[2], q[3], n + q[7]
    return (x0, y0, xl, yl, area, neg, nonpos, n)


def _auc_finish(merged):
    n = 0 if merged is None else merged[7]
    if n < 2:
        raise ValueError("At least 2 points are needed to compute area under curve, but x.shape = %s"
                         % n)
    area, neg, nonpos = merged[4], merged[5], merged[6]
    if neg:
        if not nonpos:
            raise ValueError("x is neither increasing nor decreasing.")
        area = -area
    return float(area)


def auc(x, y):
    """Area under a curve by the trapezoidal rule; ``x`` monotonic, as scikit-learn's ``auc``."""
    x, y = to_tensor(x), to_tensor(y)
    if x.ndim != 1 or y.ndim != 1:
        skm.auc(np.zeros((2,) * x.ndim), np.zeros((2,) * y.ndim))  # scikit-learn's error
    if x.shape[0] == x.shape[0] and x.shape[0] < 2:
        raise ValueError("At least 2 points are needed to compute area under curve, but x.shape = %s"
                         % x.shape[0])
    return row_reduce(_auc_partial, _auc_merge, _auc_finish, [x.astype(np.float64), y.astype(np.float64)],
                      dtype=np.float64, label="auc")


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False):
    """(precision, recall, thresholds) of a binary classifier, as lazy tensors."""
    return _curve("precision_recall_curve", y_true, y_score, pos_label, sample_weight,
                  drop_intermediate)


def _average_precision(rows, counts, **kwargs):
    return skm.average_precision_score(rows[0], rows[1], sample_weight=counts, **kwargs)


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Average precision (area under the step precision-recall curve), as scikit-learn's."""
    shape = () if average is not None else (float("nan"),)
    return compressed(_average_precision, [y_true, y_score], sample_weight, shape=shape, dtype=np.float64,
                      kwargs={"average": average, "pos_label": pos_label}, label="average_precision_score")
