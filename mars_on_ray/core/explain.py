"""``explain``: the optimized tileable plan and, stage by stage, the fused chunk plan.

Nothing is executed: planning stops where tiling needs the real shapes or values of chunks
that have not run (rows kept by a filter, a CSV's row counts), and says so.
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from .entity import TileableData
from .fusion import SubtaskSpec
from .graph_view import link_subtasks, plan_graph
from .optimizer import Plan, optimize
from .chunk_sizes import whole_chunks
from .small_data import plan_stage, whole_chunks_reason
from .tiling import TileContext, ValuesRequest, tile_graph


@dataclass
class Stage:
    """One stage of fused subtasks; ``kinds`` counts subtasks by their chain of operations."""

    subtasks: list[SubtaskSpec]
    purpose: str

    @property
    def kinds(self) -> Counter:
        return Counter(" -> ".join(step.op.name for step in s.steps) for s in self.subtasks)

    def lines(self) -> list[str]:
        out = [f"{self.purpose}: {len(self.subtasks)} subtasks"]
        out += [f"  {n} x [{chain}]" for chain, n in self.kinds.most_common()]
        return out


@dataclass
class Explanation:
    """What ``explain`` found: the plan after each optimizer step, then the stages."""

    steps: list[tuple[str, Plan]]
    stages: list[Stage] = field(default_factory=list)
    #: None when every stage could be planned, else why planning stopped
    stopped: str | None = None
    #: the small-data path (whole-array chunks) and why, or that chunks are distributed
    path: str = ""

    @property
    def plan(self) -> Plan:
        return self.steps[-1][1]

    def nodes(self, name: str | None = None) -> list[TileableData]:
        """Nodes of the optimized plan, those whose operation is called ``name`` if given."""
        return [n for n in self.plan.order if name is None or n.op.name == name]

    def __str__(self) -> str:
        out = ["optimizer: " + " -> ".join(name for name, _ in self.steps), f"path: {self.path}",
               "tileable plan:"]
        out += ["  " + line for line in plan_lines(self.plan)]
        for i, stage in enumerate(self.stages, 1):
            out += [f"stage {i}, " + stage.lines()[0], *stage.lines()[1:]]
        if self.stopped:
            out.append(self.stopped)
        return "\n".join(out)

    def graph(self) -> dict:
        """The plan and the planned stages' fused subtasks as nodes and edges, in the shape the
        dashboard's ``/api/tasks/<task_id>`` gives them (``tileable_graph``, ``subtask_graph``)."""
        producer: dict[str, int] = {}
        nodes, edges = [], []
        for number, stage in enumerate(self.stages, 1):
            first = len(nodes)
            links = link_subtasks([(s.input_keys, s.output_keys) for s in stage.subtasks], producer, first)
            for i, (spec, inputs) in enumerate(zip(stage.subtasks, links), first):
                nodes.append({"id": i, "label": spec.label, "stage": number, "state": "waiting"})
                edges.extend([j, i] for j in inputs)
        return {"tileable_graph": plan_graph(self.plan.order),
                "subtask_graph": {"nodes": nodes, "edges": edges}}

    def __repr__(self) -> str:
        return f"<Explanation: {len(self.plan.order)} tileables, {len(self.stages)} stage(s) planned>"


def plan_lines(plan: Plan) -> list[str]:
    """One line per node, inputs first: ``#i operation <- #inputs  shape``."""
    number = {n.key: i for i, n in enumerate(plan.order)}
    lines = []
    for i, node in enumerate(plan.order):
        inputs = ", ".join(f"#{number[x.key]}" for x in node.inputs)
        shape = "(" + ", ".join("?" if s != s else str(int(s)) for s in node.shape) + ")"
        lines.append(f"#{i} {node.op.describe()}" + (f" <- {inputs}" if inputs else "") + f"  {shape}")
    return lines


def explain(*objs, show: bool = True) -> Explanation:
    """Print (``show``) and return the optimized plan of ``objs`` and their fused stages.

    Nothing runs: the plan is what a task would do; it stops at the first stage whose real
    shapes or values later planning needs.
    """
    result = explain_nodes([getattr(o, "data", o) for o in objs])
    if show:
        print(result)
    return result


def explain_nodes(roots: list[TileableData]) -> Explanation:
    """Optimize, tile and fuse ``roots`` as a task would, without running anything."""
    steps: list = []
    plan = optimize(roots, steps)
    result = Explanation(steps)
    small = whole_chunks_reason(plan)
    result.path = small or "distributed chunks (see each stage)"
    with whole_chunks(small is not None):
        _plan_stages(result, plan)
    return result


def _plan_stages(result: Explanation, plan: Plan) -> None:
    ctx = TileContext()
    driver = tile_graph(list(plan.order), ctx)
    try:
        request = driver.send(None)
    except StopIteration:
        chunks = [c for root in plan.roots for c in ctx[root].flat]
        result.stages.append(_stage(chunks, "result stage"))
        return
    kind = "values" if isinstance(request, ValuesRequest) else "real shapes"
    result.stages.append(_stage(request, "first stage"))
    result.stopped = (f"later stages are planned when this one has run: tiling needs the {kind} "
                      f"of {len(request)} chunks")
    driver.close()


def _stage(chunks, purpose: str) -> Stage:
    stage = plan_stage(list(chunks), set(), os.cpu_count() or 1)
    if stage is None:
        return Stage([], purpose)
    return Stage(stage.specs, f"{purpose} ({stage.path})")
