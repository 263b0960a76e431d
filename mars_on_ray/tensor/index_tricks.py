"""Indices along an axis: take_along_axis (every chunk of a lane answers the indices it holds,
merged by a tree), put_along_axis (rebinds like ``put``), and the index helpers
tril/triu/diag_indices(_from), ravel_multi_index."""
from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..config import options
from ..core.blockwise import broadcast_shape, offsets
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..core.reduction import tree_reduce
from .core import Tensor, as_tensor, new_tensor
from .rechunk import rechunk_tiled

__all__ = ["ix_", "take_along_axis", "put_along_axis", "tril_indices", "triu_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices", "diag_indices_from", "ravel_multi_index"]


class TakePartial(Operand):
    """The elements of one chunk of a lane at the indices it holds: (values, found)."""

    _params = ("axis", "start", "n")

    def execute(self, x, idx):
        if idx.size and (idx.min() < -self.n or idx.max() >= self.n):
            bad = idx[(idx < -self.n) | (idx >= self.n)].flat[0]
            raise IndexError(f"index {bad} is out of bounds for axis {self.axis} with size {self.n}")
        local = np.where(idx < 0, idx + self.n, idx) - self.start
        found = (local >= 0) & (local < x.shape[self.axis])
        if x.shape[self.axis] == 0:
            return np.zeros(idx.shape, x.dtype), found
        return np.take_along_axis(x, np.where(found, local, 0), self.axis), found


class TakeMerge(Operand):
    """Merge partials; ``final``: the values."""

    _params = ("final",)

    def execute(self, *parts):
        values, found = parts[0]
        for v, f in parts[1:]:
            values, found = np.where(f, v, values), found | f
        return values if self.final else (values, found)


class TensorTakeAlongAxis(Operand):
    _params = ("axis",)

    def tile(self, ctx, out):
        a, idx = (yield from ctx.known(out.inputs[0])), (yield from ctx.known(out.inputs[1]))
        axis = self.axis
        n = int(sum(a.nsplits[axis]))
        idx = rechunk_tiled(idx, tuple(s if d == axis else a.nsplits[d]
                                       for d, s in enumerate(idx.nsplits)))
        starts = offsets(a.nsplits[axis])
        grid = chunk_grid(idx.chunks.shape)
        for pos, ic in np.ndenumerate(idx.chunks):
            lane = [a.chunks[pos[:axis] + (j,) + pos[axis + 1:]] for j in range(len(starts) - 1)]
            parts = chunk_grid((len(lane),))
            for j, c in enumerate(lane):
                op = TakePartial(axis=axis, start=int(starts[j]), n=n, label=self.label)
                parts[j] = ChunkData(op, [c, ic], ic.shape, out.meta, pos + (j,))

            def combine(chunks, index, pos=pos, ic=ic):
                return ChunkData(TakeMerge(final=False, label=self.label), chunks, ic.shape,
                                 out.meta, pos + index)

            def finish(chunks, index, pos=pos, ic=ic):
                return ChunkData(TakeMerge(final=True, label=self.label), chunks, ic.shape,
                                 out.meta, pos)

            grid[pos] = tree_reduce(parts, (0,), combine, finish, options.combine_size)[()]
        return Tiled(grid, idx.nsplits)


def _along(arr, indices, axis, name):
    """``arr`` and ``indices`` broadcast against each other on the axes other than ``axis``."""
    from .manipulation import broadcast_to
    from .reshape import ravel

    a = as_tensor(arr)
    idx = as_tensor(indices)
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        a, axis = ravel(a), 0
    if idx.ndim != a.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    axis = normalize_axis_index(axis, a.ndim)
    others = broadcast_shape(tuple(1 if d == axis else s for d, s in enumerate(a.shape)),
                             tuple(1 if d == axis else s for d, s in enumerate(idx.shape)))

    def fit(t, length):
        want = tuple(length if d == axis else s for d, s in enumerate(others))
        return t if tuple(t.shape) == want else broadcast_to(t, want)

    return fit(a, a.shape[axis]), fit(idx, idx.shape[axis]), axis


def take_along_axis(arr, indices, axis=-1):
    """``arr``'s elements at ``indices`` along ``axis`` (None: of the flattened ``arr``),
    the other axes broadcast against each other, like NumPy's."""
    a, idx, axis = _along(arr, indices, axis, "take_along_axis")
    if a.shape[axis] == 0 and idx.shape[axis] != 0:
        raise IndexError(f"cannot take along axis {axis} of size 0")
    op = TensorTakeAlongAxis(axis=axis, label="mt.take_along_axis")
    return new_tensor(op, [a, idx], idx.shape, a.dtype)


def put_along_axis(arr, indices, values, axis):
    """``arr[..., indices, ...] = values`` along ``axis``: ``arr`` (a tensor) is rebound to
    the result, like ``put``; returns None."""
    from .arithmetic import elementwise
    from .manipulation import broadcast_to
    from .reshape import reshape

    if not isinstance(arr, Tensor):
        raise TypeError("mt.put_along_axis: arr must be a tensor (it is rebound to the result)")
    flat = axis is None
    a, idx, axis = _along(arr, indices, axis, "put_along_axis")
    values = as_tensor(values)
    np.can_cast(values.dtype, a.dtype, casting="unsafe")
    vals = broadcast_to(values, idx.shape)
    # each position of the lane looks up the last index equal to it (NumPy writes in order)
    op = TensorPutAlongAxis(axis=axis, label="mt.put_along_axis")
    result = new_tensor(op, [a, idx, elementwise("astype", (vals,), dtype=a.dtype)], a.shape, a.dtype)
    arr.data = (reshape(result, arr.shape) if flat else result).data


