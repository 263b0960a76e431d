"""``md.merge_ordered``: pandas' ordered merge, a ``merge`` sorted by the keys, with
``fill_method='ffill'`` carrying each side's last matched row into the rows it has no match in.

The fill is a prefix scan over the merged blocks (``scan.Scan``): a block's summary is each
side's last matched row, the carry the last one before the block. A side's columns keep their
own dtypes when the first merged row has a match on that side (nothing is left missing): that
fact is computed when called, as the result's dtypes depend on it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .merge import _lazy_frame, merge
from .reshape import compute_now
from .scan import Kernel, scan

__all__ = ["merge_ordered"]

_LEFT, _RIGHT = "__mars_ordered_l__", "__mars_ordered_r__"


def _last_matched(chunk, marker, columns):
    rows = np.flatnonzero(chunk[marker].notna().to_numpy())
    return chunk.iloc[rows[-1:], list(columns)] if len(rows) else None


class FillMatched(Kernel):
    """Forward fill of each side's columns from that side's last matched row."""

    def __init__(self, sides, casts):
        self.sides = sides  # ((marker, column positions), ...)
        self.casts = casts  # ((column position, dtype), ...): sides with nothing left missing

    def summary(self, chunk):
        return [_last_matched(chunk, m, cols) for m, cols in self.sides]

    def combine(self, state, s):
        return [b if b is not None else a for a, b in zip(state, s)]

    def apply(self, chunk, carry):
        out = chunk.copy()
        for k, (marker, cols) in enumerate(self.sides):
            matched = out[marker].notna().to_numpy()
            part = chunk.iloc[:, list(cols)]
            prior = carry[k] if carry is not None else None
            if prior is not None:
                part, matched = pd.concat([prior, part]), np.r_[True, matched]
            pos = np.where(matched, np.arange(len(matched)), -1)
            pos = np.maximum.accumulate(pos) if len(pos) else pos
            filled = part.iloc[np.maximum(pos, 0)]
            keep = (pos >= 0) & ~matched
            if prior is not None:
                filled, keep = filled.iloc[1:], keep[1:]
            for j, c in enumerate(cols):
                if keep.any():
                    column = out.iloc[:, c].copy()
                    column.iloc[np.flatnonzero(keep)] = filled.iloc[np.flatnonzero(keep), j].to_numpy()
                    out.isetitem(c, column)
        for c, dtype in self.casts:
            if out.dtypes.iloc[c] != dtype:
                out.isetitem(c, out.iloc[:, c].astype(dtype))
        return out


def merge_ordered(left, right, on=None, left_on=None, right_on=None, left_by=None, right_by=None,
                  fill_method=None, suffixes=("_x", "_y"), how="outer"):
    """Merge sorted by the join keys, as ``pandas.merge_ordered``; ``fill_method='ffill'``
    fills the rows a side has no match in with that side's previous matched row."""
    if left_by is not None or right_by is not None:
        raise NotImplementedError("merge_ordered(left_by=, right_by=) is not supported")
    if fill_method not in (None, "ffill"):
        raise ValueError("fill_method must be 'ffill' or None")
    left, right = _lazy_frame(left), _lazy_frame(right)
    pd.merge_ordered(left.data.meta, right.data.meta, on=on, left_on=left_on, right_on=right_on,
                     suffixes=suffixes, how=how)  # pandas' errors
    kw = dict(on=on, left_on=left_on, right_on=right_on, suffixes=suffixes, how=how, sort=True)
    if fill_method is None:
        return merge(left, right, **kw).reset_index(drop=True)
    marked = merge(left.assign(**{_LEFT: True}), right.assign(**{_RIGHT: True}), **kw)
    meta = marked.data.meta
    names = list(meta.columns)
    li, ri = names.index(_LEFT), names.index(_RIGHT)
    keys = set([on] if isinstance(on, str) else (on or []))
    sides = ((_LEFT, tuple(i for i in range(li) if names[i] not in keys)),
             (_RIGHT, tuple(i for i in range(li + 1, ri) if names[i] not in keys)))
    first = compute_now(marked[[_LEFT, _RIGHT]].head(1), marked)
    lmeta, rmeta = left.data.meta, right.data.meta
    out_meta, casts = meta.copy(), []
    for k, (marker, cols) in enumerate(sides):
        if len(first) and first[marker].notna().iloc[0]:
            side = lmeta if k == 0 else rmeta
            for c in cols:  # no row left unmatched: pandas keeps the side's own dtype
                source = _source_column(names[c], side, suffixes[k])
                if source is not None:
                    out_meta.isetitem(c, out_meta.iloc[:, c].astype(side[source].dtype))
                    casts.append((c, side[source].dtype))
    filled = scan(marked, FillMatched(sides, tuple(casts)), out_meta, "md.merge_ordered")
    return filled.drop(columns=[_LEFT, _RIGHT]).reset_index(drop=True)


def _source_column(name, side, suffix):
    if name in side.columns:
        return name
    if suffix and name.endswith(suffix) and name[:-len(suffix)] in side.columns:
        return name[:-len(suffix)]
    return None

