"""``lstsq``, ``pinv``, ``matrix_rank``, ``cond``, ``eigh`` / ``eigvalsh``.

The first three go through TSQR (``decompositions.qr``: the columns of a tall matrix — the
rows of a wide one, through its transpose — fit one chunk): ``a = Q R`` with Q row-split like
``a``, and only R (n x n) and ``Q^H b`` (n x k) meet in one task, where their SVD gives the
rank and the small solution. ``eigh`` / ``eigvalsh`` and the stacked (ndim > 2) forms compute
each matrix in one task (``linalg_solve.stacked``): for matrices up to a few thousand rows.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.linalg import LinAlgError

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.executable import ExecutableTuple
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .decompositions import qr, svd
from .linalg_solve import inv_or_nan, stacked
from .rechunk import rechunk_tiled

__all__: list[str] = []  # reached as mt.linalg.<name>

_NO_VALUE = object()


class LstsqCore(Operand):
    """From R (``a = Q R``; ``wide``: ``a^H = Q R``) and ``c = Q^H b`` (``wide``: ``b``): the
    solution in Q's basis (``wide``: ``x = Q y``), the rank at ``rcond`` and a's singular values."""

    n_outputs = 3
    _params = ("rcond", "wide", "dtype")

    def execute(self, r, c):
        u, s, vh = np.linalg.svd(r.conj().T if self.wide else r)
        large = s > self.rcond * s.max(initial=0)
        scale = s[large].reshape((-1,) + (1,) * (c.ndim - 1))
        y = vh[large].conj().T @ ((u[:, large].conj().T @ c) / scale)
        return y.astype(self.dtype, copy=False), np.asarray(large.sum(), np.int32), s


class SmallLstsq(Operand):
    """Output ``which`` of ``LstsqCore`` on R and ``c``, each made one chunk (both are as
    small as a's chunk width times b's columns)."""

    _params = ("which", "rcond", "wide", "dtype")

    def tile(self, ctx, out):
        parts = []
        for node in out.inputs:
            t = ctx[node]
            parts.append(rechunk_tiled(t, [(int(sum(s)),) for s in t.nsplits]).chunks.flat[0])
        op = LstsqCore(rcond=self.rcond, wide=self.wide, dtype=self.dtype, label=self.label)
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(op, parts, out.shape, out.meta, (0,) * out.ndim, self.which)
        return Tiled(grid, [(s,) for s in out.shape])


class Residuals(Operand):
    """The squared residual sums when the rank is full (``n``), else none (NumPy's rule)."""

    _params = ("n",)

    def tile(self, ctx, out):
        rank, sums = (ctx[node] for node in out.inputs)
        sums = rechunk_tiled(sums, [(int(sum(s)),) for s in sums.nsplits])
        grid = chunk_grid((1,))
        grid[0] = ChunkData(self.new(), [rank.chunks[()], sums.chunks.flat[0]], (float("nan"),), out.meta, (0,))
        return Tiled(grid, [(float("nan"),)])

    def execute(self, rank, sums):
        return np.atleast_1d(sums) if rank == self.n else np.empty(0, sums.dtype)


def _h(t):
    """The conjugate transpose (the transpose of a real tensor)."""
    return t.T.conj() if np.iscomplexobj(t.data.meta) else t.T


def _two_d(t, name):
    if t.ndim != 2:
        raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be two-dimensional")
    if any(isinstance(s, float) and math.isnan(s) for s in t.shape):
        raise NotImplementedError(f"mt.linalg.{name}: a tensor of unknown shape (execute it first)")


def lstsq(a, b, rcond=None):
    """NumPy's ``lstsq``: ``(x, residuals, rank, s)``, through TSQR of ``a`` (of ``a^H`` when
    wide) and the SVD of its R; singular values ``<= rcond * s.max()`` count as zero
    (``rcond=None``: machine precision times ``max(M, N)``)."""
    from .datasource import zeros

    t, rhs = as_tensor(a), as_tensor(b)
    _two_d(t, "lstsq")
    if rhs.ndim not in (1, 2):
        raise LinAlgError(f"{rhs.ndim}-dimensional array given. Array must be one or two-dimensional")
    m, n = t.shape
    if rhs.shape[0] != m and not math.isnan(rhs.shape[0]):  # unknown: checked by the contraction
        raise LinAlgError("Incompatible dimensions")
    probe = np.linalg.lstsq(np.eye(2, dtype=t.dtype), np.ones((2,) * rhs.ndim, rhs.dtype))
    dtype, real = probe[0].dtype, probe[3].dtype
    rest = rhs.shape[1:]
    if rcond is None:
        rcond = np.finfo(dtype).eps * max(m, n)
    t, rhs = (x.astype(dtype) if x.dtype != dtype else x for x in (t, rhs))
    if m == 0 or n == 0:  # x = 0, rank 0; b itself is the residual when a has no columns
        sums = (abs(rhs) ** 2).sum(axis=0).reshape((-1,)) if m > n else zeros((0,), dtype=real)
        return ExecutableTuple((zeros((n,) + rest, dtype=dtype), sums.astype(real), zeros((), dtype=np.int32),
                                zeros((0,), dtype=real)))
    wide = m < n
    q, r = qr(_h(t) if wide else t)
    c = rhs if wide else _h(q) @ rhs
    k = min(m, n)

    def part(which, shape, dt):
        op = SmallLstsq(which=which, rcond=float(rcond), wide=wide, dtype=dtype, label="mt.linalg.lstsq")
        return new_tensor(op, [r, c], shape, dt)

    y = part(0, (k,) + rest, dtype)
    rank, s = part(1, (), np.int32), part(2, (k,), real)
    x = q @ y if wide else y
    if m > n:
        sums = (abs(t @ x - rhs) ** 2).sum(axis=0)
        residuals = new_tensor(Residuals(n=n, label="mt.linalg.lstsq"), [rank, sums], (float("nan"),), real)
    else:
        residuals = zeros((0,), dtype=real)
    return ExecutableTuple((x, residuals, rank, s))


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """NumPy's ``pinv``: ``pinv(R) @ Q^H`` from TSQR of ``a`` (``Q @ pinv(R)^H`` of ``a^H``
    when wide): R has a's singular values, so NumPy's cutoff holds. ``hermitian`` is accepted
    and ignored (the SVD path gives the same matrix)."""
    from .datasource import zeros
    from .methods import map_chunk

    t = as_tensor(a)
    if rcond is None:
        rcond = 1e-15 if rtol is _NO_VALUE else (max(t.shape[-2:]) * np.finfo(
            np.linalg.pinv(np.eye(1, dtype=t.dtype)).dtype).eps if rtol is None else rtol)
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if t.ndim > 2:
        return stacked(t, "pinv", rcond=rcond)
    _two_d(t, "pinv")
    dtype = np.linalg.pinv(np.eye(1, dtype=t.dtype)).dtype
    m, n = t.shape
    if 0 in (m, n):
        return zeros((n, m), dtype=dtype)
    t = t.astype(dtype) if t.dtype != dtype else t
    wide = m < n
    q, r = qr(_h(t) if wide else t)
    # R is square (min(m, n) on each side) and one chunk: its pinv keeps the shape
    r_inv = map_chunk(r, np.linalg.pinv, kwargs={"rcond": rcond}, elementwise=True, dtype=dtype)
    return q @ _h(r_inv) if wide else r_inv @ _h(q)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """NumPy's ``matrix_rank``: singular values above ``tol`` (default: ``S.max() * max(M, N)
    * eps``), the singular values from TSQR (``svd(compute_uv=False)``)."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    t = as_tensor(A)
    if t.ndim < 2:
        return (t != 0).any().astype(np.int64)
    if t.ndim > 2:
        return stacked(t, "matrix_rank", tol=tol, rtol=rtol)
    _two_d(t, "matrix_rank")
    s = svd(t, compute_uv=False)
    if tol is None:
        rtol = max(t.shape) * np.finfo(s.dtype).eps if rtol is None else rtol
        tol = s.max() * rtol
    return (s > tol).sum()


def cond(x, p=None):
    """NumPy's ``cond``: the ratio of extreme singular values (``p`` None / 2 / -2) or
    ``norm(x, p) * norm(inv(x), p)``; NaN from a singular matrix becomes inf unless ``x`` has
    NaNs."""
    from .arithmetic import isnan, logical_and, logical_not, where
    from .decompositions import norm

    t = as_tensor(x)
    if t.ndim < 2:
        raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be at least two-dimensional")
    if 0 in t.shape[-2:]:
        raise LinAlgError("cond is not defined on empty arrays")
    if t.ndim > 2:
        return stacked(t, "cond", p=p)
    _two_d(t, "cond")
    if p is None or p in (2, -2):
        s = svd(t, compute_uv=False)
        num, den = (s[-1], s[0]) if p == -2 else (s[0], s[-1])
        # x / 0 is inf in NumPy's answer (0 / 0 too: NaN turned into inf), without the warning
        r = where(den == 0, np.inf, num / where(den == 0, 1, den))
    else:
        if t.shape[0] != t.shape[1]:
            raise LinAlgError("Last 2 dimensions of the array must be square")
        dtype = np.linalg.cond(np.eye(2, dtype=t.dtype), p).dtype
        r = (norm(t, p) * norm(inv_or_nan(t, "nan"), p)).astype(dtype)
    return where(logical_and(isnan(r), logical_not(isnan(t).any())), np.inf, r)


def eigh(a, UPLO="L"):
    """NumPy's ``eigh``: ``(eigenvalues, eigenvectors)``, each matrix in one task."""
    t = _hermitian(a, UPLO)
    return ExecutableTuple((stacked(t, "eigh", 0, UPLO=UPLO), stacked(t, "eigh", 1, UPLO=UPLO)))


def eigvalsh(a, UPLO="L"):
    """NumPy's ``eigvalsh``: the eigenvalues, each matrix in one task."""
    return stacked(_hermitian(a, UPLO), "eigvalsh", UPLO=UPLO)


def _hermitian(a, uplo):
    t = as_tensor(a)
    if uplo not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    if t.ndim < 2:
        raise LinAlgError(f"{t.ndim}-dimensional array given. Array must be at least two-dimensional")
    m, n = t.shape[-2:]
    if not any(isinstance(s, float) and math.isnan(s) for s in (m, n)) and m != n:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    return t
