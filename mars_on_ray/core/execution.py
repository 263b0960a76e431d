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
            donate = _donatable(step, release, env, spec.input_keys) if step.op.accepts_donation else None
            args = [env[k] for k in step.inputs]
            result = step.op.execute(*args) if donate is None else step.op.execute(*args, donate=donate)
            del args
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
        result = value = None  # no reference left behind: a later step may reuse the memory
    return [env[k] for k in spec.output_keys]


def _references(env: dict, key: str) -> int:
    value = env[key]
    return sys.getrefcount(value)


#: what ``_references`` counts for a value only ``env`` holds (measured: interpreters differ
#: in whether a local variable holds a reference)
_SOLE = _references({"value": object()}, "value")


def _donatable(step, release, env, stored) -> int | None:
    """The position of an input the step may write its result into: an array this subtask
    made (not a stored input), freed after this step, owning its writeable memory and
    referenced by nothing but the subtask (no alias, no view of it): reusing it saves a fresh
    allocation, whose page faults cost as much as a cheap elementwise kernel."""
    for pos, key in enumerate(step.inputs):
        if key not in release or key in stored or step.inputs.count(key) > 1:
            continue
        if _references(env, key) != _SOLE:  # a view holds one more (as ``flags`` does)
            continue
        flags = getattr(env[key], "flags", None)
        if flags is not None and flags.owndata and flags.writeable:
            return pos
    return None


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
