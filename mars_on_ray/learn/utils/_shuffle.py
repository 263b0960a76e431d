"""``shuffle``: the rows of several arrays in one random order, the same order scikit-learn's
``shuffle`` gives for the same ``random_state`` (the positions come from scikit-learn applied
to ``arange(n)``), for any chunking."""
from __future__ import annotations

import numpy as np
from sklearn import utils as _sku

from .._compute import as_lazy, n_rows, take_rows
from .validation import check_consistent_length

__all__ = ["shuffle"]


def shuffle(*arrays, random_state=None, n_samples=None):
    """Rows of each array (tensors, mars frames, NumPy, pandas) permuted consistently; lazy."""
    if not arrays:
        return None
    present = [a for a in arrays if a is not None]
    check_consistent_length(*present)
    lazy = [None if a is None else as_lazy(a) for a in arrays]
    n = n_rows(next(a for a in lazy if a is not None))
    positions = _sku.shuffle(np.arange(n), random_state=random_state, n_samples=n_samples)
    out = [None if a is None else take_rows(a, positions) for a in lazy]
    return out[0] if len(out) == 1 else out
