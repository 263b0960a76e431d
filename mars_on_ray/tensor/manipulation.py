"""Array manipulation built from slicing, transposes, joins and elementwise kernels:
flips, roll, axis moves, broadcasting, tile/repeat, triangles and diagonals, complex parts,
comparisons of whole arrays."""
from __future__ import annotations

import numbers

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from ..core.blockwise import broadcast_shape
from .arithmetic import elementwise, isclose
from .core import Tensor, as_tensor
from .joining import concatenate
from .reshape import reshape, transpose
from ..core.executable import ExecutableTuple  # noqa: F401  (Mars' name in both namespaces)

__all__ = ["flip", "fliplr", "flipud", "roll", "moveaxis", "rollaxis", "broadcast_to",
           "broadcast_arrays", "tile", "repeat", "tril", "triu", "diag", "diagflat", "real",
           "imag", "angle", "iscomplex", "isreal", "fix", "i0", "sinc", "round_", "modf", "frexp",
           "divmod", "real_if_close",
           "allclose", "array_equal", "array_equiv", "ascontiguousarray", "asfortranarray", "copy", "take",
           "result_type", "shape", "ndim", "choose", "copyto", "fill_diagonal", "ExecutableTuple"]


def flip(m, axis=None):
    """Reverse the order of elements along ``axis`` (all axes when None)."""
    t = as_tensor(m)
    axes = range(t.ndim) if axis is None else normalize_axis_tuple(axis, t.ndim)
    return t[tuple(slice(None, None, -1) if a in axes else slice(None) for a in range(t.ndim))]


def fliplr(m):
    """Reverse the columns (axis 1)."""
    t = as_tensor(m)
    if t.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(t, 1)


def flipud(m):
    """Reverse the rows (axis 0)."""
    t = as_tensor(m)
    if t.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(t, 0)


def roll(a, shift, axis=None):
    """Elements shifted cyclically along ``axis`` (of the flattened tensor when None)."""
    t = as_tensor(a)
    if axis is None:
        return reshape(roll(reshape(t, -1), shift, 0), t.shape)
    axes = normalize_axis_tuple(axis, t.ndim, allow_duplicate=True)
    shifts = np.broadcast_to(np.asarray(shift), (len(axes),))
    total: dict[int, int] = {}
    for ax, s in zip(axes, shifts):
        total[ax] = total.get(ax, 0) + int(s)
    for ax, s in total.items():
        n = t.shape[ax]
        s = s % n if n else 0
        if s:
            lead = (slice(None),) * ax
            t = concatenate([t[lead + (slice(n - s, None),)], t[lead + (slice(0, n - s),)]], axis=ax)
    return t


