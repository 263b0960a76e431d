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


def class_counts(label, classes: np.ndarray) -> np.ndarray:
    """How many rows carry each of ``classes`` (the label column's sorted distinct values)."""
    if isinstance(label, Tensor):
        from ...tensor.setops import unique

        values, counts = unique(label, return_counts=True)
        values, counts = np.asarray(values.fetch()), np.asarray(counts.fetch())
    else:
        vc = label.value_counts().fetch()
        values, counts = vc.index.to_numpy(), vc.to_numpy()
    order = np.argsort(values)
    return counts[order][np.searchsorted(values[order], classes)]
