"""Exact selection without sorting the chunks: the values at given ranks from brackets.

Sorting every chunk (rankselect.py) costs far more than selecting: np.sort of 5M float64 takes
0.3 s on a 2-core machine, ten chunks 3 s of CPU for three percentiles. Here each chunk only
sends a strided sample; the pooled sample estimates where each rank lies, and a bracket of
pivots wide enough for the sampling error (``MARGIN`` standard deviations) is set around it.
In one pass over each chunk (in cache-sized blocks) the elements below each bracket are
counted and the bracket's elements kept; only their counts go to the supervisor. A rank whose
counts put it on a pivot has that value; one strictly inside its bracket is picked from the
bracket's elements, gathered and sorted. When a bracket misses its rank or the brackets hold
too many elements (an ordering that fools a strided sample), None is returned and the caller
sorts the chunks. NaN sorts last, as in NumPy.
"""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .core import tensor_meta
from .rankselect import GatherRanks

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


#: elements of a chunk compared at a time: the masks of every bracket stay in cache, the
#: chunk is read from memory once
BLOCK = 1 << 17


class BracketPass(Operand):
    """One pass over an unsorted chunk for closed brackets ``[lo, hi]`` (None: unbounded) of
    non-NaN values: output 0, per bracket, (elements below lo, elements equal to lo,
    elements of the bracket below hi, elements in the bracket); output 1, each bracket's
    elements, or None once they pass ``cap`` in all (the caller then falls back)."""

    _params = ("bounds", "cap")
    n_outputs = 2

    def execute(self, x):
        x = np.ravel(x)
        counts = np.zeros((len(self.bounds), 4), dtype=np.int64)
        parts = [[] for _ in self.bounds]
        for start in range(0, len(x), BLOCK):
            block = x[start:start + BLOCK]
            for j, (lo, hi) in enumerate(self.bounds):
                part = _bracket_part(block, lo, hi, counts[j])
                if parts is not None:
                    parts[j].append(part)
            if parts is not None and counts[:, 3].sum() > self.cap:
                parts = None  # counted on, not kept
        kept = None if parts is None else [np.concatenate(p) if p else x[:0] for p in parts]
        return counts, kept


def _bracket_part(block, lo, hi, counts):
    """The block's elements in ``[lo, hi]``; adds (below lo, equal to lo, in it below hi, in
    it) to ``counts``."""
    keep = None
    if lo is not None:
        under = block < lo
        counts[0] += np.count_nonzero(under)
        keep = ~under  # NaN included: removed below
    if hi is not None:
        keep = block <= hi if keep is None else np.logical_and(keep, block <= hi, out=keep)
    elif block.dtype.kind in "fc":
        keep = block == block if keep is None else np.logical_and(keep, block == block, out=keep)
    part = block if keep is None else block[keep]
    counts[1] += 0 if lo is None else np.count_nonzero(part == lo)
    counts[2] += len(part) if hi is None else np.count_nonzero(part < hi)
    counts[3] += len(part)
    return part


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


def _merged(brackets) -> list[tuple]:
    """The union of overlapping brackets ``(lo, hi)`` (None: unbounded), ordered by lo."""
    out: list[tuple] = []
    for lo, hi in sorted(set(brackets), key=lambda b: -np.inf if b[0] is None else b[0]):
        if out and (out[-1][1] is None or lo is None or lo <= out[-1][1]):
            last_hi = out[-1][1]
            out[-1] = (out[-1][0], None if last_hi is None or hi is None else max(last_hi, hi))
        else:
            out.append((lo, hi))
    return out


def _covers(outer, inner) -> bool:
    (olo, ohi), (ilo, ihi) = outer, inner
    return (olo is None or (ilo is not None and olo <= ilo)) and \
        (ohi is None or (ihi is not None and ihi <= ohi))


def select_in_brackets(chunks, ranks, dtype, label):
    """A generator (``yield from``) returning the GatherRanks chunk of rankselect.py for
    ``ranks`` of the flattened ``chunks``, or None when a bracket does not hold its rank."""
    op = StrideSample(size=max(64, min(SAMPLE, POOLED // max(len(chunks), 1))), label=label)
    parts = [ChunkData(op, [c], (NAN,), None, (i,)) for i, c in enumerate(chunks)]
    facts = yield ValuesRequest(parts)
    nonnan = sum(n - nan for _, n, nan in facts)
    samples = [(s, (n - nan) / len(s)) for s, n, nan in facts if len(s)]
    ranks = [int(r) for r in ranks]
    inside = [r for r in ranks if r < nonnan]
    if not samples or not inside:
        return None
    of_rank = dict(zip(inside, _brackets(samples, inside, nonnan)))
    brackets = _merged(of_rank.values())  # neighbouring ranks' brackets overlap: one pass each
    index = {b: next(j for j, m in enumerate(brackets) if _covers(m, b)) for b in of_rank.values()}
    op = BracketPass(bounds=tuple(brackets), cap=MAX_GATHERED, label=label)
    counts = [ChunkData(op, [c], (NAN,), None, (i,), 0) for i, c in enumerate(chunks)]
    extracts = [ChunkData(op, [c], (NAN,), None, (i,), 1) for i, c in enumerate(chunks)]
    yield counts + extracts  # one pass: each chunk read once, its bracket elements kept
    total = np.sum((yield ValuesRequest(counts)), axis=0)  # (bracket, 4) summed over chunks
    # per bracket: elements below it, at its low pivot, below its high pivot, in it
    below_lo, at_lo, below_hi, size = (total[:, i].astype(int) for i in range(4))
    bases = tuple(int(b) for b in below_lo + at_lo)  # the rank of each gap's first element
    known, gap_of = [], []
    for r in ranks:
        if r >= nonnan:  # past every number: NaN, sorted last
            known.append(NAN)
            gap_of.append(-1)
            continue
        j = index[of_rank[r]]
        lo, hi = brackets[j]
        if lo is not None and below_lo[j] <= r < bases[j]:
            known.append(lo)
            gap_of.append(-1)
        elif hi is not None and below_lo[j] + below_hi[j] <= r < below_lo[j] + size[j]:
            known.append(hi)
            gap_of.append(-1)
        elif bases[j] <= r < below_lo[j] + below_hi[j]:
            known.append(0)
            gap_of.append(j)
        else:
            return None  # the sample misled this bracket
    if int(size.sum()) > MAX_GATHERED:  # (then some chunk may not have kept its own)
        return None
    gather = GatherRanks(ranks=tuple(ranks), known=np.asarray(known, dtype=dtype), gap_of=tuple(gap_of),
                         bases=bases, dtype=np.dtype(dtype), bounds=tuple(brackets), label=label)
    return ChunkData(gather, extracts if any(g >= 0 for g in gap_of) else [], (len(ranks),),
                     tensor_meta(dtype, 1), (0,))
