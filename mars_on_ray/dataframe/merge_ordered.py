"""``md.merge_ordered``: pandas' ordered merge, a ``merge`` sorted by the keys, with
``fill_method='ffill'`` carrying each side's last matched row into the rows it has no match in.

The fill is a prefix scan over the merged blocks (``scan.Scan``): a block's summary is each
side's last matched row, the carry the last one before the block. A side's columns keep their
own dtypes when the first merged row has a match on that side (nothing is left missing): that
fact is computed when called, as the result's dtypes depend on it.

With ``left_by`` / ``right_by`` pandas merges each group of that side with the other side's
rows of the same group (all of them when the other side lacks the ``by`` columns): the grouped
side is hash-shuffled by the ``by`` keys (the other side too, or it goes whole to every
reducer), each reducer runs pandas' per-group merges, and the groups are put in pandas' order
(first appearance) by a sort on each group's first global row position. pandas concatenates
the pieces, so the columns (those of the first group's piece) and dtypes depend on every
piece: a small summary of the pieces' columns and dtypes is computed when called.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.exchange import exchange
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import chunk_shape, row_chunks, rows_grid, sample_of, whole_chunk
from .core import new_frame
from .merge import KeyShuffleMap, _common_dtype, _lazy_frame, _Meta, merge
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
        return _merge_ordered_by(_lazy_frame(left), _lazy_frame(right), left_by, right_by,
                                 dict(on=on, left_on=left_on, right_on=right_on,
                                      fill_method=fill_method, suffixes=suffixes, how=how))
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


# --- left_by / right_by ---------------------------------------------------------------------

_POS, _FIRST = "__mars_ordered_pos__", "__mars_ordered_first__"


def _group_pieces(grouped, other, by, kwargs, swap):
    """pandas' ``_groupby_and_merge`` on a share of the groups: (first global position, piece)
    per group of ``grouped`` (missing keys dropped), in order of first appearance."""
    positions = grouped[_POS].to_numpy()
    grouped = grouped.drop(columns=_POS)
    lby = grouped.groupby(by, sort=False)
    rby = other.groupby(by, sort=False) if all(k in other.columns for k in by) else None
    rows = rby.indices if rby is not None else None
    out = []
    for key, idx in sorted(lby.indices.items(), key=lambda kv: kv[1][0]):
        lhs = grouped.take(idx)
        if rows is not None and key not in rows:  # no rows of this group on the other side
            lcols = lhs.columns.tolist()
            merged = lhs.reindex(columns=lcols + [r for r in other.columns if r not in set(lcols)])
            merged.index = range(len(merged))
        else:
            rhs = other if rows is None else other.take(rows[key])
            merged = pd.merge_ordered(rhs, lhs, **kwargs) if swap else pd.merge_ordered(lhs, rhs, **kwargs)
            merged[by] = key
        out.append((int(positions[idx[0]]), merged))
    return out


def _stand_in(piece):
    """A few rows of ``piece`` with its columns' dtypes, emptiness and all-missing flags (what
    decides the dtypes of a concatenation) and its signature."""
    na = piece.isna().to_numpy()
    signature = (tuple(piece.columns), tuple(piece.dtypes), tuple(na.all(axis=0)), len(piece) == 0)
    if len(piece):
        piece = piece.iloc[sorted({0} | {int(np.argmax(~na[:, j])) for j in range(na.shape[1])})]
    return signature, piece


def _distinct(stand_ins):
    """(first position, stand-in) per signature, the earliest, and the earliest of all."""
    seen, out = set(), []
    for first, sig, piece in sorted(stand_ins, key=lambda t: t[0]):
        if sig not in seen or not out:
            seen.add(sig)
            out.append((first, sig, piece))
    return out


class GroupPieces(Operand):
    """One reducer: the per-group merges of its groups; ``meta`` None: their stand-ins, else
    the pieces concatenated with ``meta``'s columns and dtypes, each row with its group's first
    position (``_FIRST``)."""

    _params = ("by", "kwargs", "swap", "n_grouped", "meta")

    def execute(self, *values):
        grouped = pd.concat(values[:self.n_grouped])
        other = values[self.n_grouped] if len(values) == self.n_grouped + 1 else pd.concat(values[self.n_grouped:])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pandas' warnings showed once, at build time
            pieces = _group_pieces(grouped, other, list(self.by), self.kwargs, self.swap)
            if self.meta is None:
                return _distinct([(f, *_stand_in(p)) for f, p in pieces])
            meta = self.meta.value.drop(columns=_FIRST)
            parts = [_conform(p.reindex(columns=meta.columns), meta).assign(**{_FIRST: f}) for f, p in pieces]
            return pd.concat(parts, ignore_index=True) if parts else self.meta.value


def _conform(piece, meta):
    for i, dtype in enumerate(meta.dtypes):
        if piece.dtypes.iloc[i] != dtype:
            piece.isetitem(i, piece.iloc[:, i].astype(dtype))
    return piece


class PieceFacts(Operand):
    """pandas' empty result from every reducer's stand-ins: the first group's columns, the
    dtypes of all pieces concatenated."""

    def execute(self, *parts):
        found = _distinct([t for p in parts for t in p])
        if not found:
            pd.concat([])  # pandas' error: no group to merge
        whole = pd.concat([p for _, _, p in found], ignore_index=True)
        return whole.reindex(columns=found[0][2].columns).iloc[:0]


class OrderedGroups(Operand):
    """The per-group ordered merges, or (``facts``) the 0-d summary ``PieceFacts`` of them."""

    _params = ("by", "casts", "kwargs", "swap", "facts")

    def tile(self, ctx, out):
        grouped, other = out.inputs
        gch = row_chunks(ctx[grouped])
        if self.casts is None:  # the other side lacks the keys: pandas merges it with every group
            n = len(gch)
            recv_other = [[whole_chunk(ctx[other], other.meta)]] * n
        else:
            och = row_chunks(ctx[other])
            n = max(len(gch), len(och))
            recv_other = exchange([(KeyShuffleMap(keys=self.by, casts=self.casts, n_reducers=n, label=self.label), [c])
                                   for c in och], n, self.label)
        gcasts = self.casts or (None,) * len(self.by)
        recv = exchange([(KeyShuffleMap(keys=self.by, casts=gcasts, n_reducers=n, pos=(_POS, i << 32),
                                        label=self.label), [c]) for i, c in enumerate(gch)], n, self.label)
        meta = None if self.facts else _Meta(out.meta)
        reducers = [ChunkData(GroupPieces(by=self.by, kwargs=self.kwargs, swap=self.swap, n_grouped=len(recv[j]),
                                          meta=meta, label=self.label), recv[j] + recv_other[j],
                              (math.nan,) if meta is None else chunk_shape(out.meta, math.nan),
                              None if meta is None else out.meta, (j, 0)) for j in range(n)]
        if meta is not None:
            return rows_grid(reducers, out.meta)
        grid = chunk_grid(())
        grid[()] = ChunkData(PieceFacts(label=self.label), reducers, (), out.meta, ())
        return Tiled(grid, ())


def _merge_ordered_by(left, right, left_by, right_by, kwargs):
    """``merge_ordered`` per group of ``left_by`` (or ``right_by``): see the module docstring."""
    lmeta, rmeta = left.data.meta, right.data.meta
    pd.merge_ordered(sample_of(lmeta), sample_of(rmeta), left_by=left_by, right_by=right_by, **kwargs)  # pandas' errors
    swap = left_by is None
    by = right_by if swap else left_by
    by = tuple(by) if isinstance(by, list) else (by,)
    grouped, other = (right, left) if swap else (left, right)
    gmeta, ometa = grouped.data.meta, other.data.meta
    casts = (tuple(_common_dtype(gmeta[k].dtype, ometa[k].dtype) for k in by)
             if all(k in ometa.columns for k in by) else None)
    params = dict(by=by, casts=casts, kwargs=kwargs, swap=swap, label="md.merge_ordered")
    facts = new_tensor(OrderedGroups(facts=True, **params), [grouped, other], (), object)
    meta = compute_now(facts)
    pieces = new_frame(OrderedGroups(facts=False, **params), [grouped, other], math.nan,
                       meta.assign(**{_FIRST: np.int64(0)}).iloc[:0])
    return pieces.sort_values(_FIRST).drop(columns=[_FIRST]).reset_index(drop=True)
