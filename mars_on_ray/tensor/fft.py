"""``mars_on_ray.tensor.fft``: NumPy's discrete Fourier transforms over chunked tensors.

A transform needs whole lanes along its axes: those axes are rechunked to one chunk (the
other axes keep their splits) and ``numpy.fft`` runs on each block, so values, dtypes and
shapes are NumPy's. ``fftfreq``/``rfftfreq`` are chunked sources.
"""
from __future__ import annotations

import itertools
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from .core import as_tensor, new_tensor
from .datasource import new_source, tile_source
from .rechunk import rechunk_tiled

_ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_N_D = ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn")
__all__ = [*_ONE_D, *_N_D, "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _points(n, default):
    n = default if n is None else operator.index(n)
    if not (isinstance(n, float) and math.isnan(n)) and n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _out_shape(func: str, shape: tuple, kwargs: dict) -> tuple:
    """The result shape of ``np.fft.<func>(x, **kwargs)`` for ``x`` of ``shape`` (nan: unknown)."""
    out = list(shape)
    if func in _ONE_D:
        axis, size = kwargs["axis"], shape[kwargs["axis"]]
        to_real = func in ("irfft", "hfft")
        n = _points(kwargs.get("n"), 2 * (size - 1) if to_real else size)
        out[axis] = n // 2 + 1 if func in ("rfft", "ihfft") else n
    elif func in _N_D:
        axes, s = kwargs["axes"], kwargs.get("s")
        s = [shape[a] for a in axes] if s is None else [operator.index(v) for v in s]
        if kwargs.get("s") is None and func.startswith("irfft") and axes:
            s[-1] = 2 * (shape[axes[-1]] - 1)
        steps = list(zip(axes, (_points(n, None) for n in s)))  # in NumPy's order: the last one wins
        if func.startswith("rfft") and axes:
            steps = [(axes[-1], s[-1] // 2 + 1), *reversed(steps[:-1])]
        elif not func.startswith("irfft"):
            steps.reverse()
        for a, n in steps:
            out[a] = n
    return tuple(out)


class FFT(Operand):
    """``np.fft.<func>(block, **kwargs)`` on blocks holding whole lanes along ``axes``."""

    _params = ("func", "kwargs", "axes")

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        nsplits = tuple((sum(s),) if a in self.axes else s for a, s in enumerate(tiled.nsplits))
        tiled = rechunk_tiled(tiled, nsplits)
        shape = _out_shape(self.func, tuple(sum(s) for s in nsplits), self.kwargs)
        out_splits = tuple((shape[a],) if a in self.axes else s for a, s in enumerate(nsplits))
        grid = chunk_grid([len(s) for s in out_splits])
        for idx in itertools.product(*(range(len(s)) for s in out_splits)):
            chunk_shape = tuple(s[i] for s, i in zip(out_splits, idx))
            grid[idx] = ChunkData(self.new(), [tiled.chunks[idx]], chunk_shape, out.meta, idx)
        return Tiled(grid, out_splits)

    def execute(self, x):
        return np.asarray(getattr(np.fft, self.func)(x, **self.kwargs))


def _transform(func: str, t, axes: tuple, kwargs: dict):
    sample = np.zeros((2,) * t.ndim, dtype=t.dtype)  # NumPy's dtype and its errors (norm, dtype)
    dtype = np.asarray(getattr(np.fft, func)(sample, **{k: v for k, v in kwargs.items()
                                                        if k in ("axis", "axes", "norm")})).dtype
    shape = _out_shape(func, t.shape, kwargs)
    op = FFT(func=func, kwargs=kwargs, axes=tuple(sorted(set(axes))), label=f"mt.fft.{func}")
    return new_tensor(op, [t], shape, dtype)


def _check_axes(axes, ndim: int, sizes_from_shape: bool) -> None:
    """NumPy reads the transform sizes from the shape first: a bad axis is then an IndexError."""
    if sizes_from_shape and any(not -ndim <= ax < ndim for ax in axes):
        raise IndexError("tuple index out of range")


def _one_d(func: str):
    def transform(a, n=None, axis=-1, norm=None):
        t = as_tensor(a)
        axis = operator.index(axis)
        _check_axes((axis,), t.ndim, n is None)
        axis = normalize_axis_index(axis, t.ndim)
        return _transform(func, t, (axis,), {"n": n, "axis": axis, "norm": norm})

    transform.__name__ = transform.__qualname__ = func
    transform.__doc__ = f"``numpy.fft.{func}`` along ``axis`` (rechunked to one chunk)."
    return transform


def _n_d(func: str):
    two_d = func.endswith("2")

    def transform(a, s=None, axes=(-2, -1) if two_d else None, norm=None):
        t = as_tensor(a)
        ndim = t.ndim
        if axes is None:
            axes = range(ndim) if s is None else range(-len(s), 0)
        axes = tuple(operator.index(ax) for ax in axes)
        _check_axes(axes, ndim, s is None)
        axes = tuple(normalize_axis_index(ax, ndim) for ax in axes)
        if s is not None and len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
        return _transform(func, t, axes, {"s": None if s is None else tuple(s), "axes": axes, "norm": norm})

    transform.__name__ = transform.__qualname__ = func
    transform.__doc__ = f"``numpy.fft.{func}`` over ``axes`` (each rechunked to one chunk)."
    return transform


globals().update({f: _one_d(f) for f in _ONE_D})
globals().update({f: _n_d(f) for f in _N_D})


def _shift(func: str):
    def shift(x, axes=None):
        t = as_tensor(x)
        axes = range(t.ndim) if axes is None else (axes,) if np.ndim(axes) == 0 else axes
        axes = tuple(operator.index(ax) for ax in axes)
        _check_axes(axes, t.ndim, True)
        axes = tuple(normalize_axis_index(ax, t.ndim) for ax in axes)
        op = FFT(func=func, kwargs={"axes": axes}, axes=tuple(sorted(set(axes))), label=f"mt.fft.{func}")
        return new_tensor(op, [t], t.shape, t.dtype)

    shift.__name__ = shift.__qualname__ = func
    shift.__doc__ = f"``numpy.fft.{func}``: the zero frequency moved {'to' if func == 'fftshift' else 'back from'} the centre."
    return shift


fftshift = _shift("fftshift")
ifftshift = _shift("ifftshift")


class FFTFreq(Operand):
    """Elements ``[lo, hi)`` of ``np.fft.fftfreq(n, d)`` (``rfftfreq`` when ``real``)."""

    _params = ("n", "d", "real", "lo", "hi")

    def tile(self, ctx, out):
        return tile_source(out, lambda ext: self.new(lo=ext[0][0], hi=ext[0][1]))

    def execute(self):
        k = np.arange(self.lo, self.hi)
        if not self.real:
            k = np.where(k < (self.n - 1) // 2 + 1, k, k - self.n)
        return k * (1.0 / (self.n * self.d))


def _freq(n, d, real: bool, chunk_size):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    size = n // 2 + 1 if real else n
    dtype = (np.arange(1) * (1.0 / (n * d))).dtype  # NumPy's ZeroDivisionError for n=0
    op = FFTFreq(n=int(n), d=d, real=real, label="mt.fft.rfftfreq" if real else "mt.fft.fftfreq")
    return new_source(op, (max(size, 0),), dtype, chunk_size)


def fftfreq(n, d=1.0, chunk_size=None):
    """The sample frequencies of a length-``n`` DFT with sample spacing ``d``."""
    return _freq(n, d, False, chunk_size)


def rfftfreq(n, d=1.0, chunk_size=None):
    """The sample frequencies of ``rfft`` of length ``n`` with sample spacing ``d``."""
    return _freq(n, d, True, chunk_size)
