"""Memory-aware execution: what a subtask declares to Ray, and the error when Ray's memory
monitor kills one for good.

A subtask declares ``memory=`` (Ray's logical memory resource, which ``phy_mem`` sizes to the
soft limit minus the object store): its estimated peak of live bytes (``peak_bytes``: inputs,
intermediates, outputs). Ray starts a subtask only where that much is unreserved, so subtasks
that would not fit together wait instead of running into the memory monitor.
"""
from __future__ import annotations

import math
import time

from ..core.small_data import peak_bytes

DECLARE_FROM = 64 * 1024**2  # smaller subtasks declare nothing: they fit anywhere
_TTL = 10.0
_seen: list = [0.0, (1, 0)]  # when, (CPUs, memory resource) of the largest alive node


def largest_node() -> tuple[int, int]:
    """(CPUs, Ray's memory resource) of the largest alive node: a declaration above it never
    runs; a subtask asking for all its CPUs runs there alone."""
    import ray

    now = time.monotonic()
    if now - _seen[0] > _TTL:
        nodes = [n["Resources"] for n in ray.nodes() if n.get("Alive")]
        _seen[:] = [now, (int(max((n.get("CPU", 0) for n in nodes), default=1)),
                          int(max((n.get("memory", 0) for n in nodes), default=0)))]
    return _seen[1]


def largest_node_memory() -> int:
    """Ray's memory resource of the largest alive node."""
    return largest_node()[1]


def subtask_memory(spec, chunks: dict, cap: int) -> int:
    """Bytes ``spec`` declares: its estimated peak, rounded up to a power of two MiB (few
    distinct values), at most ``cap``; 0 when small or unknown."""
    return declared_bytes(peak_bytes(spec.steps, chunks, set(spec.output_keys)), cap)


def declared_bytes(peak: float | None, cap: int) -> int:
    """The bytes a subtask of estimated ``peak`` declares (see ``subtask_memory``)."""
    if peak is None or peak < DECLARE_FROM or cap <= 0:
        return 0
    mib = 2 ** math.ceil(math.log2(peak / 2**20))
    return int(min(mib * 2**20, cap))


def killed_for_memory(label: str, declared: int, error: BaseException,
                      alone_on: int = 0) -> MemoryError:
    """The MemoryError a task fails with when Ray's memory monitor killed its subtask for good
    (``alone_on``: the CPUs of the node it had to itself, services/memory_rerun.py)."""
    declared_text = f"it declared {declared / 2**20:.0f} MiB" if declared else "it declared no memory"
    if alone_on:
        declared_text += (f", and was killed even running alone on a node "
                          f"({alone_on} CPU{'s' if alone_on > 1 else ''} held)")
    exc = MemoryError(
        f"{label}: a subtask was killed by Ray's memory monitor and not retried further "
        f"({declared_text}); give the workers more memory (phy_mem), use smaller chunks, or "
        f"lower the node's concurrency")
    exc.add_note(f"Ray said: {str(error)[:500]}")
    return exc
