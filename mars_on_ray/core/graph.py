"""Graph walks and a flat, recursion-free pickle form of a node graph."""
from __future__ import annotations

from typing import Callable, Iterable

from .entity import ChunkData, Node, TileableData


def topo_order(roots: Iterable[Node], stop: Callable[[Node], bool] = lambda n: False) -> list[Node]:
    """Nodes reachable from ``roots`` (deduplicated by key), inputs before consumers.

    Nodes for which ``stop`` is true are included but their inputs are not walked.
    """
    order: list[Node] = []
    seen: set[str] = set()
    stack: list[tuple[Node, bool]] = [(r, False) for r in reversed(list(roots))]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if node.key in seen:
            continue
        seen.add(node.key)
        stack.append((node, True))
        if not stop(node):
            for inp in reversed(node.inputs):
                if inp.key not in seen:
                    stack.append((inp, False))
    return order


class FlatGraph:
    """A node graph pickled as a list of records, so deep graphs do not hit recursion limits.

    ``replace`` maps keys to nodes pickled in their place (with their own inputs), e.g. stored
    results standing in for the graphs that computed them.
    """

    def __init__(self, roots: list[Node], replace: dict[str, Node] | None = None):
        self.roots = roots
        self.replace = replace or {}

    def __reduce__(self):
        replace = self.replace
        roots = [replace.get(r.key, r) for r in self.roots]
        order = topo_order(roots, stop=lambda n: n.key in replace)
        order = [replace.get(n.key, n) for n in order]
        index = {n.key: i for i, n in enumerate(order)}
        records = []
        for n in order:
            extra = n.chunk_size if isinstance(n, TileableData) else getattr(n, "index", None)
            records.append((type(n), n.op, [index[i.key] for i in n.inputs], n.shape, n.meta,
                            n.output_index, n.key, extra))
        return _rebuild_flat_graph, (records, [index[r.key] for r in roots])


def _rebuild_flat_graph(records, root_indices) -> FlatGraph:
    nodes: list[Node] = []
    for cls, op, inputs, shape, meta, output_index, key, extra in records:
        node = object.__new__(cls)
        node.op, node.inputs, node.output_index = op, tuple(nodes[i] for i in inputs), output_index
        node.shape, node.meta, node.key = shape, meta, key
        if cls is TileableData:
            node.chunk_size = extra
        elif cls is ChunkData:
            node.index = extra
        nodes.append(node)
    return FlatGraph([nodes[i] for i in root_indices])