class PutPartial(Operand):
    """A chunk of a lane with the values whose indices fall in it written, in index order."""

    _params = ("axis", "start", "n")

    def execute(self, x, idx, vals):
        if idx.size and (idx.min() < -self.n or idx.max() >= self.n):
            bad = idx[(idx < -self.n) | (idx >= self.n)].flat[0]
            raise IndexError(f"index {bad} is out of bounds for axis {self.axis} with size {self.n}")
        local = np.where(idx < 0, idx + self.n, idx) - self.start
        found = (local >= 0) & (local < x.shape[self.axis])
        out = x.copy()
        moved_o, moved_l = np.moveaxis(out, self.axis, -1), np.moveaxis(local, self.axis, -1)
        moved_f, moved_v = np.moveaxis(found, self.axis, -1), np.moveaxis(vals, self.axis, -1)
        for k in range(moved_l.shape[-1]):  # in index order: the last write wins, like NumPy
            sel = moved_f[..., k]
            lane = moved_o[sel]
            lane[np.arange(len(lane)), moved_l[..., k][sel]] = moved_v[..., k][sel]
            moved_o[sel] = lane
        return out


class TensorPutAlongAxis(Operand):
    _params = ("axis",)

    def tile(self, ctx, out):
        a = yield from ctx.known(out.inputs[0])
        axis = self.axis
        n = int(sum(a.nsplits[axis]))
        idx = yield from ctx.known(out.inputs[1])
        vals = yield from ctx.known(out.inputs[2])
        # the indices of a lane (few) in one chunk along the axis, beside every chunk of the lane
        want = tuple((int(sum(s)),) if d == axis else a.nsplits[d] for d, s in enumerate(idx.nsplits))
        idx, vals = rechunk_tiled(idx, want), rechunk_tiled(vals, want)
        starts = offsets(a.nsplits[axis])
        grid = chunk_grid(a.chunks.shape)
        for pos, c in np.ndenumerate(a.chunks):
            other = pos[:axis] + (0,) + pos[axis + 1:]
            op = PutPartial(axis=axis, start=int(starts[pos[axis]]), n=n, label=self.label)
            grid[pos] = ChunkData(op, [c, idx.chunks[other], vals.chunks[other]], c.shape,
                                  out.meta, pos)
        return Tiled(grid, a.nsplits)


# --- index helpers ------------------------------------------------------------------------------

def _tri_indices(n, k, m, lower: bool):
    from ..core.executable import ExecutableTuple
    from .arithmetic import greater_equal, less_equal
    from .datasource import arange
    from .nonzero import nonzero

    m = n if m is None else m
    rows, cols = arange(n)[:, None] + k, arange(m)[None, :]
    mask = (greater_equal if lower else less_equal)(rows, cols)  # NumPy's tri(n, m, k)
    return ExecutableTuple(nonzero(mask))


def tril_indices(n, k=0, m=None):
    """The (row, column) indices of the lower triangle of an ``n`` x ``m`` array, at and
    below the ``k``-th diagonal, in C order."""
    return _tri_indices(n, k, m, True)


def triu_indices(n, k=0, m=None):
    """The (row, column) indices of the upper triangle, at and above the ``k``-th diagonal."""
    return _tri_indices(n, k, m, False)


def _check_2d(arr):
    arr = as_tensor(arr)
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return arr


def tril_indices_from(arr, k=0):
    """:func:`tril_indices` for the shape of the 2-D ``arr``."""
    arr = _check_2d(arr)
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    """:func:`triu_indices` for the shape of the 2-D ``arr``."""
    arr = _check_2d(arr)
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array (``ndim`` times)."""
    from ..core.executable import ExecutableTuple
    from .datasource import arange

    idx = arange(n)
    return ExecutableTuple((idx,) * ndim)


def diag_indices_from(arr):
    """:func:`diag_indices` for ``arr``, whose axes must all have the same length."""
    arr = as_tensor(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def ravel_kernel(*index, dims=(), mode="raise", order="C"):
    return np.ravel_multi_index(index, dims, mode=mode, order=order)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices into an array of shape ``dims`` for the broadcast coordinate arrays
    ``multi_index`` (``mode`` raise / wrap / clip, per coordinate too); NumPy's function on
    every block, so out-of-range coordinates raise ValueError when computed."""
    from .arithmetic import elementwise

    index = [as_tensor(i) for i in multi_index]
    dims = (int(dims),) if np.isscalar(dims) else tuple(int(d) for d in dims)
    mode = mode if isinstance(mode, str) else tuple(mode)
    if len(index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    for i in index:
        if i.dtype.kind not in "iub":
            raise TypeError("only int indices permitted")
    np.ravel_multi_index(tuple(np.zeros(0, np.intp) for _ in dims), dims, mode, order)  # checks
    return elementwise(f"{__name__}:ravel_kernel", index, label="mt.ravel_multi_index",
                       result_dtype=np.intp, dims=dims, mode=mode, order=order)


def ix_(*args):
    """Open-mesh index tensors: sequence ``k`` shaped to run along axis ``k`` only (boolean
    sequences by their True positions), for ``t[mt.ix_(rows, cols)]``."""
    from .nonzero import flatnonzero

    out = []
    for k, seq in enumerate(args):
        # client sequences through NumPy's own ix_ (its errors; True positions known now)
        t = seq if isinstance(seq, Tensor) else as_tensor(np.ix_(seq)[0].reshape(-1))
        if t.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if t.dtype == np.bool_:
            t = flatnonzero(t)
        elif t.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        out.append(t.reshape((1,) * k + (-1,) + (1,) * (len(args) - k - 1)))
    return tuple(out)
