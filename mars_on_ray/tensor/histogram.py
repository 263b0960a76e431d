"""searchsorted, digitize, bincount, histogram and histogram_bin_edges.

``searchsorted`` counts, per chunk of the sorted array, the elements before each value and sums
the counts in a tree (the count of elements ordered before a value does not depend on where
they are). ``histogram`` sums per-chunk histograms over edges computed once: from the data's
extent and, for the string estimators, exact distributed statistics (std, percentiles, ...)
fed into NumPy's own formulas.
"""
from __future__ import annotations

import operator
import warnings

import numpy as np
from numpy.lib import _histograms_impl as _h

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from .core import Tensor, as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["searchsorted", "digitize", "bincount", "histogram", "histogram_bin_edges"]

NAN = float("nan")


def _one_chunk(ctx, node):
    """The single chunk of ``node`` (small tensors: edges, bins, statistics)."""
    tiled = ctx[node]
    if tiled.chunks.size == 1:
        return tiled.chunks.reshape(-1)[0]
    tiled = yield from ctx.known(node)
    return rechunk_tiled(tiled, [(int(sum(s)),) for s in tiled.nsplits]).chunks.reshape(-1)[0]


class Summed(Operand):
    """Element-wise sum of partials (``pad``: of 1-D partials of different lengths)."""

    _params = ("pad", "dtype")
    pad = False
    dtype = None

    def execute(self, *parts):
        if self.pad:
            n = max(len(p) for p in parts)
            parts = [np.pad(p, (0, n - len(p))) for p in parts]
        total = parts[0] if len(parts) == 1 else np.sum(parts, axis=0)
        return np.asarray(total).astype(self.dtype, copy=False) if self.dtype else total


def _sum_tree(grid, axis, meta, shape_of, label, pad=False, dtype=None):
    def combine(chunks, index):
        return ChunkData(Summed(pad=pad, label=label), chunks, shape_of(chunks), meta, index)

    def finish(chunks, kept):
        op = Summed(pad=pad, dtype=dtype, label=label)
        return ChunkData(op, chunks, shape_of(chunks), meta, kept)

    return tree_reduce(grid, (axis,), combine, finish, options.combine_size)


# --- searchsorted / digitize --------------------------------------------------------------------

class CountBefore(Operand):
    _params = ("side", "sort")

    def execute(self, a, v):
        return np.searchsorted(np.sort(a) if self.sort else a, v, side=self.side)


class TensorSearchsorted(Operand):
    _params = ("side", "sort")

    def tile(self, ctx, out):
        a, v = (ctx[i] for i in out.inputs)
        parts = list(a.chunks.flat)
        grid = chunk_grid(v.chunks.shape + (len(parts),))
        for idx, vc in np.ndenumerate(v.chunks):
            for j, ac in enumerate(parts):
                op = CountBefore(side=self.side, sort=self.sort, label=self.label)
                grid[idx + (j,)] = ChunkData(op, [ac, vc], vc.shape, out.meta, idx + (j,))
        reduced = _sum_tree(grid, v.chunks.ndim, out.meta, lambda cs: cs[0].shape, self.label,
                            dtype=np.intp)
        return Tiled(reduced, v.nsplits)


def searchsorted(a, v, side="left", sorter=None):
    """Where ``v``'s values go in the sorted 1-D ``a`` (``sorter``: indices that sort ``a``)."""
    a, v = as_tensor(a), as_tensor(v)
    np.searchsorted(np.zeros((0,) * a.ndim, a.dtype), np.zeros(1, v.dtype), side=side)
    if sorter is not None and np.shape(sorter) != a.shape:
        raise ValueError("sorter.size must equal a.size")
    op = TensorSearchsorted(side=side, sort=sorter is not None, label="mt.searchsorted")
    return new_tensor(op, [a, v], v.shape, np.intp)


class DigitizeChunk(Operand):
    _params = ("right",)

    def execute(self, x, bins):
        return np.digitize(x, bins, right=self.right)


class TensorDigitize(Operand):
    _params = ("right",)

    def tile(self, ctx, out):
        x = ctx[out.inputs[0]]
        bins = yield from _one_chunk(ctx, out.inputs[1])
        grid = chunk_grid(x.chunks.shape)
        for idx, c in np.ndenumerate(x.chunks):
            grid[idx] = ChunkData(DigitizeChunk(right=self.right, label=self.label), [c, bins],
                                  c.shape, out.meta, idx)
        return Tiled(grid, x.nsplits)


