"""``r2_score`` in two chunked passes: weighted means, then the two sums of squares."""
from __future__ import annotations

import warnings

import numpy as np
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from .._blocks import row_reduce
from .._convert import to_tensor
from ..utils.validation import check_consistent_length

__all__ = ["r2_score"]


def _as_2d(a):
    return a.reshape(len(a), -1).astype(np.float64)


def _weights(y, w):
    return np.ones(len(y)) if w is None else np.asarray(w, np.float64).reshape(-1)


def _sums(y, w=None):
    """(weighted column sums, weight sum, row count) of one block."""
    y = _as_2d(y)
    w = _weights(y, w)
    return (w[:, None] * y).sum(axis=0), w.sum(), len(y)


def _add(parts):
    return tuple(sum(p[i] for p in parts) for i in range(len(parts[0])))


def _means_and_n(total):
    """[column means..., number of rows] (what the second pass needs, as one small array)."""
    sums, weight, n = total
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.append(sums / weight, n)


def _squares(y_true, y_pred, *rest):
    """(residual sum of squares, total sum of squares, rows) of one block."""
    w, stats = (None, rest[0]) if len(rest) == 1 else rest
    yt, yp = _as_2d(y_true), _as_2d(y_pred)
    weight = _weights(yt, w)[:, None]
    return (weight * (yt - yp) ** 2).sum(axis=0), (weight * (yt - stats[:-1]) ** 2).sum(axis=0), stats[-1]


def _add_squares(parts):
    return sum(p[0] for p in parts), sum(p[1] for p in parts), parts[0][2]


def _assemble(sums, multioutput, force_finite):
    numerator, denominator, n = sums
    if n < 2:
        warnings.warn("R^2 score is not well-defined with less than two samples.", UndefinedMetricWarning)
        return float("nan")
    nonzero_den = denominator != 0
    if not force_finite:
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = 1 - numerator / denominator
    else:
        nonzero_num = numerator != 0
        scores = np.ones(len(numerator))
        valid = nonzero_den & nonzero_num
        scores[valid] = 1 - numerator[valid] / denominator[valid]
        scores[nonzero_num & ~nonzero_den] = 0.0
    weights = None
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return scores
        if multioutput == "variance_weighted" and np.any(nonzero_den):
            weights = denominator
    else:
        weights = np.asarray(multioutput)
    result = np.average(scores, weights=weights)
    return float(result) if np.size(result) == 1 else result


def _sample(t):
    """A zero array of ``t``'s rank with two rows, for scikit-learn's shape checks."""
    return np.zeros((2,) + tuple(int(s) for s in t.shape[1:]))


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True):
    """The coefficient of determination R^2, as scikit-learn's (two passes over the rows)."""
    y_true, y_pred = to_tensor(y_true), to_tensor(y_pred)
    check_consistent_length(y_true, y_pred, sample_weight)
    with warnings.catch_warnings():  # scikit-learn's own errors for shapes and multioutput
        warnings.simplefilter("ignore")
        skm.r2_score(_sample(y_true), _sample(y_pred), multioutput=multioutput,
                     sample_weight=None if sample_weight is None else np.ones(2))
    weights = [] if sample_weight is None else [to_tensor(sample_weight)]
    n_out = 1 if y_true.ndim == 1 else int(y_true.shape[1])
    stats = row_reduce(_sums, _add, _means_and_n, [y_true, *weights], shape=(n_out + 1,),
                       dtype=np.float64, label="r2_score")
    shape = (n_out,) if isinstance(multioutput, str) and multioutput == "raw_values" else ()
    return row_reduce(_squares, _add_squares, _Assemble(multioutput, force_finite),
                      [y_true, y_pred, *weights], [stats], shape=shape, dtype=np.float64, label="r2_score")


class _Assemble:
    def __init__(self, multioutput, force_finite):
        self.multioutput, self.force_finite = multioutput, force_finite

    def __call__(self, sums):
        return _assemble(sums, self.multioutput, self.force_finite)

    def __mars_token__(self):
        return ("r2_score.assemble", self.multioutput, self.force_finite)
