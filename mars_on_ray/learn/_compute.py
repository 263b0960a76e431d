"""Small values needed when an object is built (sizes, class labels), and taking rows."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.user import Tileable
from ..tensor.core import Tensor
from ._convert import to_tensor


def compute_now(obj):
    """The value of a small lazy object, now: on the default session, or in this process."""
    from ..dataframe.accessors import learn

    return learn(obj)


def n_rows(x) -> int:
    """The number of rows of ``x``, computing a lazy extent that is not known yet."""
    n = x.shape[0] if hasattr(x, "shape") else len(x)
    if n != n:  # nan: unknown until the rows are counted
        from ._blocks import row_reduce

        return int(compute_now(row_reduce(len, sum, int, [to_tensor(x)], dtype=np.int64, label="count_rows")))
    return int(n)


def as_lazy(x):
    """Lazy form of ``x`` keeping its kind: pandas objects become mars frames, everything
    array-like a tensor; lazy objects are returned as they are."""
    if isinstance(x, Tileable):
        return x
    if isinstance(x, pd.DataFrame):
        from ..dataframe import DataFrame

        return DataFrame(x)
    if isinstance(x, pd.Series):
        from ..dataframe import Series

        return Series(x)
    return to_tensor(x)


def take_rows(x, indices: np.ndarray):
    """The rows of lazy ``x`` at the positions ``indices`` (a NumPy array), in that order."""
    if isinstance(x, Tensor):
        return x[indices]
    return x.iloc[indices]