def digitize(x, bins, right=False):
    """The index of the bin each value of ``x`` falls in (``bins`` monotonic, 1-D)."""
    x = as_tensor(x)
    if not isinstance(bins, Tensor):
        bins = np.asarray(bins)
        np.digitize(np.zeros(1, x.dtype), bins, right=right)  # NumPy's checks of the bins
    elif bins.ndim != 1:
        raise ValueError("object of too small depth for desired array")
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    op = TensorDigitize(right=bool(right), label="mt.digitize")
    return new_tensor(op, [x, as_tensor(bins)], x.shape, np.intp)


# --- bincount -----------------------------------------------------------------------------------

class BincountChunk(Operand):
    _params = ("minlength",)

    def execute(self, x, weights=None):
        return np.bincount(x, weights, minlength=self.minlength)


class TensorBincount(Operand):
    _params = ("minlength",)

    def tile(self, ctx, out):
        x = yield from ctx.known(out.inputs[0])
        w = None
        if len(out.inputs) > 1:
            w = rechunk_tiled((yield from ctx.known(out.inputs[1])), x.nsplits)
            if sum(w.nsplits[0]) != sum(x.nsplits[0]):
                raise ValueError("The weights and list don't have the same length.")
        grid = chunk_grid(x.chunks.shape)
        for i, c in enumerate(x.chunks):
            inputs = [c] if w is None else [c, w.chunks[i]]
            grid[i] = ChunkData(BincountChunk(minlength=self.minlength, label=self.label), inputs,
                                (NAN,), out.meta, (i,))
        reduced = _sum_tree(grid, 0, out.meta, lambda cs: (NAN,), self.label, pad=True,
                            dtype=out.dtype)
        return Tiled(reduced.reshape(1), ((NAN,),))


def bincount(x, weights=None, minlength=0):
    """Occurrences of each value 0..max(x) of the non-negative integers ``x``."""
    x = as_tensor(x)
    w = None if weights is None else as_tensor(weights)
    minlength = operator.index(minlength)
    expected = np.bincount(np.zeros((1,) * max(x.ndim, 1), x.dtype) if x.ndim != 0 else 0,
                           None if w is None else np.zeros(1, w.dtype), minlength=minlength)
    if w is not None and w.shape != x.shape and all(s == s for s in x.shape + w.shape):
        raise ValueError("The weights and list don't have the same length.")
    op = TensorBincount(minlength=minlength, label="mt.bincount")
    return new_tensor(op, [x] if w is None else [x, w], (NAN,), expected.dtype)


# --- histogram ----------------------------------------------------------------------------------

class ExtentChunk(Operand):
    """(min, max, count) of a chunk, merged across chunks; min/max None when empty."""

    def execute(self, *parts):
        if len(parts) == 1 and isinstance(parts[0], np.ndarray):
            x = parts[0]
            return (x.min(), x.max(), x.size) if x.size else (None, None, 0)
        present = [p for p in parts if p[2]]
        if not present:
            return None, None, 0
        return (min(p[0] for p in present), max(p[1] for p in present), sum(p[2] for p in parts))


class TensorExtent(Operand):
    def tile(self, ctx, out):
        tiled = ctx[out.inputs[0]]
        grid = chunk_grid(tiled.chunks.shape)
        for idx, c in np.ndenumerate(tiled.chunks):
            grid[idx] = ChunkData(ExtentChunk(label=self.label), [c], (), out.meta, idx)
        flat = grid.reshape(-1)

        def combine(chunks, index):
            return ChunkData(ExtentChunk(label=self.label), chunks, (), out.meta, index)

        result = tree_reduce(flat, (0,), combine, combine, options.combine_size)
        return Tiled(result, ())


def _extent(x):
    return new_tensor(TensorExtent(label="mt.histogram"), [x], (), x.dtype)


class StoneChunk(Operand):
    """Histograms of a chunk for every bin count Stone's estimator tries."""

    _params = ("range",)

    def execute(self, x, extent):
        kmin, kmax, n = extent
        first, last = _outer(kmin, kmax, n, x.dtype, self.range or None)
        upper = max(100, int(np.sqrt(n)))
        return [np.histogram(x, bins=b, range=(first, last))[0] for b in range(1, upper + 1)]


class SumLists(Operand):
    def execute(self, *parts):
        return [np.sum(c, axis=0) for c in zip(*parts)]


def _outer(kmin, kmax, n, dtype, range_):
    proxy = np.array([kmin, kmax], dtype=dtype) if n else np.empty(0, dtype)
    return _h._get_outer_edges(proxy, range_)


