"""``sample``: random rows, reproducible and the same whatever the chunking.

Every row gets a random number that is a pure function of (seed, its global position)
(splitmix64 of the position). Without replacement the sample is the ``n`` rows with the
smallest keys ``-log(u) / weight`` (Efraimidis-Spirakis; weight 1 when unweighted), in key
order: per-chunk histograms of the keys (a small values stage) give the key range holding the
``n`` smallest, whose rows are range-partitioned by key into output blocks of about a chunk each.
With replacement the ``n`` draws are positions computed from the seed and the length (through
per-chunk weight sums when weighted) and gathered like ``take``.

pandas draws with ``random_state.choice`` over the whole axis, which a chunked computation
cannot reproduce: a given ``random_state`` gives the same rows here on every run and for every
chunking (weighted draws with replacement: up to float rounding of the weight sums), not pandas'
rows. ``random_state=None`` draws a seed when the lazy object is built.
"""
from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, TileableData
from ..core.operand import Operand
from ..core.tokenize import tokenize
from .blockwise import aligned_rows, chunk_shape, row_chunks, rows_grid
from .core import DataFrame, Series, methods, new_frame
from .positional import (NO_ROWS, PANDAS3, _idx, assemble, gather, iloc_columns, is_int,
                         position_pieces)
from .rules.usage import is_frame, uses

__all__: list[str] = []

_MASK = (1 << 64) - 1


def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def uniforms(seed: int, positions: np.ndarray) -> np.ndarray:
    """Numbers uniform in (0, 1), each a pure function of (seed, position): splitmix64."""
    golden = np.uint64(0x9E3779B97F4A7C15)
    z = np.uint64(seed & _MASK) + (positions.astype(np.uint64) + np.uint64(1)) * golden
    return ((_mix(z) >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0 ** -53


def _weights(v, w, how, column):
    """One chunk's validated weights (pandas' checks; missing ones count as zero)."""
    if how is None:
        return None
    values = v[column] if how == "column" else w
    if how == "aligned":
        from .indexing import _check_aligned

        _check_aligned(v, w)
    arr = np.asarray(pd.Series(values, dtype="float64").to_numpy(), dtype=np.float64)
    if np.isinf(arr).any():
        raise ValueError("weights vector may not include `inf` values")
    if (arr < 0).any():
        raise ValueError("weights vector may not include negative values")
    return np.nan_to_num(arr, nan=0.0)


def _keys(seed, start, v, w, how, column):
    u = uniforms(seed, np.arange(start, start + len(v)))
    weights = _weights(v, w, how, column)
    with np.errstate(divide="ignore"):
        keys = -np.log(u) if weights is None else -np.log(u) / weights
    return keys, weights


def _buckets(keys):
    """Key buckets: 16 per octave, so any key scale splits evenly (inf: never drawn)."""
    with np.errstate(divide="ignore"):
        return np.floor(np.log2(keys) * 16).clip(-(1 << 40), 1 << 40).astype(np.int64)


class SampleChunk(Operand):
    """Per chunk: the key histogram and weight sum ('hist'), or its rows split by key range
    among the output blocks ('split': (rows, keys, positions) per block)."""

    _params = ("seed", "start", "how", "column", "stage", "uppers")

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.uppers) if self.stage == "split" else 1

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return self.stage != "split"

    def execute(self, v, w=None):
        keys, weights = _keys(self.seed, self.start, v, w, self.how, self.column)
        finite = np.isfinite(keys)
        buckets = _buckets(keys[finite])
        if self.stage == "hist":
            found, counts = np.unique(buckets, return_counts=True)
            if weights is None:
                return found, counts, len(v), 0.0, 0.0
            return found, counts, len(v), float(weights.sum()), float(weights.max(initial=0.0))
        codes = np.full(len(v), len(self.uppers), dtype=np.intp)
        codes[finite] = np.searchsorted(np.asarray(self.uppers), buckets, side="left")
        positions = np.arange(self.start, self.start + len(v))
        parts = tuple((v.iloc[sel], keys[sel], positions[sel])
                      for sel in (np.flatnonzero(codes == j) for j in range(len(self.uppers))))
        return parts if len(parts) > 1 else parts[0]


class SampleBlock(Operand):
    """One output block: its rows ordered by (key, position), the first ``keep`` of them."""

    _params = ("keep",)

    def execute(self, *parts):
        keys = np.concatenate([p[1] for p in parts])
        positions = np.concatenate([p[2] for p in parts])
        order = np.lexsort((positions, keys))[:self.keep]
        frames = [p[0] for p in parts]
        rows = frames[0] if len(frames) == 1 else pd.concat(frames)
        return rows.iloc[order]


class WeightedDraw(Operand):
    """Rows of one chunk drawn by weight: ``parts[j]`` are targets within its weight total."""

    _params = ("parts", "how", "column")
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.parts)

    def execute(self, v, w=None):
        cum = np.cumsum(_weights(v, w, self.how, self.column))
        pieces = tuple(v.iloc[np.minimum(np.searchsorted(cum, t, side="right"), len(v) - 1)]
                       for t in self.parts)
        return pieces if len(pieces) > 1 else pieces[0]


