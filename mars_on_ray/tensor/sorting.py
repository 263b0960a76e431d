"""sort, argsort, partition, argpartition.

Along an axis held by one chunk, each chunk is sorted on its own. A 1-D tensor in several
chunks is sorted by parallel sorting by regular sampling (PSRS): every chunk sorts itself and
sends a regular sample; the samples give split points; each chunk splits its sorted run by them
and partition j merges the j-th pieces, so partitions in order are the sorted whole; they are
re-split to the input's chunk sizes. Ties keep their original order (a stable sort), so
``argsort`` equals NumPy's ``kind='stable'``. An n-D tensor chunked along the sort axis is
rechunked to whole lanes along that axis (its other axes stay split, one task per block),
unless it has only a few lanes: then each lane is sorted by PSRS (``lanesort.py``).
"""
from __future__ import annotations

import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from ..core.user import Tileable
from .core import as_tensor, new_tensor, tensor_meta
from .rechunk import rechunk_tiled

__all__ = ["sort", "argsort", "partition", "argpartition", "lexsort"]

NAN = float("nan")
#: an n-D tensor with at most this many lanes (and no more than its chunks along the sort axis)
#: is sorted lane by lane with PSRS; otherwise whole lanes are gathered into chunks
MAX_PSRS_LANES = 16


def sample_input(a) -> np.ndarray:
    """A tiny array of ``a``'s dtype and rank (axes of length 0 kept) for NumPy's checks."""
    return np.zeros(tuple(0 if s == 0 else 1 for s in a.shape), dtype=a.dtype)


def _is_unknown(s) -> bool:
    return isinstance(s, float) and math.isnan(s)


# --- chunk kernels ------------------------------------------------------------------------------

class SortChunk(Operand):
    """One chunk holding whole lanes along ``axis``: NumPy's sort/argsort/(arg)partition."""

    _params = ("which", "axis", "kind", "order", "kth")

    def execute(self, x):
        if self.which == "sort":
            return np.sort(x, axis=self.axis, kind=self.kind, order=self.order)
        if self.which == "argsort":
            return np.argsort(x, axis=self.axis, kind="stable", order=self.order)
        func = np.partition if self.which == "partition" else np.argpartition
        return func(x, self.kth, axis=self.axis, order=self.order)


class LocalSort(Operand):
    """PSRS step 1: (sorted run, regular sample[, global indices of the run])."""

    _params = ("n_samples", "offset", "with_indices")

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 3 if self.with_indices else 2

    def execute(self, x):
        order = np.argsort(x, kind="stable") if self.with_indices else None
        run = x[order] if self.with_indices else np.sort(x)  # values alone need no stability
        picks = np.linspace(0, len(run) - 1, min(self.n_samples, len(run))).round().astype(np.intp)
        if not self.with_indices:
            return run, run[picks]
        indices = order + self.offset
        return run, (run[picks], indices[picks]), indices


def _same(a, b) -> bool:
    return bool(a == b) or bool(a != a and b != b)  # NaN / NaT pivots are equal too


class SplitRun(Operand):
    """PSRS step 2: a sorted run cut at the split points. Sorting values, the elements equal
    to a pivot repeated k times are shared evenly by its k + 1 ranges (equal values are
    interchangeable); with indices, each pivot is a (value, index) pair and ties are cut by
    index, so heavy duplicates never pile into one range."""

    _params = ("pivots", "pivot_index", "n", "with_indices")
    pivot_index = None
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 2 * self.n if self.with_indices else self.n

    def _cuts(self, run, indices):
        pivots = self.pivots
        lo = np.searchsorted(run, pivots, side="left")
        hi = np.searchsorted(run, pivots, side="right")
        cuts = [0]
        for j in range(len(pivots)):
            if self.pivot_index is not None:
                cuts.append(lo[j] + np.searchsorted(indices[lo[j]:hi[j]], self.pivot_index[j], "right"))
                continue
            first = j
            while first > 0 and _same(pivots[first - 1], pivots[j]):
                first -= 1
            last = j
            while last + 1 < len(pivots) and _same(pivots[last + 1], pivots[j]):
                last += 1
            share = (j - first + 1) / (last - first + 2)
            cuts.append(lo[j] + int((hi[j] - lo[j]) * share))
        return cuts + [len(run)] * (self.n + 1 - len(cuts))  # no pivots: every run was empty

    def execute(self, run, indices=None):
        cuts = self._cuts(run, indices)
        pieces = [run[cuts[j]:cuts[j + 1]] for j in range(self.n)]
        if self.with_indices:
            pieces += [indices[cuts[j]:cuts[j + 1]] for j in range(self.n)]
        return tuple(pieces)


