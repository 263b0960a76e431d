"""Block kernels of label propagation (pure NumPy)."""
from __future__ import annotations

import functools
import operator

import numpy as np


def rbf_times(q, f, Y, *, offset, gamma):
    """exp(-gamma |q - f|^2) @ Y of one pair of blocks."""
    d = (q * q).sum(1)[:, None] - 2.0 * (q @ f.T) + (f * f).sum(1)[None, :]
    np.maximum(d, 0, out=d)
    return np.exp(-gamma * d) @ Y


def add_all(parts, **_):
    return functools.reduce(operator.add, parts)


def neighbour_sums(ind, Y):
    """Row i: the sum of Y over row i's nearest neighbours (the knn graph times Y)."""
    return Y[ind].sum(1)


def normalize_rows(P):
    s = P.sum(1, keepdims=True)
    s[s == 0] = 1
    return P / s


def clamp(raw, static, unlabeled):
    """Normalised propagated labels, with the labelled rows reset to their labels."""
    return np.where(unlabeled[:, None], normalize_rows(raw), static)


def abs_diff(a, b):
    return float(np.abs(a - b).sum())


def proba(raw):
    with np.errstate(invalid="ignore", divide="ignore"):
        return raw / raw.sum(1, keepdims=True)


def argmax_classes(P, *, classes):
    return classes[np.argmax(P, axis=1)]
