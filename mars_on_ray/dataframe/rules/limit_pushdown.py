"""Limit pushdown: ``head(n)`` over a reader lets the reader stop after ``n`` rows.

Readers whose row counts are known from metadata (parquet) need nothing: ``head`` tiles onto
their first chunks only. Readers that would otherwise scan everything to count rows (CSV,
SQL) take the limit (``nrows`` / ``LIMIT``). Only through operations that keep every row.
"""
from __future__ import annotations

from ...core.optimizer import Plan, tileable_rule
from ..indexing import Head
from ..io.reader import Reader
from .usage import exclusive_rows, row_behaviour


def _reader_below(node):
    """The reader feeding ``node`` through row-for-row operations on one input, or None."""
    while not isinstance(node.op, Reader):
        if row_behaviour(node) != "same":
            return None
        node = node.inputs[0]
    return node


@tileable_rule(25)
def push_limits(plan: Plan) -> Plan:
    if not any(isinstance(n.op, Reader) and n.op.accepts_limit for n in plan.order):
        return plan
    consumers = plan.consumers()
    limits: dict[str, tuple] = {}
    for node in plan.order:
        if not isinstance(node.op, Head) or node.op.n < 0:
            continue
        reader = _reader_below(node.inputs[0])
        if reader is None or not reader.op.accepts_limit:
            continue
        if exclusive_rows(plan, consumers, reader, node, rows=("same",)) is None:
            continue
        n = max(node.op.n, limits.get(reader.key, (reader, 0))[1])
        limits[reader.key] = (reader, n)
    return plan.replace({key: reader.op.limited(reader, n) for key, (reader, n) in limits.items()})
