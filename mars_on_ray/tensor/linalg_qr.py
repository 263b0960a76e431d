"""``mt.linalg.qr`` in every NumPy mode, equal to LAPACK's (NumPy's) factors.

TSQR (``decompositions.qr``) gives a QR whose signs are arbitrary. LAPACK's Householder QR is
the one whose reflectors make each diagonal step ``1 - tau`` have a non-positive real part;
its reflectors are found from TSQR's Q by Householder reconstruction (Ballard et al., 2014):
``Q - D^H = Y U`` (an LU without pivoting), ``D`` the diagonal of unit phases that gives
LAPACK's signs, ``Y`` the unit lower trapezoidal Householder vectors, ``tau = -diag(U) D`` and
``T = -U D Y1^-H`` (``Q_full = I - Y T Y^H``). Only Q's first k = min(m, n) rows and R meet
in one task (k x k and k x n); the rest of ``Y`` is Q's other rows times ``U^-1``, row block by
row block, so a tall input is never gathered. ``complete`` builds the m x m Q as
``I - Y (T Y^H)``, one product of the m x k and k x m factors (no gather either).
"""
from __future__ import annotations

import math

import numpy as np

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.executable import ExecutableTuple
from ..core.operand import Operand
from .core import new_tensor
from .decompositions import _matrix, qr as tsqr
from .rechunk import rechunk_tiled

__all__: list[str] = []  # reached as mt.linalg.qr

# the outputs of ``householder``, by name
_OUTPUTS = ("d", "top", "u_inv", "t", "tau", "r", "y1")


def householder(q1, r, real_last):
    """From TSQR's ``q1`` (Q's first k rows) and ``r``: the phases ``d`` (Q D, D^H R are
    LAPACK's factors), the top k rows of NumPy's raw ``h.T``, ``U^-1``, ``T``, ``tau``, LAPACK's
    R and ``Y1`` (see the module docstring). ``real_last``: the last reflector of a real matrix
    with no rows below it is the identity (LAPACK's ``tau = 0``)."""
    k = q1.shape[0]
    a = np.array(q1, copy=True)
    d = np.ones(k, a.dtype)
    for j in range(k):
        x, rjj = a[j, j], r[j, j]
        phase = rjj / abs(rjj) if rjj != 0 else 1
        if real_last and j == k - 1:
            d[j] = 1 if x >= 0 else -1
        else:
            d[j] = (-1 if (x * phase).real >= 0 else 1) * phase
        a[j, j] = x - np.conj(d[j])
        if j + 1 < k:
            a[j + 1:, j] /= a[j, j]
            a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    u, y1 = np.triu(a), np.tril(a, -1) + np.eye(k, dtype=a.dtype)
    tau = -np.diagonal(u) * d
    if real_last and k:
        tau[-1] = 0
        u[-1, -1] = 1  # never inverted for use: no rows below the last one
    r_h = np.triu(np.conj(d)[:, None] * r)
    top = np.triu(r_h) + np.pad(np.tril(a, -1), ((0, 0), (0, r.shape[1] - k)))
    u_inv = np.linalg.inv(u)
    t = -(u * d) @ np.linalg.inv(y1).conj().T
    return d, top, u_inv, t, tau, r_h, y1


class Householder(Operand):
    """The outputs of ``householder`` (``n_outputs`` of them)."""

    _params = ("real_last",)
    n_outputs = len(_OUTPUTS)

    def execute(self, q1, r):
        return householder(q1, r, self.real_last)


class SmallHouseholder(Operand):
    """Output ``which`` of ``Householder`` on Q's first rows and R, each made one chunk (k x k
    and k x n: a column block of the input, as TSQR's R)."""

    _params = ("which", "real_last")

    def tile(self, ctx, out):
        parts = []
        for node in out.inputs:
            t = ctx[node]
            parts.append(rechunk_tiled(t, [(int(sum(s)),) for s in t.nsplits]).chunks.flat[0])
        if parts[1].shape[0] != out.shape[0]:  # k was taken as n for rows of unknown number
            raise NotImplementedError("mt.linalg.qr of a tensor of unknown shape that has fewer rows than "
                                      "columns (execute it first)")
        op = Householder(real_last=self.real_last, label=self.label)
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(op, parts, out.shape, out.meta, (0,) * out.ndim,
                                          _OUTPUTS.index(self.which))
        return Tiled(grid, [(s,) for s in out.shape])


