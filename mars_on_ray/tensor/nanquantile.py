"""nanmedian, nanquantile, nanpercentile: exact, like NumPy's (each lane's quantile of its
non-NaN values).

A whole (or flattened) tensor: its non-NaN elements (a boolean selection) go to the exact
selection of ``quantile``/``median``. Along an axis: the tensor is sorted along it (NaN last),
each lane counts its non-NaN values, and the order statistics NumPy's formula reads for that
count are taken with ``take_along_axis`` and combined with NumPy's own helpers.
"""
from __future__ import annotations

import warnings

import numpy as np
from numpy.lib import _function_base_impl as _fb
from numpy.lib.array_utils import normalize_axis_tuple

from ..core.user import Tileable
from .core import as_tensor
from .selection import q_fractions

__all__ = ["nanmedian", "nanquantile", "nanpercentile"]

_HERE = "mars_on_ray.tensor.nanquantile"


def _virtual(count, q, method):
    """NumPy's virtual index of quantile ``q`` in lanes of ``count`` values (0 read as 1)."""
    n = np.maximum(count, 1)
    return n, np.asanyarray(_fb._QuantileMethods[method]["get_virtual_index"](n, q))


def lane_positions(count, q=None, method=None):
    """The sorted positions (previous, next) the quantile of each lane reads."""
    if method is None:  # the median: the two middle values
        n = np.maximum(count, 1)
        return (n - 1) // 2, n // 2
    n, vi = _virtual(count, q, method)
    if np.issubdtype(vi.dtype, np.integer):
        return vi, vi
    prev, nxt = _fb._get_indexes(np.empty(0), vi, n)
    # NumPy's -1 is the last of the lane's non-NaN values
    return np.where(prev < 0, n - 1, prev), np.where(nxt < 0, n - 1, nxt)


def lane_finish(lo, hi, count, q=None, method=None, dtype=None, weak=False):
    """NumPy's quantile (``method`` None: median) of each lane from its order statistics;
    NaN for lanes without a value. ``weak``: NumPy interpolates with a Python float (in the
    data's precision), mirrored here per lane."""
    with np.errstate(all="ignore"):
        if method is None:
            result = np.mean(np.stack([lo, hi]), axis=0)
        else:
            n, vi = _virtual(count, q, method)
            props = _fb._QuantileMethods[method]
            if props["fix_gamma"] is None or np.issubdtype(vi.dtype, np.integer):
                result = lo
            else:
                prev, _ = _fb._get_indexes(np.empty(0), vi, n)
                gamma = np.asanyarray(_fb._get_gamma(vi, prev, props))
                if weak:
                    diff = hi - lo
                    result = np.where(gamma >= 0.5, hi - diff * (1 - gamma).astype(diff.dtype),
                                      lo + diff * gamma.astype(diff.dtype))
                else:
                    result = _fb._lerp(lo, hi, gamma)
    return np.where(count == 0, np.nan, result).astype(dtype, copy=False)


def _lanes(x, ax, q, method, dtype, weak):
    """The quantile ``q`` of every lane of ``x`` along ``ax`` (kept with extent 1)."""
    from .arithmetic import elementwise, isnan, logical_not
    from .index_tricks import take_along_axis
    from .reduction import sum as sum_
    from .sorting import sort

    count = sum_(logical_not(isnan(x)), axis=ax, keepdims=True)
    kw = {} if method is None else {"q": q, "method": method}
    if x.shape[ax] == 0:
        lo = hi = count.astype(x.dtype)
    else:
        s = sort(x, axis=ax)
        lo, hi = (take_along_axis(s, elementwise(f"{_HERE}:lane_positions#{k}", (count,), **kw), ax)
                  for k in (0, 1))
    return elementwise(f"{_HERE}:lane_finish", (lo, hi, count), dtype=dtype,
                       **kw, **({"weak": True} if weak and kw else {}))


def _nan(name, a, q, axis, method, keepdims, median=False):
    from .arithmetic import isnan
    from .joining import stack
    from .reshape import ravel, reshape, squeeze, transpose
    from .selection import _quantile

    if isinstance(q, Tileable):
        raise NotImplementedError(f"mt.{name}: q must be a number or an array, not a lazy object")
    a = as_tensor(a)
    sample = np.zeros(tuple(2 if s != 0 else 0 for s in a.shape), dtype=a.dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        args = () if median else (q,)
        kw = {} if median else {"method": method}
        expected = getattr(np, name)(sample if sample.size else np.ones(2, a.dtype), *args,
                                     axis=axis if sample.size else None, keepdims=keepdims, **kw)
    plain = name.replace("nan", "", 1)
    if a.dtype.kind not in "fc":  # no NaN: NumPy answers with the plain function
        from . import selection

        return getattr(selection, plain)(a, *args, axis=axis, keepdims=keepdims, **kw)
    dtype = np.asarray(expected).dtype
    qv = None if median else q_fractions(q, plain)
    ndim = a.ndim
    axes = tuple(range(ndim)) if axis is None else normalize_axis_tuple(axis, ndim)
    kept = tuple(1 if d in axes else a.shape[d] for d in range(ndim))
    if len(axes) == ndim:  # the whole tensor: exact selection of its non-NaN values
        flat = ravel(a)
        result = _quantile(plain, flat[~isnan(flat)], q, None, method, False, None,
                           median=median, empty_nan=True)
        return reshape(result, *(np.shape(qv) + kept)) if keepdims else result
    x, ax = a, axes[0]
    if len(axes) > 1:
        others = [d for d in range(ndim) if d not in axes]
        x = reshape(transpose(a, others + list(axes)), *[a.shape[d] for d in others], -1)
        ax = x.ndim - 1
    weak = type(q) in (int, float)
    lanes = [squeeze(_lanes(x, ax, qi, None if median else method, dtype, weak), axis=ax)
             for qi in (np.ravel(qv) if not median else [None])]
    result = lanes[0] if median or np.ndim(qv) == 0 else stack(lanes)
    if not median and np.ndim(qv) > 1:
        result = reshape(result, *(np.shape(qv) + tuple(lanes[0].shape)))
    if keepdims:
        result = reshape(result, *(np.shape(qv) + kept))
    return result


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None, interpolation=None):
    """The ``q``-th quantiles along ``axis`` ignoring NaN (every NumPy ``method``), exact."""
    _checks("nanquantile", out, weights)
    return _nan("nanquantile", a, q, axis, interpolation or method, keepdims)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """The ``q``-th percentiles along ``axis`` ignoring NaN (every NumPy ``method``), exact."""
    _checks("nanpercentile", out, weights)
    return _nan("nanpercentile", a, q, axis, interpolation or method, keepdims)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along ``axis`` ignoring NaN (NaN for all-NaN lanes)."""
    _checks("nanmedian", out, None)
    return _nan("nanmedian", a, None, axis, None, keepdims, median=True)


def _checks(name, out, weights):
    if out is not None:
        raise TypeError(f"mt.{name}: out= is not supported")
    if weights is not None:
        raise NotImplementedError(f"mt.{name}: weights= is not supported")
