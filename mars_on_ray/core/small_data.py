"""The small-data path and cores per subtask: planning decisions from the sizes known.

- A plan whose tileables (shapes known at build time) add up to at most
  ``options.small_data_bytes`` is tiled with one chunk per axis (``whole_chunks``): each
  operation is one call of its kernel on whole arrays, as NumPy/pandas would do it.
- A stage whose peak memory, run as one subtask in step order (each intermediate freed after
  its last use), stays under the same bound runs as ONE subtask with all of a node's CPUs, so
  NumPy/BLAS use them; a fan of tiny subtasks would cost more in scheduling than in work.
  Past ``options.small_data_lane_bytes``, its independent pieces (per-chunk partials, most
  NumPy calls single-threaded) run as one lane per CPU, then one subtask takes what needs
  their outputs (the combine): a stage in two Ray rounds instead of one, on every CPU.
- Otherwise, subtasks of a stage level narrower than the CPUs get the spare CPUs.
The kernels are the same operations on every path; only chunk sizes and grouping differ.
"""
from __future__ import annotations

import math
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..config import options
from .entity import ChunkData
from .fusion import Step, SubtaskSpec, _release_plan, build_steps, fuse
from .graph import topo_order

#: bytes assumed per value of an object / string column (Python objects, not raw data)
_OBJECT_BYTES = 64


def chunk_nbytes(chunk) -> float | None:
    """Estimated bytes of a chunk (or tileable) from its shape and metadata; None if unknown."""
    shape = chunk.shape
    if any(isinstance(s, float) and math.isnan(s) for s in shape):
        return None
    meta = chunk.meta
    if isinstance(meta, np.ndarray):
        return float(np.prod(shape)) * meta.dtype.itemsize
    pd = sys.modules.get("pandas")  # not imported by the services until a frame arrives
    if pd is None:
        return None
    if isinstance(meta, pd.DataFrame):
        return float(shape[0]) * sum(_itemsize(d) for d in meta.dtypes) if shape else 0.0
    if isinstance(meta, (pd.Series, pd.Index)):
        return float(shape[0]) * _itemsize(meta.dtype) if shape else 0.0
    return None


def plan_bytes(nodes) -> float | None:
    """Bytes of all of ``nodes`` (tileables of a plan); None when one's size is unknown."""
    total = 0.0
    for node in nodes:
        size = chunk_nbytes(node)
        if size is None:
            return None
        total += size
    return total


def whole_chunks_reason(plan) -> str | None:
    """Why ``plan`` is tiled with whole chunks (the small-data path), or None if it is not."""
    if not options.small_data_bytes:
        return None
    total = plan_bytes(plan.order)
    if total is None or total > options.small_data_bytes:
        return None
    return f"small data: whole-array chunks, {total / 2**20:.1f} MiB in all its tileables"


def _itemsize(dtype) -> int:
    size = getattr(dtype, "itemsize", None)
    return _OBJECT_BYTES if dtype == object or size is None else int(size)


def peak_bytes(steps: list[Step], chunks: dict[str, ChunkData], targets: set[str],
               count_inputs: bool = True) -> float | None:
    """Peak live bytes of ``steps`` run in order in one subtask; None when a size is unknown.

    An output of unknown size counts as its largest input (a reduction's partial is smaller);
    inputs read from storage are live from the start (``count_inputs=False``: not counted,
    the bytes computed only).
    """
    sizes: dict[str, float] = {}

    def size_of(key: str, inputs: Iterable[str] = ()) -> float | None:
        if key not in sizes:
            chunk = chunks.get(key)
            known = chunk_nbytes(chunk) if chunk is not None else None
            if known is None:
                known = max((sizes.get(k, 0.0) for k in inputs), default=None)
            if known is None:
                return None
            sizes[key] = known
        return sizes[key]

    external = dict.fromkeys(_external_keys(steps))
    live = 0.0
    for key in external:
        size = size_of(key)
        if size is None:
            return None
        live += size if count_inputs else 0.0
    peak = live
    last_use = {k: i for i, s in enumerate(steps) for k in s.inputs}
    for i, step in enumerate(steps):
        for key in step.outputs:
            if key is not None:
                size = size_of(key, step.inputs)
                if size is None:
                    return None
                live += size
        peak = max(peak, live)
        live -= sum(sizes[k] for k in set(step.inputs)
                    if last_use[k] == i and k not in targets and (count_inputs or k not in external))
    return peak


