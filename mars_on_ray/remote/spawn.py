"""Mars' ``mr.spawn``: a Python call as a lazy object that executes and fetches like a tensor.

Lazy objects among the arguments (tensors, DataFrames, other spawned calls; also inside lists,
tuples and dicts) are computed first and passed in as their NumPy / pandas / Python values;
several spawned calls and other lazy objects run as one graph with ``mr.execute(a, b, ...)``.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core.entity import ChunkData, TileableData, Tiled, chunk_grid
from ..core.merge import merge_chunks
from ..core.operand import Operand
from ..core.user import Tileable

__all__ = ["spawn", "Object", "ExecutableTuple"]

#: attempts of a call spawned with ``retry_when_fail=True``
_ATTEMPTS = 3


def _executable_tuple():
    from ..core.executable import ExecutableTuple

    return ExecutableTuple


def __getattr__(name: str):
    if name == "ExecutableTuple":
        return _executable_tuple()
    raise AttributeError(name)


class Object(Tileable):
    """A lazy Python object (the result of ``mr.spawn``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Object <op={self.data.op.name}, key={self.key[:12]}>"


class _Arg:
    """Stands for the ``position``-th lazy argument inside the stored call arguments."""

    __slots__ = ("position",)

    def __init__(self, position: int):
        self.position = position

    def __mars_token__(self):
        return ("mr.spawn argument", self.position)

    def __reduce__(self):
        return _Arg, (self.position,)


def _extract(obj, found: list):
    """``obj`` with every lazy object replaced by an ``_Arg`` (appended to ``found``)."""
    if isinstance(obj, Tileable):
        found.append(obj.data)
        return _Arg(len(found) - 1)
    if isinstance(obj, (list, tuple)):
        items = [_extract(x, found) for x in obj]
        if type(obj) is list:
            return items
        if hasattr(obj, "_fields"):  # a named tuple
            return type(obj)(*items)
        return tuple(items) if type(obj) is tuple else type(obj)(items)
    if isinstance(obj, dict):
        return type(obj)((k, _extract(v, found)) for k, v in obj.items())
    return obj


def _substitute(obj, values: list):
    if isinstance(obj, _Arg):
        return values[obj.position]
    if isinstance(obj, (list, tuple)):
        items = [_substitute(x, values) for x in obj]
        if type(obj) is list:
            return items
        if hasattr(obj, "_fields"):
            return type(obj)(*items)
        return tuple(items) if type(obj) is tuple else type(obj)(items)
    if isinstance(obj, dict):
        return type(obj)((k, _substitute(v, values)) for k, v in obj.items())
    return obj


class Spawn(Operand):
    """``func(*args, **kwargs)`` on the computed values of the lazy arguments; one chunk.

    ``layout`` (chunk operands only): each lazy argument's chunk-grid shape and metadata, to
    put its chunks back together before the call."""

    _params = ("func", "args", "kwargs", "n_output", "retry_when_fail", "layout")
    label = "mr.spawn"

    def tile(self, ctx, out):
        chunks, layout = [], []
        for node in out.inputs:
            tiled = ctx[node]
            chunks.extend(tiled.flat)
            layout.append((tuple(tiled.chunks.shape), node.meta))
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(layout=tuple(layout)), chunks, (), None, ())
        return Tiled(grid, ())

    def execute(self, *values):
        lazy, pos = [], 0
        for shape, meta in self.layout:
            count = int(np.prod(shape, dtype=int))
            grid = np.empty(count, dtype=object)
            grid[:] = [None] * count
            for i in range(count):
                grid[i] = values[pos + i]
            pos += count
            lazy.append(merge_chunks(meta, grid.reshape(shape)))
        args = _substitute(self.args, lazy)
        kwargs = _substitute(self.kwargs, lazy)
        attempts = _ATTEMPTS if self.retry_when_fail else 1
        for attempt in range(attempts):
            try:
                result = self.func(*args, **kwargs)
                break
            except Exception:
                if attempt == attempts - 1:
                    raise
        if self.n_output is not None:
            result = tuple(result)
            if len(result) != self.n_output:
                raise ValueError(f"mr.spawn: n_output={self.n_output} but the function returned "
                                 f"{len(result)} values")
        return result


class SpawnItem(Operand):
    """The ``index``-th value of a spawned call that returns ``n_output`` values."""

    _params = ("index",)
    label = "mr.spawn"

    def tile(self, ctx, out):
        source = ctx[out.inputs[0]].flat[0]
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(), [source], (), None, ())
        return Tiled(grid, ())

    def execute(self, values):
        return values[self.index]


def spawn(func: Callable, args: Any = (), kwargs: dict | None = None,
          retry_when_fail: bool = False, n_output: int | None = None):
    """A lazy call of ``func(*args, **kwargs)`` run on the cluster when executed.

    ``args`` may be one value or a tuple/list; lazy objects among the arguments are computed
    first. ``n_output``: the function returns that many values, given back as an
    ``ExecutableTuple`` of lazy objects computed by one call. ``retry_when_fail``: call again
    (up to 3 times) when the function raises.

    >>> import mars_on_ray as mr
    >>> mr.spawn(lambda x, y: x + y, (1, 2)).execute().fetch()  # doctest: +SKIP
    3
    """
    if not callable(func):
        raise TypeError(f"mr.spawn: func must be callable, got {type(func).__name__}")
    if not isinstance(args, (tuple, list)):
        args = (args,)
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, dict):
        raise TypeError(f"mr.spawn: kwargs must be a dict, got {type(kwargs).__name__}")
    if n_output is not None and (int(n_output) != n_output or n_output < 1):
        raise ValueError(f"mr.spawn: n_output must be a positive integer, got {n_output!r}")
    found: list[TileableData] = []
    stored_args = _extract(tuple(args), found)
    stored_kwargs = _extract(dict(kwargs), found)
    op = Spawn(func=func, args=stored_args, kwargs=stored_kwargs, n_output=n_output,
               retry_when_fail=bool(retry_when_fail), layout=None)
    call = Object(TileableData(op, found, (), None))
    if n_output is None:
        return call
    return _executable_tuple()(Object(TileableData(SpawnItem(index=i), [call.data], (), None))
                               for i in range(int(n_output)))
