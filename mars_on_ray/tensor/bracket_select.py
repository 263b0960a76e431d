"""Exact selection without sorting the chunks: the values at given ranks from brackets.

Sorting every chunk (rankselect.py) costs far more than selecting: np.sort of 5M float64 takes
0.3 s on a 2-core machine, ten chunks 3 s of CPU for three percentiles. Here each chunk only
sends a strided sample; the pooled sample estimates where each rank lies, and a bracket of
pivots wide enough for the sampling error (``MARGIN`` standard deviations) is set around it.
Each chunk counts its elements below and up to the pivots (a few comparisons per element);
a rank whose counts put it on a pivot has that value, one strictly inside its bracket is
picked from the bracket's elements, gathered (by a mask) and sorted. When a bracket misses
its rank or holds too many elements (an ordering that fools a strided sample), None is
returned and the caller sorts the chunks. NaN sorts last, as in NumPy.
"""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .core import tensor_meta

NAN = float("nan")
SAMPLE = 16_384  # strided sample per chunk at most
POOLED = 262_144  # samples of all chunks at most (pooled and sorted while tiling)
MARGIN = 6.0  # bracket half-width, in standard deviations of a sampled rank's position
MAX_GATHERED = 4_000_000  # elements of all brackets gathered into one task at most


class StrideSample(Operand):
    """(a strided sample of the chunk's non-NaN values, sorted; elements; NaN elements)."""

    _params = ("size",)

    def execute(self, x):
        x = np.ravel(x)
        nan = int(np.count_nonzero(np.isnan(x))) if x.dtype.kind == "f" else 0
        step = max(1, len(x) // self.size)
        sample = x[::step]
        if nan:
            sample = sample[~np.isnan(sample)]
        return np.sort(sample), len(x), nan


class CountPivots(Operand):
    """Per pivot: (elements below it, elements up to it) of an unsorted chunk."""

    _params = ("pivots",)

    def execute(self, x):
        x = np.ravel(x)
        return (np.array([np.count_nonzero(x < p) for p in self.pivots], dtype=np.int64),
                np.array([np.count_nonzero(x <= p) for p in self.pivots], dtype=np.int64))


class ExtractBetween(Operand):
    """The non-NaN elements of an unsorted chunk strictly between each pair of bounds (None:
    no bound on that side; infinities are elements, not bounds)."""

    _params = ("bounds",)

    def execute(self, x):
        x = np.ravel(x)
        out = []
        for lo, hi in self.bounds:
            keep = x == x if x.dtype.kind == "f" else np.ones(len(x), dtype=bool)
            if lo is not None:
                keep &= x > lo
            if hi is not None:
                keep &= x < hi
            out.append(x[keep])
        return out


def _brackets(samples, ranks, nonnan: int):
    """Per rank below ``nonnan``: (low pivot, high pivot) around its estimated place in the
    pooled, weighted samples."""
    values = np.concatenate([s for s, w in samples])
    weights = np.concatenate([np.full(len(s), w) for s, w in samples])
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(weights[order])
    n = len(values)
    out = []
    for r in ranks:
        at = int(np.searchsorted(cum, r + 0.5))  # the sample expected at rank r
        spread = MARGIN * np.sqrt(n * max(at / n * (1 - at / n), 1.0 / n)) + 2
        lo, hi = int(at - spread), int(at + spread)
        out.append((values[lo] if lo >= 0 else None, values[hi] if hi < n else None))
    return out


def select_in_brackets(chunks, ranks, dtype, label):
    """A generator (``yield from``) returning the GatherRanks chunk of rankselect.py for
    ``ranks`` of the flattened ``chunks``, or None when a bracket does not hold its rank."""
    from .rankselect import GatherRanks

    op = StrideSample(size=max(64, min(SAMPLE, POOLED // max(len(chunks), 1))), label=label)
    parts = [ChunkData(op, [c], (NAN,), None, (i,)) for i, c in enumerate(chunks)]
    facts = yield ValuesRequest(parts)
    nonnan = sum(n - nan for _, n, nan in facts)
    samples = [(s, (n - nan) / len(s)) for s, n, nan in facts if len(s)]
    ranks = [int(r) for r in ranks]
    inside = [r for r in ranks if r < nonnan]
    if not samples or not inside:
        return None
    brackets = _brackets(samples, inside, nonnan)
    pivots = sorted({p for b in brackets for p in b if p is not None})
    counts = [ChunkData(CountPivots(pivots=tuple(pivots), label=label), [c], (NAN,), None, (i,))
              for i, c in enumerate(chunks)]
    values = yield ValuesRequest(counts)
    before = dict(zip(pivots, np.sum([v[0] for v in values], axis=0)))
    upto = dict(zip(pivots, np.sum([v[1] for v in values], axis=0)))
    known, gap_of, bounds, bases, gap_index = [], [], [], [], {}
    for r in ranks:
        if r >= nonnan:  # past every number: NaN, sorted last
            known.append(NAN)
            gap_of.append(-1)
            continue
        lo, hi = brackets[inside.index(r)]
        low_end = 0 if lo is None else upto[lo]  # elements at or below lo
        high_end = nonnan if hi is None else before[hi]  # elements below hi
        if lo is not None and before[lo] <= r < upto[lo]:
            known.append(lo)
            gap_of.append(-1)
        elif hi is not None and before[hi] <= r < upto[hi]:
            known.append(hi)
            gap_of.append(-1)
        elif low_end <= r < high_end:
            key = (lo, hi)
            if key not in gap_index:
                gap_index[key] = len(bounds)
                bounds.append((lo, hi))
                bases.append(int(low_end))
            known.append(0)
            gap_of.append(gap_index[key])
        else:
            return None  # the sample misled this bracket
    gathered = sum(int((nonnan if hi is None else before[hi]) - (0 if lo is None else upto[lo]))
                   for lo, hi in gap_index)
    if gathered > MAX_GATHERED:
        return None
    extracts = [ChunkData(ExtractBetween(bounds=tuple(bounds), label=label), [c], (NAN,), None, (i,))
                for i, c in enumerate(chunks)] if bounds else []
    op = GatherRanks(ranks=tuple(ranks), known=np.asarray(known, dtype=dtype),
                     gap_of=tuple(gap_of), bases=tuple(bases), dtype=np.dtype(dtype), label=label)
    return ChunkData(op, extracts, (len(ranks),), tensor_meta(dtype, 1), (0,))
