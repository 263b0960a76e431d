"""interp (NumPy's on every block of ``x``, the sample table beside each) and gradient
(NumPy's central and one-sided differences on shifted slices, edges concatenated)."""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["interp", "gradient"]


class InterpChunk(Operand):
    _params = ("left", "right", "period")

    def execute(self, x, xp, fp):
        return np.interp(x, xp, fp, left=self.left, right=self.right, period=self.period)


class TensorInterp(InterpChunk):
    def tile(self, ctx, out):
        x = ctx[out.inputs[0]]
        # the sample table (xp, fp) is one chunk read by every block of x
        table = []
        for t in out.inputs[1:]:
            t = yield from ctx.known(t)
            table.append(rechunk_tiled(t, ((int(sum(t.nsplits[0])),),)))
        xp, fp = table
        grid = chunk_grid(x.chunks.shape)
        for pos, c in np.ndenumerate(x.chunks):
            grid[pos] = ChunkData(InterpChunk(**self.params, label=self.label),
                                  [c, xp.chunks[0], fp.chunks[0]], c.shape, out.meta, pos)
        return Tiled(grid, x.nsplits)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the points (``xp``, ``fp``) at ``x``, NumPy's own on
    every block of ``x`` (the table ``xp``/``fp``, usually small, in one chunk)."""
    x, xp, fp = as_tensor(x), as_tensor(xp), as_tensor(fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array" if max(xp.ndim, fp.ndim) > 1
                         else "object of too small depth for desired array")
    if xp.shape[0] == xp.shape[0] and fp.shape[0] == fp.shape[0] and xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if period is not None and period == 0:
        raise ValueError("period must be a non-zero value")
    dtype = np.interp(np.zeros(1, x.dtype), np.zeros(1, xp.dtype), np.zeros(1, fp.dtype),
                      left=left, right=right, period=period).dtype
    op = TensorInterp(left=left, right=right, period=period, label="mt.interp")
    return new_tensor(op, [x, xp, fp], x.shape, dtype)


def _spacing(d, n):
    """NumPy's treatment of one spacing: a scalar, or coordinates (small, computed now)
    turned into their differences (a scalar when uniform)."""
    if isinstance(d, Tileable):
        from .manipulation import _compute_now

        d = _compute_now(d)
    d = np.asanyarray(d)
    if d.ndim == 0:
        return d[()]
    if d.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if len(d) != n:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if np.issubdtype(d.dtype, np.integer):
        d = d.astype(np.float64)
    diffx = np.diff(d)
    return diffx[0] if (diffx == diffx[0]).all() else diffx


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient along ``axis`` (None: every axis; a tuple of results for several), with
    spacings as scalars or coordinate arrays, edges of order 1 or 2, NumPy's formulas."""
    from .joining import concatenate

    f = as_tensor(f)
    N = f.ndim
    axes = tuple(range(N)) if axis is None else normalize_axis_tuple(axis, N)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0 and not isinstance(varargs[0], Tileable):
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = [v if np.ndim(v) == 0 and not isinstance(v, Tileable) else
              _spacing(v, f.shape[axes[i]]) for i, v in enumerate(varargs)]
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if f.dtype.kind in "mM":
        raise NotImplementedError("mt.gradient: datetime and timedelta data are not supported")
    otype = f.dtype if np.issubdtype(f.dtype, np.inexact) else np.dtype(np.float64)
    if np.issubdtype(f.dtype, np.integer):
        f = f.astype(np.float64)
    outs = []
    for ax, d in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at "
                             "least (edge_order + 1) elements are required.")

        def at(start, stop=0, ax=ax):  # ``stop`` 0: the one element at ``start``
            index = [slice(None)] * N
            index[ax] = slice(start, (start + 1 or None) if stop == 0 else stop)
            return f[tuple(index)]

        def along(v, ax=ax):  # a 1-D array of factors laid along ``ax``
            return np.reshape(v, [-1 if k == ax else 1 for k in range(N)])

        uniform = np.ndim(d) == 0
        if uniform:
            inner = (at(2, None) - at(0, -2)) / (2. * d)
        else:
            dx1, dx2 = d[:-1], d[1:]
            a = along(-(dx2) / (dx1 * (dx1 + dx2)))
            b = along((dx2 - dx1) / (dx1 * dx2))
            c = along(dx1 / (dx2 * (dx1 + dx2)))
            inner = a * at(0, -2) + b * at(1, -1) + c * at(2, None)
        if edge_order == 1:
            first = (at(1) - at(0)) / (d if uniform else d[0])
            last = (at(-1) - at(-2)) / (d if uniform else d[-1])
        else:
            if uniform:
                a, b, c = -1.5 / d, 2. / d, -0.5 / d
            else:
                dx1, dx2 = d[0], d[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            first = a * at(0) + b * at(1) + c * at(2)
            if uniform:
                a, b, c = 0.5 / d, -2. / d, 1.5 / d
            else:
                dx1, dx2 = d[-2], d[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            last = a * at(-3) + b * at(-2) + c * at(-1)
        pieces = [p if p.dtype == otype else p.astype(otype) for p in (first, inner, last)]
        outs.append(concatenate(pieces, axis=ax))
    return outs[0] if len(axes) == 1 else tuple(outs)
