"""Predicate pushdown: ``df[df.c1 > 0.5]`` over a reader lets the reader skip what cannot match.

The mask must be comparisons of reader columns with scalars, joined by ``&`` and ``|``; it
becomes an OR of ANDs of ``(column, op, value)`` given to the reader, which uses it to skip
row groups / partitions (parquet statistics) or as a SQL WHERE. The plan keeps its own filter,
so a reader may keep rows that do not match; it never drops one that does.

It is only done when every row between the reader and the filter comes from that reader,
row by row, and nothing else reads those rows (a reduction, a head or another consumer would
see fewer rows). An ``&`` with one side that cannot be pushed still pushes the other side.
"""
from __future__ import annotations

import datetime
import numbers
import operator

import numpy as np
import pandas as pd

from ...core.optimizer import Plan, tileable_rule
from ..arithmetic import _binary_kernel
from ..blockwise import In, MapChunks
from ..indexing import _filter
from ..io.reader import Reader
from .usage import exclusive_rows, passes_columns

_OPS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "=="}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def _is(node, func) -> bool:
    return isinstance(node.op, MapChunks) and node.op.func is func


def source_column(series) -> tuple | None:
    """(reader node, column) when ``series`` is a reader column passed through unchanged."""
    op = series.op
    if not _is(series, operator.getitem) or isinstance(op.args[1], list):
        return None
    node = series.inputs[0]
    while not isinstance(node.op, Reader):
        if not passes_columns(node):
            return None
        node = node.inputs[0]
    return node, op.args[1]


def _pushable(dtype, op: str, value) -> bool:
    """pandas and the reader agree on ``column <op> value`` for this dtype and value."""
    if isinstance(value, (bool, np.bool_)):
        return dtype == np.bool_ and op == "=="
    if isinstance(dtype, pd.CategoricalDtype):
        return op == "==" and _pushable(dtype.categories.dtype, op, value)
    kind = getattr(dtype, "kind", "O")
    if isinstance(value, numbers.Real) and not isinstance(value, (np.datetime64, np.timedelta64)):
        return kind in "iuf" and not (isinstance(value, float) and np.isnan(value))
    if isinstance(value, str):
        return pd.api.types.is_string_dtype(dtype)
    if isinstance(value, (pd.Timestamp, datetime.datetime, np.datetime64)):
        return kind == "M" and getattr(dtype, "tz", None) is None and pd.Timestamp(value).tz is None
    return False


def _term(mask) -> tuple | None:
    """(reader, [[(column, op, value)]]) of a comparison of a reader column with a scalar."""
    op = mask.op
    symbol = _OPS.get((op.kwargs or {}).get("name"))
    if symbol is None or set(op.kwargs) != {"name"}:
        return None
    left, right = op.args
    if isinstance(left, In) and not isinstance(right, In):
        column, value = mask.inputs[left.i], right
    elif isinstance(right, In) and not isinstance(left, In):
        column, value, symbol = mask.inputs[right.i], left, _MIRRORED[symbol]
    else:
        return None
    found = source_column(column)
    if found is None:
        return None
    reader, name = found
    if name not in reader.meta.columns or not _pushable(reader.meta[name].dtype, symbol, value):
        return None
    if isinstance(value, np.generic):
        value = value.item()
    return reader, [[(name, symbol, value)]]


def predicate(mask) -> tuple | None:
    """(reader, DNF) for a boolean mask node, or None when nothing of it can be pushed."""
    if not _is(mask, _binary_kernel):
        return None
    name = (mask.op.kwargs or {}).get("name")
    if name in ("and_", "or_"):
        sides = [predicate(i) if isinstance(a, In) else None
                 for a, i in zip(mask.op.args, _inputs_of_args(mask))]
        found = [s for s in sides if s is not None]
        if name == "or_":
            if len(found) < 2 or found[0][0].key != found[1][0].key:
                return None
            return found[0][0], found[0][1] + found[1][1]
        if not found:
            return None
        if len(found) == 2 and found[0][0].key == found[1][0].key:
            return found[0][0], [x + y for x in found[0][1] for y in found[1][1]]
        return found[0]
    return _term(mask)


def _inputs_of_args(node):
    return [node.inputs[a.i] if isinstance(a, In) else None for a in node.op.args]


@tileable_rule(20)
def push_predicates(plan: Plan) -> Plan:
    if not any(isinstance(n.op, Reader) and n.op.accepts_filters for n in plan.order):
        return plan
    consumers = plan.consumers()
    pushed: dict[str, list] = {}
    readers: dict[str, object] = {}
    for node in plan.order:
        if not _is(node, _filter) or len(node.inputs) != 2:
            continue
        found = predicate(node.inputs[1])
        if found is None:
            continue
        reader, dnf = found
        if not reader.op.accepts_filters or exclusive_rows(plan, consumers, reader, node) is None:
            continue
        readers[reader.key] = reader
        have = pushed.get(reader.key)
        pushed[reader.key] = dnf if have is None else [x + y for x in have for y in dnf]
    return plan.replace({key: readers[key].op.filtered(readers[key], dnf) for key, dnf in pushed.items()})
