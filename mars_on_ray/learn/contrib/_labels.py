"""Small facts about label columns, computed by mars and fetched (a few values)."""
from __future__ import annotations

import numpy as np

from ...tensor.core import Tensor


def classes_of(label) -> np.ndarray:
    """The sorted distinct labels of a lazy 1-D label column."""
    if isinstance(label, Tensor):
        from ...tensor.setops import unique

        return np.asarray(unique(label).fetch())
    return np.unique(np.asarray(label.unique().fetch()))
