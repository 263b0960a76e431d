"""``pad``: NumPy's modes that need only data near the edges, axis by axis like NumPy (each
axis padded on the tensor already padded along the axes before it). The pad blocks are made
from slices at the edges (edge rows, reflected runs, a wrapped period, a ramp to the edge,
statistics of ``stat_length`` rows) and concatenated: only the boundary chunks change."""
from __future__ import annotations

import numpy as np
from numpy.lib import _arraypad_impl as _ap

from .core import as_tensor

__all__ = ["pad"]

_KWARGS = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
           "linear_ramp": ("end_values",), "maximum": ("stat_length",),
           "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
           "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}


def _along(t, axis, start, stop, step=None):
    index = [slice(None)] * t.ndim
    index[axis] = slice(start, stop, step)
    return t[tuple(index)]


def _fill(value, dtype):
    """``value`` cast as NumPy's assignment into a ``dtype`` array casts it (errors too)."""
    out = np.empty((), dtype)
    out[()] = value
    return out[()]


def _block(t, axis, width, value):
    """A pad block of ``width`` along ``axis`` holding ``value`` (a scalar or a tensor of
    extent 1 along ``axis``)."""
    from .datasource import full
    from .manipulation import broadcast_to

    shape = tuple(width if d == axis else s for d, s in enumerate(t.shape))
    if np.isscalar(value):
        return full(shape, value, dtype=t.dtype)
    return broadcast_to(value, shape)


def ramp_kernel(edge, k, any_zero, end=0, width=1, dtype=None):
    """NumPy's ``linspace(end, edge, width, endpoint=False)`` at positions ``k`` (``any_zero``:
    whether any step of the whole face is 0, which switches NumPy's formula)."""
    start = np.asarray(end)
    dt = np.result_type(start, edge, float(width))
    delta = np.subtract(edge, start, dtype=dt)
    y = np.asarray(k, dtype=dt)
    if any_zero:
        y = y / width * delta
    else:
        y = y * (delta / width)
    y = y + start
    if np.issubdtype(dtype, np.integer):
        y = np.floor(y)
    return y.astype(dtype, copy=False)


def _ramp(t, axis, width, end, edge, flip):
    from .arithmetic import elementwise, equal, true_divide, subtract
    from .datasource import arange
    from .manipulation import flip as flip_
    from .reduction import any as any_
    from .reshape import reshape

    dt = np.result_type(np.asarray(end), edge.dtype, float(width))
    step = true_divide(subtract(edge, np.asarray(end, dt), dtype=dt), width)
    k = reshape(arange(width), *[width if d == axis else 1 for d in range(t.ndim)])
    out = elementwise(f"{__name__}:ramp_kernel", (edge, k, any_(equal(step, 0))), end=end,
                      width=width, dtype=t.dtype, label="mt.pad")
    return flip_(out, axis) if flip else out


def _stats(t, axis, length_pair, mode):
    """NumPy's statistic of the first / last ``stat_length`` rows (all when None or more),
    rounded for integers."""
    from . import reduction, selection
    from .arithmetic import around

    func = {"maximum": reduction.max, "minimum": reduction.min, "mean": reduction.mean,
            "median": selection.median}[mode]
    n = t.shape[axis]
    out = []
    for side, length in enumerate(length_pair):
        length = n if length is None or length > n else int(length)
        if length == 0 and mode in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        region = _along(t, axis, 0, length) if side == 0 else _along(t, axis, n - length, n)
        stat = func(region, axis=axis, keepdims=True)
        if np.issubdtype(t.dtype, np.integer):
            stat = around(stat)
        out.append(stat if stat.dtype == t.dtype else stat.astype(t.dtype))
    return out


