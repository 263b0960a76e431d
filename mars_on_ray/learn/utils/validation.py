"""Input validation like ``sklearn.utils.validation``, returning lazy tensors.

In-memory input (NumPy, pandas, lists) goes through scikit-learn's own check first, so its
errors, warnings and conversions are scikit-learn's exactly; lazy input (tensors, mars frames)
is checked on what is known at build time (ndim, known extents, dtype) and, for values
(NaN / infinity), by a pass-through check that raises scikit-learn's ValueError when the
chunks run.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import DataConversionWarning
from sklearn.utils import validation as _skv

from ...core.blockwise import blockwise_tile
from ...core.operand import Operand
from ...tensor.core import Tensor, new_tensor
from ...tensor.rechunk import rechunk_tiled
from .._convert import is_lazy, to_tensor

__all__ = ["assert_all_finite", "check_array", "check_X_y", "check_consistent_length",
           "column_or_1d", "check_is_fitted", "num_samples", "validate_data"]

check_is_fitted = _skv.check_is_fitted  # works on attributes only: scikit-learn's is exact


class CheckFinite(Operand):
    """Each block unchanged, after scikit-learn's finiteness check on it."""

    _params = ("allow_nan", "input_name", "estimator_name")

    def tile(self, ctx, out):
        return blockwise_tile(self, out, [ctx[out.inputs[0]]], rechunk_tiled)

    def execute(self, block):
        _skv._assert_all_finite(block, allow_nan=self.allow_nan, input_name=self.input_name or "",
                                estimator_name=self.estimator_name)
        return block


def _checked_finite(t: Tensor, allow_nan: bool, input_name: str = "", estimator_name=None) -> Tensor:
    if t.dtype.kind not in "fc":  # integers, booleans: always finite (scikit-learn skips them too)
        return t
    op = CheckFinite(allow_nan=bool(allow_nan), input_name=input_name, estimator_name=estimator_name,
                     label="check_finite")
    return new_tensor(op, [t], t.shape, t.dtype)


def assert_all_finite(X, *, allow_nan=False, estimator_name=None, input_name="", check_only=True):
    """Raise ValueError if ``X`` holds NaN (unless ``allow_nan``) or infinity.

    In-memory input is checked now. Lazy input: returns a lazy boolean scalar (True) whose
    execution raises, or with ``check_only=False`` the tensor itself checked on execution."""
    if not is_lazy(X):
        _skv.assert_all_finite(X, allow_nan=allow_nan, estimator_name=estimator_name, input_name=input_name)
        return True if check_only else to_tensor(X)
    checked = _checked_finite(to_tensor(X), allow_nan, input_name)
    if not check_only:
        return checked
    from .._blocks import row_reduce

    flat = checked if checked.ndim == 1 else checked.reshape(-1)
    return row_reduce(_true, _all, np.bool_, [flat], dtype=bool, label="assert_all_finite")


def _true(block):
    return True


def _all(parts):
    return all(parts)


def num_samples(x):
    """The number of samples (rows) of array-like ``x``; nan while a lazy extent is unknown."""
    if is_lazy(x):
        if not x.shape:
            raise TypeError(f"Singleton array {x!r} cannot be considered a valid collection.")
        return x.shape[0]
    return _skv._num_samples(x)


def _known(n) -> bool:
    return not (isinstance(n, float) and math.isnan(n))


