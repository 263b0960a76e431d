"""Row-order primitives: rows borrowed from neighbouring chunks, and prefix scans.

``neighbours``: each chunk is computed by a pandas function run on the chunk with up to
``before`` rows of the chunks before it and ``after`` rows of those after it (only the tails /
heads that are needed travel), so windows and shifts are exact at chunk boundaries, however
many chunks a window spans. ``scan``: each chunk makes a small summary, one operand turns the
summaries into a carry per chunk (the state of every row before it, or after it when
``reverse``), and each chunk is computed from its rows and its carry.
"""
from __future__ import annotations

import math

import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import RowSlices, chunk_shape, concat_values, row_chunks, rows_grid, sample_of
from .core import new_frame


def _idx(meta, i: int) -> tuple:
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


def sample(meta):
    """A one-row sample of ``meta`` (a Series keeps its name)."""
    values = sample_of(meta)
    return values.rename(meta.name) if isinstance(meta, pd.Series) else values


def call(kernel, value):
    """``kernel`` is ``(func, args, kwargs)``: ``func(value, *args, **kwargs)``."""
    func, args, kwargs = kernel
    return func(value, *args, **dict(kwargs))


class Neighbours(Operand):
    """``kernel`` on a chunk lengthened by ``before`` rows before it and ``after`` after it;
    the chunk's own rows of the result are kept."""

    _params = ("kernel", "before", "after", "n_prev", "n_next")
    n_prev = n_next = 0
    #: the result has its input's index (align.py lines such results up chunk by chunk)
    keeps_index = True

    def execute(self, *values):
        prev, chunk = values[:self.n_prev], values[self.n_prev]
        nxt = values[self.n_prev + 1:]
        head = concat_values(list(prev)).iloc[-self.before:] if prev else None
        tail = concat_values(list(nxt)).iloc[:self.after] if nxt else None
        parts = [p for p in (head, chunk, tail) if p is not None]
        res = call(self.kernel, concat_values(parts) if len(parts) > 1 else chunk)
        start = 0 if head is None else len(head)
        res = res.iloc[start:start + len(chunk)]
        res.index = chunk.index
        return res

    def tile(self, ctx, out):
        node = out.inputs[0]
        chunks = row_chunks((yield from ctx.known(node)))
        sizes = [int(c.shape[0]) for c in chunks]
        before = sum(sizes) if self.before is None else self.before
        ends, result = {}, []

        def piece(j, n, from_end):
            if n >= sizes[j]:
                return chunks[j]
            if (j, from_end) not in ends:
                sl = (sizes[j] - n, sizes[j]) if from_end else (0, n)
                ends[(j, from_end)] = ChunkData(RowSlices(slices=(sl,), label=self.label), [chunks[j]],
                                                chunk_shape(node.meta, n), node.meta, _idx(node.meta, j))
            return ends[(j, from_end)]

        for i, c in enumerate(chunks):
            prev, need, j = [], before, i - 1
            while need > 0 and j >= 0:
                if sizes[j]:
                    prev.insert(0, piece(j, min(need, sizes[j]), True))
                    need -= sizes[j]
                j -= 1
            nxt, need, j = [], self.after, i + 1
            while need > 0 and j < len(chunks):
                if sizes[j]:
                    nxt.append(piece(j, min(need, sizes[j]), False))
                    need -= sizes[j]
                j += 1
            op = self.new(before=before, n_prev=len(prev), n_next=len(nxt))
            result.append(ChunkData(op, prev + [c] + nxt, chunk_shape(out.meta, sizes[i]), out.meta,
                                    _idx(out.meta, i)))
        return rows_grid(result, out.meta)


def neighbours(obj, kernel, before: int | None, after: int, meta, label: str):
    """``kernel`` (``(func, args, kwargs)``) per chunk with ``before`` rows before it (None:
    all of them) and ``after`` rows after it; ``meta``: the result's empty pandas object."""
    op = Neighbours(kernel=kernel, before=before, after=after, label=label)
    return new_frame(op, [obj], obj.shape[0], with_rows_of(obj, meta))


class Scan(Operand):
    """A prefix scan with a ``kernel`` object: ``summary(chunk)``, ``prefix(summaries)``
    (the state after each summary, in order) and ``apply(chunk, carry)`` (carry None for the
    first chunk). ``reverse``: summaries go from the last chunk and the carry is the state of
    the rows after the chunk."""

    _params = ("kernel", "reverse", "stage", "n")
    stage = None
    n = 1

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n if self.stage == "scan" else 1

    def execute(self, *values):
        if self.stage == "summary":
            return self.kernel.summary(values[0])
        if self.stage == "scan":
            states = self.kernel.prefix(list(values))
            return tuple(states) if len(states) > 1 else states[0]
        return self.kernel.apply(values[0], values[1] if len(values) > 1 else None)

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n = len(chunks)
        carries: list = [None] * n
        if n > 1:
            order = range(n - 1, 0, -1) if self.reverse else range(n - 1)
            summaries = [ChunkData(self.new(stage="summary"), [chunks[i]], (math.nan,), None, (i,))
                         for i in order]
            scan = self.new(stage="scan", n=n - 1)
            outs = [ChunkData(scan, summaries, (math.nan,), None, (0,), k) for k in range(n - 1)]
            carries = outs[::-1] + [None] if self.reverse else [None] + outs
        result = []
        for i, c in enumerate(chunks):
            ins = [c] if carries[i] is None else [c, carries[i]]
            result.append(ChunkData(self.new(stage="apply"), ins, chunk_shape(out.meta, c.shape[0]),
                                    out.meta, _idx(out.meta, i)))
        return rows_grid(result, out.meta)


def scan(obj, kernel, meta, label: str, reverse: bool = False):
    """A row-aligned result computed by a prefix scan (see ``Scan``)."""
    op = Scan(kernel=kernel, reverse=reverse, label=label)
    return new_frame(op, [obj], obj.shape[0], with_rows_of(obj, meta))


def with_rows_of(obj, meta):
    """``meta`` (inferred from a sample, whose index is a RangeIndex) with ``obj``'s index:
    a row-aligned result keeps the rows' labels."""
    index = obj.data.meta.index
    return meta if meta.index.equals(index) and type(meta.index) is type(index) else meta.set_axis(index[:0])


class Kernel:
    """Base of scan kernels: tokenized by class and attributes."""

    def __mars_token__(self):
        return (type(self).__module__, type(self).__qualname__, tuple(sorted(vars(self).items())))

    def prefix(self, summaries: list) -> list:
        """The state after each summary (``combine(state, summary)`` from the first)."""
        out, state = [], None
        for s in summaries:
            state = s if state is None else self.combine(state, s)
            out.append(state)
        return out


class RunningState(Kernel):
    """A scan kernel whose state is a dict of per-row running arrays: ``_local(chunk)`` (the
    running state within a chunk) and ``_merge(a, b)`` (state ``a`` of the rows before, then
    the running state ``b``)."""

    def summary(self, chunk):
        return {k: v[-1:] for k, v in self._local(chunk).items()} if len(chunk) else None

    def combine(self, a, b):
        return b if a is None else a if b is None else self._merge(a, b)

    def running(self, chunk, carry):
        """The running state of every row of ``chunk`` after the rows before it."""
        state = self._local(chunk)
        return state if carry is None else self._merge(carry, state)
