"""How each operation uses its inputs' columns and rows: what the optimizer rules may assume.

Operations register here, next to their own code, with ``@uses(func_or_operand_class)``. An
operation that did not register is opaque: it needs every column of its inputs, and no row
rewrite passes through it.

- ``columns(node, needed)``: per input, the set of column labels it needs when the consumers
  need ``needed`` of the output (None: all columns / not a DataFrame).
- ``rows``: ``"same"`` (one output row per input row, computed from that row only),
  ``"subset"`` (rows computed from their own input row, some dropped) or None; a callable of
  the node when it depends on the arguments.
- ``passthrough``: output column ``c`` holds input 0's column ``c`` unchanged (selections, filters).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

from ..blockwise import MapChunks


@dataclass(frozen=True)
class Usage:
    columns: Callable
    rows: Any = None
    passthrough: bool = False


_registry: dict[Any, Usage] = {}


def uses(key, *, rows=None, passthrough: bool = False):
    """Register ``columns(node, needed)`` for a MapChunks function or an operand class."""

    def register(columns):
        _registry[key] = Usage(columns, rows, passthrough)
        return columns

    return register


def usage_of(node) -> Usage | None:
    op = node.op
    return _registry.get(op.func if isinstance(op, MapChunks) else type(op))


def input_columns(node, needed: set | None) -> list:
    """Per input of ``node``, the columns it needs (None: all of them)."""
    usage = usage_of(node)
    if usage is None:
        return [None] * len(node.inputs)
    return list(usage.columns(node, needed))


def row_behaviour(node) -> str | None:
    """``"same"``, ``"subset"`` or None (see the module docstring)."""
    usage = usage_of(node)
    if usage is None:
        return None
    rows = usage.rows(node) if callable(usage.rows) else usage.rows
    if isinstance(node.op, MapChunks) and any(node.inputs[i].ndim for i in node.op.broadcast):
        return None  # a whole other input goes with every block: not row by row
    return rows


def passes_columns(node) -> bool:
    usage = usage_of(node)
    return usage is not None and usage.passthrough


def is_frame(node) -> bool:
    return isinstance(node.meta, pd.DataFrame)


def same_as_output(node, needed):
    """Every input that is a DataFrame needs the columns needed of the output."""
    return [needed if is_frame(i) else None for i in node.inputs]


def exclusive_rows(plan, consumers: dict, reader, target, rows=("same", "subset")) -> set[str] | None:
    """Keys of the nodes between ``reader`` and ``target`` when each of them treats rows as
    ``rows`` says, all their rows come from ``reader`` and nothing outside reads them; else
    None. Then a row rewrite of the reader (skip rows, stop early) reaches only ``target``."""
    ancestors: set[str] = set()
    stack = [target]
    while stack:
        node = stack.pop()
        for inp in node.inputs:
            if inp.key not in ancestors:
                ancestors.add(inp.key)
                stack.append(inp)
    if reader.key not in ancestors:
        return None
    between: dict[str, object] = {}
    stack = [reader]
    while stack:
        for consumer in consumers[stack.pop().key]:
            if consumer.key == target.key:
                continue
            if consumer.key not in ancestors:
                return None  # something outside the filter also reads these rows
            if consumer.key not in between:
                between[consumer.key] = consumer
                stack.append(consumer)
    allowed = set(between) | {reader.key}
    if any(root.key in allowed for root in plan.roots):
        return None  # the user asked for these rows themselves
    for node in [*between.values(), target]:
        if node is not target and row_behaviour(node) not in rows:
            return None
        if any(inp.key not in allowed for inp in node.inputs):
            return None  # rows from another source meet the reader's rows
    return allowed
