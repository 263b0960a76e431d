"""Column pruning: a reader reads only the columns some consumer of it uses.

Walking the plan from the roots down, each node learns which of its output columns its
consumers need; its registered usage turns that into the columns it needs of its inputs. A
reader whose needed columns are fewer than its output is replaced by one reading just those;
its consumers are rebuilt on it (their metadata inferred again).
"""
from __future__ import annotations

from ...core.optimizer import Plan, tileable_rule
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


@tileable_rule(30)
def prune_columns(plan: Plan) -> Plan:
    readers = [n for n in plan.order if isinstance(n.op, Reader) and is_frame(n) and n.op.can_prune()]
    if not readers:
        return plan
    needed = needed_columns(plan)
    replace = {}
    for reader in readers:
        want = needed.get(reader.key)
        if want is None:
            continue
        columns = [c for c in reader.meta.columns if c in want]
        if not columns and len(reader.meta.columns):
            columns = [reader.meta.columns[0]]  # the rows still have to be counted
        if len(columns) < len(reader.meta.columns):
            replace[reader.key] = reader.op.prune(reader, columns)
    return plan.replace(replace)
