"""Tileable-level optimization: rules rewrite an immutable plan before tiling.

A rule is ``rule(plan) -> plan``; it never mutates a node, it builds new ones and calls
``plan.replace``, which rebuilds every consumer of a replaced node (``op.rebuild``). Rules
register next to the operations they serve with ``@tileable_rule(priority)`` and run in
priority order after common-subexpression elimination (nodes are deduplicated by key).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .entity import TileableData
from .graph import topo_order


@dataclass(frozen=True)
class Plan:
    """The roots a user asked for and every node they depend on, inputs first."""

    roots: tuple[TileableData, ...]
    order: tuple[TileableData, ...]

    @classmethod
    def of(cls, roots) -> "Plan":
        roots = tuple(roots)
        return cls(roots, tuple(topo_order(roots)))

    def consumers(self) -> dict[str, list[TileableData]]:
        """Node key -> the nodes reading it (once per reading node)."""
        found: dict[str, list[TileableData]] = {n.key: [] for n in self.order}
        for node in self.order:
            for key in dict.fromkeys(i.key for i in node.inputs):
                found[key].append(node)
        return found

    def replace(self, mapping: dict[str, TileableData]) -> "Plan":
        """A plan where node ``key`` is ``mapping[key]``; consumers are rebuilt on the new inputs."""
        if not mapping:
            return self
        new: dict[str, TileableData] = {}
        for node in self.order:
            if node.key in mapping:
                new[node.key] = mapping[node.key]
                continue
            inputs = [new.get(i.key, i) for i in node.inputs]
            if any(a is not b for a, b in zip(inputs, node.inputs)):
                new[node.key] = node.op.rebuild(node, inputs)
        return Plan.of(new.get(r.key, r) for r in self.roots)


Rule = Callable[[Plan], Plan]
_rules: list[tuple[int, Rule]] = []


def tileable_rule(priority: int) -> Callable[[Rule], Rule]:
    """Register ``rule``; lower priorities run first."""

    def register(rule: Rule) -> Rule:
        _rules.append((priority, rule))
        _rules.sort(key=lambda pr: pr[0])
        return rule

    return register


def optimize(roots, explain: list | None = None) -> Plan:
    """Common-subexpression elimination, then each registered rule in priority order.

    ``explain``: a list that receives ``(step name, plan)`` after each step.
    """
    plan = Plan.of(roots)
    if explain is not None:
        explain.append(("cse", plan))
    for _, rule in _rules:
        changed = rule(plan)
        if explain is not None and changed is not plan:
            explain.append((rule.__name__, changed))
        plan = changed
    return plan


def abort_all(plan: Plan) -> None:
    """Let every operation of a failed plan undo its side effects (best effort)."""
    for node in plan.order:
        try:
            node.op.abort()
        except Exception:  # cleaning up must not hide the task's own error
            pass
