"""convolve and correlate of 1-D tensors: each block of the result is NumPy's convolution of
the matching block of the longer input with the ``m - 1`` elements before it (taken from the
neighbouring chunks), the shorter input (the kernel) in one chunk beside every block."""
from __future__ import annotations

import numpy as np

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["convolve", "correlate"]


class ConvolveBlock(Operand):
    """Positions [lo, hi) of the full convolution, from the pieces of ``a`` covering
    [lo - m + 1, hi) clipped to ``a`` (``start``: where they begin)."""

    _params = ("lo", "hi", "start", "pieces", "dtype")

    def execute(self, *inputs):
        *chunks, v = inputs
        x = np.concatenate([c[a:b] for c, (a, b) in zip(chunks, self.pieces)]) if chunks else \
            np.zeros(0, self.dtype)
        if len(x) == 0:
            return np.zeros(self.hi - self.lo, self.dtype)
        full = np.convolve(x, v)  # position k of x's full convolution is start + k overall
        return full[self.lo - self.start:self.hi - self.start].astype(self.dtype, copy=False)


class TensorConvolve(Operand):
    _params = ("dtype",)

    def tile(self, ctx, out):
        a = yield from ctx.known(out.inputs[0])
        v = yield from ctx.known(out.inputs[1])
        m = int(sum(v.nsplits[0]))
        v = rechunk_tiled(v, ((m,),)).chunks[0]  # the kernel, in one chunk
        starts = offsets(a.nsplits[0])
        n = starts[-1]
        bounds = list(zip(starts[:-1], starts[1:])) + ([(n, n + m - 1)] if m > 1 else [])
        grid = chunk_grid((len(bounds),))
        for j, (lo, hi) in enumerate(bounds):
            first, last = max(lo - m + 1, 0), min(hi, n)
            chunks, pieces = [], []
            for i, c in enumerate(a.chunks):
                s, e = max(first, starts[i]), min(last, starts[i + 1])
                if s < e:
                    chunks.append(c)
                    pieces.append((s - starts[i], e - starts[i]))
            op = ConvolveBlock(lo=lo, hi=hi, start=first, pieces=tuple(pieces), dtype=self.dtype,
                               label=self.label)
            grid[j] = ChunkData(op, [*chunks, v], (hi - lo,), out.meta, (j,))
        return Tiled(grid, (tuple(hi - lo for lo, hi in bounds),))


def _full(a, v, label):
    dtype = np.convolve(np.ones(1, a.dtype), np.ones(1, v.dtype)).dtype
    n, m = a.shape[0], v.shape[0]
    op = TensorConvolve(dtype=dtype, label=label)
    return new_tensor(op, [a, v], (n + m - 1 if n == n and m == m else float("nan"),), dtype)


def _checked(a, v, name):
    a, v = as_tensor(a), as_tensor(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array" if max(a.ndim, v.ndim) > 1
                         else "object of too small depth for desired array")
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    return a, v


def _mode(full, n, m, mode, swapped=False):
    """The ``mode`` part of a full convolution of lengths ``n`` and ``m`` (known);
    ``swapped``: NumPy correlated the inputs the other way round and reversed the result,
    which centres 'same' on the other side."""
    if mode == "full":
        return full
    if n != n or m != m:
        raise NotImplementedError(f"mode={mode!r} needs the input lengths to be known")
    big, small = max(n, m), min(n, m)
    if mode == "same":
        start = small // 2 if swapped else (small - 1) // 2
        return full[start:start + big]
    if mode == "valid":
        return full[small - 1:big]
    raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")


def convolve(a, v, mode="full"):
    """The discrete linear convolution of two 1-D tensors (``mode`` full, same, valid)."""
    a, v = _checked(a, v, "convolve")
    n, m = a.shape[0], v.shape[0]
    if m == m and n == n and m > n:  # NumPy convolves the longer with the shorter
        a, v = v, a
    return _mode(_full(a, v, "mt.convolve"), n, m, mode)


def correlate(a, v, mode="valid"):
    """The cross-correlation of two 1-D tensors: ``a`` convolved with ``v`` reversed and
    conjugated (``mode`` valid, same, full)."""
    from .arithmetic import conjugate

    a, v = _checked(a, v, "correlate")
    n, m = a.shape[0], v.shape[0]
    rv = v[::-1]
    if rv.dtype.kind == "c":
        rv = conjugate(rv)
    swapped = m == m and n == n and m > n
    full = _full(rv, a, "mt.correlate") if swapped else _full(a, rv, "mt.correlate")
    return _mode(full, n, m, mode, swapped)
