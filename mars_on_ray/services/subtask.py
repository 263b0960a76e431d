"""The subtask: one fused group of chunk operations, run as a Ray task on input ObjectRefs."""
from __future__ import annotations

import ray

from ..core.execution import run_steps, value_meta
from ..core.fusion import SubtaskSpec


def _run_subtask(spec: SubtaskSpec, *inputs):
    """Returns ``(metas, *outputs)``: the tiny meta list first, then each output chunk."""
    outputs = run_steps(spec, inputs)
    metas = [value_meta(v) for v in outputs]
    return (metas, *outputs)


run_subtask = ray.remote(_run_subtask)


def submit_subtask(spec: SubtaskSpec, input_refs: list, max_retries: int) -> list[ray.ObjectRef]:
    """Submit ``spec``; returns [meta_ref, *output_refs]. User exceptions are not retried."""
    refs = run_subtask.options(
        num_returns=1 + len(spec.output_keys), max_retries=max_retries, retry_exceptions=False,
        name=spec.label,
    ).remote(spec, *input_refs)
    return list(refs)
