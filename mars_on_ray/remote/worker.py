"""What runs inside a Ray task of ``mr.map``: a batch of inputs through the user's function.

A task returns two objects: a small list of per-input outcomes (success and seconds taken, or
the exception) that the driver polls, and the list of results, which stays in the object store
until the driver yields it. With a checkpoint the task stores each result itself, so a large
result is written once, from where it was made.
"""
from __future__ import annotations

import pickle
import time
import traceback
from typing import Any

import ray

_funcs: dict[str, Any] = {}  # job id -> the unpickled function (a worker runs many batches)


def _function(job_id: str, payload: bytes):
    func = _funcs.get(job_id)
    if func is None:
        if len(_funcs) > 8:
            _funcs.clear()
        func = _funcs[job_id] = ray.cloudpickle.loads(payload)
    return func


def _portable(exc: BaseException) -> BaseException:
    """The exception itself when it survives pickling, else a RuntimeError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


@ray.remote(num_returns=2)
def run_batch(job_id: str, payload: bytes, keys, store, many, *one):
    """``(outcomes, results)`` of the function on each input, in order; an outcome is
    ``(True, seconds)`` or ``(False, seconds, exception, traceback text)``. The inputs are
    ``many`` (a list, serialized as one argument), or ``one`` input passed on its own, so that
    an ObjectRef of a large input is resolved by Ray."""
    func = _function(job_id, payload)
    items = one if many is None else many
    outcomes, results = [], []
    for key, item in zip(keys, items):
        start = time.perf_counter()
        try:
            value = func(item)
            seconds = time.perf_counter() - start
            if store is not None:  # a result that cannot be stored fails like the function
                store.save(key, value)
        except Exception as exc:
            outcomes.append((False, time.perf_counter() - start, _portable(exc),
                             traceback.format_exc(limit=-8)))
            results.append(None)
            continue
        outcomes.append((True, seconds))
        results.append(value)
    return outcomes, results
