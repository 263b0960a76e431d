"""The subtask: one fused group of chunk operations, run as a Ray task on input ObjectRefs."""
from __future__ import annotations

import functools

import ray

from ..core.execution import run_steps, value_meta
from ..core.fusion import SubtaskSpec


def _run_subtask(spec: SubtaskSpec, *inputs):
    """Returns ``(metas, *outputs)``: the tiny meta list first, then each output chunk."""
    outputs = run_steps(spec, inputs)
    metas = [value_meta(v) for v in outputs]
    return (metas, *outputs)


run_subtask = ray.remote(_run_subtask)


@functools.lru_cache(maxsize=1024)
def _remote_with(num_returns: int, max_retries: int, name: str):
    # .options() builds a new remote function each call: costly next to a tiny subtask
    return run_subtask.options(num_returns=num_returns, max_retries=max_retries,
                               retry_exceptions=False, name=name)


def submit_subtask(spec: SubtaskSpec, input_refs: list, max_retries: int) -> list[ray.ObjectRef]:
    """Submit ``spec``; returns [meta_ref, *output_refs]. User exceptions are not retried."""
    remote = _remote_with(1 + len(spec.output_keys), max_retries, spec.label)
    return list(remote.remote(spec, *input_refs))
