"""The thin user-facing objects wrapping tileable nodes, and the hook that executes them."""
from __future__ import annotations

import importlib
from typing import Any, Callable

from .entity import TileableData

# Set by mars_on_ray.session when it loads: execute(obj, session=None, **kw), fetch(...).
_runner: dict[str, Callable] = {}


def set_runner(execute: Callable, fetch: Callable) -> None:
    _runner["execute"], _runner["fetch"] = execute, fetch


def _run(kind: str) -> Callable:
    if not _runner:  # the client registers itself when loaded; load it on first execution
        importlib.import_module("mars_on_ray.session")
    return _runner[kind]


def lazy_method(package: str, module: str, name: str, reflected: bool = False) -> Callable:
    """A method calling ``package.module.name(self, ...)``, imported on first call (the
    operation modules import the user classes, so the classes cannot import them)."""

    def method(self, *args, **kwargs):
        func = getattr(importlib.import_module(f"{package}.{module}"), name)
        if reflected:
            return func(args[0], self, **kwargs)
        return func(self, *args, **kwargs)

    method.__name__ = name
    return method


class Tileable:
    """Base of Tensor, DataFrame, Series and Index: a lazy value over a graph node."""

    __slots__ = ("data", "__weakref__")

    def __init__(self, data: TileableData):
        self.data = data

    @property
    def key(self) -> str:
        return self.data.key

    @property
    def shape(self) -> tuple:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return len(self.data.shape)

    @property
    def op(self):
        return self.data.op

    def execute(self, session=None, **kwargs: Any) -> "Tileable":
        """Run the graph behind this object; returns the object itself."""
        _run("execute")(self, session=session, **kwargs)
        return self

    def fetch(self, session=None, **kwargs: Any):
        """The computed value as a NumPy / pandas object (executes first if needed)."""
        return _run("fetch")(self, session=session, **kwargs)

    def __len__(self) -> int:
        if not self.data.shape:
            raise TypeError("len() of unsized object")
        n = self.data.shape[0]
        if n != n:  # unknown until executed: len() computes it, as pandas users expect a number
            self.execute(show_progress=False)
            n = self.data.shape[0]
        return int(n)

    def __repr__(self) -> str:
        return f"{type(self).__name__} <op={self.data.op.name}, shape={self.data.shape}, key={self.key[:12]}>"


class ClientData:
    """Mixin for source operands holding a user's in-memory object.

    The object (``data``) is not a parameter: the token of its content is. The client puts
    each chunk's piece into the object store once before running; the graph sent to the
    services carries no data.
    """

    data: Any = None

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("data", None)
        return state

    def execute(self):
        if self.data is None:
            raise RuntimeError(f"{self.name}: source data was not uploaded")
        return self.data