class IdentityMinus(Operand):
    """``I - p`` chunk by chunk (an eye would be chunked on its own and force p's splits onto
    it); ``lo``: where the diagonal crosses a chunk (its row offset minus its column offset)."""

    _params = ("lo",)

    def tile(self, ctx, out):
        t = ctx[out.inputs[0]]
        rows, cols = (offsets(s) for s in t.nsplits)
        grid = chunk_grid(t.chunks.shape)
        for (i, j), c in np.ndenumerate(t.chunks):
            grid[i, j] = ChunkData(self.new(lo=rows[i] - cols[j]), [c], c.shape, out.meta, (i, j))
        return Tiled(grid, t.nsplits)

    def execute(self, p):
        out = -p
        r = np.arange(max(0, -self.lo), min(p.shape[0], p.shape[1] - self.lo))
        out[r, r + self.lo] += 1
        return out


def qr(a, mode="reduced"):
    """NumPy's ``linalg.qr``: ``(Q, R)`` (``reduced``: m x k and k x n, ``complete``: m x m and
    m x n), ``R`` alone (``r``) or LAPACK's ``(h, tau)`` (``raw``), with LAPACK's signs."""
    from .datasource import eye, zeros
    from .joining import concatenate

    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    t = _matrix(a, "qr")
    m, n = t.shape
    unknown_rows = isinstance(m, float) and math.isnan(m)
    if isinstance(n, float) and math.isnan(n) or unknown_rows and (mode in ("complete", "raw") or n == 0):
        raise NotImplementedError(f"mt.linalg.qr: mode={mode!r} of a tensor of unknown shape (execute it first)")
    dtype = np.linalg.qr(np.eye(2, dtype=t.dtype))[0].dtype
    k = n if unknown_rows else min(m, n)  # unknown rows: taken as at least n, checked when tiled
    if k == 0:  # nothing to factor: NumPy's result follows from the shape alone
        probe = np.linalg.qr(np.empty((m, n), dtype), mode=mode)
        if mode == "complete":
            return ExecutableTuple((eye(m, dtype=dtype), zeros((m, n), dtype=dtype)))
        if mode == "r":
            return zeros(probe.shape, dtype=dtype)
        return ExecutableTuple(tuple(zeros(p.shape, dtype=p.dtype) for p in probe))
    t = t.astype(dtype) if t.dtype != dtype else t
    q, r = tsqr(t)
    real_last = m <= n and dtype.kind != "c"
    shapes = {"d": (k,), "top": (k, n), "u_inv": (k, k), "t": (k, k), "tau": (k,), "r": (k, n), "y1": (k, k)}

    def part(which):
        op = SmallHouseholder(which=which, real_last=real_last, label="mt.linalg.qr")
        return new_tensor(op, [q[:k], r], shapes[which], dtype)

    r_h = part("r")
    if mode == "r":
        return r_h
    if mode == "reduced" or (mode == "complete" and m <= n):
        return ExecutableTuple((q * part("d"), r_h))
    y2 = q[k:] @ part("u_inv")
    if mode == "raw":
        h = concatenate([part("top"), y2]) if m > k else part("top")
        return ExecutableTuple((h.T, part("tau")))
    y = concatenate([part("y1"), y2])
    q_full = new_tensor(IdentityMinus(label="mt.linalg.qr"), [y @ (part("t") @ y.conj().T)], (m, m), dtype)
    return ExecutableTuple((q_full, concatenate([r_h, zeros((m - k, n), dtype=dtype)])))
