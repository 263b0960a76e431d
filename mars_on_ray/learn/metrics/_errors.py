"""Regression error metrics: one tree-reduced pass of weighted per-output sums (the median by
the tensor's exact ``median``), then scikit-learn's averaging over the outputs."""
from __future__ import annotations

import warnings

import numpy as np
from sklearn import metrics as skm

from ... import tensor as mt
from .. import moments
from .._blocks import row_map, row_reduce
from .._convert import to_tensor
from ..utils.validation import check_consistent_length
from ._compress import compressed
from ._regression import _as_2d, _assemble, _sample, _weights

__all__ = ["mean_squared_error", "root_mean_squared_error", "mean_absolute_error", "median_absolute_error",
           "explained_variance_score", "max_error", "mean_squared_log_error", "root_mean_squared_log_error",
           "mean_absolute_percentage_error"]

_EPS = np.finfo(np.float64).eps


def _losses(yt, yp, kind):
    if kind == "squared":
        return (yt - yp) ** 2
    if kind == "absolute":
        return np.abs(yt - yp)
    if kind == "percentage":
        return np.abs(yp - yt) / np.maximum(np.abs(yt), _EPS)
    if (yt <= -1).any() or (yp <= -1).any():
        skm.mean_squared_log_error([-1.0], [-1.0])  # scikit-learn's ValueError
    return (np.log1p(yt) - np.log1p(yp)) ** 2


def _weighted_sums(y_true, y_pred, *w, kind):
    """(per-output weighted sums of the loss, weight sum) of one block."""
    yt, yp = _as_2d(y_true), _as_2d(y_pred)
    weight = _weights(yt, w[0] if w else None)
    return weight @ _losses(yt, yp, kind), weight.sum()


def _add(parts):
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def _over_outputs(errors, multioutput, root=False):
    errors = np.sqrt(errors) if root else errors
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return errors
        multioutput = None
    return float(np.average(errors, weights=multioutput))


class _Finish:
    """Per-output means of the summed losses, then the average over outputs."""

    def __init__(self, multioutput, root=False, of_mean=True):
        self.multioutput, self.root, self.of_mean = multioutput, root, of_mean

    def __call__(self, value):
        errors = value[0] / value[1] if self.of_mean else value
        return _over_outputs(errors, self.multioutput, self.root)

    def __mars_token__(self):
        return ("learn.metrics.errors", self.multioutput, self.root, self.of_mean)