def input_bytes(steps: list[Step], chunks: dict[str, ChunkData]) -> float | None:
    """Bytes of the inputs ``steps`` read from storage; None when a size is unknown."""
    sizes = [chunk_nbytes(chunks[k]) if k in chunks else None for k in _external_keys(steps)]
    return None if None in sizes else float(sum(sizes))


def _external_keys(steps: list[Step]) -> list[str]:
    """The keys ``steps`` read that none of them makes, in first-read order."""
    produced = {k for s in steps for k in s.outputs if k is not None}
    return list(dict.fromkeys(k for s in steps for k in s.inputs if k not in produced))


def single_subtask(steps: list[Step], targets: set[str]) -> SubtaskSpec:
    """Every step in one subtask (the small-data path)."""
    outputs = [k for s in steps for k in s.outputs if k is not None and k in targets]
    return SubtaskSpec(steps, _external_keys(steps), outputs, _release_plan(steps, outputs))


def lane_subtasks(steps: list[Step], targets: set[str], cpus: int, chunks: dict[str, ChunkData]
                  ) -> tuple[list[SubtaskSpec], SubtaskSpec | None] | None:
    """The stage as up to ``cpus`` lanes of independent work (contiguous runs of the fused
    subtasks reading no other subtask's output, of similar input bytes) and a tail subtask
    with every other step (None if there are none); None when fewer than two pieces are
    independent or when the tail would read much stored data itself."""
    if cpus < 2:
        return None
    specs = fuse(steps, targets)
    produced = {k for s in specs for k in s.output_keys}
    first = [s for s in specs if not any(k in produced for k in s.input_keys)]
    if len(first) < 2:
        return None
    firsts = {id(s) for s in first}
    tail_steps = [step for s in specs if id(s) not in firsts for step in s.steps]
    order = {id(step): i for i, step in enumerate(steps)}
    tail_steps.sort(key=lambda step: order[id(step)])
    if _stored_bytes(tail_steps, steps, chunks) > options.small_data_lane_bytes:
        return None  # a second pass over the stored data (iterations chained in one graph)
    tail_reads = {k for step in tail_steps for k in step.inputs}
    lanes = _even_runs(first, [_spec_bytes(s, chunks) for s in first], min(cpus, len(first)))
    lane_specs = [single_subtask([step for s in lane for step in s.steps], targets | tail_reads)
                  for lane in lanes]
    return lane_specs, (single_subtask(tail_steps, targets) if tail_steps else None)


def _stored_bytes(some: list[Step], steps: list[Step], chunks: dict[str, ChunkData]) -> float:
    """Bytes that ``some`` of the stage's ``steps`` read from storage (none of ``steps`` makes
    them): work a one-process tail would do alone."""
    made = {k for s in steps for k in s.outputs if k is not None}
    read = {k for s in some for k in s.inputs if k not in made}
    return float(sum(chunk_nbytes(chunks[k]) or 0.0 for k in read if k in chunks))


def _spec_bytes(spec: SubtaskSpec, chunks: dict[str, ChunkData]) -> float:
    """Bytes a subtask reads and makes (unknown sizes count as none): its share of work."""
    keys = spec.input_keys + [k for s in spec.steps for k in s.outputs if k is not None]
    return float(sum(chunk_nbytes(chunks[k]) or 0.0 for k in keys if k in chunks))


def _even_runs(items: list, sizes: list[float], n: int) -> list[list]:
    """``items`` cut into ``n`` non-empty contiguous runs of similar total size."""
    weights = sizes if sum(sizes) else [1.0] * len(items)
    total, runs, acc, start = sum(weights), [], 0.0, 0
    for i, w in enumerate(weights):
        acc += w
        left = len(items) - i - 1  # items after this one
        if len(runs) < n - 1 and (acc >= total * (len(runs) + 1) / n or left == n - 1 - len(runs)):
            runs.append(items[start:i + 1])
            start = i + 1
    runs.append(items[start:])
    return runs


