"""Positional row selection on row chunks: ``iloc``, ``iat``, ``take``, ``tail``.

Rows are addressed by their global position. A selection that needs only the first (last)
rows asks for the real shapes of the leading (trailing) chunks in doubling batches; any other
asks for every shape (``ctx.known``). Sorted positions become slices of the chunks holding
them (small neighbouring pieces share an output chunk); unsorted ones are a gather: each chunk
sends every output block the rows it holds for it, and the block puts them in order.
"""
from __future__ import annotations

import math
import operator

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, TileableData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from ..tensor.indexing import _slice_pieces
from .blockwise import chunk_shape, concat_values, map_chunks, row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, _Frame, methods, new_frame
from .rules.usage import is_frame, uses

__all__: list[str] = []

PANDAS3 = int(pd.__version__.split(".")[0]) >= 3
_OUT_OF_BOUNDS = "positional indexers are out-of-bounds"


def is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _unknown(n) -> bool:
    return isinstance(n, float) and math.isnan(n)


def _idx(meta, i: int) -> tuple:
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


# --- real extents -------------------------------------------------------------------------

def real_shapes(chunks):
    """The chunks with real shapes: asks for the unknown ones (``yield from``)."""
    unknown = [c for c in chunks if c.has_unknown_shape]
    if not unknown:
        return list(chunks)
    shapes = iter((yield unknown))
    return [c.with_shape(next(shapes)) if c.has_unknown_shape else c for c in chunks]


def known_end(ctx, node, rows: int, from_end: bool = False):
    """``(chunks, k)``: node's row chunks where ``chunks[:k]`` (``chunks[k:]`` from the end)
    have real shapes and hold at least ``rows`` rows, or are all of them. Shapes are asked
    in doubling batches from that end."""
    chunks = row_chunks(ctx[node])
    order = list(range(len(chunks)))
    if from_end:
        order.reverse()
    have, done, batch = 0, 0, 1
    while have < rows and done < len(order):
        idx = order[done:done + batch]
        for i, c in zip(idx, (yield from real_shapes([chunks[i] for i in idx]))):
            chunks[i] = c
            have += c.shape[0]
        done += len(idx)
        batch *= 2
    return chunks, (len(chunks) - done if from_end else done)


# --- pieces: (chunk, local selector, rows) in result order ---------------------------------

def _cut(chunks, sl: slice) -> list:
    if not chunks:
        return []
    splits = [int(c.shape[0]) for c in chunks]
    return [(chunks[k], local, n) for k, local, n in _slice_pieces(sl, splits) if n]


def slice_pieces(ctx, node, sl: slice):
    """The pieces of rows ``sl`` of ``node``, knowing only the extents they need."""
    start, stop, step = sl.start, sl.stop, 1 if sl.step is None else sl.step
    head_start = start is None or start >= 0
    if step > 0 and head_start and stop is not None and stop >= 0:
        chunks, k = yield from known_end(ctx, node, stop)
        return _cut(chunks[:k], sl)
    if step == 1 and head_start and stop is None:
        chunks, k = yield from known_end(ctx, node, start or 0)
        return _cut(chunks[:k], sl) + [(c, slice(None), c.shape[0]) for c in chunks[k:]]
    if step > 0 and start is not None and start < 0 and (stop is None or stop < 0):
        chunks, k = yield from known_end(ctx, node, -start, from_end=True)
        return _cut(chunks[k:], sl)
    return _cut(row_chunks((yield from ctx.known(node))), sl)


def locate(ctx, node, positions: np.ndarray, error: str = _OUT_OF_BOUNDS):
    """``(chunks, src, local)`` for integer ``positions`` (negative from the end): the chunk
    (index into ``chunks``) and the row inside it of each; IndexError(``error``) when out of bounds."""
    if len(positions) == 0:
        return row_chunks(ctx[node]), positions, positions
    if positions.min() >= 0:
        chunks, k = yield from known_end(ctx, node, int(positions.max()) + 1)
        chunks = chunks[:k]
    elif positions.max() < 0:
        chunks, k = yield from known_end(ctx, node, -int(positions.min()), from_end=True)
        chunks = chunks[k:]
    else:
        chunks = row_chunks((yield from ctx.known(node)))
    offsets = np.cumsum([0] + [int(c.shape[0]) for c in chunks])
    positions = np.where(positions < 0, positions + offsets[-1], positions)
    if len(positions) and (positions.min() < 0 or positions.max() >= offsets[-1]):
        raise IndexError(error)
    src = np.searchsorted(offsets, positions, side="right") - 1
    return chunks, src, positions - offsets[src]