def _checked(name, y_true, y_pred, sample_weight, multioutput, **kwargs):
    """Tensors of the targets after scikit-learn's own shape / multioutput checks, done now."""
    y_true, y_pred = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(y_true, y_pred, sample_weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        getattr(skm, name)(_sample(y_true), _sample(y_pred), multioutput=multioutput,
                           sample_weight=None if sample_weight is None else np.ones(2), **kwargs)
    weights = [] if sample_weight is None else [to_tensor(sample_weight)]
    n_out = 1 if y_true.ndim == 1 else int(y_true.shape[1])
    shape = (n_out,) if isinstance(multioutput, str) and multioutput == "raw_values" else ()
    return y_true, y_pred, weights, shape


def _mean_loss(name, kind, y_true, y_pred, sample_weight, multioutput, root=False):
    y_true, y_pred, weights, shape = _checked(name, y_true, y_pred, sample_weight, multioutput)
    return row_reduce(_weighted_sums, _add, _Finish(multioutput, root), [y_true, y_pred, *weights],
                      shape=shape, dtype=np.float64, kwargs={"kind": kind}, label=name)


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error, as scikit-learn's."""
    return _mean_loss("mean_squared_error", "squared", y_true, y_pred, sample_weight, multioutput)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Root mean squared error (per output, then averaged), as scikit-learn's."""
    return _mean_loss("root_mean_squared_error", "squared", y_true, y_pred, sample_weight, multioutput, True)


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean absolute error, as scikit-learn's."""
    return _mean_loss("mean_absolute_error", "absolute", y_true, y_pred, sample_weight, multioutput)


def mean_squared_log_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error of log(1 + y); ValueError for values <= -1, as scikit-learn's."""
    return _mean_loss("mean_squared_log_error", "log", y_true, y_pred, sample_weight, multioutput)


def root_mean_squared_log_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Root of the mean squared log error (per output, then averaged)."""
    return _mean_loss("root_mean_squared_log_error", "log", y_true, y_pred, sample_weight, multioutput, True)


def mean_absolute_percentage_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean of |y_pred - y_true| / max(|y_true|, eps), as scikit-learn's."""
    return _mean_loss("mean_absolute_percentage_error", "percentage", y_true, y_pred, sample_weight,
                      multioutput)


def _abs_error(y_true, y_pred):
    return np.abs(_as_2d(y_pred) - _as_2d(y_true))


def _weighted_median(rows, counts, multioutput):
    return skm.median_absolute_error(np.zeros_like(rows[0]), rows[0], sample_weight=counts,
                                     multioutput=multioutput)


def median_absolute_error(y_true, y_pred, *, multioutput="uniform_average", sample_weight=None):
    """Median of |y_true - y_pred| per output (weighted: scikit-learn's averaged weighted
    percentile), then averaged over outputs."""
    y_true, y_pred, weights, shape = _checked("median_absolute_error", y_true, y_pred, sample_weight,
                                              multioutput)
    n_out = 1 if y_true.ndim == 1 else int(y_true.shape[1])
    errors = row_map(_abs_error, [y_true, y_pred], shape=(y_true.shape[0], n_out), dtype=np.float64,
                     label="median_absolute_error")
    if weights:
        # the distinct (error row, weight) pairs meet in one chunk: as many as the rows when
        # the errors are all different, so this gathers the errors (not X)
        return compressed(_weighted_median, [errors], sample_weight, shape=shape, dtype=np.float64,
                          kwargs={"multioutput": multioutput}, label="median_absolute_error")
    medians = mt.median(errors, axis=0).rechunk(n_out)  # n_out values: one block
    return row_reduce(_identity, _first, _Finish(multioutput, of_mean=False), [medians], shape=shape,
                      dtype=np.float64, label="median_absolute_error")


def _identity(block):
    return block


def _first(parts):
    return parts[0]


def _max_abs(y_true, y_pred):
    return float(np.max(np.abs(y_true - y_pred), initial=-np.inf))


def max_error(y_true, y_pred):
    """The largest absolute residual (single output only), as scikit-learn's."""
    y_true, y_pred = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(y_true, y_pred)
    skm.max_error(_sample(y_true), _sample(y_pred))  # ValueError for multioutput, as scikit-learn
    return row_reduce(_max_abs, max, float, [y_true.astype(np.float64), y_pred.astype(np.float64)],
                      dtype=np.float64, label="max_error")


class _ExplainedFinish:
    def __init__(self, multioutput, force_finite):
        self.multioutput, self.force_finite = multioutput, force_finite

    def __call__(self, value):
        total, means, squares = value
        d = len(means) // 2
        # numerator: variance of the residuals; denominator: variance of y_true
        return _assemble((squares[:d] / total, squares[d:] / total, 2), self.multioutput, self.force_finite)

    def __mars_token__(self):
        return ("learn.metrics.explained_variance", self.multioutput, self.force_finite)


def _residual_and_truth(y_true, y_pred):
    yt = _as_2d(y_true)
    return np.hstack([yt - _as_2d(y_pred), yt])


def explained_variance_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average",
                             force_finite=True):
    """1 - Var(y_true - y_pred) / Var(y_true) per output, from one pass of weighted moments."""
    y_true, y_pred, weights, shape = _checked("explained_variance_score", y_true, y_pred, sample_weight,
                                              multioutput, force_finite=force_finite)
    n_out = 1 if y_true.ndim == 1 else int(y_true.shape[1])
    both = row_map(_residual_and_truth, [y_true, y_pred], shape=(y_true.shape[0], 2 * n_out), dtype=np.float64,
                   label="explained_variance_score")
    w = [weights[0].astype(np.float64)] if weights else []
    return row_reduce(moments.scatter_block, moments.merge_scatter, _ExplainedFinish(multioutput, force_finite),
                      [both, *w], shape=shape, dtype=np.float64,
                      kwargs={"weighted": bool(w), "diagonal": True}, label="explained_variance_score")