class MergeRuns(Operand):
    """PSRS step 3: the j-th pieces of every run, in run order, merged stably."""

    _params = ("with_indices",)

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 2 if self.with_indices else 1

    def execute(self, *pieces):
        if not self.with_indices:
            return np.sort(np.concatenate(pieces), kind="stable")
        half = len(pieces) // 2
        values = np.concatenate(pieces[:half])
        order = np.argsort(values, kind="stable")
        return values[order], np.concatenate(pieces[half:])[order]


def pick_pivot_pairs(samples: list[tuple], n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n - 1`` (value, index) split points at regular positions of all sampled pairs."""
    values = np.concatenate([s[0] for s in samples])
    index = np.concatenate([s[1] for s in samples])
    order = np.lexsort((index, values))
    picks = [min(len(values) - 1, k * len(values) // n) for k in range(1, n)] if len(values) else []
    return values[order][picks], index[order][picks]


def pick_pivots(samples: list[np.ndarray], n: int) -> np.ndarray:
    """``n - 1`` split points at regular positions of all samples, sorted."""
    values = np.sort(np.concatenate(samples)) if samples else np.array([])
    if len(values) == 0:
        return values
    return values[[min(len(values) - 1, k * len(values) // n) for k in range(1, n)]]


def psrs(tiled: Tiled, dtype, with_values=True, with_indices=False):
    """Sort a 1-D tiled tensor (known shapes) across its chunks; a generator returning
    ``(values Tiled or None, indices Tiled or None)`` split like the input."""
    chunks = list(tiled.chunks)
    n = len(chunks)
    starts = offsets(tiled.nsplits[0])
    vmeta, imeta = tensor_meta(dtype, 1), tensor_meta(np.intp, 1)
    runs, samples, idx = [], [], []
    for i, c in enumerate(chunks):
        op = LocalSort(n_samples=n, offset=int(starts[i]), with_indices=with_indices, label="mt.sort")
        runs.append(ChunkData(op, [c], c.shape, vmeta, (i,), 0))
        samples.append(ChunkData(op, [c], (NAN,), vmeta, (i,), 1))
        if with_indices:
            idx.append(ChunkData(op, [c], c.shape, imeta, (i,), 2))
    yield runs + samples + idx  # computed (and kept) together: each chunk is sorted once
    sampled = yield ValuesRequest(samples)
    if with_indices:
        pivots, pivot_index = pick_pivot_pairs(sampled, n)
    else:
        pivots, pivot_index = pick_pivots(sampled, n), None
    pieces = []
    for i in range(n):
        op = SplitRun(pivots=pivots, pivot_index=pivot_index, n=n, with_indices=with_indices,
                      label="mt.sort")
        inputs = [runs[i], idx[i]] if with_indices else [runs[i]]
        outs = [ChunkData(op, inputs, (NAN,), vmeta, (i,), j) for j in range(n)]
        if with_indices:
            outs += [ChunkData(op, inputs, (NAN,), imeta, (i,), n + j) for j in range(n)]
        pieces.append(outs)
    merged_v, merged_i = [], []
    for j in range(n):
        op = MergeRuns(with_indices=with_indices, label="mt.sort")
        inputs = [p[j] for p in pieces] + ([p[n + j] for p in pieces] if with_indices else [])
        merged_v.append(ChunkData(op, inputs, (NAN,), vmeta, (j,), 0))
        if with_indices:
            merged_i.append(ChunkData(op, inputs, (NAN,), imeta, (j,), 1))
    shapes = yield merged_v
    sizes = tuple(int(s[0]) for s in shapes)
    result = []
    for merged, want in ((merged_v, with_values), (merged_i, with_indices)):
        if not want:
            result.append(None)
            continue
        grid = chunk_grid((n,))
        for j, c in enumerate(merged):
            grid[j] = c.with_shape((sizes[j],))
        result.append(rechunk_tiled(Tiled(grid, (sizes,)), tiled.nsplits))
    return tuple(result)


# --- the operand --------------------------------------------------------------------------------

class TensorSort(Operand):
    """sort / argsort / partition / argpartition of one tensor along ``axis``."""

    _params = ("which", "axis", "kind", "order", "kth")

    def tile(self, ctx, out):
        inp = out.inputs[0]
        tiled = ctx[inp]
        axis = self.axis
        if len(tiled.nsplits[axis]) > 1 or any(map(_is_unknown, tiled.nsplits[axis])):
            tiled = yield from ctx.known(inp)
        if len(tiled.nsplits[axis]) > 1:
            if inp.ndim == 1 and self.order is None:
                want_idx = self.which in ("argsort", "argpartition")
                values, indices = yield from psrs(tiled, inp.dtype, not want_idx, want_idx)
                result = indices if want_idx else values
                return result
            lanes = int(np.prod([sum(s) for d, s in enumerate(tiled.nsplits) if d != axis]))
            if self.order is None and 0 < lanes <= min(len(tiled.nsplits[axis]), MAX_PSRS_LANES):
                from .lanesort import lane_psrs

                want_idx = self.which in ("argsort", "argpartition")
                return (yield from lane_psrs(tiled, axis, inp.dtype, want_idx, out.meta))
            splits = list(tiled.nsplits)
            splits[axis] = (int(sum(splits[axis])),)
            tiled = rechunk_tiled(tiled, splits)
        grid = chunk_grid(tiled.chunks.shape)
        for idx, c in np.ndenumerate(tiled.chunks):
            op = SortChunk(which=self.which, axis=axis, kind=self.kind, order=self.order,
                           kth=self.kth, label=self.label)
            grid[idx] = ChunkData(op, [c], c.shape, out.meta, idx)
        return Tiled(grid, tiled.nsplits)


def _prepare(a, axis):
    a = as_tensor(a)
    if axis is None:
        from .reshape import ravel

        a, axis = ravel(a), 0
    else:
        axis = normalize_axis_index(axis, a.ndim)
    return a, axis


def _sort_like(which, a, axis, kind=None, order=None, kth=None, stable=None):
    a = as_tensor(a)
    if a.ndim == 0 and which.startswith("arg"):  # NumPy takes a 0-d array as 1-d here
        from .reshape import ravel

        a = ravel(a)
    sample = sample_input(a)
    if which in ("sort", "argsort"):
        getattr(np, which)(sample, axis=axis, kind=kind, order=order, stable=stable)
    elif axis is not None:
        normalize_axis_index(axis, a.ndim)
    a, axis = _prepare(a, axis)
    if kth is not None:
        kth = _check_kth(kth, a.shape[axis])
    dtype = np.intp if which.startswith("arg") else a.dtype
    op = TensorSort(which=which, axis=axis, kind=kind, order=order, kth=kth, label=f"mt.{which}")
    return new_tensor(op, [a], a.shape, dtype)


def _check_kth(kth, n):
    kth = np.asarray(kth)
    if not np.issubdtype(kth.dtype, np.integer):
        raise TypeError("Partition index must be integer")
    if kth.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    if not _is_unknown(n) and n:  # NumPy checks nothing on an empty axis
        for k in kth.reshape(-1):
            if not -n <= k < n:
                raise ValueError(f"kth(={k}) out of bounds ({n})")
    return int(kth) if kth.ndim == 0 else tuple(int(k) for k in kth)


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """A sorted copy of ``a`` along ``axis`` (None: flattened); ties keep their order."""
    return _sort_like("sort", a, axis, kind, order, stable=stable)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """The indices that sort ``a`` along ``axis``; always stable (ties in original order),
    NumPy's ``kind='stable'`` result whatever ``kind`` says."""
    return _sort_like("argsort", a, axis, kind, order, stable=stable)


def lexsort(keys, axis=-1):
    """The indices sorting by several keys, the last one first (NumPy's ``lexsort``): a stable
    argsort by each key from the first to the last, each one of the previous order's values
    (least significant key first, like a radix sort), exact across chunks."""
    from .index_tricks import take_along_axis

    if isinstance(keys, Tileable) or isinstance(keys, np.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if np.ndim(keys) > 1 else [keys]
    keys = [as_tensor(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if len({tuple(k.shape) for k in keys}) > 1:
        raise ValueError("all keys need to be the same shape")
    np.lexsort([sample_input(k) for k in keys], axis=axis)  # NumPy's checks (axis, dtypes)
    order = None
    for k in keys:
        if k.ndim == 0:
            from .reshape import ravel

            k = ravel(k)
        ax = normalize_axis_index(axis, k.ndim)
        step = argsort(k if order is None else take_along_axis(k, order, ax), axis=ax)
        order = step if order is None else take_along_axis(order, step, ax)
    return order


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """``a`` partitioned around ``kth``: the value at ``kth`` is where sorting puts it, smaller
    ones before, larger after. Along an axis held by one chunk this is NumPy's own
    ``partition``; along a chunked axis it is the sorted array (also a valid partition)."""
    return _sort_like("partition", a, axis, kind, order, kth=kth)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The indices that partition ``a`` around ``kth`` (see :func:`partition`)."""
    return _sort_like("argpartition", a, axis, kind, order, kth=kth)


def sort_inplace(t, axis=-1, kind=None, order=None, *, stable=None):
    """``Tensor.sort``: sorts the tensor in place (it then stands for the sorted value)."""
    t.data = sort(t, axis, kind, order, stable=stable).data


def partition_inplace(t, kth, axis=-1, kind="introselect", order=None):
    """``Tensor.partition``: partitions the tensor in place."""
    t.data = partition(t, kth, axis, kind, order).data
