"""Estimator inputs as tensors (interim: learn-data's shared input helper replaces it)."""
from __future__ import annotations

import numpy as np

from ..core.user import Tileable
from ..tensor.core import Tensor, as_tensor


def as_rows(X, *, ndim: int = 2, float_dtype: bool = True, name: str = "X") -> Tensor:
    """``X`` (tensor, DataFrame, array, pandas) as a tensor of ``ndim`` dims, floats if asked;
    scikit-learn's ValueError for a wrong number of dimensions or no samples."""
    if isinstance(X, Tensor):
        t = X
    elif isinstance(X, Tileable):  # a mars DataFrame / Series: its values, block for block
        t = _frame_values(X)
    else:
        values = X.to_numpy() if hasattr(X, "to_numpy") else np.asarray(X)
        t = as_tensor(values)
    if t.ndim != ndim:
        raise ValueError(f"Expected {ndim}D array, got {t.ndim}D array instead for {name}")
    if t.shape and t.shape[0] == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape={t.shape}) while a minimum of 1 is required.")
    if float_dtype and not np.issubdtype(t.dtype, np.floating):
        t = t.astype(np.float64)
    return t


def _frame_values(obj) -> Tensor:
    from ..dataframe.frame_tensor import to_tensor

    if obj.ndim == 1:
        return to_tensor(obj)
    raise NotImplementedError("mars DataFrame inputs need learn-data's conversion helper")
