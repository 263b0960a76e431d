"""A join by direct addressing: integer keys in a dense range, unique on the broadcast side.

pandas' merge hashes the keys of both sides: a 2.5M x 1M row inner join spends 90% of its time
in that hashing. When the small (right) side of a broadcast inner / left join has unique
integer keys in a dense range (``groupby_dense.dense_span``) (surrogate keys, ids: every TPC-H
key), an array indexed by key gives each left row its right row: one pass to fill, one gather,
no hash table. Rows come out in the left side's order, as pandas gives them. Anything else
(other key kinds, repeated or sparse keys, index joins, sort=, indicator=, validate=) returns
None and pandas merges.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .groupby_dense import dense_span

def _key_names(kwargs) -> tuple | None:
    """(left key, right key) column names of a merge on one column each, else None."""
    if kwargs["left_index"] or kwargs["right_index"]:
        return None
    left, right = (kwargs["on"], kwargs["on"]) if kwargs["on"] is not None else \
        (kwargs["left_on"], kwargs["right_on"])
    left = left[0] if isinstance(left, list) and len(left) == 1 else left
    right = right[0] if isinstance(right, list) and len(right) == 1 else right
    if isinstance(left, (list, tuple, pd.Series, np.ndarray)) or left is None:
        return None
    if isinstance(right, (list, tuple, pd.Series, np.ndarray)) or right is None:
        return None
    return left, right


def _int_keys(frame: pd.DataFrame, name):
    column = frame[name] if name in frame.columns else None
    if not isinstance(column, pd.Series) or not isinstance(column.dtype, np.dtype):
        return None  # a repeated column label, an index level, a nullable or other key
    return column.to_numpy() if column.dtype.kind == "i" else None


def _slots(keys: np.ndarray):
    """(lowest key, key -> row array) of unique keys in a dense range, else None."""
    found = dense_span(keys)
    if found is None:
        return None
    lo, span = found
    slots = np.full(span, -1, dtype=np.int32 if len(keys) < 2**31 else np.int64)
    slots[keys - lo] = np.arange(len(keys))
    if np.count_nonzero(slots >= 0) != len(keys):
        return None  # repeated keys: a row may match several
    return lo, slots


def direct_join(left: pd.DataFrame, right: pd.DataFrame, kwargs: dict, columns: pd.Index):
    """``pd.merge(left, right, **kwargs)`` with ``columns`` by direct addressing, or None
    where it does not apply (see the module docstring)."""
    if (kwargs["how"] not in ("inner", "left") or kwargs["sort"] or kwargs["indicator"]
            or kwargs["validate"] is not None or not len(right)):
        return None
    names = _key_names(kwargs)
    if names is None:
        return None
    lkeys, rkeys = _int_keys(left, names[0]), _int_keys(right, names[1])
    if lkeys is None or rkeys is None:
        return None
    found = _slots(rkeys)
    if found is None:
        return None
    lo, slots = found
    inside = (lkeys >= lo) & (lkeys < lo + len(slots))  # others match no row
    rows = np.full(len(lkeys), -1, dtype=slots.dtype)
    rows[inside] = slots[lkeys[inside] - lo]
    right_part = right.drop(columns=[names[1]]) if names[0] == names[1] else right
    if kwargs["how"] == "inner":
        matched = np.flatnonzero(rows >= 0)
        left_part, right_part = left.take(matched), right_part.take(rows[matched])
    else:  # unmatched rows get missing values, with pandas' dtype promotion
        left_part = left
        right_part = right_part.reset_index(drop=True).reindex(rows)
    if left_part.shape[1] + right_part.shape[1] != len(columns):
        return None
    res = pd.concat([left_part.reset_index(drop=True), right_part.reset_index(drop=True)], axis=1)
    res.columns = columns
    return res
