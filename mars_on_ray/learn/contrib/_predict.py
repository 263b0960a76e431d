"""Lazy prediction row block by row block with a fitted model carried in the graph.

The model travels as bytes (its library's own serialization, or a pickled estimator) in the
operand, so the graph pickles small and the key changes with the model; each process loads a
model once. The result's trailing shape and dtype come from the kernel run on a one-row
sample when the graph is built, so bad input fails there, not in a worker.
"""
from __future__ import annotations

import hashlib
import pickle
from typing import Callable

import numpy as np

from ...core.entity import ChunkData, Tiled, chunk_grid
from ...core.operand import Operand
from ...dataframe.core import DataFrame
from ...tensor.core import new_tensor
from ._shards import as_lazy

_LOADED: dict[tuple, object] = {}  # (loader, model digest) -> model, per process


def loaded(loader: Callable, model: bytes):
    """``loader(model)``, cached in this process by the model's digest."""
    key = (loader, hashlib.blake2b(model, digest_size=16).digest())
    if key not in _LOADED:
        if len(_LOADED) > 8:
            _LOADED.clear()
        _LOADED[key] = loader(model)
    return _LOADED[key]


class PredictRows(Operand):
    """``kernel(loader(model), block, **kwargs)`` on every row block; each result has the
    block's rows followed by the trailing dimensions ``tail``."""

    _params = ("kernel", "loader", "model", "kwargs", "tail")

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        rows = list(t.chunks[:, 0] if t.chunks.ndim == 2 else t.chunks)
        extra = (0,) * len(self.tail)
        grid = chunk_grid((len(rows),) + (1,) * len(self.tail))
        for i, c in enumerate(rows):
            grid[(i,) + extra] = ChunkData(self.new(), [c], (c.shape[0],) + tuple(self.tail),
                                           out.meta, (i,) + extra)
        nsplits = (tuple(c.shape[0] for c in rows),) + tuple((s,) for s in self.tail)
        return Tiled(grid, nsplits)

    def execute(self, block):
        model = loaded(self.loader, self.model)
        return np.asarray(self.kernel(model, block, **(self.kwargs or {})))

    def describe(self) -> str:
        return self.label or "predict"


def _sample(x):
    """A one-row stand-in for ``x``'s blocks (zeros / pandas' one-row sample)."""
    if isinstance(x, DataFrame):
        from ...dataframe.blockwise import sample_of

        return sample_of(x.data.meta)
    return np.zeros((1, int(x.shape[1])), dtype=x.dtype)


def predict_rows(kernel: Callable, loader: Callable, model: bytes, data, *,
                 kwargs: dict | None = None, label: str = "predict"):
    """A lazy tensor of ``kernel`` applied to ``data``'s row blocks (``data``: a 2-D tensor,
    DataFrame, NumPy array or pandas DataFrame)."""
    x = as_lazy(data, "data", 2)
    kwargs = dict(kwargs or {})
    probe = np.asarray(kernel(loader(model), _sample(x), **kwargs))
    op = PredictRows(kernel=kernel, loader=loader, model=model, kwargs=kwargs,
                     tail=tuple(probe.shape[1:]), label=label)
    return new_tensor(op, [x], (x.shape[0],) + probe.shape[1:], probe.dtype)


def pickled(obj) -> bytes:
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def unpickle(data: bytes):
    return pickle.loads(data)


def estimator_method(est, block, method: str, base: type, **kwargs):
    """``base.method(est, block)``: the library's own single-process method on one block
    (``base`` is the library class the mars_on_ray estimator extends)."""
    return getattr(base, method)(est, block, **kwargs)
