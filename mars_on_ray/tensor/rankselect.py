"""Exact distributed selection: the values at given ranks of a 1-D tensor, without sorting it.

Each chunk sorts itself once and sends a small regular sample; the distinct sample values are
pivots. Each chunk counts its elements below and up to every pivot (two small vectors). A rank
whose summed counts place it on a pivot has that pivot's value; any other rank lies strictly
between two neighbouring pivots, and only the elements of those gaps (about a chunk's size
over the sample size each) are gathered and sorted. Order is NumPy's sort order (NaN last).
"""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .core import tensor_meta

NAN = float("nan")
SAMPLES_PER_CHUNK = 16


class SortedSample(Operand):
    """(the chunk sorted, a regular sample of it)."""

    _params = ("n_samples",)
    n_outputs = 2

    def execute(self, x):
        s = np.sort(x, axis=None)
        picks = np.linspace(0, len(s) - 1, min(self.n_samples, len(s))).round().astype(np.intp)
        return s, s[picks]


class CountAround(Operand):
    """For every pivot: (elements before it, elements up to it) in a sorted chunk."""

    _params = ("pivots",)

    def execute(self, s):
        return (np.searchsorted(s, self.pivots, side="left"),
                np.searchsorted(s, self.pivots, side="right"))


class ExtractGaps(Operand):
    """The elements of a sorted chunk strictly between the pivots around each wanted gap."""

    _params = ("bounds",)

    def execute(self, s):
        out = []
        for lo, hi in self.bounds:
            start = 0 if lo is None else np.searchsorted(s, lo, side="right")
            stop = len(s) if hi is None else np.searchsorted(s, hi, side="left")
            out.append(s[start:stop])
        return out


class GatherRanks(Operand):
    """The values at ``ranks``: known pivot values, or selected from the gathered gaps
    (``gap_of``: a rank's gap, or -1; ``bases``: the rank of each gap's first element).
    ``bounds``: each gap's (lo, hi) when the extracts are closed brackets: only elements
    strictly inside count."""

    _params = ("ranks", "known", "gap_of", "bases", "dtype", "bounds")
    bounds = None

    def execute(self, *extracts):
        out = np.asarray(self.known, dtype=self.dtype).copy()
        for g in sorted({g for g in self.gap_of if g >= 0}):
            v = np.concatenate([e[g] for e in extracts]).astype(self.dtype, copy=False)
            if self.bounds is not None:
                lo, hi = self.bounds[g]
                v = v if lo is None else v[v > lo]
                v = v if hi is None else v[v < hi]
            mine = [i for i, gap in enumerate(self.gap_of) if gap == g]
            at = [self.ranks[i] - self.bases[g] for i in mine]
            out[mine] = np.partition(v, at)[at]  # a selection, not a sort
        return out


def select_ranks(tiled, ranks: np.ndarray, dtype, label):
    """A generator (``yield from``) returning one chunk whose value holds the values of the
    flattened tensor at ``ranks`` (sorted, in range), in that order: by brackets on the
    unsorted chunks where they hold (bracket_select.py), else by sorting every chunk."""
    from .bracket_select import select_in_brackets

    chunks = list(tiled.chunks.flat)
    if np.dtype(dtype).kind in "fiub":
        found = yield from select_in_brackets(chunks, ranks, dtype, label)
        if found is not None:
            return found
    meta = tensor_meta(dtype, 1)
    sorted_, samples = [], []
    for i, c in enumerate(chunks):
        op = SortedSample(n_samples=SAMPLES_PER_CHUNK, label=label)
        sorted_.append(ChunkData(op, [c], (NAN,), meta, (i,), 0))
        samples.append(ChunkData(op, [c], (NAN,), meta, (i,), 1))
    yield sorted_ + samples  # computed (and kept) together: each chunk is sorted once
    pivots = np.unique(np.concatenate((yield ValuesRequest(samples))))
    counts = [ChunkData(CountAround(pivots=pivots, label=label), [s], (NAN,), None, (i,))
              for i, s in enumerate(sorted_)]
    values = yield ValuesRequest(counts)
    before = np.sum([v[0] for v in values], axis=0)
    upto = np.sum([v[1] for v in values], axis=0)
    known, gap_of, gap_index, bounds, bases = [], [], {}, [], []
    for r in ranks:
        p = int(np.searchsorted(upto, r, side="right"))  # the first pivot with more up to it
        if p < len(pivots) and before[p] <= r:
            known.append(pivots[p])
            gap_of.append(-1)
            continue
        if p not in gap_index:
            gap_index[p] = len(bounds)
            bounds.append((pivots[p - 1] if p > 0 else None, pivots[p] if p < len(pivots) else None))
            bases.append(int(upto[p - 1]) if p > 0 else 0)
        known.append(pivots[0])
        gap_of.append(gap_index[p])
    extracts = []
    if bounds:
        extracts = [ChunkData(ExtractGaps(bounds=tuple(bounds), label=label), [s], (NAN,), None, (i,))
                    for i, s in enumerate(sorted_)]
    op = GatherRanks(ranks=tuple(int(r) for r in ranks), known=np.asarray(known, dtype=dtype),
                     gap_of=tuple(gap_of), bases=tuple(bases), dtype=np.dtype(dtype), label=label)
    return ChunkData(op, extracts, (len(ranks),), meta, (0,))
