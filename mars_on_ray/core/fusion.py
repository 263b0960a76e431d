"""Chunk-level fusion: a chunk graph becomes subtasks, each one Ray task."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .entity import ChunkData
from .graph import topo_order
from .operand import Operand

#: a chunk read by more consumers than this is not fused into them (keeps fan-out parallel)
FANOUT_LIMIT = 3
#: at most this many source chunks are pulled into the one subtask reading them (more would
#: run one after another what could run side by side: reads, the parts of a write)
MAX_ABSORBED_SOURCES = 2


@dataclass
class Step:
    """One operand execution: reads ``inputs`` keys, writes ``outputs`` (None: not needed)."""

    op: Operand
    inputs: list[str]
    outputs: list[str | None]
    index: tuple = ()  # the chunk-grid index of its outputs


@dataclass
class SubtaskSpec:
    """A fused group of steps run as one Ray task."""

    steps: list[Step]
    input_keys: list[str]
    output_keys: list[str]
    #: per step, the keys no later step (nor the output) reads: freed right after it
    release: list[list[str]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.steps[-1].op.name


def build_steps(targets: Iterable[ChunkData], stored: set[str]) -> list[Step]:
    """The steps computing ``targets``, inputs first; chunks whose key is stored are inputs."""
    steps: dict[tuple, Step] = {}
    for chunk in topo_order(targets, stop=lambda c: c.key in stored):
        if chunk.key in stored:
            continue
        # outputs of one multi-output operand share its token, inputs and grid index (also
        # when tiled twice, e.g. Q and R of one QR tiled as two tileables)
        identity = (chunk.op.token(), tuple(i.key for i in chunk.inputs), chunk.index)
        step = steps.get(identity)
        if step is None:
            step = steps[identity] = Step(chunk.op, [i.key for i in chunk.inputs],
                                              [None] * chunk.op.n_outputs, tuple(chunk.index))
        step.outputs[chunk.output_index] = chunk.key
    return list(steps.values())


def _same_block(a: tuple, b: tuple) -> bool:
    """Whether grid indexes ``a`` and ``b`` name the same block (a Series chunk (i,) and the
    frame chunk (i, 0) it was taken from do)."""
    n = max(len(a), len(b))
    return tuple(a) + (0,) * (n - len(a)) == tuple(b) + (0,) * (n - len(b))


def fuse(steps: list[Step], target_keys: set[str]) -> list[SubtaskSpec]:
    """Group steps into subtasks by colouring: a step joins its predecessors' group when they
    all share one group, are fusable, and none fans out to more than FANOUT_LIMIT consumers
    of other blocks.
    Fan-in from different groups starts a new group, so tree reductions stay parallel, except
    when every input is of the step's own block and comes from a group that reads no other
    group: those groups become one (the masks of one chunk combined, as in
    ``df[(df.a > 0) & (df.b < 1)]``), which cannot make a cycle."""
    producer = {k: i for i, s in enumerate(steps) for k in s.outputs if k is not None}
    preds = [{producer[k] for k in s.inputs if k in producer} for s in steps]
    n_consumers = [0] * len(steps)
    local = [True] * len(steps)  # every consumer is of the step's own block
    for j, p in enumerate(preds):
        for i in p:
            n_consumers[i] += 1
            local[i] = local[i] and _same_block(steps[i].index, steps[j].index)
    # a fan-out within one block (columns of one chunk) fuses; across blocks it stays parallel
    fans_out = [n > FANOUT_LIMIT and not ok for n, ok in zip(n_consumers, local)]

    # Sources (no computed inputs) start uncoloured; the first group reading one claims it, so
    # its other readers can join that group (a chunk read, then filtered by its own column).
    color: list[int | None] = []
    absorbed: dict[int, int] = {}
    merged: dict[int, int] = {}  # group -> the group it became part of
    independent: set[int] = set()  # groups reading no other group's output

    def find(c):
        while c in merged:
            c = merged[c]
        return c

    for i, step in enumerate(steps):
        if not preds[i]:
            color.append(None if step.op.fusable else i)
            if not step.op.fusable:
                independent.add(i)
            continue
        pred_colors = {find(color[p]) for p in preds[i] if color[p] is not None}
        propagates = all(steps[p].op.fusable and not fans_out[p] for p in preds[i])
        if (len(pred_colors) > 1 and step.op.fusable and propagates
                and pred_colors <= independent
                and all(_same_block(steps[p].index, step.index) for p in preds[i])):
            keep = min(pred_colors)
            for other in pred_colors - {keep}:
                merged[other] = keep
                independent.discard(other)
            pred_colors = {keep}
        if step.op.fusable and propagates and len(pred_colors) <= 1:
            group = pred_colors.pop() if pred_colors else i
            if group == i:
                independent.add(i)
            color.append(group)
            for p in preds[i] if len(preds[i]) <= MAX_ABSORBED_SOURCES else ():
                if color[p] is None and absorbed.get(group, 0) < MAX_ABSORBED_SOURCES:
                    color[p] = group
                    absorbed[group] = absorbed.get(group, 0) + 1
        else:
            color.append(i)
            if not pred_colors:
                independent.add(i)
    color = [None if c is None else find(c) for c in color]
    absorbed_by_group: dict[int, int] = {}
    for c, n in absorbed.items():
        absorbed_by_group[find(c)] = absorbed_by_group.get(find(c), 0) + n
    _place_sources(preds, fans_out, color, absorbed_by_group)

    groups, group_deps = _groups(color, preds)
    order = _topological(group_deps)
    if order is None:
        # two groups that each claimed a source the other reads (two broadcast constants)
        # would wait for each other: such shared sources run on their own
        _own_shared_sources(preds, color)
        groups, group_deps = _groups(color, preds)
        order = _topological(group_deps)
    readers: dict[str, set[int]] = {}
    for i, s in enumerate(steps):
        for k in s.inputs:
            readers.setdefault(k, set()).add(color[i])

    specs = []
    for c in order:
        members = groups[c]
        member_steps = [steps[i] for i in members]
        produced = [k for s in member_steps for k in s.outputs if k is not None]
        produced_set = set(produced)
        inputs = list(dict.fromkeys(k for s in member_steps for k in s.inputs if k not in produced_set))
        outputs = [k for k in produced if k in target_keys or readers.get(k, set()) - {c}]
        specs.append(SubtaskSpec(member_steps, inputs, outputs, _release_plan(member_steps, outputs)))
    return specs


def _groups(color: list, preds: list[set[int]]) -> tuple[dict, dict]:
    """The steps of each group and the groups each group reads."""
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(color):
        groups.setdefault(c, []).append(i)
    deps = {c: {color[p] for i in members for p in preds[i]} - {c} for c, members in groups.items()}
    return groups, deps


def _own_shared_sources(preds: list[set[int]], color: list) -> None:
    """Every source read by steps of other groups than its own becomes its own group."""
    readers: dict[int, set] = {}
    for j, p in enumerate(preds):
        for i in p:
            readers.setdefault(i, set()).add(color[j])
    for i, p in enumerate(preds):
        if not p and readers.get(i, set()) - {color[i]}:
            color[i] = i


def _topological(deps: dict[int, set[int]]) -> list[int] | None:
    """Groups ordered so each comes after the groups it reads (depth-first, by first step);
    None when two groups read each other (a cycle)."""
    order: list[int] = []
    state: dict[int, bool] = {}  # False: in progress, True: placed
    for root in deps:
        if root in state:
            continue
        stack = [(root, iter(sorted(deps[root])))]
        state[root] = False
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                state[node] = True
                order.append(node)
            elif state.get(nxt) is False:
                return None
            elif nxt not in state:
                state[nxt] = False
                stack.append((nxt, iter(sorted(deps[nxt]))))
    return order


def _place_sources(preds: list[set[int]], fans_out: list[bool], color: list,
                   absorbed: dict[int, int]) -> None:
    """An unclaimed source joins the group of its readers when they all share one (and fan-out
    is small), at most MAX_ABSORBED_SOURCES per group; otherwise it is its own subtask."""
    reader_colors: dict[int, set] = {}
    for i, p in enumerate(preds):
        for j in p:  # a reader of many inputs (a commit, a combine) runs them side by side
            reader_colors.setdefault(j, set()).add(color[i] if len(p) <= MAX_ABSORBED_SOURCES else None)
    for i, c in enumerate(color):
        if c is not None:
            continue
        readers = reader_colors.get(i, set())
        target = next(iter(readers)) if len(readers) == 1 else None  # None: a wide reader
        if target is not None and not fans_out[i] and absorbed.get(target, 0) < MAX_ABSORBED_SOURCES:
            absorbed[target] = absorbed.get(target, 0) + 1
            color[i] = target
        else:
            color[i] = i


def _release_plan(steps: list[Step], outputs: list[str]) -> list[list[str]]:
    last_use: dict[str, int] = {}
    for i, s in enumerate(steps):
        for k in s.inputs:
            last_use[k] = i
    keep = set(outputs)
    plan: list[list[str]] = [[] for _ in steps]
    for k, i in last_use.items():
        if k not in keep:
            plan[i].append(k)
    return plan
