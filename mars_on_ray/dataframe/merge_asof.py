"""``md.merge_asof``: each left row matched to the nearest right row by a sorted key.

Both sides are sorted by their keys (pandas' requirement, checked across chunks from their
first and last keys). Each left chunk is merged by pandas with the right rows it can match:
the right chunks whose key ranges meet its own, plus the last right row of each ``by`` group
before them (backward / nearest) and the first one after them (forward / nearest). Those rows
come from a running "last row per group" over the right chunks from the front and "first row
per group" from the back (small: one row per group), so no side is gathered. Right columns
become float / object when some left row finds no match: the dtypes are learned from the
blocks when pandas' would depend on it.
"""
from __future__ import annotations

import math

import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .accessors import settle_dtypes
from .blockwise import chunk_shape, row_chunks, rows_grid
from .core import DataFrame, Series, new_frame
from .datasource import from_pandas
from .reshape import renumber

__all__ = ["merge_asof"]


class KeyBounds(Operand):
    """A chunk's first and last key (None when it has no rows)."""

    _params = ("key",)

    def execute(self, chunk):
        keys = chunk[self.key]
        return (keys.iloc[0], keys.iloc[-1]) if len(keys) else None


class EdgeRows(Operand):
    """The last (``last``) or first row of each ``by`` group of the chunks given, in order:
    a running summary of the right rows before (after) a left chunk."""

    _params = ("by", "last")

    def execute(self, *chunks):
        rows = pd.concat(chunks) if len(chunks) > 1 else chunks[0]
        if not self.by:
            return rows.iloc[-1:] if self.last else rows.iloc[:1]
        return rows.drop_duplicates(subset=list(self.by), keep="last" if self.last else "first")


class AsofChunk(Operand):
    """pandas' merge_asof of a left chunk with the right rows it can match."""

    _params = ("kwargs",)

    def execute(self, left, *right):
        rows = pd.concat(right) if len(right) > 1 else right[0]
        return pd.merge_asof(left, rows, **self.kwargs)


class MergeAsof(Operand):
    _params = ("kwargs", "left_key", "right_key", "by", "direction")

    def tile(self, ctx, out):
        left, right = (row_chunks(ctx[i]) for i in out.inputs)
        bounds = yield from ctx.values(
            [ChunkData(KeyBounds(key=self.left_key, label=self.label), [c], (), None, (i,))
             for i, c in enumerate(left)]
            + [ChunkData(KeyBounds(key=self.right_key, label=self.label), [c], (), None, (i,))
               for i, c in enumerate(right)])
        lb, rb = bounds[:len(left)], bounds[len(left):]
        _check_sorted(lb, "left")
        _check_sorted(rb, "right")
        filled = [j for j, b in enumerate(rb) if b is not None]
        before, after = self._edges(right, filled)
        meta, result = out.meta, []
        for i, c in enumerate(left):
            ins = self._right_for(lb[i], rb, filled, right, before, after)
            op = AsofChunk(kwargs=self.kwargs, label=self.label)
            result.append(ChunkData(op, [c, *ins], chunk_shape(meta, c.shape[0]), meta, (i, 0)))
        return rows_grid(result, meta)

    def _edges(self, right, filled):
        """Per non-empty right chunk: the last rows per group up to it, the first from it."""
        before, after, prev = {}, {}, None
        for j in filled:
            ins = [right[j]] if prev is None else [prev, right[j]]
            prev = before[j] = ChunkData(EdgeRows(by=self.by, last=True, label=self.label), ins,
                                         (math.nan,), None, (j,))
        prev = None
        for j in reversed(filled):
            ins = [right[j]] if prev is None else [right[j], prev]
            prev = after[j] = ChunkData(EdgeRows(by=self.by, last=False, label=self.label), ins,
                                        (math.nan,), None, (j,))
        return before, after

    def _right_for(self, bound, rb, filled, right, before, after):
        """The right chunks a left chunk of keys ``bound`` can match (all but their edges)."""
        if not filled:  # no right rows: pandas matches nothing
            return [right[0]]
        if bound is None:  # no left rows: any right rows of the right columns will do
            return [before[filled[0]]]
        lo, hi = bound
        meet = [j for j in filled if rb[j][1] >= lo and rb[j][0] <= hi]
        earlier = [j for j in filled if rb[j][1] < lo]
        later = [j for j in filled if rb[j][0] > hi]
        ins = []
        if earlier and self.direction != "forward":
            ins.append(before[earlier[-1]])
        ins += [right[j] for j in meet]
        if later and self.direction != "backward":
            ins.append(after[later[0]])
        return ins or [right[filled[0]]]


def _check_sorted(bounds, side):
    prev = None
    for b in bounds:
        if b is None:
            continue
        if prev is not None and b[0] < prev:
            raise ValueError(f"{side} keys must be sorted")
        prev = b[1]


def merge_asof(left, right, on=None, left_on=None, right_on=None, left_index=False, right_index=False,
               by=None, left_by=None, right_by=None, suffixes=("_x", "_y"), tolerance=None,
               allow_exact_matches=True, direction="backward"):
    """Match each left row to the last (``backward``), next (``forward``) or closest
    (``nearest``) right row by a sorted key, optionally within ``by`` groups."""
    left = from_pandas(left) if isinstance(left, (pd.DataFrame, pd.Series)) else left
    right = from_pandas(right) if isinstance(right, (pd.DataFrame, pd.Series)) else right
    if isinstance(left, Series) or isinstance(right, Series):
        raise NotImplementedError("merge_asof of Series: use to_frame()")
    if not isinstance(left, DataFrame) or not isinstance(right, DataFrame):
        raise TypeError("merge_asof takes DataFrames")
    kwargs = {"on": on, "left_on": left_on, "right_on": right_on, "left_index": left_index,
              "right_index": right_index, "by": by, "left_by": left_by, "right_by": right_by,
              "suffixes": suffixes, "tolerance": tolerance, "allow_exact_matches": allow_exact_matches,
              "direction": direction}
    meta = pd.merge_asof(left.data.meta, right.data.meta, **kwargs)  # pandas' errors
    if left_index or right_index:
        raise NotImplementedError("merge_asof(left_index=/right_index=) is not supported: use on=")
    left_key, right_key = (on, on) if on is not None else (left_on, right_on)
    if isinstance(left_key, list) or isinstance(right_key, list):
        raise NotImplementedError("merge_asof on several keys")
    rby = right_by if right_by is not None else by
    rby = tuple(rby if isinstance(rby, (list, tuple)) else [rby]) if rby is not None else ()
    op = MergeAsof(kwargs=kwargs, left_key=left_key, right_key=right_key, by=rby, direction=direction,
                   label="md.merge_asof")
    lazy = new_frame(op, [left, right], left.shape[0], meta)
    depends = any(getattr(d, "kind", "O") in "iub" for c, d in right.data.meta.dtypes.items())
    return renumber(settle_dtypes(lazy, depends, "md.merge_asof"), "md.merge_asof")
