"""Graphs as plain data (nodes + edges): what ``mr.explain`` returns and the dashboard draws.

One source for both, so a person sees the same tileable plan and the same fused subtasks in a
terminal and in the browser.
"""
from __future__ import annotations

from typing import Iterable


def _shape(node) -> list:
    return [None if s != s else int(s) for s in node.shape]


def plan_graph(order: Iterable) -> dict:
    """Tileable nodes in topological order: ``{"nodes": [{id, op, shape}], "edges": [[i, j]]}``
    (``#i`` in ``explain`` output is node ``i`` here)."""
    order = list(order)
    number = {n.key: i for i, n in enumerate(order)}
    nodes = [{"id": i, "op": n.op.describe(), "shape": _shape(n), "state": "waiting"}
             for i, n in enumerate(order)]
    edges = [[number[x.key], i] for i, n in enumerate(order) for x in n.inputs if x.key in number]
    return {"nodes": nodes, "edges": edges}


def link_subtasks(subtasks: Iterable[tuple[list[str], list[str]]], producer: dict[str, int],
                  first: int = 0) -> list[list[int]]:
    """For each (input_keys, output_keys) of subtasks numbered from ``first``: the numbers of
    the subtasks producing its inputs. ``producer`` (key -> number) is updated."""
    links = []
    for i, (input_keys, output_keys) in enumerate(subtasks, first):
        links.append(sorted({producer[k] for k in input_keys if k in producer}))
        producer.update((k, i) for k in output_keys)
    return links
