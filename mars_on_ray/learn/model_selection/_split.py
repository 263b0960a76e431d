"""Splitting rows: ``train_test_split`` and the cross-validators.

The row positions are scikit-learn's own, computed from ``arange(n)`` (and the ``stratify``
labels, computed first when lazy), so a split equals scikit-learn's for the same
``random_state`` whatever the chunking; the rows are then taken lazily.
"""
from __future__ import annotations

import numpy as np
from sklearn import model_selection as _skms

from .._compute import as_lazy, compute_now, n_rows, take_rows
from .._convert import is_lazy, to_tensor
from ..utils.validation import check_consistent_length

__all__ = ["train_test_split", "KFold", "StratifiedKFold", "ShuffleSplit", "StratifiedShuffleSplit",
           "GroupKFold"]


def _rows(x, positions: np.ndarray):
    """Rows at ``positions``; for a tensor a contiguous ascending run is taken as a slice (no
    gather). Frames always take positions, so their index is what pandas gives for them."""
    run = len(positions) and np.array_equal(positions, np.arange(positions[0], positions[0] + len(positions)))
    if run and not hasattr(x, "iloc"):
        return x[int(positions[0]):int(positions[0]) + len(positions)]
    return take_rows(x, positions)


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True,
                     stratify=None):
    """[a_train, a_test, b_train, b_test, ...]: lazy row subsets equal to scikit-learn's split."""
    if not arrays:
        raise ValueError("At least one array required as input")
    check_consistent_length(*arrays)
    lazy = [as_lazy(a) for a in arrays]
    n = n_rows(lazy[0])
    if stratify is not None:
        stratify = np.asarray(compute_now(to_tensor(stratify))) if is_lazy(stratify) else stratify
    train, test = _skms.train_test_split(np.arange(n), test_size=test_size, train_size=train_size,
                                         random_state=random_state, shuffle=shuffle, stratify=stratify)
    out = []
    for a in lazy:
        out.extend((_rows(a, train), _rows(a, test)))
    return out


class KFold(_skms.KFold):
    """scikit-learn's K-fold cross-validator, taking lazy data: ``split`` yields the same NumPy
    (train, test) positions as scikit-learn's for the same number of rows (index lazy data
    with them: ``X[train]``)."""

    def split(self, X, y=None, groups=None):
        n = n_rows(as_lazy(X) if not hasattr(X, "shape") else X)
        yield from super().split(np.empty((n, 0)), None if y is None else np.empty(n), groups)


def _values(v):
    """Labels / groups in memory: scikit-learn's positions depend on every one of them (as
    large as the positions a split yields, one value per row, never X)."""
    if v is None or not is_lazy(v):
        return v
    return np.asarray(compute_now(to_tensor(v)))


class _LazySplit:
    """``split`` on scikit-learn's positions for the number of rows and the labels / groups."""

    def split(self, X, y=None, groups=None):
        n = n_rows(as_lazy(X) if not hasattr(X, "shape") else X)
        y, groups = _values(y), _values(groups)
        check_consistent_length(np.empty(n), y, groups)
        yield from super().split(np.empty((n, 0)), y, groups)


class StratifiedKFold(_LazySplit, _skms.StratifiedKFold):
    """scikit-learn's stratified K-fold on lazy data: the same (train, test) positions."""


class ShuffleSplit(_LazySplit, _skms.ShuffleSplit):
    """scikit-learn's random permutation splits on lazy data: the same positions."""


class StratifiedShuffleSplit(_LazySplit, _skms.StratifiedShuffleSplit):
    """scikit-learn's stratified random splits on lazy data: the same positions."""


class GroupKFold(_LazySplit, _skms.GroupKFold):
    """scikit-learn's K-fold with non-overlapping groups on lazy data: the same positions."""