def moveaxis(a, source, destination):
    """Move axes to new positions; the others keep their order."""
    t = as_tensor(a)
    source = normalize_axis_tuple(source, t.ndim, "source")
    destination = normalize_axis_tuple(destination, t.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(t.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return transpose(t, order)


def rollaxis(a, axis, start=0):
    """Roll ``axis`` backwards until it lies before ``start`` (NumPy's older moveaxis)."""
    t = as_tensor(a)
    axis = normalize_axis_index(axis, t.ndim)
    if not -t.ndim <= start <= t.ndim:
        raise np.exceptions.AxisError(f"'start' arg requires {-t.ndim} <= start < {t.ndim + 1}, "
                                      f"but {start} was passed in")
    start = start + t.ndim if start < 0 else start
    order = list(range(t.ndim))
    order.remove(axis)
    order.insert(start - (axis < start), axis)
    return transpose(t, order)


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape`` (NumPy's rules and errors)."""
    from .datasource import ones
    from .reshape import probe

    t = as_tensor(array)
    shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    np.broadcast_to(probe(t.shape, t.dtype), shape)  # NumPy's errors; a zero-stride probe
    # ``where(True-mask of shape, x, x)`` is x broadcast: one elementwise pass, chunked as ``shape``
    return elementwise("where", (ones(shape, dtype=bool), t, t), label="mt.broadcast_to")


def broadcast_arrays(*args):
    """The inputs broadcast against each other."""
    tensors = [as_tensor(a) for a in args]
    shape = broadcast_shape(*(t.shape for t in tensors))
    return [t if tuple(t.shape) == tuple(shape) else broadcast_to(t, shape) for t in tensors]


def tile(A, reps):
    """``A`` repeated ``reps`` times along each axis (NumPy's placement of new axes)."""
    t = as_tensor(A)
    reps = (reps,) if isinstance(reps, numbers.Integral) else tuple(reps)
    ndim = max(t.ndim, len(reps))
    reps = (1,) * (ndim - len(reps)) + reps
    if t.ndim < ndim:
        t = reshape(t, (1,) * (ndim - t.ndim) + tuple(t.shape))
    for ax, r in enumerate(reps):
        if r < 0:
            raise ValueError("negative dimensions are not allowed")
        if r != 1:
            t = concatenate([t] * r, axis=ax) if r else t[(slice(None),) * ax + (slice(0, 0),)]
    return t


def repeat(a, repeats, axis=None):
    """Each element repeated ``repeats`` times (an int, or one count per element)."""
    t = as_tensor(a)
    if axis is None:
        t, axis = reshape(t, -1), 0
    axis = normalize_axis_index(axis, t.ndim)
    counts = np.asarray(repeats)
    if counts.ndim == 0:
        counts = np.full(t.shape[axis], int(counts))
    if (counts < 0).any():
        raise ValueError("repeats may not contain negative values.")
    if counts.ndim != 1 or len(counts) != t.shape[axis]:
        np.repeat(np.empty(t.shape[axis]), counts)  # NumPy's error for a bad length
    positions = np.repeat(np.arange(t.shape[axis]), counts)
    return t[(slice(None),) * axis + (positions,)] if t.ndim == 1 or axis == 0 else \
        moveaxis(moveaxis(t, axis, 0)[positions], 0, axis)


def _triangle(m, k, lower: bool):
    t = as_tensor(m)
    if t.ndim == 0:
        np.tril(np.zeros(())) if lower else np.triu(np.zeros(()))  # NumPy's error
    n, cols = (t.shape[0], t.shape[0]) if t.ndim == 1 else t.shape[-2:]
    from .datasource import arange

    rows = reshape(arange(n), (n, 1))
    columns = reshape(arange(cols), (1, cols))
    keep = (columns <= rows + k) if lower else (columns >= rows + k)
    return elementwise("where", (keep, t, np.zeros((), t.dtype)), label="mt.tril" if lower else "mt.triu")


def tril(m, k=0):
    """The lower triangle (below the ``k``-th diagonal, inclusive); zeros above."""
    return _triangle(m, k, lower=True)


def triu(m, k=0):
    """The upper triangle (above the ``k``-th diagonal, inclusive); zeros below."""
    return _triangle(m, k, lower=False)


def diag(v, k=0):
    """The ``k``-th diagonal of a 2-D tensor, or a 2-D tensor with ``v`` on that diagonal."""
    from .datasource import eye

    t = as_tensor(v)
    if t.ndim == 1:
        n = t.shape[0] + abs(k)
        vec = concatenate([t, np.zeros(abs(k), t.dtype)]) if k else t
        # row i holds vec[i] (k >= 0) or column j holds vec[j] (k < 0); the eye mask keeps
        # exactly (i, i + k): v[i] lands on the k-th diagonal
        vec = reshape(vec, (n, 1) if k >= 0 else (1, n))
        return elementwise("where", (eye(n, n, k, dtype=bool), vec, np.zeros((), t.dtype)),
                           label="mt.diag")
    if t.ndim != 2:
        raise ValueError("Input must be 1- or 2-d.")
    n, m = t.shape
    picked = elementwise("where", (eye(n, m, k, dtype=bool), t, np.zeros((), t.dtype)), label="mt.diag")
    axis = 1 if k >= 0 else 0
    length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
    # one kept element per row (column): a sum of it and zeros is that element
    line = picked.any(axis=axis) if t.dtype == bool else picked.sum(axis=axis, dtype=t.dtype)
    return line[:length]


def diagflat(v, k=0):
    """A 2-D tensor with the flattened input on the ``k``-th diagonal."""
    return diag(reshape(as_tensor(v), -1), k)


def _elementwise_np(name, doc, nout=1):
    def func(x, *args, **kwargs):
        if nout == 1:
            return elementwise(name, (x, *args), label=f"mt.{name}", **kwargs)
        return tuple(elementwise(f"numpy:{name}#{i}", (x, *args), label=f"mt.{name}", **kwargs)
                     for i in range(nout))

    func.__name__ = func.__qualname__ = name
    func.__doc__ = doc
    return func


real = _elementwise_np("real", "The real part, elementwise.")
imag = _elementwise_np("imag", "The imaginary part, elementwise.")
angle = _elementwise_np("angle", "The angle of complex values (``deg=True`` in degrees).")
iscomplex = _elementwise_np("iscomplex", "True where the imaginary part is not zero.")
isreal = _elementwise_np("isreal", "True where the imaginary part is zero.")
fix = _elementwise_np("fix", "Round towards zero.")
i0 = _elementwise_np("i0", "The modified Bessel function of the first kind, order 0.")
sinc = _elementwise_np("sinc", "sin(pi x) / (pi x), elementwise.")
modf = _elementwise_np("modf", "Fractional and integral parts, as two tensors.", nout=2)
frexp = _elementwise_np("frexp", "Mantissa and exponent, as two tensors.", nout=2)
divmod = _elementwise_np("divmod", "``floor_divide`` and ``remainder`` at once, as two tensors.",  # noqa: A001
                         nout=2)


def real_if_close(a, tol=100):
    """The real part when every imaginary part is within ``tol`` (in machine epsilons when
    above 1) of zero, else ``a``: the result's dtype depends on the data, so the check (one
    boolean) is computed when called."""
    a = as_tensor(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    from .arithmetic import absolute, less
    from .reduction import all as all_

    return real(a) if bool(_compute_now(all_(less(absolute(imag(a)), tol)))) else a


def _compute_now(t):
    """A small lazy value now: on the default session, else in this process."""
    from .. import session as session_mod
    from ..core.local import LocalExecutor

    sess = session_mod.get_default_session(create=False)
    if sess is not None and not sess.closed:
        return t.fetch(session=sess)
    return LocalExecutor().compute(t.data)[0]


def round_(a, decimals=0):
    """``around`` under its older name."""
    from .arithmetic import around

    return around(a, decimals)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """A lazy 0-d boolean: every pair of elements is close (NumPy's ``allclose``)."""
    return isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan).all()


def array_equal(a1, a2, equal_nan=False):
    """A lazy 0-d boolean: same shape and elements (shapes known at build time decide at once)."""
    t1, t2 = as_tensor(a1), as_tensor(a2)
    if tuple(t1.shape) != tuple(t2.shape):
        return as_tensor(np.bool_(False))
    if equal_nan:
        both_nan = elementwise("isnan", (t1,)) & elementwise("isnan", (t2,))
        return ((t1 == t2) | both_nan).all()
    return (t1 == t2).all()


def array_equiv(a1, a2):
    """A lazy 0-d boolean: the shapes broadcast and every pair of elements is equal."""
    from ..core.blockwise import broadcast_shape

    t1, t2 = as_tensor(a1), as_tensor(a2)
    try:
        broadcast_shape(t1.shape, t2.shape)
    except ValueError:
        return as_tensor(np.bool_(False))
    return (t1 == t2).all()


def ascontiguousarray(a, dtype=None):
    """The tensor (chunks are always C-contiguous NumPy arrays), cast to ``dtype``."""
    t = as_tensor(a)
    t = t if dtype is None else t.astype(dtype)
    return reshape(t, (1,)) if t.ndim == 0 else t


def asfortranarray(a, dtype=None):
    """The tensor cast to ``dtype`` (memory order is a property of chunks, not of the tensor)."""
    t = as_tensor(a)
    t = t if dtype is None else t.astype(dtype)
    return reshape(t, (1,)) if t.ndim == 0 else t


def copy(a, order="K"):
    """A tensor equal to ``a``: a new object over the same lazy value, so assigning into the
    copy (``c[0] = 1``) leaves ``a`` as it was."""
    return Tensor(as_tensor(a).data)


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements at integer ``indices`` along ``axis`` (of the flattened tensor when None);
    ``mode`` 'wrap' / 'clip' bring out-of-range indices in as NumPy does."""
    if out is not None:
        raise NotImplementedError("mt.take: out=")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    t = as_tensor(a)
    if axis is None:
        t, axis = reshape(t, -1), 0
    axis = normalize_axis_index(axis, t.ndim)
    idx = np.asarray(indices)
    if mode != "raise":
        n = t.shape[axis]
        if n != n:
            raise NotImplementedError(f"mt.take(mode={mode!r}) along an axis of unknown length")
        if n == 0 and idx.size:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        idx = idx % max(n, 1) if mode == "wrap" else np.clip(idx, 0, max(n - 1, 0))
    flat = idx.reshape(-1)
    taken = moveaxis(t, axis, 0)[flat] if axis else t[flat]
    taken = moveaxis(taken, 0, axis) if axis else taken
    if idx.ndim == 1:
        return taken
    shape = tuple(t.shape[:axis]) + idx.shape + tuple(t.shape[axis + 1:])
    return reshape(taken, shape)


def result_type(*arrays_and_dtypes):
    """NumPy's ``result_type`` with tensors standing for their dtype."""
    return np.result_type(*(a.dtype if isinstance(a, Tensor) else a for a in arrays_and_dtypes))


def shape(a):
    """The shape (of a tensor, without computing it)."""
    return tuple(a.shape) if isinstance(a, Tensor) else np.shape(a)


def ndim(a):
    """The number of dimensions."""
    return a.ndim if isinstance(a, Tensor) else np.ndim(a)


def _choose_kernel(a, *choices, mode="raise"):
    return np.choose(a, choices, mode=mode)


def choose(a, choices, out=None, mode="raise"):
    """``choices[a[i]][i]`` elementwise with broadcasting (NumPy's ``choose``)."""
    if out is not None:
        raise NotImplementedError("mt.choose: out= is not supported")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    args = (as_tensor(a), *(as_tensor(c) for c in choices))
    dtype = np.result_type(*(c.dtype for c in args[1:]))
    return elementwise("mars_on_ray.tensor.manipulation:_choose_kernel", args, label="mt.choose",
                       result_dtype=dtype, mode=mode)


def copyto(dst, src, casting="same_kind", where=True):
    """Copy ``src`` into the tensor ``dst`` (in place: ``dst`` now stands for the new values),
    where ``where`` is True, with NumPy's casting rule."""
    from .arithmetic import where as _where

    if not isinstance(dst, Tensor):
        raise TypeError(f"copyto() argument 1 must be a tensor, not {type(dst).__name__}")
    src = as_tensor(src)
    if not np.can_cast(src.dtype, dst.dtype, casting=casting):
        raise TypeError(f"Cannot cast array data from dtype('{src.dtype}') to dtype('{dst.dtype}') "
                        f"according to the rule '{casting}'")
    if tuple(broadcast_shape(tuple(dst.shape), tuple(src.shape))) != tuple(dst.shape):
        raise ValueError(f"could not broadcast input array from shape {tuple(src.shape)} into shape "
                         f"{tuple(dst.shape)}")
    dst.data = _where(where, src.astype(dst.dtype), dst).data


def fill_diagonal(a, val, wrap=False):
    """Fill the main diagonal of ``a`` (in place) with ``val`` (a scalar or values repeated in
    order along the diagonal), as NumPy's ``fill_diagonal``."""
    from .arithmetic import where as _where
    from .datasource import arange

    if not isinstance(a, Tensor):
        raise TypeError("fill_diagonal() needs a tensor to fill in place")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    shape = tuple(int(s) for s in a.shape)
    total = int(np.prod(shape))
    step = 1 + int(np.cumprod(shape[:-1]).sum()) if a.ndim > 2 else shape[1] + 1
    end = total if wrap or a.ndim > 2 else shape[1] * shape[1]
    flat_pos = reshape(arange(total), shape)
    on_diag = ((flat_pos % step) == 0) & (flat_pos < end)
    values = np.asarray(val, dtype=a.dtype).reshape(-1)
    if values.size <= 1:
        filled = values[0] if values.size else a
    else:  # the k-th diagonal element takes values[k % len(values)]
        filled = elementwise("mars_on_ray.tensor.manipulation:_pick", ((flat_pos // step) % values.size,),
                             result_dtype=a.dtype, values=values)
    a.data = _where(on_diag, filled, a).data


def _pick(positions, values):
    return values[positions]
