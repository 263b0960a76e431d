"""Ray settings mars_on_ray needs on every node it starts, as environment variables.

Ray's raylet kills a worker that has been idle for 1 s whenever its node has more workers
than CPUs. The supervisor actor is one more worker on its node, so the node is always over
that limit: between two stages the idle subtask workers were killed and new ones started
(each re-importing NumPy/pandas, ~1 s), which made small multi-stage jobs (a merge then a
sum) about 5x slower. Idle workers are kept for a minute instead.

The raylet reads ``RAY_<setting>`` from its environment when it starts, so ``apply_defaults``
(run on ``import mars_on_ray``) covers a Ray this process starts (``new_session()``, or
``ray.init()`` after the import), and the CLI passes ``RAY_NODE_ENV`` to ``ray start``. A Ray
started before mars_on_ray was imported keeps Ray's default: start it with
``RAY_idle_worker_killing_time_threshold_ms=60000`` in its environment.
"""
from __future__ import annotations

import os

RAY_NODE_ENV = {"RAY_idle_worker_killing_time_threshold_ms": "60000"}


def apply_defaults() -> None:
    """Put ``RAY_NODE_ENV`` in this process's environment (values already set are kept)."""
    for name, value in RAY_NODE_ENV.items():
        os.environ.setdefault(name, value)
