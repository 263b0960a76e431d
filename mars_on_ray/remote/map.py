"""``mr.map``: a parallel map of a Python function over many inputs, on Ray.

Long, expensive tasks (kubeface's use) and trivial ones alike: trivial inputs are batched into
Ray tasks without being asked, expensive ones run one a task; results can be checkpointed so a
re-run after a crash computes only what is missing. ``scheduler.py`` holds the machinery.
"""
from __future__ import annotations

import collections.abc
import re
import uuid
from typing import Any, Callable, Iterable

from .checkpoint import JobStore
from .status import MapStatus

__all__ = ["map", "MapResults", "parse_memory"]

_builtin_map = map


def map(func: Callable[[Any], Any], iterable: Iterable, *, max_simultaneous: int | None = None,
        num_cpus: float = 1, memory: int | str | None = None, num_gpus: float = 0,
        retries: int = 2, checkpoint: str | None = None, job_name: str | None = None,
        speculation: bool = True, ordered: bool = True, errors: str = "raise",
        show_progress: bool | None = None) -> "MapResults":
    """``func`` applied to every input of ``iterable`` as Ray tasks; a generator of results.

    Results come in input order as soon as each is ready (``ordered=False``: as they finish).
    The iterable is read as tasks are submitted, never all at once; at most
    ``max_simultaneous`` tasks are in flight (default: twice what the cluster runs at once).
    ``num_cpus`` / ``memory`` (bytes or "500m", "2g") / ``num_gpus`` are each task's resources.

    ``checkpoint``: a folder or fsspec URL; each result is stored there under ``job_name``,
    keyed by its input, and a later call with the same job name reuses it. A task that raises
    is tried again ``retries`` times; then the map raises that exception (a note names the
    input and its index), or yields it with ``errors="return"``. Tasks running over 3x the
    median of finished ones are submitted again (``speculation``); the first result wins.
    ``show_progress``: a progress bar (default: when the terminal is interactive).

    >>> import mars_on_ray as mr
    >>> list(mr.map(lambda x: x * x, range(5)))  # doctest: +SKIP
    [0, 1, 4, 9, 16]
    """
    import ray

    if not callable(func):
        raise TypeError(f"mr.map: func must be callable, got {type(func).__name__}")
    if errors not in ("raise", "return"):
        raise ValueError(f"mr.map: errors must be 'raise' or 'return', got {errors!r}")
    if int(retries) != retries or retries < 0:
        raise ValueError(f"mr.map: retries must be a non-negative integer, got {retries!r}")
    if max_simultaneous is not None and max_simultaneous < 1:
        raise ValueError(f"mr.map: max_simultaneous must be at least 1, got {max_simultaneous!r}")
    if checkpoint is not None and not job_name:
        raise ValueError("mr.map: checkpoint= needs a job_name= (results are keyed by job)")
    try:
        iterator = iter(iterable)
    except TypeError:
        raise TypeError(f"mr.map: {type(iterable).__name__} object is not iterable") from None
    try:
        payload = ray.cloudpickle.dumps(func)
    except Exception as exc:
        raise TypeError(f"mr.map: the function cannot be pickled: {exc}") from exc
    # Ray re-runs a task whose worker died (not one whose function raised: that is ours)
    options = {"num_cpus": num_cpus, "num_gpus": num_gpus, "max_retries": 3,
               "retry_exceptions": False}
    if memory is not None:
        options["memory"] = parse_memory(memory)
    store = JobStore(str(checkpoint), job_name) if checkpoint is not None else None
    try:
        total = len(iterable)  # type: ignore[arg-type]
    except TypeError:
        total = None
    name = getattr(func, "__qualname__", type(func).__name__)
    job_id = job_name or f"map-{uuid.uuid4().hex[:12]}"
    status = MapStatus(job_id, job_name, name, total)
    settings = dict(job_id=f"{job_id}-{uuid.uuid4().hex[:8]}", payload=payload, options=options,
                    retries=int(retries), store=store, speculation=speculation, ordered=ordered,
                    errors=errors, status=status, total=total, show_progress=show_progress)
    return MapResults(iterator, max_simultaneous, num_cpus, num_gpus, settings)


def parse_memory(value: int | float | str) -> int:
    """Bytes from an int or a size such as ``"500m"``, ``"2GB"``, ``"1.5g"`` (powers of 1024)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value <= 0:
            raise ValueError(f"memory must be positive, got {value!r}")
        return int(value)
    match = re.fullmatch(r"\s*([0-9.]+)\s*([kmgt]?)i?b?\s*", str(value).lower())
    if not match:
        raise ValueError(f"memory: cannot read {value!r} as a size (e.g. 500m, 2g)")
    scale = 1024 ** " kmgt".index(match.group(2) or " ")
    return int(float(match.group(1)) * scale)


def _cluster_slots(num_cpus: float, num_gpus: float) -> int:
    """How many tasks with these resources the cluster runs at once."""
    import ray

    resources = ray.cluster_resources()
    counts = []
    if num_cpus:
        counts.append(resources.get("CPU", 1) / num_cpus)
    if num_gpus:
        counts.append(resources.get("GPU", 0) / num_gpus)
    return max(1, int(min(counts))) if counts else max(1, int(resources.get("CPU", 1)))


class MapResults(collections.abc.Generator):
    """The generator ``mr.map`` returns; nothing runs until the first result is asked for.
    ``status`` is the job's progress document; ``close()`` cancels what is still running."""

    def __init__(self, iterator, max_simultaneous, num_cpus, num_gpus, settings):
        self._iterator = iterator
        self._max_simultaneous = max_simultaneous
        self._resources = (num_cpus, num_gpus)
        self._settings = settings
        self._status: MapStatus = settings["status"]
        self._gen = None

    def _generator(self):
        if self._gen is None:
            import ray

            from .scheduler import MapScheduler

            if not ray.is_initialized():
                ray.init()
            slots = _cluster_slots(*self._resources)
            in_flight = self._max_simultaneous or 2 * slots
            scheduler = MapScheduler(self._iterator, slots=min(slots, in_flight),
                                     in_flight=in_flight, **self._settings)
            self._gen = scheduler.run()
        return self._gen

    @property
    def status(self) -> dict:
        """Progress: done / running / failed / retried / resubmitted counts and durations."""
        return self._status.snapshot()

    def send(self, value):
        return self._generator().send(value)

    def throw(self, typ, val=None, tb=None):
        if val is None and tb is None:  # the one-argument form (the others are deprecated)
            return self._generator().throw(typ)
        return self._generator().throw(typ, val, tb)

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()

    def __enter__(self) -> "MapResults":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        s = self._status
        return f"<mr.map {s.func_name} {s.state}: {s.done}/{s.total if s.total is not None else '?'} done>"
