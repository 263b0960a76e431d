"""Column pruning: a reader reads only the columns some consumer of it uses.

Walking the plan from the roots down, each node learns which of its output columns its
consumers need; its registered usage turns that into the columns it needs of its inputs. A
reader whose needed columns are fewer than its output is replaced by one reading just those;
its consumers are rebuilt on it (their metadata inferred again). A frame already in memory
(the user's, or one executed before) gets a column selection in front of its consumers, so a
row filter or a shuffle moves only the columns used (TPC-H q1 reads 7 of lineitem's 16).
"""
from __future__ import annotations

import operator

from ...core.entity import TileableData
from ...core.optimizer import Plan, tileable_rule
from ..blockwise import MapChunks
from ..indexing import _filter
from ..io.reader import Reader
from .usage import input_columns, is_frame


def needed_columns(plan: Plan) -> dict[str, set | None]:
    """Node key -> the output columns consumers use (None: all, or not a DataFrame)."""
    needed: dict[str, set | None] = {r.key: None for r in plan.roots}
    for node in reversed(plan.order):
        want = needed.get(node.key, set())
        for inp, need in zip(node.inputs, input_columns(node, want if is_frame(node) else None)):
            if not is_frame(inp):
                need = None
            have = needed.get(inp.key, set())
            needed[inp.key] = None if have is None or need is None else have | need
    return needed


_SAFE_READERS = (operator.getitem, _filter)


def _kept_columns(node: TileableData, want: set | None) -> list | None:
    """The columns of ``node`` to keep, or None when every one is used."""
    if want is None:
        return None
    columns = [c for c in node.meta.columns if c in want]
    if not columns and len(node.meta.columns):
        columns = [node.meta.columns[0]]  # the rows still have to be counted
    return columns if len(columns) < len(node.meta.columns) else None


def _selection(node: TileableData, columns: list) -> TileableData:
    from ..blockwise import map_chunks
    from ..core import DataFrame

    return map_chunks(operator.getitem, (DataFrame(node), columns), label="md.getitem").data


def _in_memory(node: TileableData, roots: set, consumers: dict) -> bool:
    """A frame in memory whose readers all select columns or filter rows: their metadata
    is exact when inferred again on fewer columns (not so for metadata taken from samples)."""
    return (not node.inputs and not isinstance(node.op, Reader) and is_frame(node)
            and node.key not in roots and node.meta.columns.is_unique
            and all(isinstance(c.op, MapChunks) and c.op.func in _SAFE_READERS
                    for c in consumers.get(node.key, ())))


@tileable_rule(30)
def prune_columns(plan: Plan) -> Plan:
    readers = [n for n in plan.order if isinstance(n.op, Reader) and is_frame(n) and n.op.can_prune()]
    roots = {r.key for r in plan.roots}
    consumers = plan.consumers()
    sources = [n for n in plan.order if _in_memory(n, roots, consumers)]
    if not readers and not sources:
        return plan
    needed = needed_columns(plan)
    replace = {}
    for node in readers + sources:
        columns = _kept_columns(node, needed.get(node.key))
        if columns is not None:
            replace[node.key] = (node.op.prune(node, columns) if isinstance(node.op, Reader)
                                 else _selection(node, columns))
    return plan.replace(replace)
