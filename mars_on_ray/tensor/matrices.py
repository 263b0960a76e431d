"""rot90, trace, kron, cross, vander, resize: NumPy's own formulas (flips and transposes,
a masked sum, an interleaved outer product, component products, a product scan) on
tensors."""
from __future__ import annotations

import math
import numbers

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .core import as_tensor

__all__ = ["rot90", "trace", "kron", "cross", "vander", "resize"]


def plane_axes(t, axis1, axis2) -> tuple[int, int]:
    """``axis1``/``axis2`` of a diagonal's planes, normalised, with NumPy's errors."""
    if t.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    axis1, axis2 = normalize_axis_index(axis1, t.ndim), normalize_axis_index(axis2, t.ndim)
    if axis1 == axis2:
        raise ValueError("axis1 and axis2 cannot be the same")
    return axis1, axis2

def rot90(m, k=1, axes=(0, 1)):
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes`` (first towards the
    second)."""
    from .manipulation import flip
    from .reshape import transpose

    m = as_tensor(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), order)
    return flip(transpose(m, order), axes[1])


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum along the ``offset`` diagonal of the ``axis1``/``axis2`` planes."""
    from .arithmetic import elementwise, equal, subtract
    from .datasource import arange
    from .reduction import sum as sum_
    from .reshape import reshape

    if out is not None:
        raise TypeError("mt.trace: out= is not supported")
    a = as_tensor(a)
    axis1, axis2 = plane_axes(a, axis1, axis2)
    dtype = np.trace(np.zeros((1, 1), a.dtype), dtype=dtype).dtype

    def along(axis):
        return reshape(arange(a.shape[axis]), *[-1 if d == axis else 1 for d in range(a.ndim)])

    on_diagonal = equal(subtract(along(axis2), along(axis1)), offset)
    # off-diagonal elements become zeros (NaN or inf there must not count)
    kept = elementwise("where", (on_diagonal, a, np.zeros((), a.dtype)), label="mt.trace")
    return sum_(kept, axis=(axis1, axis2), dtype=dtype)


def kron(a, b):
    """The Kronecker product: blocks of ``b`` scaled by each element of ``a``."""
    from .arithmetic import multiply
    from .reshape import expand_dims, reshape

    a, b = as_tensor(a), as_tensor(b)
    nda, ndb = a.ndim, b.ndim
    if nda == 0 or ndb == 0:
        return multiply(a, b)
    nd = max(nda, ndb)
    as_ = (1,) * max(0, ndb - nda) + tuple(a.shape)
    bs = (1,) * max(0, nda - ndb) + tuple(b.shape)
    a_arr = reshape(a, *as_) if nda < nd else a
    b_arr = reshape(b, *bs) if ndb < nd else b
    a_arr = expand_dims(a_arr, tuple(range(1, nd * 2, 2)))
    b_arr = expand_dims(b_arr, tuple(range(0, nd * 2, 2)))
    return reshape(multiply(a_arr, b_arr), *[x * y for x, y in zip(as_, bs)])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of vectors of 2 or 3 components along ``axisa``/``axisb`` (result
    along ``axisc``; ``axis`` sets all three); NumPy's arithmetic, component by component."""
    from .arithmetic import multiply, subtract
    from .joining import stack
    from .manipulation import moveaxis

    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = as_tensor(a), as_tensor(b)
    a = moveaxis(a, normalize_axis_index(axisa, a.ndim), -1)
    b = moveaxis(b, normalize_axis_index(axisb, b.ndim), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    # NumPy's dtype checks, and its DeprecationWarning for 2-component vectors
    np.cross(np.zeros((1, a.shape[-1]), a.dtype), np.zeros((1, b.shape[-1]), b.dtype))
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return subtract(multiply(a0, b1), multiply(a1, b0))
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    cp0 = subtract(multiply(a1, b2), multiply(a2, b1)) if a2 is not None and b2 is not None else \
        multiply(a1, b2) if b2 is not None else -multiply(a2, b1) if a2 is not None else None
    cp1 = subtract(multiply(a2, b0), multiply(a0, b2)) if a2 is not None and b2 is not None else \
        -multiply(a0, b2) if b2 is not None else multiply(a2, b0)
    cp2 = subtract(multiply(a0, b1), multiply(a1, b0))
    dtype = np.promote_types(a.dtype, b.dtype)
    parts = [p if p.dtype == dtype else p.astype(dtype) for p in (cp0, cp1, cp2)]
    c = stack(parts, axis=-1)
    return moveaxis(c, -1, normalize_axis_index(axisc, c.ndim))


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D ``x``: powers ``N-1 .. 0`` (or ``0 .. N-1``), from a
    running product along each row like NumPy's (the columns in one chunk: N is small)."""
    from .datasource import ones
    from .joining import concatenate
    from .manipulation import broadcast_to, flip
    from .arithmetic import multiply

    x = as_tensor(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    N = n if N is None else N
    if N != N:
        raise NotImplementedError("mt.vander: N is needed when x's length is unknown")
    N = int(N)
    if N < 0:
        raise ValueError("negative dimensions are not allowed")
    dtype = np.promote_types(x.dtype, int)
    first = ones((n, min(N, 1)), dtype=dtype)
    rest = broadcast_to(x.astype(dtype)[:, None], (n, max(N - 1, 0)))
    table = concatenate([first, rest], axis=1).rechunk({1: max(N, 1)})
    table = multiply.accumulate(table, axis=1)
    return table if increasing else flip(table, 1)


def resize(a, new_shape):
    """``a`` flattened, repeated and cut to fill ``new_shape`` (zeros when ``a`` is empty)."""
    from .datasource import zeros
    from .manipulation import tile
    from .reshape import ravel, reshape

    if isinstance(new_shape, numbers.Integral):
        new_shape = (new_shape,)
    new_shape = tuple(int(s) for s in new_shape)
    a = as_tensor(a)
    if any(s < 0 for s in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    total = math.prod(new_shape)
    flat = ravel(a)
    if a.size == 0 or total == 0:
        return zeros(new_shape, dtype=a.dtype)
    reps = -(-total // int(a.size))
    return reshape(tile(flat, reps)[:total], *new_shape)
