"""Graph nodes: tileables (whole arrays / frames) and chunks (their blocks)."""
from __future__ import annotations

import hashlib
import math
from typing import Any, Sequence

import numpy as np

from .operand import Operand
from .tokenize import tokenize


def node_key(op_token: str, inputs: Sequence["Node"], output_index: int, extra: Any) -> str:
    """The key of an output of an operand on ``inputs``; ``extra``: chunk index or chunk size."""
    parts = [op_token, *(i.key for i in inputs), str(output_index),
             extra if type(extra) is str else tokenize(extra)]
    return hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()


class Node:
    """An output of an operand applied to input nodes; immutable but for unknown extents."""

    __slots__ = ("op", "inputs", "output_index", "shape", "meta", "key", "__weakref__")

    def __init__(self, op: Operand, inputs: Sequence["Node"], shape: tuple, meta: Any,
                 output_index: int = 0, extra_token: Any = None):
        self.op = op
        self.inputs = tuple(inputs)
        self.output_index = output_index
        self.shape = tuple(float("nan") if s is None else s for s in shape)
        self.meta = meta
        self.key = node_key(op.token(), self.inputs, output_index, extra_token)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def dtype(self):
        return getattr(self.meta, "dtype", None)

    @property
    def has_unknown_shape(self) -> bool:
        return any(isinstance(s, float) and math.isnan(s) for s in self.shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}<{self.op.name} {self.shape} {self.key[:8]}>"


class TileableData(Node):
    """A whole tensor / DataFrame / Series / Index before tiling.

    ``meta`` is an empty NumPy array or pandas object with the result's dtype(s), columns and
    index type: metadata inference runs the real library function on it.
    """

    __slots__ = ("chunk_size",)

    def __init__(self, op, inputs, shape, meta, chunk_size=None, output_index=0):
        super().__init__(op, inputs, shape, meta, output_index, extra_token=chunk_size)
        self.chunk_size = chunk_size

    def refresh_shape(self, shape: tuple) -> None:
        """Fill in extents that were unknown before execution."""
        self.shape = tuple(int(s) for s in shape)


class ChunkData(Node):
    """One block of a tileable at ``index`` in its chunk grid."""

    __slots__ = ("index",)

    def __init__(self, op, inputs, shape, meta, index: tuple, output_index=0):
        super().__init__(op, inputs, shape, meta, output_index, extra_token=tuple(index))
        self.index = tuple(index)

    def with_shape(self, shape: tuple) -> "ChunkData":
        """The same chunk (same key) with its real shape filled in after execution."""
        clone = object.__new__(ChunkData)
        for slot in ("op", "inputs", "output_index", "meta", "key", "index"):
            object.__setattr__(clone, slot, getattr(self, slot))
        clone.shape = tuple(int(s) for s in shape)
        return clone


class Tiled:
    """The chunks of a tileable: an object array in grid layout plus the split sizes."""

    __slots__ = ("chunks", "nsplits")

    def __init__(self, chunks: np.ndarray, nsplits: Sequence[Sequence[float]]):
        self.chunks = chunks
        self.nsplits = tuple(tuple(s) for s in nsplits)

    @classmethod
    def from_chunks(cls, chunks: np.ndarray) -> "Tiled":
        """Derive nsplits from the chunks' own shapes along each grid axis."""
        nsplits = []
        for axis in range(chunks.ndim):
            first = [0] * chunks.ndim
            sizes = []
            for i in range(chunks.shape[axis]):
                first[axis] = i
                sizes.append(chunks[tuple(first)].shape[axis])
            nsplits.append(tuple(sizes))
        return cls(chunks, nsplits)

    @property
    def flat(self) -> list[ChunkData]:
        return list(self.chunks.flat)

    @property
    def has_unknown_shape(self) -> bool:
        return any(isinstance(s, float) and math.isnan(s) for sp in self.nsplits for s in sp)


def chunk_grid(shape: Sequence[int]) -> np.ndarray:
    """An empty object array to fill with chunks."""
    return np.empty(tuple(shape), dtype=object)
