"""unique (with first indices, inverse and counts) and the set operations built on it.

``unique`` range-partitions distinct values: each chunk finds its own distinct values (with
first global index and count) and a regular sample; the samples give split points; partition
j merges the j-th pieces of every chunk, so the partitions in order are the sorted distinct
values. ``isin`` tests each element chunk against every chunk of the test values and ORs the
answers in a tree.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..config import options
from ..core.blockwise import offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from ..core.tiling import ValuesRequest
from .core import as_tensor, new_tensor, tensor_meta
from .rechunk import rechunk_tiled
from .sorting import pick_pivots

__all__ = ["unique", "isin", "in1d", "setdiff1d", "union1d", "intersect1d", "setxor1d"]

NAN = float("nan")


class LocalUnique(Operand):
    """A chunk's distinct values as (values, first flat index, counts), and a sample of them."""

    _params = ("dtype", "n_samples", "offset", "shape")
    n_outputs = 2

    def execute(self, x):
        x = np.asarray(x, dtype=self.dtype)
        values, first, counts = np.unique(x.reshape(-1), return_index=True, return_counts=True)
        if self.offset is not None and x.ndim:
            local = np.unravel_index(first, x.shape)
            first = np.ravel_multi_index(tuple(p + o for p, o in zip(local, self.offset)), self.shape)
        picks = np.linspace(0, len(values) - 1, min(self.n_samples, len(values))).round()
        return (values, first.astype(np.intp), counts), values[picks.astype(np.intp)]


class SplitUnique(Operand):
    _params = ("pivots", "n")
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n

    def execute(self, part):
        values = part[0]
        cuts = [0, *np.searchsorted(values, self.pivots, side="right"), len(values)]
        pieces = tuple(tuple(p[cuts[j]:cuts[j + 1]] for p in part) for j in range(self.n))
        return pieces if self.n > 1 else pieces[0]


class MergeUnique(Operand):
    """One range's distinct values, first indices and counts from every chunk's piece."""

    n_outputs = 3

    def execute(self, *parts):
        values, inverse = np.unique(np.concatenate([p[0] for p in parts]), return_inverse=True)
        first = np.full(len(values), np.iinfo(np.intp).max, dtype=np.intp)
        np.minimum.at(first, inverse, np.concatenate([p[1] for p in parts]))
        counts = np.zeros(len(values), dtype=np.intp)
        np.add.at(counts, inverse, np.concatenate([p[2] for p in parts]))
        return values, first, counts


class InverseChunk(Operand):
    """Each element's position in the whole unique result (the ranges' values are inputs)."""

    _params = ("pivots", "starts", "dtype")

    def execute(self, x, *ranges):
        x = np.asarray(x, dtype=self.dtype)
        codes = np.searchsorted(self.pivots, x, side="left")  # v <= pivot j: range j
        out = np.empty(x.shape, dtype=np.intp)
        for j, values in enumerate(ranges):
            sel = codes == j
            out[sel] = np.searchsorted(values, x[sel]) + self.starts[j]
        return out


class TensorUnique(Operand):
    """One output (``values``/``index``/``inverse``/``counts``) of the unique of the inputs'
    elements taken together."""

    _params = ("output", "dtype")

    def tile(self, ctx, out):
        tileds = []
        for inp in out.inputs:
            tileds.append((yield from ctx.known(inp)))
        chunks = [(t, idx, c) for t in tileds for idx, c in np.ndenumerate(t.chunks)]
        n = len(chunks)
        vmeta = tensor_meta(self.dtype, 1)
        locals_, samples = [], []
        for i, (t, idx, c) in enumerate(chunks):
            shape = tuple(int(sum(s)) for s in t.nsplits)
            offset = tuple(int(offsets(s)[j]) for s, j in zip(t.nsplits, idx))
            op = LocalUnique(dtype=self.dtype, n_samples=n, offset=offset, shape=shape,
                             label=self.label)
            locals_.append(ChunkData(op, [c], (NAN,), vmeta, (i,), 0))
            samples.append(ChunkData(op, [c], (NAN,), vmeta, (i,), 1))
        yield locals_ + samples  # computed (and kept) together: each chunk is read once
        pivots = pick_pivots((yield ValuesRequest(samples)), n)
        pivots = np.unique(pivots)  # equal split points would only make empty ranges
        m = len(pivots) + 1
        pieces = []
        for i, part in enumerate(locals_):
            op = SplitUnique(pivots=pivots, n=m, label=self.label)
            pieces.append([ChunkData(op, [part], (NAN,), vmeta, (i,), j) for j in range(m)])
        merged = []
        for j in range(m):
            op = MergeUnique(label=self.label)
            inputs = [p[j] for p in pieces]
            merged.append([ChunkData(op, inputs, (NAN,), vmeta if k == 0 else tensor_meta(np.intp, 1),
                                     (j,), k) for k in range(3)])
        shapes = yield [mv[0] for mv in merged]
        sizes = tuple(int(s[0]) for s in shapes)
        if self.output == "inverse":
            starts = offsets(sizes)
            (t,) = tileds
            grid = chunk_grid(t.chunks.shape)
            ranges = [mv[0].with_shape((s,)) for mv, s in zip(merged, sizes)]
            for idx, c in np.ndenumerate(t.chunks):
                op = InverseChunk(pivots=pivots, starts=tuple(starts[:-1]), dtype=self.dtype,
                                  label=self.label)
                grid[idx] = ChunkData(op, [c, *ranges], c.shape, out.meta, idx)
            return Tiled(grid, t.nsplits)
        k = {"values": 0, "index": 1, "counts": 2}[self.output]
        grid = chunk_grid((m,))
        for j, mv in enumerate(merged):
            grid[j] = mv[k].with_shape((sizes[j],))
        return Tiled(grid, (sizes,))


