"""Ray settings mars_on_ray needs on every node it starts, as environment variables.

Ray's raylet kills a worker that has been idle for 1 s whenever its node has more workers
than CPUs. The supervisor actor is one more worker on its node, so the node is always over
that limit: between two stages the idle subtask workers were killed and new ones started
(each re-importing NumPy/pandas, ~1 s), which made small multi-stage jobs (a merge then a
sum) about 5x slower. Idle workers are kept for a minute instead.

glibc's malloc starts every process returning freed blocks over 128 KiB to the kernel and
raises that bound only as it sees large blocks freed. A Ray worker reads its chunks from the
object store, not from malloc, so its bound stays low: every NumPy/pandas temporary of a
kernel was fresh memory, page-faulted in and given back per call (a k-means step on 62,500
rows x 10: 17,000 page faults, 54 ms; 21 ms without them). Workers start at the bounds glibc
itself grows to (blocks up to 32 MiB from the heap, up to 64 MiB of free heap kept).

Ray retries a task its memory monitor killed without end by default (``task_oom_retries``
-1), with a back-off growing to a minute: a subtask that never fits looked like a hang. Ray
gives up after ``OOM_RETRIES`` retries here; the scheduling service then re-runs the subtask
alone on a node, and fails the task with a MemoryError if even that is killed
(services/memory_rerun.py).

The raylet reads ``RAY_<setting>`` from its environment when it starts, so ``apply_defaults``
(run on ``import mars_on_ray``) covers a Ray this process starts (``new_session()``, or
``ray.init()`` after the import), and the CLI passes ``RAY_NODE_ENV`` to ``ray start``. A Ray
started before mars_on_ray was imported keeps Ray's default: start it with
``RAY_idle_worker_killing_time_threshold_ms=60000`` in its environment.
"""
from __future__ import annotations

import os
import warnings

OOM_RETRIES = 3

RAY_NODE_ENV = {"RAY_idle_worker_killing_time_threshold_ms": "60000",
                "RAY_task_oom_retries": str(OOM_RETRIES),
                "MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(64 << 20)}


def apply_defaults() -> None:
    """Put ``RAY_NODE_ENV`` in this process's environment (values already set are kept)."""
    for name, value in RAY_NODE_ENV.items():
        os.environ.setdefault(name, value)


def warn_if_missing_in_local_raylet() -> None:
    """Warn once when the raylet this process started lacks ``RAY_NODE_ENV`` (Ray was
    started before mars_on_ray was imported): its workers will be restarted between stages."""
    import psutil

    try:
        raylets = [p for p in psutil.Process().children(recursive=True) if p.name() == "raylet"]
        missing = [name for p in raylets for name in RAY_NODE_ENV if name not in p.environ()]
    except psutil.Error:
        return
    if missing:
        warnings.warn(
            "Ray was started before mars_on_ray was imported, so its workers are retired after "
            "1 s idle and restarted between stages (small multi-stage jobs run up to 5x slower): "
            "import mars_on_ray before ray.init(), or start Ray with "
            + " ".join(f"{k}={v}" for k, v in RAY_NODE_ENV.items()), RuntimeWarning, stacklevel=3)
