"""Global options (``mr.options.chunk_store_limit = ...``), carried to the services with each task.

``options`` reads and writes the options of the current context: the client's globals, or,
inside the task service, the copy the client sent with the task (a ``contextvars`` context per
task, so concurrent tasks of different sessions each see their own).
"""
from __future__ import annotations

import contextvars
import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Options:
    #: upper bound of one chunk in bytes when the user gives no chunk size
    chunk_store_limit: int = 128 * 1024**2
    #: show a progress bar for executions longer than this many seconds (None: never)
    progress_bar_after: float | None = 1.0
    #: groupby: at most this many groups in a chunk's partial use a tree reduction, more a shuffle
    groupby_tree_max_groups: int = 10_000
    #: fan-in of tree reductions
    combine_size: int = 4
    #: retries of a subtask whose worker died (user exceptions are never retried)
    subtask_max_retries: int = 3
    #: a stage whose peak memory as one subtask stays under this many bytes runs as one subtask
    #: with all of a node's CPUs (the small-data path); 0 turns the path off
    small_data_bytes: int = 128 * 1024**2
    #: a small-data stage of at least this many bytes at its peak whose work splits into
    #: independent pieces runs as one lane per CPU plus a subtask combining them
    small_data_lane_bytes: int = 8 * 1024**2
    #: merge: a side of at most this many bytes goes whole to every chunk of the other side
    #: (no shuffle); larger sides are hash-partitioned on the keys
    merge_broadcast_bytes: int = 32 * 1024**2
    #: shuffles: up to this many mapper-to-reducer pieces are exchanged directly, more in two
    #: rounds of about 2 * mappers * sqrt(reducers) pieces (core/exchange.py)
    shuffle_direct_pieces: int = 64 * 64
    #: URL (or path) under which subtask outputs are persisted and from which a re-run loads
    #: them (storage/checkpoint.py); set per execution by ``execute(checkpoint=...)``
    checkpoint: str | None = None


_current: contextvars.ContextVar[Options] = contextvars.ContextVar("mars_on_ray_options",
                                                                    default=Options())


class _OptionsView:
    """The options of the current context, read and set by attribute."""

    def __getattr__(self, name):
        return getattr(_current.get(), name)

    def __setattr__(self, name, value):
        if name not in {f.name for f in dataclasses.fields(Options)}:
            raise AttributeError(f"no option named {name!r}")
        setattr(_current.get(), name, value)

    def __delattr__(self, name):
        """Back to the default value (``monkeypatch`` of pytest >= 9.2 undoes by deleting,
        since option values are not attributes of the view itself)."""
        fields = {f.name: f for f in dataclasses.fields(Options)}
        if name not in fields:
            raise AttributeError(f"no option named {name!r}")
        field = fields[name]
        default = field.default_factory() if field.default is dataclasses.MISSING else field.default
        setattr(_current.get(), name, default)

    def __repr__(self) -> str:
        return repr(_current.get())

    def snapshot(self) -> dict:
        """The current values (what the client sends with a task)."""
        return dataclasses.asdict(_current.get())


options = _OptionsView()


@contextmanager
def using(values: dict | None):
    """Run the block with these option values (the rest default), in this context only."""
    token = _current.set(Options(**(values or {})))
    try:
        yield
    finally:
        _current.reset(token)
