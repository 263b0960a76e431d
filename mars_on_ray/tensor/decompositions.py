"""``mt.linalg``: qr and svd by TSQR (tall-skinny QR over row blocks), blocked cholesky, norm.

TSQR: each row block is factored on its own (Q_i R_i), the small stacked R_i are factored once
(Q2 R), and each Q_i is multiplied by its slice of Q2: only n x n matrices ever meet in one
task. The columns must fit one chunk, as in Mars. Factorisations are unique up to the signs of
R's rows (of U's / V's columns for svd), as for LAPACK itself.
"""
from __future__ import annotations

import numpy as np

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .methods import map_chunk
from .rechunk import rechunk, rechunk_tiled

__all__: list[str] = []  # reached as mt.linalg.<name>


BLOCK_BYTES = 256 * 1024  # a row block of this size factors in cache


def tall_qr(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reduced QR of ``a``, by TSQR over cache-sized row blocks when ``a`` is tall: LAPACK
    factors a tall-skinny matrix column by column, a pass over all of it per column (250k x 20:
    0.43 s on one thread; 0.09 s in blocks of 1,600 rows)."""
    m, n = a.shape
    rows = max(2 * n, BLOCK_BYTES // (a.itemsize * max(n, 1)))
    if m <= 2 * rows:
        return np.linalg.qr(a)
    factors = [np.linalg.qr(a[i:i + rows]) for i in range(0, m, rows)]
    q2, r = np.linalg.qr(np.concatenate([f[1] for f in factors], axis=0))
    q = np.empty((m, q2.shape[1]), dtype=q2.dtype)
    at = k = 0
    for q_i, _ in factors:
        q[at:at + len(q_i)] = q_i @ q2[k:k + q_i.shape[1]]
        at, k = at + len(q_i), k + q_i.shape[1]
    return q, r


class _Factor(Operand):
    """The reduced QR of the stacked inputs: outputs Q and R (one factorisation for both)."""

    n_outputs = 2

    def execute(self, *blocks):
        return tall_qr(np.concatenate(blocks, axis=0) if len(blocks) > 1 else blocks[0])


class _ApplyQ(Operand):
    """A row block of Q: ``Q_i @ Q2[lo:hi]``."""

    _params = ("lo", "hi")

    def execute(self, q_i, q2):
        return q_i @ q2[self.lo:self.hi]


class TSQR(Operand):
    """Q (``which=0``, row-split like the input) or R (``which=1``, one chunk)."""

    _params = ("which",)

    def tile(self, ctx, out):
        t = yield from ctx.known(out.inputs[0])
        n = int(sum(t.nsplits[1]))
        # whole rows, the row splits kept; done here on the tiled input, no extra tileable
        t = rechunk_tiled(t, (t.nsplits[0], (n,)))
        rows = [int(r) for r in t.nsplits[0]]
        blocks = list(t.chunks[:, 0])
        ks = [min(r, n) for r in rows]
        meta = blocks[0].meta
        # output 0 of a _Factor is Q, output 1 is R; the Q and R tileables tile the same
        # factorisations (same keys), so each block is factored once when both are computed
        q_parts = [ChunkData(_Factor(), [c], (r, k), meta, (i, 0), 0) for i, (c, r, k) in
                   enumerate(zip(blocks, rows, ks))]
        r_parts = [ChunkData(_Factor(), [c], (k, n), meta, (i, 0), 1) for i, (c, k) in
                   enumerate(zip(blocks, ks))]
        total, n2 = sum(ks), min(sum(ks), n)
        if self.which == 1:
            grid = chunk_grid((1, 1))
            grid[0, 0] = ChunkData(_Factor(label=self.label), r_parts, (n2, n), out.meta, (0, 0), 1)
            return Tiled(grid, [(n2,), (n,)])
        q2 = ChunkData(_Factor(label=self.label), r_parts, (total, n2), meta, (0, 0), 0)
        grid = chunk_grid((len(blocks), 1))
        starts = offsets(ks)
        for i, (q_i, r) in enumerate(zip(q_parts, rows)):
            grid[i, 0] = ChunkData(_ApplyQ(lo=starts[i], hi=starts[i] + ks[i], label=self.label),
                                   [q_i, q2], (r, n2), out.meta, (i, 0))
        return Tiled(grid, [tuple(rows), (n2,)])


def _matrix(a, name):
    t = as_tensor(a)
    if t.ndim != 2:
        raise np.linalg.LinAlgError(f"{t.ndim}-dimensional array given. Array must be two-dimensional")
    np.linalg.qr(np.zeros((1, 1), t.dtype))  # NumPy's TypeError for unsupported dtypes
    return t


def qr(a, mode="reduced"):
    """``(Q, R)`` of the reduced QR factorisation (``mode='r'``: R only), by TSQR."""
    t = _matrix(a, "qr")
    if mode not in ("reduced", "r"):
        raise NotImplementedError(f"mt.linalg.qr: mode={mode!r} (only 'reduced' and 'r')")
    m, n = t.shape
    dtype = np.linalg.qr(np.eye(2, dtype=t.dtype))[0].dtype
    k = min(m, n)
    r = new_tensor(TSQR(which=1, label="mt.linalg.qr"), [t], (k, n), dtype)
    if mode == "r":
        return r
    return new_tensor(TSQR(which=0, label="mt.linalg.qr"), [t], (m, k), dtype), r


def svd(a, full_matrices=True, compute_uv=True):
    """``(U, S, Vh)`` of the reduced SVD (``full_matrices`` has no distributed meaning here and
    is treated as False, as Mars did), or ``S`` alone; through TSQR."""
    t = _matrix(a, "svd")
    q, r = qr(t)
    k = r.shape[0]
    s = map_chunk(r, lambda x: np.linalg.svd(x, compute_uv=False), elementwise=False,
                  dtype=np.linalg.svd(np.eye(2, dtype=r.dtype), compute_uv=False).dtype)
    s = new_tensor(_SetShape(shape=(k,)), [s], (k,), s.dtype)
    if not compute_uv:
        return s
    u_r = map_chunk(r, lambda x: np.linalg.svd(x, full_matrices=False)[0], elementwise=False, dtype=r.dtype)
    vh = map_chunk(r, lambda x: np.linalg.svd(x, full_matrices=False)[2], elementwise=False, dtype=r.dtype)
    u_r = new_tensor(_SetShape(shape=(k, k)), [u_r], (k, k), r.dtype)
    vh = new_tensor(_SetShape(shape=(k, r.shape[1])), [vh], (k, r.shape[1]), r.dtype)
    return q @ u_r, s, vh


class _SetShape(Operand):
    """A one-chunk tensor whose shape is known from the math, not from its producer's meta."""

    _params = ("shape",)

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        grid = chunk_grid((1,) * len(self.shape))
        grid[(0,) * len(self.shape)] = ChunkData(self.new(), list(t.chunks.flat), self.shape, out.meta,
                                                 (0,) * len(self.shape))
        return Tiled(grid, [(s,) for s in self.shape])

    def execute(self, *parts):
        return parts[0] if len(parts) == 1 else np.concatenate(parts)


def cholesky(a):
    """The lower Cholesky factor (as NumPy), blocked over the matrix's row chunks: each diagonal
    block is factored on its own, the blocks below are solved against it, the rest updated."""
    from .joining import block
    from .datasource import zeros

    t = _matrix(a, "cholesky")
    n, m = t.shape
    if n != m:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")
    splits = t.data.chunk_size[0] if t.data.chunk_size else None
    if splits is None or len(splits) == 1:
        return map_chunk(rechunk(t, n), np.linalg.cholesky, elementwise=True)
    bounds = offsets(splits)
    blocks = [[t[bounds[i]:bounds[i + 1], bounds[j]:bounds[j + 1]] for j in range(len(splits))]
              for i in range(len(splits))]
    lower: dict = {}
    for j in range(len(splits)):
        s = blocks[j][j]
        for k in range(j):
            s = s - lower[j, k] @ lower[j, k].T
        size = splits[j]
        ljj = map_chunk(rechunk(s, size), np.linalg.cholesky, elementwise=True)
        lower[j, j] = ljj
        inv_t = map_chunk(ljj, lambda x: np.linalg.inv(x).T, elementwise=True)
        for i in range(j + 1, len(splits)):
            s = blocks[i][j]
            for k in range(j):
                s = s - lower[i, k] @ lower[j, k].T
            lower[i, j] = s @ inv_t
    dtype = lower[0, 0].dtype
    rows = [[lower[i, j] if j <= i else zeros((splits[i], splits[j]), dtype=dtype)
             for j in range(len(splits))] for i in range(len(splits))]
    return block(rows)


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's ``linalg.norm``: vector norms and matrix norms (fro, nuc, 1, -1, 2, -2, inf, -inf)."""
    from .arithmetic import absolute, sqrt

    t = as_tensor(x)
    if not np.issubdtype(t.dtype, np.inexact):
        t = t.astype(float)
    np.linalg.norm(np.zeros((1,) * t.ndim, t.dtype), ord=ord, axis=axis, keepdims=keepdims)  # errors
    if axis is None and ord is None:
        return sqrt((absolute(t) ** 2).sum(keepdims=keepdims)) if t.ndim else absolute(t)
    if axis is None:
        axis = tuple(range(t.ndim))
    axis = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axis = tuple(a % t.ndim for a in axis)
    a = absolute(t)
    if len(axis) == 1:
        ax = axis[0]
        if ord in (None, 2):
            return sqrt((a ** 2).sum(axis=ax, keepdims=keepdims))
        if ord == np.inf:
            return a.max(axis=ax, keepdims=keepdims)
        if ord == -np.inf:
            return a.min(axis=ax, keepdims=keepdims)
        if ord == 0:
            return (t != 0).astype(t.real.dtype if np.iscomplexobj(t.data.meta) else t.dtype).sum(
                axis=ax, keepdims=keepdims)
        if ord == 1:
            return a.sum(axis=ax, keepdims=keepdims)
        return ((a ** ord).sum(axis=ax, keepdims=keepdims)) ** (1.0 / ord)
    r, c = axis
    if ord in (None, "fro"):
        return sqrt((a ** 2).sum(axis=axis, keepdims=keepdims))
    if ord in (1, -1):
        sums = a.sum(axis=r, keepdims=True)
        out = sums.max(axis=c, keepdims=True) if ord == 1 else sums.min(axis=c, keepdims=True)
    elif ord in (np.inf, -np.inf):
        sums = a.sum(axis=c, keepdims=True)
        out = sums.max(axis=r, keepdims=True) if ord == np.inf else sums.min(axis=r, keepdims=True)
    elif ord in (2, -2, "nuc"):
        if t.ndim != 2:
            return _stacked_norm(t, ord, (r, c), keepdims)
        s = svd(t if (r, c) == (0, 1) else t.T, compute_uv=False)
        out = s.max() if ord == 2 else s.min() if ord == -2 else s.sum()
        return out.reshape((1, 1)) if keepdims else out
    else:
        raise ValueError("Invalid norm order for matrices.")
    if keepdims:
        return out
    from .reshape import squeeze

    return squeeze(out, axis=axis)


def _stacked_norm(t, ord, axes, keepdims):
    """``norm(t, ord, axis=(r, c))`` for 2 / -2 / 'nuc' over a stack of matrices: the matrix
    axes moved last and made whole in each chunk, then NumPy per chunk."""
    from .manipulation import moveaxis
    from .reshape import expand_dims

    moved = moveaxis(t, axes, (-2, -1))
    dtype = np.linalg.norm(np.ones((1, 1), t.dtype), ord).dtype
    out = new_tensor(StackedMatrixNorm(ord=ord, label="mt.linalg.norm"), [moved], moved.shape[:-2], dtype)
    return expand_dims(out, tuple(sorted(axes))) if keepdims else out


class StackedMatrixNorm(Operand):
    """A matrix norm of each matrix in the last two axes (rechunked whole first)."""

    _params = ("ord",)

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        t = rechunk_tiled(t, (*t.nsplits[:-2], (sum(t.nsplits[-2]),), (sum(t.nsplits[-1]),)))
        grid = chunk_grid(t.chunks.shape[:-2])
        for idx in np.ndindex(*t.chunks.shape[:-2]):
            c = t.chunks[idx + (0, 0)]
            grid[idx] = ChunkData(self.new(), [c], c.shape[:-2], out.meta, idx)
        return Tiled(grid, t.nsplits[:-2])

    def execute(self, x):
        return np.linalg.norm(x, self.ord, axis=(-2, -1))
