"""``LabelEncoder``, ``LabelBinarizer``, ``label_binarize``.

Fitting computes the classes (and the target type) by merging per-block distinct values and
builds scikit-learn's fitted object from them; transforms run that object block by block."""
from __future__ import annotations

import numpy as np
from sklearn import preprocessing as skp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._encode import _unique
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_reduce
from .._compute import compute_now
from .._convert import is_lazy, to_tensor
from .._per_block import per_block
from ..utils.multiclass import type_of_target
from ..utils.validation import column_or_1d

__all__ = ["LabelEncoder", "LabelBinarizer", "label_binarize"]


def _distinct(block):
    return _unique(block)


def _union(parts):
    return _unique(np.concatenate(parts))


def _identity(x):
    return x


def _classes(y):
    return row_reduce(_distinct, _union, _identity, [y], shape=(float("nan"),), dtype=y.dtype,
                      label="classes")


class LabelEncoder(TransformerMixin, BaseEstimator):
    """Encode labels as 0 .. n_classes - 1, as scikit-learn's ``LabelEncoder``."""

    def fit(self, y):
        """Find the sorted distinct labels (``classes_``)."""
        y = column_or_1d(y, warn=True)
        self.classes_ = compute_now(_classes(y))
        return self

    def fit_transform(self, y):
        return self.fit(y).transform(y)

    def _sk(self):
        sk = skp.LabelEncoder()
        sk.classes_ = self.classes_
        return sk

    def transform(self, y):
        """Lazy label codes; unseen labels raise scikit-learn's ValueError when run."""
        check_is_fitted(self)
        y = column_or_1d(y, dtype=self.classes_.dtype if self.classes_.dtype.kind != "O" else None, warn=True)
        return per_block(self._sk(), "transform", y, rest_shape=(), dtype=np.int64,
                         label="LabelEncoder.transform")

    def inverse_transform(self, y):
        """Lazy labels of codes ``y``."""
        check_is_fitted(self)
        y = column_or_1d(y, warn=True)
        return per_block(self._sk(), "inverse_transform", y, rest_shape=(), dtype=self.classes_.dtype,
                         label="LabelEncoder.inverse_transform")


class LabelBinarizer(TransformerMixin, BaseEstimator):
    """One-vs-all label indicators, as scikit-learn's ``LabelBinarizer``."""

    def __init__(self, *, neg_label=0, pos_label=1, sparse_output=False):
        self.neg_label = neg_label
        self.pos_label = pos_label
        self.sparse_output = sparse_output

    def _check_params(self):
        if self.neg_label >= self.pos_label:
            raise ValueError(f"neg_label={self.neg_label} must be strictly less than pos_label={self.pos_label}.")
        if self.sparse_output:
            raise NotImplementedError("sparse_output=True is not supported on chunked data")

    def fit(self, y):
        """Find the target type and the classes."""
        self._check_params()
        y = to_tensor(y)
        if y.shape[0] == 0:
            raise ValueError("y has 0 samples: %r" % y)
        kind = str(compute_now(type_of_target(y, input_name="y")))
        if "multioutput" in kind:
            raise ValueError("Multioutput target data is not supported with label binarization")
        self.y_type_ = kind
        self.sparse_input_ = False
        if kind.startswith("multilabel"):
            self.classes_ = np.arange(int(y.shape[1]))
        else:
            classes = compute_now(_classes(y.ravel() if y.ndim == 2 else y))
            self.classes_ = np.asarray(sorted(classes)) if classes.dtype.kind == "O" else classes
        return self

    def fit_transform(self, y):
        return self.fit(y).transform(y)

    def _sk(self):
        sk = skp.LabelBinarizer(neg_label=self.neg_label, pos_label=self.pos_label)
        sk.classes_, sk.y_type_, sk.sparse_input_ = self.classes_, self.y_type_, False
        return sk

    def transform(self, y):
        """Lazy indicator matrix of ``y``."""
        check_is_fitted(self)
        y = to_tensor(y)
        if y.ndim == 2 and y.shape[1] > 1 and not self.y_type_.startswith("multilabel"):
            raise ValueError("The object was not fitted with multilabel input.")
        return label_binarize(y, classes=self.classes_, neg_label=self.neg_label, pos_label=self.pos_label)

    def inverse_transform(self, Y, threshold=None):
        """Lazy labels of indicator matrix ``Y``."""
        check_is_fitted(self)
        Y = to_tensor(Y)
        rest = (len(self.classes_),) if self.y_type_.startswith("multilabel") else ()
        return per_block(self._sk(), "inverse_transform", Y, rest_shape=rest, dtype=self.classes_.dtype,
                         kwargs={"threshold": threshold}, label="LabelBinarizer.inverse_transform")


def _binarize(block, *kind, classes, neg_label, pos_label):
    out = skp.label_binarize(block, classes=classes, neg_label=neg_label, pos_label=pos_label)
    if kind and str(kind[0]) != "binary" and out.shape[1] == 1:
        # two classes, but the whole y has more labels than this block: one column per class
        hit = np.column_stack([block == c for c in classes])
        out = np.where(hit, pos_label, neg_label).astype(out.dtype)
    return out


def label_binarize(y, *, classes, neg_label=0, pos_label=1, sparse_output=False):
    """Labels ``y`` as indicators of ``classes`` (one column for two classes); lazy."""
    from .._blocks import row_map

    if sparse_output:
        raise NotImplementedError("sparse_output=True is not supported on chunked data")
    if neg_label >= pos_label:
        raise ValueError(f"neg_label={neg_label} must be strictly less than pos_label={pos_label}.")
    given, y = y, to_tensor(y)
    classes = np.asarray(classes)
    if y.ndim == 2 and y.shape[1] > 1:
        width = int(y.shape[1])
        if width != len(classes):
            raise ValueError("classes {0} mismatch with the labels {1} found in the data".format(
                classes, np.arange(width)))
        wholes = []
    else:
        width = 1 if len(classes) <= 2 else len(classes)
        # with two classes the width depends on the whole y (binary: 1, more labels: 2)
        wholes = [type_of_target(given)] if len(classes) == 2 else []
        if wholes and not is_lazy(wholes[0]):
            width = 1 if wholes[0] == "binary" else 2
            wholes = []
        elif wholes:
            width = float("nan")
    return row_map(_binarize, [y], wholes, shape=(y.shape[0], width), dtype=np.int64,
                   kwargs={"classes": classes, "neg_label": neg_label, "pos_label": pos_label},
                   label="label_binarize")
