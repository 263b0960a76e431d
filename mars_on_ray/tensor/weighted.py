"""Weighted quantiles (NumPy's ``method='inverted_cdf'`` with ``weights=``) of a whole 1-D
tensor, by exact distributed selection: the first value whose cumulative weight reaches
``q`` of the total. Pivots from samples; each chunk reports its weight below and up to every
pivot; only the elements between the two pivots around an answer are gathered and sorted."""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .core import tensor_meta
from .rechunk import rechunk_tiled

NAN = float("nan")
SAMPLES_PER_CHUNK = 16


class SortedPairs(Operand):
    """(values sorted, their weights, a sample of the values)."""

    _params = ("n_samples",)
    n_outputs = 3

    def execute(self, x, w):
        if np.any(w < 0):
            raise ValueError("Weights must be non-negative.")
        order = np.argsort(x)
        s = x[order]
        picks = np.linspace(0, len(s) - 1, min(self.n_samples, len(s))).round().astype(np.intp)
        return s, w[order], s[picks]


class WeightAround(Operand):
    """Per pivot, the chunk's weight below it and up to it (then its total); whether it has
    NaN."""

    _params = ("pivots",)

    def execute(self, s, w):
        cum = np.concatenate([[0.0], np.cumsum(w, dtype=np.float64)])
        lo = np.searchsorted(s, self.pivots, side="left")
        hi = np.searchsorted(s, self.pivots, side="right")
        has_nan = bool(len(s)) and s.dtype.kind in "fcmM" and bool(np.isnan(s[-1]))
        return cum[lo], np.append(cum[hi], cum[-1]), has_nan  # the total summed like the rest


class GapPairs(Operand):
    """The (value, weight) pairs of a sorted chunk strictly between each gap's pivots."""

    _params = ("bounds",)

    def execute(self, s, w):
        out = []
        for lo, hi in self.bounds:
            a = 0 if lo is None else np.searchsorted(s, lo, side="right")
            b = len(s) if hi is None else np.searchsorted(s, hi, side="left")
            out.append((s[a:b], w[a:b]))
        return out


class WeightedPick(Operand):
    """The answers: known pivot values, or the first gap element reaching its target."""

    _params = ("q", "known", "gap_of", "bases", "total", "nan", "dtype")

    def execute(self, *gaps):
        q = np.asarray(self.q, dtype=np.float64)
        flat = q.reshape(-1)
        out = np.empty(len(flat), dtype=self.dtype)
        for i, target in enumerate(flat):
            g = self.gap_of[i]
            if g < 0:
                out[i] = self.known[i]
                continue
            values = np.concatenate([p[g][0] for p in gaps])
            weights = np.concatenate([p[g][1] for p in gaps])
            order = np.argsort(values)
            cdf = (self.bases[g] + np.cumsum(weights[order], dtype=np.float64)) / self.total
            hit = np.flatnonzero((cdf >= target) & (cdf > 0))
            out[i] = values[order][hit[0] if len(hit) else -1]
        if self.nan:
            out[:] = np.nan
        return out.reshape(q.shape) if q.ndim else out[0]


class TensorWeightedQuantile(Operand):
    _params = ("q", "dtype")

    def tile(self, ctx, out):
        x = yield from ctx.known(out.inputs[0])
        w = rechunk_tiled((yield from ctx.known(out.inputs[1])), x.nsplits)
        label, meta = self.label, tensor_meta(out.inputs[0].dtype, 1)
        pairs, samples = [], []
        for i, (xc, wc) in enumerate(zip(x.chunks, w.chunks)):
            op = SortedPairs(n_samples=SAMPLES_PER_CHUNK, label=label)
            pairs.append([ChunkData(op, [xc, wc], (NAN,), meta, (i,), k) for k in range(2)])
            samples.append(ChunkData(op, [xc, wc], (NAN,), meta, (i,), 2))
        yield [c for p in pairs for c in p] + samples  # each chunk sorted once
        pivots = np.unique(np.concatenate((yield ValuesRequest(samples))))
        reports = yield ValuesRequest([ChunkData(WeightAround(pivots=pivots, label=label), p, (NAN,),
                                                 None, (i,)) for i, p in enumerate(pairs)])
        below = np.sum([r[0] for r in reports], axis=0)
        upto = np.sum([r[1] for r in reports], axis=0)
        upto, total = upto[:-1], float(upto[-1])
        if not np.isfinite(total) or total == 0:
            raise ValueError("Weights included NaN, inf or were all zero.")
        known, gap_of, gap_index, bounds, bases = [], [], {}, [], []
        for target in np.asarray(self.q, dtype=np.float64).reshape(-1):
            reach = (upto / total >= target) & (upto > 0)
            p = int(np.argmax(reach)) if reach.any() else len(pivots)
            if p < len(pivots) and not (below[p] / total >= target and below[p] > 0):
                known.append(pivots[p])
                gap_of.append(-1)
                continue
            if p not in gap_index:
                gap_index[p] = len(bounds)
                bounds.append((pivots[p - 1] if p > 0 else None, pivots[p] if p < len(pivots) else None))
                bases.append(float(upto[p - 1]) if p > 0 else 0.0)
            known.append(pivots[0])
            gap_of.append(gap_index[p])
        gaps = [ChunkData(GapPairs(bounds=tuple(bounds), label=label), p, (NAN,), None, (i,))
                for i, p in enumerate(pairs)] if bounds else []
        op = WeightedPick(q=self.q, known=np.asarray(known), gap_of=tuple(gap_of), bases=tuple(bases),
                          total=total, nan=any(r[2] for r in reports), dtype=out.dtype, label=label)
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(op, gaps, out.shape, out.meta, (0,) * out.ndim)
        return Tiled.from_chunks(grid)
