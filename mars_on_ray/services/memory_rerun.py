"""A subtask Ray's memory monitor killed runs once more with more room: alone on a node.

Ray retries a task its memory monitor killed (``task_oom_retries``) with the same resources,
so a subtask that only fits when its neighbours are not running is killed again on every
retry. After Ray gives up, the scheduling service submits it once more asking for every CPU
of the largest node (as Spark grows an OOM-killed task's CPUs): Ray starts it only when that
node has no other subtask running, and its kernels get all of the node's threads. Whatever in
the stage read the killed subtask's outputs is submitted again after it, with the new refs.
A subtask killed even when alone fails the task with a MemoryError naming the operation.
"""
from __future__ import annotations


def with_more_room(payload, node_cpus: int):
    """``payload`` asking for all ``node_cpus`` CPUs of a node; None when it already did."""
    if node_cpus <= payload.cpus:
        return None
    return payload._replace(cpus=node_cpus)


def groups_to_resubmit(groups: list[list[int]], specs: list, killed: set[int],
                       finished: set[int]) -> list[int]:
    """Positions in ``groups`` of the killed groups and of every unfinished later group that
    reads, directly or through another, an output of one of them (in submission order)."""
    lost: set[str] = set()
    out = []
    for g, group in enumerate(groups):
        if g in killed or g not in finished and any(k in lost for i in group for k in specs[i].input_keys):
            out.append(g)
            lost.update(k for i in group for k in specs[i].output_keys)
    return out
