"""``type_of_target`` / ``is_multilabel`` on chunked labels.

Each row block is summarised by a few of its values: the first one, its three smallest
distinct values and witnesses of a non-integral float, a NaN and an infinity. Merged in row
order, these values (all taken from the data) make a small array on which scikit-learn's own
function decides exactly as on the whole data: the same dtype, rank and column count, more
than two distinct values iff the data has them, non-integral / non-finite values iff the data
has them, and the same first element.
"""
from __future__ import annotations

import math

import numpy as np
from sklearn.utils import multiclass as _skm

from .._blocks import row_reduce
from .._convert import is_lazy, to_tensor

__all__ = ["type_of_target", "is_multilabel", "unique_labels"]


def _witnesses(flat: np.ndarray) -> np.ndarray:
    """Up to three values: a NaN, an infinity and a finite non-integral float, where present."""
    if flat.dtype.kind != "f" or flat.size == 0:
        return flat[:0]
    with np.errstate(invalid="ignore"):
        picked = [flat[np.isnan(flat)][:1], flat[np.isinf(flat)][:1]]
        finite = flat[np.isfinite(flat)]
        picked.append(finite[finite != np.trunc(finite)][:1])
    return np.concatenate(picked)


def _summary(block):
    flat = np.asarray(block).reshape(-1)
    if flat.size == 0:
        return None
    return flat[:1], np.unique(flat)[:3], _witnesses(flat)


def _merge(parts):
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    smallest = np.unique(np.concatenate([p[1] for p in parts]))[:3]
    return parts[0][0], smallest, _witnesses(np.concatenate([p[2] for p in parts]))


class _Decide:
    """scikit-learn's ``func`` on the array made of the merged summary's values."""

    def __init__(self, func: str, dtype, rest: tuple, kwargs: dict):
        self.func, self.dtype, self.rest, self.kwargs = func, np.dtype(dtype), tuple(rest), kwargs

    def __call__(self, merged):
        width = int(np.prod(self.rest)) if self.rest else 1
        if merged is None or width == 0:
            sample = np.empty((0,) + self.rest, self.dtype)
        else:
            values = np.concatenate(merged).astype(self.dtype, copy=False)
            rows = max(1, math.ceil(len(values) / width))
            filled = np.resize(values, rows * width)  # repeats values: no new distinct ones
            filled[:len(values)] = values
            sample = filled.reshape((rows,) + self.rest)
        return getattr(_skm, self.func)(sample, **self.kwargs)

    def __mars_token__(self):
        return ("multiclass.decide", self.func, self.dtype, self.rest, self.kwargs)


def _decided(func: str, y, dtype, kwargs=None):
    t = to_tensor(y)
    if t.ndim == 0:
        return getattr(_skm, func)(np.asarray(t.fetch()) if is_lazy(y) else y, **(kwargs or {}))
    return row_reduce(_summary, _merge, _Decide(func, t.dtype, t.shape[1:], kwargs or {}), [t],
                      dtype=dtype, label=func)


def type_of_target(y, input_name="", raise_unknown=False):
    """The kind of target (``'binary'``, ``'multiclass'``, ``'continuous'``,
    ``'multilabel-indicator'``, ...): scikit-learn's string for in-memory input, a lazy 0-d
    tensor holding it for lazy input."""
    if not is_lazy(y):
        return _skm.type_of_target(y, input_name=input_name, raise_unknown=raise_unknown)
    return _decided("type_of_target", y, object, {"input_name": input_name, "raise_unknown": raise_unknown})


def is_multilabel(y):
    """Whether ``y`` is a multilabel indicator matrix (lazy 0-d boolean for lazy input)."""
    if not is_lazy(y):
        return _skm.is_multilabel(y)
    return _decided("is_multilabel", y, bool)


def _distinct(block):
    return np.unique(block)


def _union(parts):
    return np.unique(np.concatenate(parts))


def _sorted_labels(values):
    return _skm.unique_labels(values)


def unique_labels(*ys):
    """The sorted distinct labels of 1-D label arrays, as a lazy tensor of unknown length."""
    if not any(is_lazy(y) for y in ys):
        return to_tensor(_skm.unique_labels(*ys))
    from ...tensor import concatenate

    flat = concatenate([to_tensor(y).ravel() for y in ys])
    return row_reduce(_distinct, _union, _sorted_labels, [flat], shape=(float("nan"),), dtype=flat.dtype,
                      label="unique_labels")