def _compact(local: np.ndarray):
    """A slice when the positions are consecutive and increasing (smaller, faster); pandas 2.2
    takes positions into a plain Index where a slice keeps a RangeIndex, so arrays stay there."""
    consecutive = len(local) and local[-1] - local[0] == len(local) - 1 and np.all(np.diff(local) == 1)
    if PANDAS3 and consecutive:
        return slice(int(local[0]), int(local[-1]) + 1)
    return local


def position_pieces(chunks, src, local) -> list | None:
    """Pieces for located positions when they come in runs per chunk (sorted, reversed,
    a boolean mask); None when they are scattered (a gather is cheaper)."""
    starts = np.flatnonzero(np.diff(src)) + 1
    bounds = [0, *starts.tolist(), len(src)]
    if len(bounds) - 1 > 2 * len(np.unique(src)):
        return None
    return [(chunks[src[a]], _compact(local[a:b]), b - a) for a, b in zip(bounds[:-1], bounds[1:])]


# --- chunk kernels ------------------------------------------------------------------------

def _take(v, sel):
    return v[sel] if isinstance(v, pd.Index) else v.iloc[sel]


class TakeRows(Operand):
    """Rows ``sels[i]`` (a slice or positions) of each input chunk, concatenated."""

    _params = ("sels",)

    def execute(self, *values):
        return concat_values([_take(v, s) for v, s in zip(values, self.sels)])


class GatherMap(Operand):
    """Split one chunk's rows among output blocks: output ``j`` holds rows ``parts[j]``."""

    _params = ("parts",)
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.parts)

    def execute(self, v):
        pieces = tuple(v.iloc[p] for p in self.parts)
        return pieces if len(pieces) > 1 else pieces[0]


class GatherBlock(Operand):
    """One output block: the pieces from each chunk joined, rows put in ``order``."""

    _params = ("order",)

    def execute(self, *pieces):
        return concat_values(list(pieces)).iloc[self.order]


class PickRow(Operand):
    """Row ``local`` of one chunk: a scalar for a Series, a row Series for a DataFrame."""

    _params = ("local",)

    def execute(self, v):
        return v.iloc[self.local]


class MaskChunk(Operand):
    """Rows of a chunk where the (positionally aligned) boolean array chunk is True."""

    def execute(self, v, mask):
        return v.iloc[np.asarray(mask, dtype=bool)]


# --- assembling output chunks -------------------------------------------------------------

def _group(pieces, cap: int) -> list[list]:
    """Consecutive pieces grouped into output chunks: a small piece (at most half the largest
    input chunk) joins its neighbour while the two stay within two chunks."""
    groups, sizes = [], []
    for p in pieces:
        n = p[2]
        if sizes and not _unknown(n) and not _unknown(sizes[-1]) and \
                min(n, sizes[-1]) <= cap / 2 and sizes[-1] + n <= 2 * cap:
            groups[-1].append(p)
            sizes[-1] += n
        else:
            groups.append([p])
            sizes.append(n)
    return groups


NO_ROWS = np.array([], dtype=np.intp)


def assemble(out, pieces, first_chunk, empty=slice(0, 0)) -> Tiled:
    """Output chunks of ``out`` from pieces (one chunk of ``first_chunk``'s rows ``empty``
    when there are none: a slice, or positions where pandas takes)."""
    meta = out.meta
    if not pieces:
        pieces = [(first_chunk, empty, 0)]
    cap = max([int(c.shape[0]) for c, _, _ in pieces if not c.has_unknown_shape] + [1])
    chunks = []
    for i, group in enumerate(_group(pieces, cap)):
        rows = sum(n for _, _, n in group)
        op = TakeRows(sels=tuple(s for _, s, _ in group), label=out.op.label)
        inputs = [c for c, _, _ in group]
        chunks.append(ChunkData(op, inputs, chunk_shape(meta, rows), meta, _idx(meta, i)))
    return rows_grid(chunks, meta)