def _unique(tensors, output, dtype, label):
    shape = tensors[0].shape if output == "inverse" else (NAN,)
    op = TensorUnique(output=output, dtype=np.dtype(dtype), label=label)
    return new_tensor(op, tensors, shape, dtype if output == "values" else np.intp)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """The sorted distinct elements of ``ar`` (flattened), optionally with the flat index of
    each one's first occurrence, every element's position in the result (``ar``'s shape) and
    each one's count. NaNs count as one value, like NumPy's default (``equal_nan=False``: each
    its own, last, in flat order). With ``axis``: the distinct sub-arrays along it (compared as
    records), sorted like NumPy's."""
    ar = as_tensor(ar)
    if not equal_nan:
        if axis is not None:
            raise NotImplementedError("mt.unique: equal_nan=False with axis=")
        from .array_api import _unique as unique_each_nan

        parts = unique_each_nan(ar, return_index, return_inverse, return_counts)
        return tuple(parts) if len(parts) > 1 else parts[0]
    if axis is not None:
        return _unique_along(ar, axis, return_index, return_inverse, return_counts)
    values = _unique([ar], "values", ar.dtype, "mt.unique")
    extra = [_unique([ar], name, ar.dtype, "mt.unique")
             for name, flag in (("index", return_index), ("inverse", return_inverse),
                                ("counts", return_counts)) if flag]
    return (values, *extra) if extra else values


class Records(Operand):
    """Whole sub-arrays along axis 0 as records of the structured dtype ``to`` (``rest``:
    their shape), or (``back``: their shape) records viewed back as sub-arrays of ``to``."""

    _params = ("to", "rest", "back")
    rest = back = None

    def tile(self, ctx, out):
        t = yield from ctx.known(out.inputs[0])
        if self.rest is not None:
            t = rechunk_tiled(t, [t.nsplits[0]] + [(int(sum(s)),) for s in t.nsplits[1:]])
        lead = (0,) * (out.ndim - 1)
        grid = chunk_grid((t.chunks.shape[0],) + (1,) * (out.ndim - 1))
        for i, c in enumerate(t.chunks.reshape(t.chunks.shape[0], -1)[:, 0]):
            shape = (c.shape[0],) + tuple(out.shape[1:])
            grid[(i,) + lead] = ChunkData(self.new(), [c], shape, out.meta, (i,) + lead)
        return Tiled.from_chunks(grid)

    def execute(self, x):
        if self.rest is not None:
            return np.ascontiguousarray(x.reshape(len(x), -1)).view(self.to).reshape(-1)
        return x.view(self.to).reshape((len(x),) + tuple(self.back))


def _unique_along(ar, axis, return_index, return_inverse, return_counts):
    """``unique(ar, axis=k)``: the distinct sub-arrays along ``axis``, as NumPy."""
    from .reshape import transpose

    axis = normalize_axis_index(axis, ar.ndim)
    order = [axis] + [d for d in range(ar.ndim) if d != axis]
    moved = transpose(ar, order)
    rest = tuple(moved.shape[1:])
    if not all(s == s and s > 0 for s in rest) or ar.dtype.hasobject:
        raise NotImplementedError("mt.unique(axis=...) needs known, non-empty other axes and a "
                                  "non-object dtype")
    struct = np.dtype([(f"f{i}", ar.dtype) for i in range(int(np.prod(rest)))])
    records = new_tensor(Records(to=struct, rest=rest, label="mt.unique"), [moved],
                         (moved.shape[0],), struct)
    found = _unique([records], "values", struct, "mt.unique")
    op = Records(to=ar.dtype, back=rest, label="mt.unique")
    values = transpose(new_tensor(op, [found], (NAN,) + rest, ar.dtype), list(np.argsort(order)))
    extra = [_unique([records], name, struct, "mt.unique")
             for name, flag in (("index", return_index), ("inverse", return_inverse),
                                ("counts", return_counts)) if flag]
    return (values, *extra) if extra else values