class BinEdges(Operand):
    """The bin edges, as ``np.histogram_bin_edges`` computes them, from statistics."""

    _params = ("bins", "range", "dtype", "stats")

    def execute(self, extent, *values):
        stats = dict(zip(self.stats, values))
        kmin, kmax, n = extent
        if "outer" in stats:  # the edges of all data; the statistics are of the kept data
            first, last = _outer(*stats["outer"], self.dtype, self.range)
        else:
            first, last = _outer(kmin, kmax, n, self.dtype, self.range)
        if not isinstance(self.bins, str):
            n_bins = self.bins
        elif n == 0:
            n_bins = 1
        else:
            width = self._width(n, _h._ptp(np.array([kmin, kmax], self.dtype)), stats, first, last)
            if width:
                if np.issubdtype(self.dtype, np.integer) and width < 1:
                    width = 1
                n_bins = int(np.ceil(_h._unsigned_subtract(last, first) / width))
            else:
                n_bins = 1
        bin_type = np.result_type(first, last, np.empty(0, self.dtype))
        if np.issubdtype(bin_type, np.integer):
            bin_type = np.result_type(bin_type, float)
        edges = np.linspace(first, last, n_bins + 1, endpoint=True, dtype=bin_type)
        if np.any(edges[:-1] >= edges[1:]):
            raise ValueError(f"Too many bins for data range. Cannot create {n_bins} "
                             "finite-sized bins.")
        return edges

    def _width(self, n, ptp, stats, first, last):
        name = self.bins
        sqrt_w = ptp / np.sqrt(n)
        sturges = ptp / (np.log2(n) + 1.0)
        if name == "sqrt":
            return sqrt_w
        if name == "sturges":
            return sturges
        if name == "rice":
            return ptp / (2.0 * n ** (1.0 / 3))
        if name == "scott":
            return (24.0 * np.pi**0.5 / n) ** (1.0 / 3.0) * stats["std"]
        if name in ("fd", "auto"):
            fd = 2.0 * np.subtract(*stats["iqr"]) * n ** (-1.0 / 3.0)
            return fd if name == "fd" else min(max(fd, sqrt_w / 2), sturges)
        if name == "doane":
            if n > 2:
                sg1 = np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
                if stats["std"] > 0.0:
                    g1 = stats["g1"]
                    return ptp / (1.0 + np.log2(n) + np.log2(1.0 + np.absolute(g1) / sg1))
            return 0.0
        return self._stone(n, ptp, stats["stone"])

    @staticmethod
    def _stone(n, ptp, counts):
        if n <= 1 or ptp == 0:
            return 0

        def jhat(nbins):
            p_k = counts[nbins - 1] / n
            return (2 - (n + 1) * p_k.dot(p_k)) / (ptp / nbins)

        upper = max(100, int(np.sqrt(n)))
        nbins = min(range(1, upper + 1), key=jhat)
        if nbins == upper:
            warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                          stacklevel=2)
        return ptp / nbins


class TensorBinEdges(Operand):
    _params = ("bins", "range", "dtype", "stats", "stone_range")

    def tile(self, ctx, out):
        inputs = []
        for node in out.inputs[:1 + len(self.stats)]:
            inputs.append((yield from _one_chunk(ctx, node)))
        if self.stone_range is not None:
            data, extent = out.inputs[-2:]
            parts = chunk_grid((ctx[data].chunks.size,))
            for i, c in enumerate(ctx[data].chunks.flat):
                parts[i] = ChunkData(StoneChunk(range=self.stone_range, label=self.label),
                                     [c, inputs[0]], (), None, (i,))

            def combine(chunks, index):
                return ChunkData(SumLists(label=self.label), chunks, (), None, index)

            inputs.append(tree_reduce(parts, (0,), combine, combine, options.combine_size)[()])
        op = BinEdges(bins=self.bins, range=self.range, dtype=self.dtype,
                      stats=self.stats + (("stone",) if self.stone_range is not None else ()),
                      label=self.label)
        grid = chunk_grid((1,))
        grid[0] = ChunkData(op, inputs, out.shape, out.meta, (0,))
        return Tiled.from_chunks(grid) if out.shape[0] == out.shape[0] else Tiled(grid, ((NAN,),))