def gather(out, chunks, src, local, map_op=None, extra=None) -> Tiled:
    """Output blocks (about one input chunk each) of scattered rows: chunk ``i`` sends block
    ``j`` its rows ``local`` of the draws ``t`` with ``src[t] == i`` in block ``j``. ``map_op``
    makes the operand of one chunk's split (with ``extra[i]``: more inputs for chunk ``i``)."""
    meta = out.meta
    block = max(1, max(int(c.shape[0]) for c in chunks))
    nblocks = -(-len(src) // block)
    key = src.astype(np.int64) * nblocks + np.arange(len(src)) // block
    order = np.argsort(key, kind="stable")
    groups = np.split(order, np.flatnonzero(np.diff(key[order])) + 1)
    by_src: dict[int, list] = {}
    for g in groups:
        i, j = divmod(int(key[g[0]]), nblocks)
        by_src.setdefault(i, []).append((j, g))
    blocks: list[list] = [[] for _ in range(nblocks)]
    for i, lst in by_src.items():
        parts = tuple(local[g] for _, g in lst)
        op = (map_op or GatherMap)(parts=parts, label=out.op.label)
        for o, (j, g) in enumerate(lst):
            ins = [chunks[i]] + (extra[i] if extra else [])
            piece = ChunkData(op, ins, chunk_shape(meta, len(g)), meta, _idx(meta, i), o)
            blocks[j].append((piece, g))
    result = []
    for j, lst in enumerate(blocks):
        draws = np.concatenate([g for _, g in lst])
        op = GatherBlock(order=np.argsort(draws, kind="stable"), label=out.op.label)
        shape = chunk_shape(meta, len(draws))
        result.append(ChunkData(op, [p for p, _ in lst], shape, meta, _idx(meta, j)))
    return rows_grid(result, meta)


def single(out, chunk) -> Tiled:
    """A tiled made of one chunk (a 0-d scalar or a small 1-d result)."""
    grid = chunk_grid((1,) * out.ndim)
    grid[(0,) * out.ndim] = chunk
    return Tiled(grid, tuple((s,) for s in out.shape))


# --- tileable operands --------------------------------------------------------------------

class RowsOp(Operand):
    """A row selection: the output's metadata is its first input's."""

    def rebuild(self, node, inputs):
        meta = inputs[0].meta
        return TileableData(self, inputs, chunk_shape(meta, node.shape[0]), meta, node.chunk_size)


class RowSlice(RowsOp):
    """Rows ``start:stop:step`` by position."""

    _params = ("start", "stop", "step")

    def tile(self, ctx, out):
        sl = slice(self.start, self.stop, self.step)
        pieces = yield from slice_pieces(ctx, out.inputs[0], sl)
        return assemble(out, pieces, row_chunks(ctx[out.inputs[0]])[0])


class RowTake(RowsOp):
    """Rows at integer ``positions`` (any order, repeats, negative from the end)."""

    _params = ("positions",)

    def tile(self, ctx, out):
        return (yield from self._take(ctx, out, self.positions))

    def _take(self, ctx, out, positions):
        node = out.inputs[0]
        chunks, src, local = yield from locate(ctx, node, positions)
        if len(src) == 0:
            return assemble(out, [], row_chunks(ctx[node])[0], NO_ROWS)
        pieces = position_pieces(chunks, src, local)
        if pieces is None:
            return gather(out, chunks, src, local)
        return assemble(out, pieces, chunks[0])


class LazyRowTake(RowTake):
    """Rows at the positions a lazy integer tensor (the second input) holds: computed and
    fetched when tiling (positions, not data, pass through the supervisor)."""

    def tile(self, ctx, out):
        from ..tensor.fancy_index import fetch_index_values

        positions, = yield from fetch_index_values(ctx, [out.inputs[1]])
        return (yield from self._take(ctx, out, np.asarray(positions, dtype=np.intp).reshape(-1)))


class RowPick(Operand):
    """One row by position: a row Series of a DataFrame, a scalar of a Series."""

    _params = ("position",)

    def tile(self, ctx, out):
        chunks, src, local = yield from locate(ctx, out.inputs[0], np.array([self.position]),
                                               "single positional indexer is out-of-bounds")
        op = PickRow(local=int(local[0]), label=self.label)
        return single(out, ChunkData(op, [chunks[src[0]]], out.shape, out.meta, (0,) * out.ndim))


class MaskRows(RowsOp):
    """Rows where a lazy boolean tensor, lined up by position, is True."""

    def tile(self, ctx, out):
        from ..tensor.rechunk import rechunk_tiled

        data, mask = out.inputs
        t = yield from ctx.known(data)
        m = yield from ctx.known(mask)
        n, k = int(sum(t.nsplits[0])), int(sum(m.nsplits[0]))
        if n != k:
            raise IndexError(f"Boolean index has wrong length: {k} instead of {n}")
        m = rechunk_tiled(m, (t.nsplits[0],))
        chunks = [ChunkData(MaskChunk(label=self.label), [c, mc], chunk_shape(out.meta, math.nan),
                            out.meta, _idx(out.meta, i))
                  for i, (c, mc) in enumerate(zip(row_chunks(t), m.chunks.reshape(-1)))]
        return rows_grid(chunks, out.meta)


def _row_selection_columns(node, needed):
    """A row selection needs of its data what is needed of it (nothing of a mask)."""
    return [needed if is_frame(node) else None] + [None] * (len(node.inputs) - 1)


for _op in (RowSlice, RowTake, LazyRowTake, MaskRows):
    uses(_op)(_row_selection_columns)


# --- building selections ------------------------------------------------------------------

def _rows(obj) -> float:
    return obj.shape[0]


def scalar_dtype(dtype) -> np.dtype:
    """The dtype of a 0-d tensor holding one value of a pandas ``dtype``."""
    return dtype if isinstance(dtype, np.dtype) and dtype.kind in "biufc" else np.dtype(object)


def row_meta(meta: pd.DataFrame, name=None) -> pd.Series:
    """The empty metadata of one row of a DataFrame (columns become the index)."""
    if len(meta.columns) == 0:
        row = pd.DataFrame(index=[0]).iloc[0]
    else:
        row = sample_of(meta).iloc[0]
    return row.iloc[:0].rename(name)


def pick(obj, position: int, label: str = "md.iloc"):
    """Row ``position``: a scalar (0-d tensor) of a Series, a row Series of a DataFrame."""
    n = _rows(obj)
    if not _unknown(n) and not -n <= position < n:
        raise IndexError("single positional indexer is out-of-bounds")
    op = RowPick(position=int(position), label=label)
    if isinstance(obj, Series):
        return new_tensor(op, [obj], (), scalar_dtype(obj.dtype))
    # the row's name is its index label, unknown until run: the declared name is None
    return new_frame(op, [obj], len(obj.columns), row_meta(obj.data.meta))


def take_rows(obj, positions, label: str = "md.iloc", error: str = _OUT_OF_BOUNDS):
    """Rows at integer ``positions`` (a NumPy array)."""
    positions = np.asarray(positions, dtype=np.intp).reshape(-1)
    n = _rows(obj)
    if not _unknown(n) and len(positions) and (positions.min() < -n or positions.max() >= n):
        raise IndexError(error)
    return new_frame(RowTake(positions=positions, label=label), [obj], len(positions), obj.data.meta)


def mask_rows(obj, mask, label: str = "md.iloc"):
    """Rows where a boolean array-like or lazy tensor, lined up by position, is True
    (chunk by chunk: the mask is cut like the rows)."""
    from ..tensor.datasource import tensor

    count = math.nan
    if not isinstance(mask, Tensor):
        mask = np.asarray(mask, dtype=bool)
        count = int(mask.sum())
        mask = tensor(mask)
    if mask.ndim != 1:
        raise IndexError("a boolean indexer must be 1-dimensional")
    n, k = _rows(obj), mask.shape[0]
    if not _unknown(n) and not _unknown(k) and n != k:
        raise IndexError(f"Boolean index has wrong length: {k} instead of {int(n)}")
    return new_frame(MaskRows(label=label), [obj, mask], count, obj.data.meta)


def slice_rows(obj, sl: slice, label: str = "md.iloc"):
    """Rows ``sl`` by position; ``[:n]`` is ``head(n)`` (so a reader's limit applies)."""
    from .indexing import head

    start, stop, step = sl.start, sl.stop, sl.step
    for v in (start, stop, step):
        if v is not None and not is_int(v):
            raise TypeError(f"cannot do positional indexing with these indexers [{v}] of type "
                            f"{type(v).__name__}")
    if step == 0:
        raise ValueError("slice step cannot be zero")
    step = None if step == 1 else step
    if start in (None, 0) and stop is None and step is None:
        return obj
    if step is None and start in (None, 0) and stop is not None:
        return head(obj, stop)
    if (step or 1) > 0 and stop is not None and stop >= 0 and (start or 0) >= 0:
        obj, stop = head(obj, stop), None  # the rows past ``stop`` are never read
    n = _rows(obj)
    size = math.nan if _unknown(n) else len(range(*slice(start, stop, step).indices(int(n))))
    op = RowSlice(start=start, stop=stop, step=step, label=label)
    return new_frame(op, [obj], size, obj.data.meta)


def iloc_rows(obj, key, label: str = "md.iloc"):
    """``obj.iloc[key]`` along rows."""
    if callable(key) and not isinstance(key, (_Frame, Tensor)):
        key = key(obj)
    if isinstance(key, slice):
        return slice_rows(obj, key, label)
    if is_int(key):
        return pick(obj, int(key), label)
    if isinstance(key, pd.Series):
        from .datasource import from_pandas

        key = from_pandas(key)
    if isinstance(key, Series):
        from .indexing import aligned_filter

        obj.data.meta.iloc[key.data.meta]  # pandas' errors (2.2 refuses indexable masks)
        return aligned_filter(obj, key)
    if isinstance(key, Tensor):
        if key.dtype == bool:
            return mask_rows(obj, key, label)
        if key.ndim != 1:
            raise IndexError("Buffer has wrong number of dimensions (expected 1)")
        if key.dtype.kind not in "iuf":
            raise IndexError(f".iloc requires numeric indexers, got a tensor of {key.dtype}")
        return new_frame(LazyRowTake(positions=None, label=label), [obj, key], key.shape[0],
                         obj.data.meta)
    if pd.api.types.is_list_like(key):
        arr = np.asarray(key)
        if arr.dtype == bool:
            return mask_rows(obj, arr, label)
        if arr.size == 0:
            arr = arr.astype(np.intp)
        if arr.dtype.kind == "f":  # pandas truncates float positions
            arr = np.asarray(key, dtype=np.intp)
        if arr.dtype.kind not in "iu":
            obj.data.meta.iloc[key]  # pandas' own error for these indexers
            raise IndexError(f".iloc requires numeric indexers, got {arr}")
        if arr.ndim != 1:
            raise IndexError("Buffer has wrong number of dimensions (expected 1)")
        return take_rows(obj, arr, label)
    raise TypeError("Cannot index by location index with a non-integer key")


def _icols(frame, cols):
    return frame.iloc[:, cols]


def iloc_columns(obj, cols):
    """``df.iloc[:, cols]``: columns by position, checked now against the metadata; selected
    by label when the labels are unique (so column pruning passes through)."""
    if isinstance(cols, slice) and cols == slice(None):
        return obj
    if isinstance(cols, (_Frame, Tensor)):
        raise NotImplementedError("lazy column indexers are not supported")
    if isinstance(cols, (list, tuple, pd.Index, np.ndarray)):
        cols = list(cols)
    picked = obj.data.meta.iloc[:, cols]  # pandas' IndexError / TypeError
    return select_columns(obj, picked, lambda: map_chunks(_icols, (obj, cols), label="md.iloc"))


def select_columns(obj, picked, fallback):
    """``obj``'s columns ``picked`` (the metadata of the selection) by label, or
    ``fallback()`` when the frame's column labels are not unique."""
    if not obj.data.meta.columns.is_unique:
        return fallback()
    if isinstance(picked, pd.Series):
        return obj[picked.name]
    return obj[list(picked.columns)]


def split_key(obj, key) -> tuple:
    """``(rows, cols)`` of an indexer key; cols is None for a Series."""
    from pandas.errors import IndexingError

    if not isinstance(key, tuple):
        return key, (slice(None) if isinstance(obj, DataFrame) else None)
    if len(key) > obj.ndim:
        raise IndexingError("Too many indexers")
    if isinstance(obj, Series):
        return key[0], None
    return (key + (slice(None),) * 2)[:2]


def row_then_columns(full, result):
    """pandas 2.2 takes one row of the whole frame before its columns: the row's dtype is
    the common dtype of every column (object for mixed frames), pandas 3 that of the selection."""
    if PANDAS3 or not isinstance(full, DataFrame) or not isinstance(result, Series):
        return result
    dtype = row_meta(full.data.meta).dtype
    if dtype == result.dtype:
        return result
    from .arithmetic import astype

    return astype(result, dtype)


def iloc_get(obj, key):
    """``obj.iloc[key]``: ints, slices, lists / arrays of positions, boolean masks, (rows, cols)."""
    rows, cols = split_key(obj, key)
    if cols is None or (isinstance(cols, slice) and cols == slice(None)):
        return iloc_rows(obj, rows)
    result = iloc_rows(iloc_columns(obj, cols), rows)
    return row_then_columns(obj, result) if is_int(rows) and not is_int(cols) else result


class _Indexer:
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


class _ILoc(_Indexer):
    __slots__ = ()

    def __getitem__(self, key):
        return iloc_get(self.obj, key)

    def __setitem__(self, key, value):
        from .setting import iloc_set

        self.obj.data = iloc_set(self.obj, key, value).data


class _IAt(_Indexer):
    __slots__ = ()

    def _check(self, key):
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != self.obj.ndim:
            raise ValueError("Invalid call for scalar access (getting)!")
        if not all(is_int(k) for k in key):
            raise ValueError("iAt based indexing can only have integer indexers")
        return key

    def __getitem__(self, key):
        return iloc_get(self.obj, self._check(key))

    def __setitem__(self, key, value):
        from .setting import iloc_set

        self.obj.data = iloc_set(self.obj, self._check(key), value).data


@methods(DataFrame, Series, prop=True)
def iloc(obj):
    """Selection by position: ``obj.iloc[rows]`` / ``df.iloc[rows, cols]``; settable."""
    return _ILoc(obj)


@methods(DataFrame, Series, prop=True)
def iat(obj):
    """One value by integer positions: ``df.iat[i, j]`` / ``s.iat[i]``; settable."""
    return _IAt(obj)


@methods(DataFrame, Series)
def take(obj, indices, axis=0, **kwargs):
    """Rows (``axis=0``) or columns (``axis=1``) at integer positions."""
    axis = {"index": 0, "rows": 0, "columns": 1}.get(axis, axis)
    indices = np.asarray(indices)
    if indices.dtype.kind not in "iu" and indices.size:
        raise TypeError(f"indices must be integers, got {indices.dtype}")
    if axis == 1 and isinstance(obj, DataFrame):
        return iloc_columns(obj, indices.astype(np.intp).tolist())
    if axis != 0:
        raise ValueError(f"No axis named {axis} for object type {type(obj).__name__}")
    return take_rows(obj, indices, label="md.take", error="indices are out-of-bounds")


@methods(DataFrame, Series)
def tail(obj, n: int = 5):
    """The last ``n`` rows (all but the first ``-n`` when negative); reads only the last chunks."""
    from .indexing import head

    n = operator.index(n)
    if n == 0:
        return head(obj, 0)
    nrows = _rows(obj)
    size = math.nan if _unknown(nrows) else (min(n, nrows) if n > 0 else max(0, nrows + n))
    # n > 0: from position -n; n < 0: from position |n|
    return new_frame(RowSlice(start=-n, stop=None, step=None, label="md.tail"), [obj], size,
                     obj.data.meta)