class IsinChunk(Operand):
    _params = ("kind",)

    def execute(self, element, test):
        return np.isin(element, test, kind=self.kind)


class AnyOf(Operand):
    _params = ("invert",)

    def execute(self, *parts):
        result = np.logical_or.reduce(parts) if len(parts) > 1 else parts[0]
        return ~result if self.invert else result


class TensorIsin(Operand):
    _params = ("invert", "kind")

    def tile(self, ctx, out):
        element = ctx[out.inputs[0]]
        test = yield from ctx.known(out.inputs[1])
        if test.chunks.ndim == 1 and len(test.chunks) > 1:  # few, bounded test pieces
            per = max(1, options.chunk_store_limit // max(1, out.inputs[1].dtype.itemsize))
            size = int(sum(test.nsplits[0]))
            test = rechunk_tiled(test, [[min(per, size - s) for s in range(0, size, per)]])
        tests = list(test.chunks.flat)
        grid = chunk_grid(element.chunks.shape + (len(tests),))
        for idx, c in np.ndenumerate(element.chunks):
            for j, tc in enumerate(tests):
                op = IsinChunk(kind=self.kind, label=self.label)
                grid[idx + (j,)] = ChunkData(op, [c, tc], c.shape, out.meta, idx + (j,))
        last = element.chunks.ndim

        def combine(chunks, index):
            return ChunkData(AnyOf(invert=False, label=self.label), chunks, chunks[0].shape,
                             out.meta, index)

        def finish(chunks, kept):
            return ChunkData(AnyOf(invert=self.invert, label=self.label), chunks, chunks[0].shape,
                             out.meta, kept)

        return Tiled(tree_reduce(grid, (last,), combine, finish, options.combine_size),
                     element.nsplits)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of ``element`` is in ``test_elements`` (``element``'s shape)."""
    from .reshape import ravel

    element, test = as_tensor(element), as_tensor(test_elements)
    np.isin(np.zeros(1, element.dtype), np.zeros(1, test.dtype), kind=kind)
    test = ravel(test) if test.ndim != 1 else test
    op = TensorIsin(invert=bool(invert), kind=kind, label="mt.isin")
    return new_tensor(op, [element, test], element.shape, np.bool_)


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """``isin`` of the flattened ``ar1`` (NumPy's former ``in1d``)."""
    from .reshape import ravel

    return isin(ravel(as_tensor(ar1)), ar2, assume_unique, invert, kind=kind)


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted distinct values of ``ar1`` not in ``ar2`` (``ar1`` as is if
    ``assume_unique``)."""
    from .reshape import ravel

    if assume_unique:
        ar1 = ravel(as_tensor(ar1))
    else:
        ar1 = unique(ar1)
    return ar1[isin(ar1, ar2, invert=True)]


def union1d(ar1, ar2):
    """The sorted distinct values of both inputs."""
    ar1, ar2 = as_tensor(ar1), as_tensor(ar2)
    dtype = np.result_type(ar1.dtype, ar2.dtype)
    return _unique([ar1, ar2], "values", dtype, "mt.union1d")


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the inputs (NaNs of both kept, as NumPy's do)."""
    from .joining import concatenate
    from .sorting import sort

    ar1, ar2 = as_tensor(ar1), as_tensor(ar2)
    return sort(concatenate([setdiff1d(ar1, ar2, assume_unique), setdiff1d(ar2, ar1, assume_unique)]))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted distinct values in both inputs; with ``return_indices``, also where each
    first occurs in the flattened inputs (an ``ExecutableTuple``)."""
    from ..core.executable import ExecutableTuple
    from .reshape import ravel
    from .sorting import sort

    ar1, ar2 = as_tensor(ar1), as_tensor(ar2)
    dtype = np.result_type(ar1.dtype, ar2.dtype)
    u1 = sort(ravel(ar1)) if assume_unique else unique(ar1)
    u1 = u1.astype(dtype) if u1.dtype != dtype else u1
    common = u1[isin(u1, ar2)]
    if not return_indices:
        return common
    return ExecutableTuple((common, _first_positions(ar1, common), _first_positions(ar2, common)))


def _first_positions(ar, values):
    """Where each of ``values`` (all present) first occurs in the flattened ``ar``: a stable
    argsort keeps equal values in their order, so the leftmost match is the first."""
    from .histogram import searchsorted
    from .reshape import ravel
    from .sorting import argsort

    flat = ravel(ar)
    order = argsort(flat, kind="stable")
    return order[searchsorted(flat[order], values.astype(flat.dtype) if values.dtype != flat.dtype else values)]
