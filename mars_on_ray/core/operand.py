"""Operands: a computation with declared parameters, tiling and a chunk kernel."""
from __future__ import annotations

from typing import Any, ClassVar

from .tokenize import tokenize


class Operand:
    """Base of every operation.

    Subclasses declare their parameters in ``_params`` (defaults as class attributes) and
    implement ``tile(ctx, out)`` (tileable -> chunks, may be a generator that yields chunks
    whose real shapes it needs) and ``execute(*inputs)`` (one chunk, pure NumPy/pandas).
    An operand holds only parameters, never graph nodes, so chunk operands pickle small.
    """

    _params: ClassVar[tuple[str, ...]] = ()
    #: user-level name shown in errors and progress, e.g. "mt.dot"
    label: str | None = None
    #: number of chunk outputs ``execute`` returns (a tuple when > 1)
    n_outputs: ClassVar[int] = 1
    #: False: never fuse this chunk with its neighbours (shuffle mappers)
    fusable: ClassVar[bool] = True
    #: ``execute(..., donate=i)`` may write its result into input i (core/execution.py)
    accepts_donation: ClassVar[bool] = False

    def __init__(self, **params: Any):
        unknown = set(params) - set(self._all_params()) - {"label"}
        if unknown:
            raise TypeError(f"{type(self).__name__} got unknown parameters {sorted(unknown)}")
        for name, value in params.items():
            setattr(self, name, value)

    @classmethod
    def _all_params(cls) -> tuple[str, ...]:
        names = cls.__dict__.get("_all_params_cache")
        if names is None:
            found: list[str] = []
            for klass in reversed(cls.__mro__):
                for name in klass.__dict__.get("_params", ()):
                    if name not in found:
                        found.append(name)
            names = tuple(found)
            setattr(cls, "_all_params_cache", names)
        return names

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._all_params():
            self.__dict__.pop("_token", None)  # a parameter changed: the cached token is stale
        object.__setattr__(self, name, value)

    @property
    def params(self) -> dict[str, Any]:
        return {name: getattr(self, name, None) for name in self._all_params()}

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_token", None)
        return state

    def token(self) -> str:
        token = self.__dict__.get("_token")
        if token is None:
            token = self.__dict__["_token"] = tokenize(type(self), self.params)
        return token

    def new(self, **changes: Any) -> "Operand":
        """A copy of this operand with some parameters changed (e.g. a chunk operand)."""
        names = self._all_params()
        unknown = [k for k in changes if k not in names and k != "label"]
        if unknown:
            raise TypeError(f"{type(self).__name__} got unknown parameters {unknown}")
        op = object.__new__(type(self))  # skips __init__/__setattr__: this runs once per chunk
        state, own = op.__dict__, self.__dict__
        for name in names:
            if name in own:
                state[name] = own[name]
        state.update(changes)
        if "label" not in changes and "label" in own:
            state["label"] = own["label"]
        # the copy's token from this operand's and the changes: tokenizing every chunk
        # operand's whole parameters cost more than the rest of tiling
        state["_token"] = tokenize(self.token(), {k: v for k, v in changes.items() if k != "label"})
        return op

    @property
    def name(self) -> str:
        return self.label or type(self).__name__

    def rebuild(self, node, inputs):
        """``node`` on new ``inputs`` (an optimizer rewrite). This default keeps the node's
        metadata, so it is right only when the inputs' metadata did not change; operations
        whose metadata derives from their inputs' columns override it."""
        from .entity import TileableData

        return TileableData(self, inputs, node.shape, node.meta, node.chunk_size, node.output_index)

    def check_distributable(self) -> None:
        """Raise (with a clear message) when this operation cannot run in another process,
        e.g. a reader of a filesystem that exists only in the client. Called before a graph
        is sent to the cluster."""

    def abort(self) -> None:
        """Undo side effects after the task running this operation failed (writers remove
        what they staged). Called once per tileable, where the task is planned."""

    def describe(self) -> str:
        """One line naming this operation in ``explain`` output."""
        return self.name

    def tile(self, ctx, out):  # pragma: no cover - every tileable operand overrides it
        raise NotImplementedError(f"{type(self).__name__} cannot be tiled")

    def execute(self, *inputs):  # pragma: no cover - every chunk operand overrides it
        raise NotImplementedError(f"{type(self).__name__} cannot be executed")

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items() if v is not None)
        return f"{type(self).__name__}({shown})"[:200]
