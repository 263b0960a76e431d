"""Tileable-level optimization: rules rewrite the graph before tiling.

A rule is ``rule(order) -> order`` over a topologically ordered node list and never mutates a
node. Operations register rules next to themselves with ``@tileable_rule``.
"""
from __future__ import annotations

from typing import Callable

from .entity import TileableData
from .graph import topo_order

Rule = Callable[[list[TileableData]], list[TileableData]]
_rules: list[Rule] = []


def tileable_rule(rule: Rule) -> Rule:
    _rules.append(rule)
    return rule


def optimize(roots: list[TileableData], explain: list[str] | None = None) -> list[TileableData]:
    """Common-subexpression elimination (nodes are deduplicated by key), then each rule."""
    order = topo_order(roots)
    if explain is not None:
        explain.append(f"cse: {len(order)} unique tileables")
    for rule in _rules:
        order = rule(order)
        if explain is not None:
            explain.append(f"{rule.__name__}: {len(order)} tileables")
    return order
