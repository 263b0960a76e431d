"""What every reader shares: the parameters the optimizer rewrites, and chunk re-indexing.

A reader is a source operand. The rules in ``dataframe/rules`` rewrite three of its parameters
on an immutable copy: ``columns`` (only what the plan uses is read), ``pushed_filters``
(row-group / partition pruning or a SQL WHERE; the plan keeps its own row filter, so a reader
may return more rows than match, never fewer) and ``limit`` (only the first rows are needed).
"""
from __future__ import annotations

import math

import pandas as pd

from ...core.entity import ChunkData, TileableData
from ...core.operand import Operand
from ..blockwise import chunk_shape

#: filter operators a reader can take: the comparisons whose missing-value semantics agree
#: between pandas (NaN compares False) and pyarrow / SQL (null drops the row)
PUSHABLE_OPS = ("==", "<", "<=", ">", ">=", "in")


class Reader(Operand):
    """Base of the source operands that read files or databases into a DataFrame."""

    _params = ("columns", "pushed_filters", "limit")
    columns = None
    pushed_filters = None
    limit = None
    #: True when the reader can use ``pushed_filters`` (parquet statistics, SQL WHERE)
    accepts_filters = False
    #: True when the reader can stop after ``limit`` rows (CSV nrows, SQL LIMIT)
    accepts_limit = False

    def check_distributable(self) -> None:
        from ...core.paths import check_shared

        check_shared(getattr(self, "fs", None), self.name)

    def can_prune(self) -> bool:
        """Whether this reader can read fewer columns (some options pin them by position)."""
        return True

    def with_columns(self, columns: list) -> "Reader":
        """This reader reading only ``columns`` (a subset of its output, in output order)."""
        return self.new(columns=list(columns))

    def prune(self, node: TileableData, columns: list) -> TileableData:
        """``node`` reading only ``columns`` of its output."""
        meta = node.meta[list(columns)]
        return TileableData(self.with_columns(columns), [], (node.shape[0], len(columns)), meta)

    def filtered(self, node: TileableData, dnf: list) -> TileableData:
        """``node`` that may skip rows not matching ``dnf`` (an OR of ANDs of (col, op, value))."""
        op = self.new(pushed_filters=_and(self.pushed_filters, dnf))
        return TileableData(op, [], (math.nan, node.shape[1]), node.meta)

    def limited(self, node: TileableData, n: int) -> TileableData:
        """``node`` reading at least its first ``n`` rows (maybe no more)."""
        op = self.new(limit=n if self.limit is None else min(n, self.limit))
        return TileableData(op, [], (math.nan, node.shape[1]), node.meta)

    def describe(self) -> str:
        parts = [repr(self.source_name())]
        if self.columns is not None:
            parts.append("columns=[" + ", ".join(map(str, self.columns)) + "]")
        if self.pushed_filters:
            parts.append(f"filters=[{format_dnf(self.pushed_filters)}]")
        if self.limit is not None:
            parts.append(f"limit={self.limit}")
        return f"{self.name}({', '.join(parts)})"

    def source_name(self) -> str:  # pragma: no cover - every reader names its source
        raise NotImplementedError


def _and(a: list | None, b: list) -> list:
    """The DNF of ``a AND b``."""
    if not a:
        return b
    return [x + y for x in a for y in b]


def format_dnf(dnf: list) -> str:
    """``[[('a', '>', 1), ('b', '==', 'x')], [...]]`` as ``a > 1 and b == 'x' or ...``."""
    terms = [" and ".join(f"{c} {o} {v!r}" for c, o, v in conj) for conj in dnf]
    return " or ".join(f"({t})" if len(dnf) > 1 and len(conj) > 1 else t
                       for t, conj in zip(terms, dnf))


def normalize_dnf(filters) -> list | None:
    """pandas / pyarrow ``filters`` (a list of tuples, or a list of lists) as a DNF list."""
    if not filters:
        return None
    if all(isinstance(f, tuple) for f in filters):
        return [list(filters)]
    return [list(conj) for conj in filters]


class RangeIndexed(Operand):
    """A chunk read with a local index, labelled ``start, start + step, ...`` instead."""

    _params = ("start", "step", "index_name")
    step = 1
    index_name = None

    def execute(self, frame):
        stop = self.start + len(frame) * self.step
        frame = frame.copy(deep=False)  # a new index on the same data (the input is shared)
        frame.index = pd.RangeIndex(self.start, stop, self.step, name=self.index_name)
        return frame


def range_indexed(chunks: list[ChunkData], rows: list[int], meta, start: int = 0, step: int = 1,
                  name=None, label: str = "read") -> list[ChunkData]:
    """Chunks (of ``rows`` rows each) labelled as consecutive pieces of one RangeIndex."""
    out = []
    for chunk, n in zip(chunks, rows):
        op = RangeIndexed(start=start, step=step, index_name=name, label=label)
        out.append(ChunkData(op, [chunk], chunk_shape(meta, n), meta, chunk.index))
        start += n * step
    return out