def check_consistent_length(*arrays):
    """ValueError when the arrays' known first extents differ (None entries are skipped).

    Lazy extents not known before execution are not compared."""
    lengths = [num_samples(x) for x in arrays if x is not None]
    known = [int(n) for n in lengths if _known(n)]
    if len(set(known)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: %r" % known)


def _lazy_dtype(t: Tensor, dtype):
    """The target dtype for ``check_array``'s ``dtype`` argument, or None to keep ``t``'s."""
    if dtype is None:
        return None
    if isinstance(dtype, str) and dtype == "numeric":
        return np.float64 if t.dtype.kind == "O" else None
    if isinstance(dtype, (list, tuple)):
        return None if t.dtype in [np.dtype(d) for d in dtype] else dtype[0]
    return None if t.dtype == np.dtype(dtype) else dtype


def check_array(array, accept_sparse=False, *, accept_large_sparse=True, dtype="numeric", order=None,
                copy=False, force_writeable=False, ensure_all_finite=True, ensure_non_negative=False,
                ensure_2d=True, allow_nd=False, ensure_min_samples=1, ensure_min_features=1,
                estimator=None, input_name="", force_all_finite=None):
    """``array`` validated like scikit-learn's ``check_array``, as a lazy tensor."""
    if force_all_finite is not None:  # the older scikit-learn name
        ensure_all_finite = force_all_finite
    if not is_lazy(array):
        checked = _skv.check_array(
            array, accept_sparse=accept_sparse, accept_large_sparse=accept_large_sparse, dtype=dtype,
            order=order, copy=copy, force_writeable=force_writeable, ensure_all_finite=ensure_all_finite,
            ensure_non_negative=ensure_non_negative, ensure_2d=ensure_2d, allow_nd=allow_nd,
            ensure_min_samples=ensure_min_samples, ensure_min_features=ensure_min_features,
            estimator=estimator, input_name=input_name)
        return to_tensor(checked)
    t = to_tensor(array)
    if t.dtype.kind == "c":
        raise ValueError("Complex data not supported\n{}\n".format(t))
    if ensure_2d:
        if t.ndim == 0:
            raise ValueError(f"Expected 2D array, got scalar array instead:\narray={t}.\n"
                             "Reshape your data either using array.reshape(-1, 1) if your data has "
                             "a single feature or array.reshape(1, -1) if it contains a single sample.")
        if t.ndim == 1:
            raise ValueError(f"Expected 2D array, got 1D array instead:\narray={t}.\n"
                             "Reshape your data either using array.reshape(-1, 1) if your data has "
                             "a single feature or array.reshape(1, -1) if it contains a single sample.")
    if not allow_nd and t.ndim >= 3:
        raise ValueError("Found array with dim %d, while dim <= 2 is required%s." % (t.ndim, _by(estimator)))
    target = _lazy_dtype(t, dtype)
    if t.dtype.kind in "USO" and isinstance(dtype, str) and dtype == "numeric" and t.dtype.kind != "O":
        raise ValueError("dtype='numeric' is not compatible with arrays of bytes/strings. "
                         "Convert your data to numeric values explicitly instead.")
    if target is not None:
        t = t.astype(target)
    if ensure_min_samples > 0 and t.ndim >= 1 and _known(t.shape[0]) and t.shape[0] < ensure_min_samples:
        raise ValueError("Found array with %d sample(s) (shape=%s) while a minimum of %d is required%s."
                         % (t.shape[0], t.shape, ensure_min_samples, _by(estimator)))
    if ensure_min_features > 0 and t.ndim == 2 and t.shape[1] < ensure_min_features:
        raise ValueError("Found array with %d feature(s) (shape=%s) while a minimum of %d is required%s."
                         % (t.shape[1], t.shape, ensure_min_features, _by(estimator)))
    if ensure_all_finite:
        t = _checked_finite(t, ensure_all_finite == "allow-nan", input_name,
                            None if estimator is None else _name(estimator))
    if ensure_non_negative:
        t = _checked_non_negative(t, _name(estimator))
    return t


def _name(estimator) -> str:
    if estimator is None:
        return "Estimator"
    return estimator if isinstance(estimator, str) else type(estimator).__name__


def _by(estimator) -> str:
    return "" if estimator is None else f" by {_name(estimator)}"


class CheckNonNegative(Operand):
    """Each block unchanged, after checking it holds no negative value."""

    _params = ("whom",)

    def tile(self, ctx, out):
        return blockwise_tile(self, out, [ctx[out.inputs[0]]], rechunk_tiled)

    def execute(self, block):
        if block.size and np.nanmin(block) < 0:
            raise ValueError(f"Negative values in data passed to {self.whom}")
        return block


def _checked_non_negative(t: Tensor, whom: str) -> Tensor:
    return new_tensor(CheckNonNegative(whom=whom, label="check_non_negative"), [t], t.shape, t.dtype)


def column_or_1d(y, *, dtype=None, input_name="y", warn=False, device=None):
    """``y`` as a 1-D tensor: (n,) or (n, 1) input, anything else is a ValueError."""
    if not is_lazy(y):
        return to_tensor(_skv.column_or_1d(y, dtype=dtype, input_name=input_name, warn=warn))
    t = to_tensor(y, dtype=dtype)
    if t.ndim == 1:
        return t
    if t.ndim == 2 and t.shape[1] == 1:
        if warn:
            warnings.warn("A column-vector y was passed when a 1d array was expected. Please change "
                          "the shape of y to (n_samples, ), for example using ravel().",
                          DataConversionWarning, stacklevel=2)
        return t.ravel()
    raise ValueError(f"{input_name} should be a 1d array, got an array of shape {t.shape} instead.")


def check_X_y(X, y, accept_sparse=False, *, accept_large_sparse=True, dtype="numeric", order=None,
              copy=False, force_writeable=False, ensure_all_finite=True, ensure_2d=True, allow_nd=False,
              multi_output=False, ensure_min_samples=1, ensure_min_features=1, y_numeric=False,
              estimator=None, force_all_finite=None):
    """(X, y) validated like scikit-learn's ``check_X_y``, as lazy tensors."""
    if y is None:
        name = "estimator" if estimator is None else _name(estimator)
        raise ValueError(f"{name} requires y to be passed, but the target y is None")
    X = check_array(X, accept_sparse=accept_sparse, accept_large_sparse=accept_large_sparse, dtype=dtype,
                    order=order, copy=copy, force_writeable=force_writeable,
                    ensure_all_finite=ensure_all_finite, ensure_2d=ensure_2d, allow_nd=allow_nd,
                    ensure_min_samples=ensure_min_samples, ensure_min_features=ensure_min_features,
                    estimator=estimator, input_name="X", force_all_finite=force_all_finite)
    if multi_output:
        y = check_array(y, accept_sparse=accept_sparse, ensure_all_finite=True, ensure_2d=False,
                        dtype=None, input_name="y", ensure_min_samples=0)
    else:
        y = column_or_1d(y, warn=True)
        y = _checked_finite(y, False, "y")
        if y_numeric and y.dtype.kind == "O":
            y = y.astype(np.float64)
    check_consistent_length(X, y)
    return X, y


def _names_of(X):
    """What scikit-learn reads feature names from: a pandas frame (a mars frame's columns on
    an empty one), else an object without names."""
    if is_lazy(X) and isinstance(getattr(X, "columns", None), pd.Index):
        return pd.DataFrame(columns=X.columns)
    return X if isinstance(X, pd.DataFrame) else None


def with_known_rows(t: Tensor) -> Tensor:
    """``t`` executed if its number of rows is unknown (a boolean selection's), so that its
    shape is known: for estimators whose fit reads the data anyway."""
    if not _known(t.shape[0]):
        t.execute()
    return t


def check_sample_weight(sample_weight, X, dtype=None):
    """``sample_weight`` as a 1-d float tensor of X's length, with scikit-learn's ValueErrors
    (``_check_sample_weight``) at build time where the lengths are known; None stays None.
    In-memory weights (or a scalar) go through scikit-learn's own check (all zeros refused);
    lazy weights are checked on their shape only."""
    if sample_weight is None:
        return None
    n = num_samples(X)
    if not is_lazy(sample_weight) and _known(n):
        stand_in = np.empty((int(n), 0))
        return to_tensor(_skv._check_sample_weight(sample_weight, stand_in, dtype=dtype))
    w = check_array(sample_weight, ensure_2d=False, dtype=dtype or [np.float64, np.float32],
                    input_name="sample_weight", ensure_min_samples=0)
    if w.ndim != 1:
        raise ValueError(f"Sample weights must be 1D array or scalar, got {w.ndim}D array. Expected either a "
                         "scalar value or a 1D array of length the number of samples.")
    if _known(n) and _known(w.shape[0]) and w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == {tuple(int(s) for s in w.shape)}, expected {(int(n),)}!")
    return w


def require_y(estimator, y):
    """scikit-learn's ValueError when a supervised estimator is fitted with ``y=None``."""
    if y is None:
        raise ValueError(f"{_name(estimator)} requires y to be passed, but the target y is None")


def check_feature_names(estimator, X):
    """scikit-learn's warning / ValueError when X's feature names differ from fit's."""
    _skv._check_feature_names(estimator, _names_of(X), reset=False)


def validate_data(estimator, X, *, reset: bool, **check_params) -> Tensor:
    """``X`` checked as scikit-learn's ``validate_data`` does, as a lazy tensor:
    ``feature_names_in_`` / ``n_features_in_`` set (``reset``, in fit) or compared with fit's
    (scikit-learn's warnings and ValueErrors, at build time), then ``check_array``."""
    _skv._check_feature_names(estimator, _names_of(X), reset=reset)
    t = check_array(X, estimator=estimator, **{"input_name": "X", **check_params})
    _skv._check_n_features(estimator, t, reset=reset)
    return t
