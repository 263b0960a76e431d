"""Confusion-matrix metrics and ``classification_report``: scikit-learn's functions once on
the distinct (y_true, y_pred) rows with their counts as ``sample_weight`` (see ``_compress``).
Integer counts keep every sum exact, so the values are scikit-learn's on the whole data."""
from __future__ import annotations

import numpy as np
from sklearn import metrics as skm

from ._classification import _n_labels, _one, _score
from ._compress import compressed

__all__ = ["confusion_matrix", "balanced_accuracy_score", "matthews_corrcoef", "cohen_kappa_score",
           "hamming_loss", "jaccard_score", "zero_one_loss", "classification_report"]


def _confusion(rows, counts, labels, normalize):
    return skm.confusion_matrix(rows[0], rows[1], labels=labels, sample_weight=counts, normalize=normalize)


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """The (n_classes, n_classes) confusion matrix; int64 unless weighted or normalized."""
    if normalize not in ("true", "pred", "all", None):
        raise ValueError("normalize must be one of {'true', 'pred', 'all', None}")
    n = _n_labels(labels)
    dtype = np.int64 if sample_weight is None and normalize is None else np.float64
    return compressed(_confusion, [y_true, y_pred], sample_weight, shape=(n, n), dtype=dtype,
                      kwargs={"labels": labels, "normalize": normalize}, label="confusion_matrix")


def _scalar(func, y_true, y_pred, sample_weight, **kwargs):
    return compressed(_one, [y_true, y_pred], sample_weight, dtype=np.float64,
                      kwargs=dict(kwargs, func=func), label=func)


def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False):
    """The mean of per-class recalls (adjusted for chance with ``adjusted``)."""
    return _scalar("balanced_accuracy_score", y_true, y_pred, sample_weight, adjusted=adjusted)


def matthews_corrcoef(y_true, y_pred, *, sample_weight=None):
    """The Matthews correlation coefficient (phi coefficient for two classes)."""
    return _scalar("matthews_corrcoef", y_true, y_pred, sample_weight)


def cohen_kappa_score(y1, y2, *, labels=None, weights=None, sample_weight=None, replace_undefined_by=np.nan):
    """Cohen's kappa: agreement of two annotators beyond chance."""
    if weights not in (None, "linear", "quadratic"):
        raise ValueError("Unknown kappa weighting type.")
    return _scalar("cohen_kappa_score", y1, y2, sample_weight, labels=labels, weights=weights,
                   replace_undefined_by=replace_undefined_by)


def hamming_loss(y_true, y_pred, *, sample_weight=None):
    """The fraction of labels predicted wrongly."""
    return _scalar("hamming_loss", y_true, y_pred, sample_weight)


def zero_one_loss(y_true, y_pred, *, normalize=True, sample_weight=None):
    """The fraction (or, ``normalize=False``, weighted count) of misclassified rows."""
    return _scalar("zero_one_loss", y_true, y_pred, sample_weight, normalize=normalize)


def jaccard_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
                  zero_division="warn"):
    """The Jaccard similarity coefficient (intersection over union of label sets)."""
    return _score("jaccard_score", y_true, y_pred, sample_weight, average, labels, pos_label=pos_label,
                  zero_division=zero_division)


def _report(rows, counts, weighted, output_dict, digits, **kwargs):
    report = skm.classification_report(rows[0], rows[1], sample_weight=counts, output_dict=True, **kwargs)
    if output_dict:
        return report
    return _format(report, weighted, digits, kwargs["target_names"])


def _format(report, weighted, digits, target_names):
    """scikit-learn's text layout of a report dict (its formats; integer supports unless weighted)."""
    headers = ["precision", "recall", "f1-score", "support"]
    names = list(report)
    classes = names[:len(names) - 3 - ("samples avg" in names)]
    shown = [str(n) for n in (target_names if target_names is not None else classes)]
    width = max(max(len(n) for n in shown), len("weighted avg"), digits)
    support = (lambda s: s) if weighted else int
    text = ("{:>{width}s} " + " {:>9}" * len(headers)).format("", *headers, width=width) + "\n\n"
    row_fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    for shown_name, key in zip(shown, classes):
        v = report[key]
        text += row_fmt.format(shown_name, v["precision"], v["recall"], v["f1-score"], support(v["support"]),
                               width=width, digits=digits)
    text += "\n"
    total = support(np.sum([report[k]["support"] for k in classes]))
    for heading in names[len(classes):]:
        v = report[heading]
        if heading == "accuracy":
            fmt = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
            text += fmt.format(heading, "", "", v, total, width=width, digits=digits)
        else:
            text += row_fmt.format(heading, v["precision"], v["recall"], v["f1-score"], total,
                                   width=width, digits=digits)
    return text


def classification_report(y_true, y_pred, *, labels=None, target_names=None, sample_weight=None, digits=2,
                          output_dict=False, zero_division="warn"):
    """Per-class precision, recall, F1 and support with their averages: a lazy 0-d object
    tensor holding scikit-learn's text (or, ``output_dict``, its dict)."""
    kwargs = {"labels": labels, "target_names": target_names, "digits": digits, "zero_division": zero_division,
              "output_dict": output_dict, "weighted": sample_weight is not None}
    return compressed(_report, [y_true, y_pred], sample_weight, dtype=object, kwargs=kwargs,
                      label="classification_report")
