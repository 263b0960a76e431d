"""polyval (Horner's rule, elementwise) and polyfit (least squares on the scaled Vandermonde
matrix: its TSQR factorisation, then the small triangular system solved in memory)."""
from __future__ import annotations

import numpy as np

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import Tensor, as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["polyval", "polyfit"]


def polyval(p, x):
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by Horner's
    rule like NumPy (same operations, same dtype)."""
    from .datasource import zeros_like

    if not isinstance(p, Tensor):
        p = np.asarray(p)
        coeffs = list(p)  # NumPy scalars: they promote like NumPy's loop
    else:
        coeffs = [p[i] for i in range(int(p.shape[0]))]
    x = as_tensor(x)
    y = zeros_like(x)
    for pv in coeffs:
        y = y * x + pv
    return y


class SmallLstsq(Operand):
    """NumPy's ``lstsq`` of the small ``R`` c = ``Q^T y`` system: ``output`` 0 the solution
    divided by ``scale``, 1 the rank, 2 the singular values, 3 the unscaled covariance
    ``inv(lhs^T lhs) / outer(scale, scale)`` (``lhs^T lhs`` is ``R^T R``)."""

    _params = ("rcond", "output")

    def execute(self, r, qty, scale):
        if self.output == 3:
            return np.linalg.inv(r.T @ r) / np.outer(scale, scale)
        c, _, rank, s = np.linalg.lstsq(r, qty, rcond=self.rcond)
        if self.output == 0:
            return (c.T / scale).T
        return np.asarray(rank) if self.output == 1 else s


class TensorSmallLstsq(SmallLstsq):
    def tile(self, ctx, out):
        chunks = []
        for t in out.inputs:  # each small: one chunk
            tiled = yield from ctx.known(t)
            chunks.append(rechunk_tiled(tiled, tuple((int(sum(s)),) for s in tiled.nsplits)).chunks.flat[0])
        op = SmallLstsq(rcond=self.rcond, output=self.output, label=self.label)
        grid = chunk_grid((1,) * out.ndim)
        grid[(0,) * out.ndim] = ChunkData(op, chunks, out.shape, out.meta, (0,) * out.ndim)
        return Tiled(grid, tuple((s,) for s in out.shape))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial coefficients (highest power first) of degree ``deg`` fitting
    ``y`` (one column per fit) at ``x``, optionally weighted by ``w``; ``full`` also gives
    (residuals, rank, singular values, rcond); ``cov`` (True or "unscaled") also the
    coefficients' covariance."""
    from .decompositions import qr
    from .linalg import matmul
    from .matrices import vander
    from .reduction import sum as sum_
    from .arithmetic import sqrt

    order = int(deg) + 1
    x, y = as_tensor(x) + 0.0, as_tensor(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = as_tensor(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = sqrt(sum_(lhs * lhs, axis=0))
    lhs = lhs / scale
    q, r = qr(lhs)
    qty = matmul(q.T, rhs)
    dtype = np.result_type(x.dtype, y.dtype)

    def small(output, shape, dt):
        op = TensorSmallLstsq(rcond=float(rcond), output=output, label="mt.polyfit")
        return new_tensor(op, [r, qty, scale], shape, dt)

    c = small(0, (order,) + tuple(rhs.shape[1:]), dtype)
    if not full and not cov:
        return c
    from ..core.executable import ExecutableTuple

    fitted = matmul(lhs, (c.T * scale).T)
    resids = _resids_shape(sum_((rhs - fitted) ** 2, axis=0), x.shape[0], order, rhs)
    if full:
        rank = small(1, (), np.dtype(np.int32))
        return ExecutableTuple((c, resids, rank, small(2, (order,), dtype), rcond))
    base = small(3, (order, order), dtype)
    if cov == "unscaled":
        fac = 1
    elif x.shape[0] <= order:
        raise ValueError("the number of data points must exceed order to scale the covariance matrix")
    else:
        fac = resids / (x.shape[0] - order)
    return ExecutableTuple((c, base * fac if rhs.ndim == 1 else base[:, :, None] * fac))


def _resids_shape(resids, n, order, rhs):
    """NumPy's residuals: the sums of squares, as a length-1 (or per column) array, empty
    when the system is not overdetermined (rank checks stay with NumPy's lstsq)."""
    from .reshape import reshape

    if n <= order:
        return as_tensor(np.zeros((0,), resids.dtype))
    return reshape(resids, 1) if rhs.ndim == 1 else resids