def _edges(a, bins, range_, weights, label):
    """(edges tensor or constant array, uniform) for ``a`` (1-D)."""
    sample = np.zeros(1, a.dtype)
    wsample = None if weights is None else np.ones(1, weights.dtype)
    np.histogram_bin_edges(sample, bins, range_, wsample)  # NumPy's checks of the arguments
    if not isinstance(bins, str) and np.ndim(bins) == 1:
        return np.asarray(bins), False
    if not isinstance(bins, str) and range_ is not None:
        return np.histogram_bin_edges(np.zeros(0, a.dtype), bins, range_), True
    from .reduction import mean, std
    from .selection import _quantile

    x, stats, values = a, [], []
    if isinstance(bins, str) and range_ is not None:
        first, last = _h._get_outer_edges(np.zeros(0, a.dtype), range_)
        x = a[(a >= first) & (a <= last)]
    extent = _extent(x)
    if isinstance(bins, str):
        if bins in ("scott", "doane"):
            stats.append("std")
            values.append(std(x))
        if bins in ("fd", "auto"):
            stats.append("iqr")
            values.append(_quantile("percentile", x, [75, 25], None, "linear", False, None,
                                    empty_nan=True))
        if bins == "doane":
            stats.append("g1")
            values.append(mean(((x - mean(x)) / std(x)) ** 3))
    if x is not a:
        stats.append("outer")
        values.append(_extent(a))
    stone = bins == "stone"
    shape = (bins + 1,) if not isinstance(bins, str) else (NAN,)
    op = TensorBinEdges(bins=bins, range=range_, dtype=a.dtype, stats=tuple(stats),
                        stone_range=(range_ if range_ is not None else ()) if stone else None,
                        label=label)
    dtype = np.histogram_bin_edges(np.array([0, 1], a.dtype), 1 if isinstance(bins, str) else bins,
                                   range_).dtype
    inputs = [extent, *values] + ([x, extent] if stone else [])
    return new_tensor(op, inputs, shape, dtype), True


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges ``np.histogram`` would use (every string estimator included)."""
    a = _flat(a)
    edges, _ = _edges(a, bins, range, None if weights is None else as_tensor(weights),
                      "mt.histogram_bin_edges")
    return edges if isinstance(edges, Tensor) else as_tensor(edges)


class HistogramChunk(Operand):
    _params = ("uniform",)

    def execute(self, x, edges, weights=None):
        if self.uniform:
            return np.histogram(x, len(edges) - 1, (edges[0], edges[-1]), weights=weights)[0]
        return np.histogram(x, edges, weights=weights)[0]


class Density(Operand):
    def execute(self, *parts):
        *counts, edges = parts
        n = counts[0] if len(counts) == 1 else np.sum(counts, axis=0)
        return n / np.diff(edges).astype(float) / n.sum()


class TensorHistogram(Operand):
    _params = ("uniform", "density")

    def tile(self, ctx, out):
        a = yield from ctx.known(out.inputs[0])
        edges = yield from _one_chunk(ctx, out.inputs[1])
        w = None
        if len(out.inputs) > 2:
            w = rechunk_tiled((yield from ctx.known(out.inputs[2])), a.nsplits)
        grid = chunk_grid(a.chunks.shape)
        for i, c in enumerate(a.chunks):
            inputs = [c, edges] + ([] if w is None else [w.chunks[i]])
            grid[i] = ChunkData(HistogramChunk(uniform=self.uniform, label=self.label), inputs,
                                out.shape, out.meta, (i,))
        if self.density:
            sums = _sum_tree(grid, 0, out.meta, lambda cs: out.shape, self.label)
            final = ChunkData(Density(label=self.label), [sums[()], edges], out.shape, out.meta, (0,))
        else:
            final = _sum_tree(grid, 0, out.meta, lambda cs: out.shape, self.label)[()]
        result = chunk_grid((1,))
        result[0] = final
        return Tiled(result, ((out.shape[0],),))


def _flat(a):
    from .arithmetic import astype
    from .reshape import ravel

    a = as_tensor(a)
    if a.dtype == np.bool_:  # as NumPy does
        warnings.warn("Converting input from bool to <class 'numpy.uint8'> for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = astype(a, np.uint8)
    return a if a.ndim == 1 else ravel(a)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """(counts, bin edges) of the flattened ``a``; ``weights`` and ``density`` as NumPy."""
    a = as_tensor(a)
    w = None
    if weights is not None:
        w = as_tensor(weights)
        if w.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        w = _flat(w)
    a = _flat(a)
    edges, uniform = _edges(a, bins, range, w, "mt.histogram")
    edges = edges if isinstance(edges, Tensor) else as_tensor(edges)
    sample_w = None if w is None else np.ones(1, w.dtype)
    counts_dtype = np.histogram(np.zeros(1, a.dtype), 1, weights=sample_w)[0].dtype
    dtype = np.dtype(float) if density else counts_dtype
    shape = (edges.shape[0] - 1,)
    op = TensorHistogram(uniform=uniform, density=bool(density), label="mt.histogram")
    return new_tensor(op, [a, edges] + ([] if w is None else [w]), shape, dtype), edges

