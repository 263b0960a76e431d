"""histogramdd / histogram2d: NumPy's own histogram of every block of rows with the edges
fixed first (bins from the data's range need its per-dimension min and max, computed when
called, like the edges NumPy returns), the per-block counts summed by a tree reduction."""
from __future__ import annotations

import builtins
import operator

import numpy as np
from numpy.lib import _histograms_impl as _hi

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.user import Tileable
from .core import as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["histogramdd", "histogram2d"]


class HistogramBlock(Operand):
    """The counts of a block of rows, with a leading axis of 1 (summed afterwards)."""

    _params = ("edges",)

    def execute(self, x, w=None):
        return np.histogramdd(x, bins=list(self.edges), weights=w)[0][None]


class TensorHistogramBlocks(HistogramBlock):
    def tile(self, ctx, out):
        x = yield from ctx.known(out.inputs[0])
        x = rechunk_tiled(x, (x.nsplits[0], (int(sum(x.nsplits[1])),)))  # every column
        w = None
        if len(out.inputs) > 1:
            w = yield from ctx.known(out.inputs[1])
            w = rechunk_tiled(w, (x.nsplits[0],))
        grid = chunk_grid((x.chunks.shape[0],) + (1,) * (out.ndim - 1))
        for i in range(x.chunks.shape[0]):
            inputs = [x.chunks[i, 0]] + ([] if w is None else [w.chunks[i]])
            index = (i,) + (0,) * (out.ndim - 1)
            grid[index] = ChunkData(HistogramBlock(edges=self.edges, label=self.label), inputs,
                                    (1,) + tuple(out.shape[1:]), out.meta, index)
        return Tiled.from_chunks(grid)


def _edges(sample, bins, range_):
    """NumPy's edges per dimension (a range from the data is computed now)."""
    from .joining import stack
    from .manipulation import _compute_now
    from .reduction import max as max_, min as min_

    D = sample.shape[1]
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range_ is None:
        range_ = (None,) * D
    elif len(range_) != D:
        raise ValueError("range argument must have one entry per dimension")
    lows = highs = None
    if any(np.ndim(b) == 0 and r is None for b, r in zip(bins, range_)) and sample.shape[0]:
        lows, highs = _compute_now(stack([min_(sample, axis=0), max_(sample, axis=0)]))
    edges = []
    for i in range(D):
        if np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            data = np.array([]) if lows is None else np.array([lows[i], highs[i]])
            smin, smax = _hi._get_outer_edges(data, range_[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(np.linspace(smin, smax, n + 1))
        elif np.ndim(bins[i]) == 1:
            e = np.asarray(bins[i])
            if np.any(e[:-1] > e[1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
            edges.append(e)
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    return edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """(counts, edges) of the rows of ``sample`` (N, D) in D dimensions; ``bins`` an int,
    D ints, or D edge arrays; ``range``, ``density`` and ``weights`` as NumPy."""
    from .joining import stack
    from .reduction import sum as sum_

    if isinstance(sample, (list, tuple)) and sample and not np.isscalar(sample[0]):
        sample = stack([as_tensor(s) for s in sample], axis=1)  # D arrays of N values
    sample = as_tensor(sample)
    if sample.ndim == 1:
        sample = sample[:, None]
    if sample.ndim != 2:
        raise ValueError("sample must be a 2-d array (N, D)")
    if isinstance(bins, Tileable):
        raise NotImplementedError("mt.histogramdd: bins must not be lazy")
    edges = _edges(sample, bins, range)
    w = None
    if weights is not None:
        w = as_tensor(weights)
        if w.ndim != 1 or w.shape[0] != sample.shape[0]:
            raise ValueError("weights must be 1-d with one entry per sample row")
    shape = tuple(len(e) - 1 for e in edges)
    op = TensorHistogramBlocks(edges=tuple(edges), label="mt.histogramdd")
    blocks = new_tensor(op, [sample] + ([] if w is None else [w]), (float("nan"),) + shape, np.float64)
    hist = sum_(blocks, axis=0)
    if density:
        total = sum_(hist)
        for i, e in enumerate(edges):
            hist = hist / np.diff(e).reshape([-1 if d == i else 1 for d in builtins.range(len(edges))])
        hist = hist / total
    return hist, [as_tensor(e) for e in edges]


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """(counts, x edges, y edges) of the points (``x``, ``y``), like NumPy's."""
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        bins = [np.asarray(bins), np.asarray(bins)]
    x, y = as_tensor(x), as_tensor(y)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-d and of the same length")
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
