"""``md.cut`` and ``md.qcut``: binning row blocks once the bin edges are known.

Edges given as a sequence or an IntervalIndex bin every block at once. A number of bins needs
the data's range first: every block sends its min and max (a values stage) and pandas computes
the edges from the global range, exactly as it would. ``qcut`` edges are the exact quantiles of
``quantile``. Then pandas' own ``cut`` runs on every block with the same edges, so labels,
categories and precision are pandas'. With data-dependent edges the categories (hence the
declared dtype) are only known once the edges are: chunk metadata carries them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import row_chunks, rows_grid, sample_of
from .core import Series, new_frame
from .stats import single

__all__ = ["cut", "qcut"]


class CutRange(Operand):
    """(min, max, rows) of one block."""

    def execute(self, s):
        return s.min(), s.max(), len(s)


class CutMissing(Operand):
    """Whether any value of the block falls in no bin (``labels=False`` then gives floats)."""

    _params = ("bins", "kw")

    def execute(self, s):
        return bool(pd.cut(s, _edges(self.bins), **dict(self.kw)).isna().any())


class CutBlock(Operand):
    """pandas' ``cut`` of one block with the final edges."""

    _params = ("bins", "kw", "as_float")

    def execute(self, s):
        res = pd.cut(s, _edges(self.bins), **dict(self.kw))
        return res.astype(np.float64) if self.as_float else res


class CutBins(Operand):
    """The bin edges, as ``retbins=True`` returns them."""

    _params = ("bins",)

    def execute(self, *inputs):
        return np.asarray(_edges(self.bins))


class _Edges:
    """Bin edges (an array or an IntervalIndex) carried as a parameter."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __mars_token__(self):
        v = self.value
        if isinstance(v, pd.IntervalIndex):
            return ("intervals", np.asarray(v.left), np.asarray(v.right), v.closed)
        return ("edges", np.asarray(v))

    def __getstate__(self):
        return self.value

    def __setstate__(self, state):
        self.value = state


def _edges(bins):
    return bins.value if isinstance(bins, _Edges) else bins


class Cut(Operand):
    """Bins a Series: ``mode`` 'static' (edges given), 'nbins' (edges from the range) or
    'quantile' (edges from the second input, exact quantiles); ``output`` 'data' or 'bins'."""

    _params = ("bins", "kw", "mode", "output", "range_kw")

    def _final_bins(self, ctx, out):
        x = out.inputs[0]
        chunks = row_chunks(ctx[x])
        if self.mode == "static":
            return chunks, _edges(self.bins)
        if self.mode == "quantile":
            quantiles = (yield from ctx.values([ctx[out.inputs[1]].flat[0]]))[0]
            return chunks, np.asarray(quantiles, dtype=np.float64)
        ranges = yield from ctx.values([ChunkData(CutRange(), [c], (), None, ()) for c in chunks])
        found = [r for r in ranges if r[2] and not pd.isna(r[0])]
        rows = sum(r[2] for r in ranges)
        sample = pd.Series([min(r[0] for r in found), max(r[1] for r in found)] if found else
                           [np.nan] * min(rows, 2), dtype=x.meta.dtype)
        return chunks, pd.cut(sample, self.bins, retbins=True, **dict(self.range_kw))[1]

    def tile(self, ctx, out):
        chunks, bins = yield from self._final_bins(ctx, out)
        kw = dict(self.kw)
        edges = _Edges(bins)
        if self.output == "bins":
            return single(out, ChunkData(CutBins(bins=edges), [], out.shape, out.meta, (0,)))
        meta = pd.cut(out.inputs[0].meta, bins, **kw)  # pandas' errors for these edges, and the dtype
        as_float = False
        if kw.get("labels") is False:
            flags = yield from ctx.values([ChunkData(CutMissing(bins=edges, kw=self.kw), [c], (), None, ())
                                           for c in chunks])
            as_float = any(flags)
            meta = meta.astype(np.float64) if as_float else meta
        op = CutBlock(bins=edges, kw=self.kw, as_float=as_float, label=self.label)
        return rows_grid([ChunkData(op, [c], c.shape, meta, (i,)) for i, c in enumerate(chunks)], meta)


def _lazy_cut(x, bins, kw, mode, label, retbins, range_kw=(), extra=()):
    if mode == "static":
        meta = pd.cut(x.data.meta, bins, **dict(kw))
    else:  # categories (or, for labels=False, float codes) known once the edges are
        dtype = np.int64 if dict(kw).get("labels") is False else "category"
        meta = pd.Series([], dtype=dtype, name=x.name, index=x.data.meta.index)
    static = _Edges(bins) if mode == "static" else bins
    op = Cut(bins=static, kw=tuple(kw), mode=mode, output="data", range_kw=tuple(range_kw), label=label)
    result = new_frame(op, [x, *extra], x.shape[0], meta)
    if not retbins:
        return result
    if mode == "static":
        return result, pd.cut(sample_of(x.data.meta), bins, retbins=True, **dict(kw))[1]
    op = Cut(bins=static, kw=tuple(kw), mode=mode, output="bins", range_kw=tuple(range_kw), label=label)
    n_edges = bins + 1 if mode == "nbins" else np.nan
    return result, new_tensor(op, [x, *extra], (n_edges,), np.float64)


def cut(x, bins, right=True, labels=None, retbins=False, precision=3, include_lowest=False,
        duplicates="raise", ordered=True):
    """Bin values into intervals (pandas' ``cut``) block by block; a number of bins first
    finds the data's range."""
    if not isinstance(x, Series):
        return pd.cut(x, bins, right=right, labels=labels, retbins=retbins, precision=precision,
                      include_lowest=include_lowest, duplicates=duplicates, ordered=ordered)
    kw = (("right", right), ("labels", labels), ("precision", precision),
          ("include_lowest", include_lowest), ("duplicates", duplicates), ("ordered", ordered))
    # pandas' argument errors on one sample row (an empty input hides them)
    pd.cut(sample_of(x.data.meta), bins, **dict(kw))
    if pd.api.types.is_integer(bins):
        range_kw = (("right", right), ("include_lowest", include_lowest), ("duplicates", duplicates),
                    ("precision", precision))
        return _lazy_cut(x, int(bins), kw, "nbins", "md.cut", retbins, range_kw)
    return _lazy_cut(x, bins, kw, "static", "md.cut", retbins)


def qcut(x, q, labels=None, retbins=False, precision=3, duplicates="raise"):
    """Bin values into equal-sized buckets by exact quantiles (pandas' ``qcut``)."""
    if not isinstance(x, Series):
        return pd.qcut(x, q, labels=labels, retbins=retbins, precision=precision, duplicates=duplicates)
    pd.qcut(pd.Series(np.linspace(0.0, 1.0, 101)), q, labels=labels, precision=precision,
            duplicates=duplicates)  # pandas' argument errors
    quantiles = np.linspace(0, 1, q + 1) if pd.api.types.is_integer(q) else np.asarray(q, dtype=np.float64)
    edges = x.quantile(list(quantiles))
    kw = (("right", True), ("labels", labels), ("precision", precision), ("include_lowest", True),
          ("duplicates", duplicates))
    return _lazy_cut(x, len(quantiles) - 1, kw, "quantile", "md.qcut", retbins, extra=(edges,))