class Renumber(Operand):
    """A chunk with a RangeIndex starting at ``start`` (``ignore_index``)."""

    _params = ("start",)

    def execute(self, v):
        v = v.copy(deep=False)
        v.index = pd.RangeIndex(self.start, self.start + len(v))
        return v


class Sample(Operand):
    """``obj.sample(...)`` along rows; inputs: the object and, maybe, its weights."""

    _params = ("n", "frac", "replace", "seed", "how", "column", "ignore_index")

    def rebuild(self, node, inputs):
        meta = inputs[0].meta.reset_index(drop=True) if self.ignore_index else inputs[0].meta
        return TileableData(self, inputs, chunk_shape(meta, node.shape[0]), meta, node.chunk_size)

    def tile(self, ctx, out):
        data, weights = yield from self._chunks(ctx, out)
        offsets = np.cumsum([0] + [int(c.shape[0]) for c in data])
        total = int(offsets[-1])
        n = self.n if self.n is not None else round(self.frac * total)
        if n > total and not self.replace:
            raise ValueError("Cannot take a larger sample than population when 'replace=False'")
        stats = None
        if self.how is not None or not self.replace:
            hist = [ChunkData(self._op("hist", i, offsets), self._ins(data, weights, i), (math.nan,),
                              None, (i,)) for i in range(len(data))]
            stats = yield from ctx.values(hist)
            if self.how is not None:
                _check_weights(stats, n, self.replace)
        if n == 0:
            tiled = assemble(out, [], data[0], NO_ROWS)
        elif self.replace:
            tiled = self._with_replacement(out, data, weights, offsets, stats, n)
        else:
            tiled = self._without_replacement(out, data, weights, offsets, stats, n)
        return self._renumber(out, tiled) if self.ignore_index else tiled

    def _chunks(self, ctx, out):
        totals = []
        for node in out.inputs:
            totals.append(int(sum((yield from ctx.known(node)).nsplits[0])))
        if len(totals) > 1 and totals[1] != totals[0]:
            if self.how == "positional":
                raise ValueError("Weights and axis to be sampled must be of same length")
            raise NotImplementedError("weights must have the same index as the sampled object")
        lists = yield from aligned_rows(ctx, list(out.inputs))
        return lists[0], (lists[1] if len(lists) > 1 else None)

    @staticmethod
    def _ins(data, weights, i):
        return [data[i]] if weights is None else [data[i], weights[i]]

    def _op(self, stage, i, offsets, uppers=()):
        return SampleChunk(seed=self.seed, start=int(offsets[i]), how=self.how, column=self.column,
                           stage=stage, uppers=tuple(uppers), label=self.label)

    def _without_replacement(self, out, data, weights, offsets, stats, n):
        found = np.concatenate([s[0] for s in stats])
        counts = np.concatenate([s[1] for s in stats])
        if counts.sum() < n:
            raise ValueError("Fewer non-zero entries in p than size")
        buckets, inverse = np.unique(found, return_inverse=True)
        cum = np.cumsum(np.bincount(inverse, weights=counts).astype(np.int64))
        last = int(np.searchsorted(cum, n, side="left"))
        block = max(1, max(int(c.shape[0]) for c in data))
        cuts = np.searchsorted(cum[:last + 1], np.arange(1, -(-n // block)) * n / (-(-n // block)))
        cuts = sorted({int(c) for c in cuts if c < last} | {last})
        sizes = np.diff([0] + [int(cum[c]) for c in cuts])
        sizes[-1] = n - int(sizes[:-1].sum())
        uppers = [int(buckets[c]) for c in cuts]
        meta = out.meta
        split = []
        for i in range(len(data)):  # the outputs of one split share its operand
            op, ins = self._op("split", i, offsets, uppers), self._ins(data, weights, i)
            split.append([ChunkData(op, ins, (math.nan,), None, _idx(meta, i), j)
                          for j in range(len(uppers))])
        chunks = [ChunkData(SampleBlock(keep=int(k), label=self.label), [s[j] for s in split],
                            chunk_shape(meta, int(k)), meta, _idx(meta, j))
                  for j, k in enumerate(sizes)]
        return rows_grid(chunks, meta)

    def _with_replacement(self, out, data, weights, offsets, stats, n):
        u = uniforms(self.seed ^ 0x5EED, np.arange(n))
        if self.how is None:
            positions = np.minimum((u * offsets[-1]).astype(np.int64), offsets[-1] - 1)
            src = np.searchsorted(offsets, positions, side="right") - 1
            local = positions - offsets[src]
            pieces = position_pieces(data, src, local)
            if pieces is None:
                return gather(out, data, src, local)
            return assemble(out, pieces, data[0])
        sums = np.array([s[3] for s in stats])
        cum = np.concatenate([[0.0], np.cumsum(sums)])
        targets = u * cum[-1]
        src = np.minimum(np.searchsorted(cum, targets, side="right") - 1, len(data) - 1)
        while (sums[src] == 0).any():  # a target on the edge of an all-zero chunk
            src = np.where(sums[src] == 0, src - 1, src)
        def draw(parts, label):
            return WeightedDraw(parts=parts, how=self.how, column=self.column, label=label)

        extra = None if weights is None else {i: [weights[i]] for i in range(len(data))}
        return gather(out, data, src, targets - cum[src], map_op=draw, extra=extra)

    def _renumber(self, out, tiled):
        chunks, start = [], 0
        for i, c in enumerate(row_chunks(tiled)):
            op = Renumber(start=start, label=self.label)
            chunks.append(ChunkData(op, [c], c.shape, out.meta, c.index))
            start += int(c.shape[0])
        return rows_grid(chunks, out.meta)


def _check_weights(stats, n, replace):
    total = sum(s[3] for s in stats)
    if total == 0:
        raise ValueError("Invalid weights: weights sum to zero")
    if PANDAS3 and not replace and n * max(s[4] for s in stats) / total > 1:
        raise ValueError("Weighted sampling cannot be achieved with replace=False. Either set "
                         "replace=True or use smaller weights. See the docstring of sample for "
                         "details.")


@uses(Sample)
def _sample_columns_used(node, needed):
    """The columns needed of the sample, and the weights column."""
    if not is_frame(node) or needed is None:
        return [None] * len(node.inputs)
    column = {node.op.column} if node.op.column is not None else set()
    return [needed | column] + [None] * (len(node.inputs) - 1)


def _seed(random_state) -> int:
    if random_state is None:
        return int.from_bytes(os.urandom(8), "little")
    if is_int(random_state):
        return int(random_state) & _MASK
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2**63 - 1, dtype=np.int64))
    if isinstance(random_state, np.random.BitGenerator):
        random_state = np.random.Generator(random_state)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63 - 1))
    if pd.api.types.is_list_like(random_state):
        return int(tokenize(np.asarray(random_state))[:16], 16)
    raise ValueError("random_state must be an integer, array-like, a BitGenerator, Generator, "
                     "a numpy RandomState, or None")


