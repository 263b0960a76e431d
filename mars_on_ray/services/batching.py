"""Batching tiny subtasks: many small independent subtasks of a stage share one Ray task.

Submitting a Ray task costs the scheduler about as much CPU as running a tiny kernel, and on a
small machine that CPU is taken from the workers: 10,000 one-element chunks took 1.5x as long
as 10,000 raw Ray tasks. Consecutive small subtasks (estimated peak under ``SMALL_BYTES``, no
declared memory, one CPU, no checkpoint) are grouped, at most ``MAX_BATCH`` together and
only when the stage leaves at least ``MIN_TASKS_PER_CPU`` Ray tasks for every CPU of the
cluster, so parallelism and load balance stay. Each member keeps its own output refs (a
Ray task with one return per output), progress entry, retries (the batch is retried) and
error (the first failing member's). A member never reads another member's output.
"""
from __future__ import annotations

#: a subtask whose estimated peak memory is under this is cheap enough to share a Ray task
SMALL_BYTES = 1 << 20
MAX_BATCH = 16
MIN_TASKS_PER_CPU = 8


def plan_batches(payloads: list, small: list[bool], cpus: int) -> list[list[int]]:
    """Positions of ``payloads`` grouped into Ray tasks, in submission order."""
    n_small = sum(small)
    size = min(MAX_BATCH, n_small // (MIN_TASKS_PER_CPU * max(cpus, 1)))
    if size < 2:
        return [[i] for i in range(len(payloads))]
    groups: list[list[int]] = []
    current: list[int] = []
    produced: set[str] = set()
    for i, payload in enumerate(payloads):
        batchable = small[i] and payload.cpus == 1 and not payload.memory and payload.checkpoint is None
        if not batchable:  # after the open batch: groups are submitted in dependency order
            if current:
                groups.append(current)
                current, produced = [], set()
            groups.append([i])
            continue
        if current and (len(current) >= size or produced.intersection(payload.input_keys)):
            groups.append(current)
            current, produced = [], set()
        current.append(i)
        produced.update(payload.output_keys)
    if current:
        groups.append(current)
    return groups
