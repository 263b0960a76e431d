"""Running a subtask's steps on in-memory values: pure NumPy / pandas, no Ray."""
from __future__ import annotations

import sys
from typing import Any, Sequence

from .fusion import SubtaskSpec


def run_steps(spec: SubtaskSpec, input_values: Sequence[Any]) -> list[Any]:
    """Execute ``spec`` on its inputs and return its outputs in ``spec.output_keys`` order."""
    env = dict(zip(spec.input_keys, input_values))
    for step, release in zip(spec.steps, spec.release):
        try:
            result = step.op.execute(*(env[k] for k in step.inputs))
        except Exception as exc:
            exc.add_note(f"in mars_on_ray operation {step.op.name}")
            raise
        if step.op.n_outputs == 1:
            result = (result,)
        for key, value in zip(step.outputs, result):
            if key is not None:
                env[key] = value
        for key in release:
            env.pop(key, None)
    return [env[k] for k in spec.output_keys]


def value_meta(value: Any) -> tuple[tuple, int]:
    """(shape, nbytes) of one chunk's value."""
    if isinstance(value, tuple):  # a Pack of pieces (core/shuffle.py)
        return (len(value),), sum(value_meta(v)[1] for v in value)
    shape = tuple(getattr(value, "shape", ()))
    arrays = getattr(getattr(value, "_mgr", None), "arrays", None)  # a frame's columns
    if arrays is not None and hasattr(value, "index"):
        try:  # memory_usage() builds a Series per call: 0.6 ms, more than most kernels
            return shape, int(sum(a.nbytes for a in arrays) + value.index.nbytes)
        except (AttributeError, TypeError):
            pass
    if hasattr(value, "memory_usage"):
        try:
            usage = value.memory_usage(index=True, deep=False)
        except TypeError:  # a pandas Index has no index= (and this module imports no pandas)
            usage = value.memory_usage(deep=False)
        nbytes = int(usage.sum()) if hasattr(usage, "sum") else int(usage)
    else:
        nbytes = int(getattr(value, "nbytes", sys.getsizeof(value)))
    return shape, nbytes
