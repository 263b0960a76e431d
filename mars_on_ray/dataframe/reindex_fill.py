"""``reindex`` with ``method=`` (pad / backfill / nearest), ``limit=`` and ``tolerance=``.

pandas needs a monotonic index for these, so the source chunks cover ordered label ranges:
each target label goes to the chunk whose range holds it; that chunk, lengthened by the last
row of the chunk before it and the first row of the chunk after it (the nearest rows on
either side of any label it gets), answers with pandas' own ``reindex``; the rows go back to
their target chunk, in the target's order. A run of labels filled from one row (``limit``)
always goes to one chunk, so pandas' local answer is the global one.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.shuffle import split_by_codes
from .blockwise import RowSlices, chunk_shape, concat_values, row_chunks, rows_grid
from .core import new_frame
from .positional import _idx

_POS = "__mars_position__"
_LABEL = "__mars_label__"
_NOT_MONOTONIC = "index must be monotonic increasing or decreasing"
_REPEATED = "cannot reindex on an axis with duplicate labels"


class ReindexFill(Operand):
    """Stages: ``summary`` (a source chunk's first/last label, order, uniqueness; of a chunk of
    target labels: ``labels-summary``), ``route``
    (target labels with their positions, split by source chunk), ``answer`` (a lengthened
    source chunk reindexed to the labels it got, split back by target chunk), ``assemble``."""

    _params = ("method", "limit", "tolerance", "fill_value", "stage", "n", "base", "firsts", "decreasing",
               "n_prev", "n_next", "index_name", "freq", "result_meta")
    n = 1
    base = 0
    n_prev = n_next = 0
    freq = None

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n if self.stage in ("route", "answer") else 1

    @property
    def fusable(self) -> bool:  # type: ignore[override]
        return self.stage not in ("route", "answer")

    def execute(self, *values):
        if self.stage in ("summary", "labels-summary"):  # a source chunk's index / target labels
            index = values[0].index if self.stage == "summary" else pd.Index(values[0][_LABEL].array)
            if not len(index):
                return None
            return (index[0], index[-1], index.is_monotonic_increasing, index.is_monotonic_decreasing,
                    index.is_unique)
        if self.stage == "route":
            labels = values[0].assign(**{_POS: np.arange(len(values[0]), dtype=np.int64) + self.base})
            return self._split(labels, self._codes(labels[_LABEL]))
        if self.stage == "answer":
            return self._answer(values)
        parts = [v for v in values if len(v)] or list(values[:1])
        res = concat_values(parts).sort_values(_POS, kind="stable").drop(columns=[_POS])
        res.index = res.index.rename(self.index_name)
        if self.freq is not None and len(res):  # the target's labels in order: its frequency too
            res.index.freq = self.freq
        if isinstance(self.result_meta, pd.Series):
            return res.iloc[:, 0].rename(self.result_meta.name).astype(self.result_meta.dtype)
        return res.astype(dict(self.result_meta.dtypes))

    def _split(self, frame, codes):
        pieces = split_by_codes(frame, codes, self.n)
        return pieces if self.n > 1 else pieces[0]

    def _codes(self, labels) -> np.ndarray:
        """The source chunk (0..len(firsts)-1) whose label range holds each label."""
        if self.firsts[0] is None:  # the source has no rows
            return np.zeros(len(labels), dtype=np.intp)
        firsts = np.asarray(self.firsts, dtype=object)
        values = np.asarray(labels.array, dtype=object)
        if self.decreasing:  # chunk c holds labels from its first down to the next first
            below = np.searchsorted(firsts[::-1], values, side="left")
            codes = len(firsts) - 1 - below
        else:
            codes = np.searchsorted(firsts, values, side="right") - 1
        return np.clip(codes, 0, len(firsts) - 1).astype(np.intp)

    def _answer(self, values):
        """The labels this chunk got, reindexed on it lengthened by its neighbours' rows."""
        k = 1 + self.n_prev + self.n_next
        ext = concat_values(list(values[:k])) if k > 1 else values[0]
        got = [v for v in values[k:] if len(v)] or list(values[k:k + 1])
        labels = concat_values(got) if len(got) > 1 else got[0]
        res = ext.reindex(pd.Index(labels[_LABEL].array), method=self.method, limit=self.limit,
                          tolerance=self.tolerance, fill_value=self.fill_value)
        res = res.to_frame() if isinstance(res, pd.Series) else res
        res = res.assign(**{_POS: labels[_POS].to_numpy()})
        return self._split(res, res[_POS].to_numpy() >> 32)

    def tile(self, ctx, out):
        source, targets = out.inputs
        chunks = row_chunks((yield from ctx.known(source)))
        nonempty = [c for c in chunks if c.shape[0]] or chunks[:1]
        summaries = yield from ctx.values([ChunkData(self.new(stage="summary"), [c], (), None, (i,))
                                           for i, c in enumerate(nonempty)])
        decreasing = _check_order([s for s in summaries if s is not None])
        firsts = [s[0] for s in summaries if s is not None] or [None]
        wanted = row_chunks(ctx[targets])
        if self.limit is not None:  # pandas counts a limit along both in increasing order
            looks = yield from ctx.values([ChunkData(self.new(stage="labels-summary"), [t], (), None, (i,))
                                           for i, t in enumerate(wanted)])
            looks = [s for s in looks if s is not None]
            if looks and (decreasing or not all(s[2] for s in looks)
                          or any(a[1] > b[0] for a, b in zip(looks, looks[1:]))):
                method = "backfill" if self.method in ("bfill", "backfill") else "pad"
                raise ValueError(f"limit argument for '{method}' method only well-defined if index and "
                                 "target are monotonic")
        n, m = len(nonempty), len(wanted)
        received = exchange([(self.new(stage="route", n=n, base=i << 32, firsts=tuple(firsts),
                                       decreasing=decreasing), [t]) for i, t in enumerate(wanted)],
                            n, self.label)
        meta = source.meta
        mappers = []
        for j, c in enumerate(nonempty):
            prev = [_edge(nonempty[j - 1], meta, last=True)] if j > 0 else []
            nxt = [_edge(nonempty[j + 1], meta, last=False)] if j + 1 < n else []
            op = self.new(stage="answer", n=m, n_prev=len(prev), n_next=len(nxt))
            mappers.append((op, prev + [c] + nxt + received[j]))
        back = exchange(mappers, m, self.label)
        result = [ChunkData(self.new(stage="assemble"), back[i], chunk_shape(out.meta, t.shape[0]),
                            out.meta, _idx(out.meta, i)) for i, t in enumerate(wanted)]
        return rows_grid(result, out.meta)