def _reflect(cur, axis, left, right, n, odd, include_edge):
    """NumPy's ``_set_reflect_both`` rounds on the lazy valid region ``cur``."""
    from .joining import concatenate
    from .manipulation import flip

    e = 1 if include_edge else 0
    while left > 0 or right > 0:
        m = cur.shape[axis]
        old = m // n * n if include_edge else (m - 1) // (n - 1) * (n - 1)
        pieces = [cur]
        if left > 0:
            k = min(old, left)
            chunk = flip(_along(cur, axis, 1 - e, k - e + 1), axis)
            if odd:
                chunk = 2 * _along(cur, axis, 0, 1) - chunk
            pieces.insert(0, chunk)
            left -= k
        if right > 0:
            k = min(old, right)
            chunk = flip(_along(cur, axis, m + e - 1 - k, m + e - 1), axis)
            if odd:
                chunk = 2 * _along(cur, axis, m - 1, m) - chunk
            pieces.append(chunk)
            right -= k
        cur = concatenate([p if p.dtype == cur.dtype else p.astype(cur.dtype) for p in pieces],
                          axis=axis)
    return cur


def _wrap(cur, axis, left, right, n):
    """NumPy's ``_set_wrap_both`` rounds: a whole period copied to each side."""
    from .joining import concatenate

    while left > 0 or right > 0:
        m = cur.shape[axis]
        period = m // n * n
        pieces = [cur]
        if left > 0:
            k = min(period, left)
            pieces.insert(0, _along(cur, axis, period - k, period))
            left -= k
        if right > 0:
            k = min(period, right)
            pieces.append(_along(cur, axis, m - period, m - period + k))
            right -= k
        cur = concatenate(pieces, axis=axis)
    return cur


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded by ``pad_width`` (NumPy's forms) in ``mode``: constant, edge,
    linear_ramp, maximum, mean, median, minimum, reflect, symmetric (``reflect_type``),
    wrap, empty (zeros here). A callable ``mode`` is not supported."""
    from .joining import concatenate

    t = as_tensor(array)
    if callable(mode):
        raise NotImplementedError("mt.pad: a callable mode is not supported")
    if any(s != s for s in t.shape):
        raise NotImplementedError("mt.pad: the tensor's shape must be known")
    sample = np.zeros(tuple(min(int(s), 2) for s in t.shape), t.dtype)
    np.pad(sample, pad_width, mode, **kwargs)  # NumPy's checks of the arguments
    if isinstance(pad_width, dict):  # {axis: width or (before, after)}, NumPy checked them
        pad_width = [np.broadcast_to(pad_width.get(d, 0), (2,)).tolist() for d in range(t.ndim)]
    widths = _ap._as_pairs(np.asarray(pad_width), t.ndim, as_index=True)
    if t.size == 0 and mode not in ("constant", "empty"):
        mode, kwargs = "empty", {}  # NumPy checked no empty axis grows: the result is empty
    if mode in ("constant", "empty"):
        values = _ap._as_pairs(kwargs.get("constant_values", 0), t.ndim)
    elif mode == "linear_ramp":
        values = _ap._as_pairs(kwargs.get("end_values", 0), t.ndim)
    elif mode in ("maximum", "minimum", "mean", "median"):
        values = _ap._as_pairs(kwargs.get("stat_length"), t.ndim, as_index=True)
    cur = t
    for axis, (left, right) in enumerate(widths):
        left, right = int(left), int(right)
        if not left and not right:
            continue
        n = cur.shape[axis]
        if mode in ("reflect", "symmetric") and n > 1:
            cur = _reflect(cur, axis, left, right, n, kwargs.get("reflect_type") == "odd",
                           mode == "symmetric")
            continue
        if mode == "wrap":
            cur = _wrap(cur, axis, left, right, n)
            continue
        if mode in ("constant", "empty"):
            fills = [_fill(0 if mode == "empty" else v, t.dtype) for v in values[axis]]
        elif mode in ("edge", "reflect", "symmetric"):
            fills = [_along(cur, axis, 0, 1), _along(cur, axis, n - 1, n)]
        elif mode != "linear_ramp":
            fills = _stats(cur, axis, values[axis], mode)
        if mode == "linear_ramp":
            sides = [_ramp(cur, axis, w, v, _along(cur, axis, *span), flip) if w else None
                     for w, v, span, flip in ((left, values[axis][0], (0, 1), False),
                                              (right, values[axis][1], (n - 1, n), True))]
        else:
            sides = [_block(cur, axis, w, f) if w else None for w, f in zip((left, right), fills)]
        cur = concatenate([p for p in (sides[0], cur, sides[1]) if p is not None], axis=axis)
    return cur