def is_small(peak: float | None) -> bool:
    return peak is not None and peak <= options.small_data_bytes


def cpus_per_subtask(specs: list[SubtaskSpec], cpus: int) -> list[int]:
    """CPUs for each subtask of a stage: a level of the stage's dependency graph with fewer
    subtasks than ``cpus`` shares the spare ones (its kernels may use threads)."""
    if cpus <= 1 or len(specs) >= cpus * 4:
        return [1] * len(specs)
    producer = {k: i for i, s in enumerate(specs) for k in s.output_keys}
    level = []
    for spec in specs:  # specs are in dependency order
        deps = [level[producer[k]] for k in spec.input_keys if k in producer]
        level.append(1 + max(deps, default=-1))
    width = Counter(level)
    return [max(1, cpus // width[lv]) for lv in level]


@dataclass
class StagePlan:
    """How a stage runs: its subtasks, the CPUs of each, and which path was chosen and why."""

    specs: list[SubtaskSpec]
    cpus: list[int]
    path: str


def plan_stage(chunks: list[ChunkData], stored: set[str], cpus: int,
               small_data: bool = True, one_node: bool = False) -> StagePlan | None:
    """The subtasks computing ``chunks`` (``stored`` keys are inputs); None if nothing to do.
    ``one_node``: the cluster is this one node (no data locality to keep)."""
    steps = build_steps(chunks, stored)
    if not steps:
        return None
    targets = {c.key for c in chunks}
    if small_data and len(steps) > 1 and options.small_data_bytes:
        nodes = {c.key: c for c in topo_order(chunks, stop=lambda c: c.key in stored)}
        peak = peak_bytes(steps, nodes, targets)
        lanes = _lanes_plan(steps, nodes, targets, cpus, peak, one_node)
        if lanes is not None:
            return lanes
        if is_small(peak):
            return StagePlan([single_subtask(steps, targets)], [cpus],
                             f"small data: one subtask with {cpus} CPU(s), about "
                             f"{peak / 2**20:.1f} MiB at its peak (<= options.small_data_bytes)")
        why = "sizes unknown before running" if peak is None else f"about {peak / 2**20:.0f} MiB"
    else:
        why = "one step" if len(steps) <= 1 else "small-data path off"
    specs = fuse(steps, targets)
    return StagePlan(specs, cpus_per_subtask(specs, cpus), f"distributed: {len(specs)} subtasks ({why})")


def _lanes_plan(steps, nodes, targets, cpus, peak, one_node) -> StagePlan | None:
    """Lanes for a small stage of at least ``options.small_data_lane_bytes``; on a one-node
    cluster also for a stage whose computed data is small though its stored inputs are not
    (up to ``small_data_bytes`` of them per lane: a lane's inputs are pinned together)."""
    if cpus < 2 or peak is None or peak < options.small_data_lane_bytes:
        return None
    why = f"about {peak / 2**20:.1f} MiB at its peak (<= options.small_data_bytes)"
    if not is_small(peak):
        if not one_node:
            return None
        computed = peak_bytes(steps, nodes, targets, count_inputs=False)
        inputs = input_bytes(steps, nodes)
        if not is_small(computed) or inputs is None or inputs > cpus * options.small_data_bytes:
            return None
        why = (f"about {computed / 2**20:.1f} MiB computed at its peak (<= options.small_data_bytes) "
               f"over {inputs / 2**20:.0f} MiB stored on this one node")
    split = lane_subtasks(steps, targets, cpus, nodes)
    if split is None:
        return None
    lanes, tail = split
    return StagePlan(lanes + ([tail] if tail else []), [1] * len(lanes) + [cpus] * bool(tail),
                     f"small data: {len(lanes)} lanes of 1 CPU{' then their combine' * bool(tail)}, {why}")