def _edge(chunk, meta, last: bool):
    """The first (or last) row of a chunk."""
    n = int(chunk.shape[0])
    span = (n - 1, n) if last else (0, 1)
    return ChunkData(RowSlices(slices=(span,)), [chunk], chunk_shape(meta, 1), meta, chunk.index)


def _check_order(summaries) -> bool:
    """Whether the index decreases (else it increases); pandas' ValueErrors for repeated
    labels and for an index in no order."""
    if not all(s[4] for s in summaries) or any(a[1] == b[0] for a, b in zip(summaries, summaries[1:])):
        raise ValueError(_REPEATED)
    for decreasing, flag in ((False, 2), (True, 3)):
        if all(s[flag] for s in summaries) and all(
                (a[1] > b[0]) if decreasing else (a[1] < b[0]) for a, b in zip(summaries, summaries[1:])):
            return decreasing
    raise ValueError(_NOT_MONOTONIC)


def reindex_fill(obj, labels, method, limit, tolerance, fill_value, name, meta, freq=None):
    """``obj`` reindexed to ``labels`` (a lazy frame of them in ``__mars_label__``; ``freq``:
    the target's frequency when it is a DatetimeIndex known now)."""
    if tolerance is not None and not np.isscalar(tolerance) and not isinstance(tolerance, pd.Timedelta):
        raise NotImplementedError("reindex with a tolerance per label is not supported")
    op = ReindexFill(method=method, limit=limit, tolerance=tolerance, fill_value=fill_value, stage="tile", index_name=name, freq=freq,
                     result_meta=meta, label="md.reindex")
    return new_frame(op, [obj, labels], labels.shape[0], meta)