def _weights_input(obj, weights):
    """``(how, column, lazy weights or None)`` for the ``weights`` argument."""
    from .datasource import from_pandas

    if weights is None:
        return None, None, None
    if isinstance(weights, str):
        if not isinstance(obj, DataFrame):
            raise ValueError("Strings cannot be passed as weights when sampling from a Series.")
        if weights not in obj.columns:
            raise KeyError("String passed to weights not a valid column")
        return "column", weights, None
    if isinstance(weights, pd.Series):
        weights = from_pandas(weights)
    if isinstance(weights, Series):
        return "aligned", None, weights
    arr = np.asarray(weights, dtype=np.float64)
    n = obj.shape[0]
    if n == n and len(arr) != n:
        raise ValueError("Weights and axis to be sampled must be of same length")
    return "positional", None, from_pandas(pd.Series(arr))


@methods(DataFrame, Series)
def sample(obj, n=None, frac=None, replace=False, weights=None, random_state=None, axis=None,
           ignore_index=False):
    """Random rows (see the module docstring for how draws are made and reproduced)."""
    from pandas.core.sample import process_sampling_size

    size = process_sampling_size(n, frac, replace)
    seed = int(_mix(np.array([_seed(random_state)], dtype=np.uint64))[0])
    axis = {None: 0, "index": 0, "rows": 0, "columns": 1}.get(axis, axis)
    if axis == 1 and isinstance(obj, DataFrame):
        return _sample_columns(obj, size, frac, replace, weights, seed, ignore_index)
    if axis != 0:
        raise ValueError(f"No axis named {axis} for object type {type(obj).__name__}")
    how, column, w = _weights_input(obj, weights)
    nrows = obj.shape[0]
    if size is None:
        size = round(frac * nrows) if nrows == nrows else math.nan
    elif not replace and nrows == nrows and size > nrows:
        raise ValueError("Cannot take a larger sample than population when 'replace=False'")
    op = Sample(n=None if n is None else int(n), frac=frac, replace=bool(replace), seed=seed,
                how=how, column=column, ignore_index=bool(ignore_index), label="md.sample")
    meta = obj.data.meta
    if ignore_index:
        meta = meta.reset_index(drop=True)
    return new_frame(op, [obj] if w is None else [obj, w], size, meta)


def _sample_columns(obj, size, frac, replace, weights, seed, ignore_index):
    ncols = len(obj.columns)
    size = round(frac * ncols) if size is None else int(size)
    p = None
    if weights is not None:
        if isinstance(weights, str):
            raise ValueError("Strings can only be passed to weights when sampling from rows on "
                             "a DataFrame")
        p = np.nan_to_num(np.asarray(weights, dtype=np.float64))
        if len(p) != ncols:
            raise ValueError("Weights and axis to be sampled must be of same length")
        p = p / p.sum()
    cols = np.random.default_rng(seed).choice(ncols, size=size, replace=replace, p=p)
    picked = iloc_columns(obj, cols.tolist())
    if ignore_index:
        raise NotImplementedError("sample(axis=1, ignore_index=True) is not supported")
    return picked
