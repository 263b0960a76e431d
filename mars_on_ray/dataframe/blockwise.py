"""Row-aligned chunk-by-chunk operations on frames, and row rechunking to line inputs up."""
from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pandas as pd

from ..core.entity import ChunkData, TileableData, Tiled, chunk_grid
from ..core.merge import append_indexes
from ..core.operand import Operand
from ..tensor.core import Tensor
from .core import _Frame, Index, new_frame


class In:
    """Placeholder for the i-th tileable input in a ``MapChunks`` argument template."""

    __slots__ = ("i",)

    def __init__(self, i: int):
        self.i = i

    def __mars_token__(self):
        return ("mars_on_ray.In", self.i)

    def __eq__(self, other):
        return isinstance(other, In) and other.i == self.i

    def __hash__(self):
        return hash(("In", self.i))


def concat_values(values: list):
    """Concatenate frame / series / index pieces along rows."""
    if len(values) == 1:
        return values[0]
    if isinstance(values[0], pd.Index):
        return append_indexes(values)
    return pd.concat(values, axis=0)


def chunk_shape(meta, nrows) -> tuple:
    return (nrows, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (nrows,)


def rows_grid(chunks: list[ChunkData], meta) -> Tiled:
    """A Tiled of row chunks laid out like a frame of ``meta``'s kind ((n, 1) or (n,))."""
    shape = (len(chunks), 1) if isinstance(meta, pd.DataFrame) else (len(chunks),)
    grid = chunk_grid(shape)
    for i, c in enumerate(chunks):
        grid[(i, 0) if len(shape) == 2 else (i,)] = c
    ncols = (len(meta.columns),) if isinstance(meta, pd.DataFrame) else None
    nsplits = (tuple(c.shape[0] for c in chunks),) + ((ncols,) if ncols else ())
    return Tiled(grid, nsplits)


def row_chunks(tiled: Tiled) -> list[ChunkData]:
    """The chunks of a row-split frame in row order."""
    return list(tiled.chunks.reshape(-1))


def sample_of(meta: pd.DataFrame | pd.Series):
    """A one-row sample with ``meta``'s dtypes, and an index of ``meta``'s index kind, names and
    dtype(s) (``index_sample``), to infer result metadata where empty input can't."""
    if isinstance(meta, pd.Series):  # to_frame names an unnamed Series 0: the name goes back
        return sample_of(meta.to_frame()).iloc[:, 0].rename(meta.name)
    sample = pd.DataFrame(_first_values(meta.dtypes, 1))
    sample.columns = meta.columns
    sample.index = index_sample(meta.index)
    return sample


def index_sample(index: pd.Index, n: int = 1) -> pd.Index:
    """``n`` labels (distinct where the dtype has as many) of ``index``'s kind (MultiIndex or
    not), names and dtype(s). Numbers count from 0, so samples of a RangeIndex and of an
    integer Index line up."""
    if isinstance(index, pd.RangeIndex):
        return pd.RangeIndex(n, name=index.name)
    dtypes = index.dtypes if isinstance(index, pd.MultiIndex) else [index.dtype]
    try:
        levels = pd.DataFrame(_first_values(dtypes, 0, n))
    except (TypeError, ValueError):  # a dtype with no stand-in value (integer intervals)
        return pd.RangeIndex(n, name=index.name) if index.nlevels == 1 else index[:0]
    if isinstance(index, pd.MultiIndex):
        return pd.MultiIndex.from_frame(levels, names=index.names)
    return pd.Index(levels[0]).rename(index.name)


def index_as(index: pd.Index, like: pd.Index) -> pd.Index:
    """``index`` with the dtypes of ``like``'s levels (a block's piece of a result whose labels
    pandas takes to a common dtype)."""
    if not isinstance(index, pd.MultiIndex):
        return index if index.dtype == like.dtype else index.astype(like.dtype)
    if list(index.dtypes) == list(like.dtypes):
        return index
    return pd.MultiIndex(levels=[lv.astype(dt) for lv, dt in zip(index.levels, like.dtypes)],
                         codes=index.codes, names=index.names)


def _first_values(dtypes, number, n: int = 1) -> dict:
    """``n`` values of each dtype (distinct where it has as many), as columns by position."""
    cols = {}
    for i, dtype in enumerate(dtypes):
        kind = getattr(dtype, "kind", "O")
        if isinstance(dtype, pd.CategoricalDtype):
            value = dtype.categories[:n].tolist() or [None]
        elif kind == "b":
            value = [True, False]
        elif kind in "iufc":
            value = list(range(number, number + n))
        elif kind == "M":
            value = list(pd.date_range("2000-01-01", periods=n))
        elif kind == "m":
            value = [pd.Timedelta(k + 1) for k in range(n)]
        else:
            value = [chr(ord("a") + k) for k in range(n)]
        value = (value * n)[:n]
        try:
            cols[i] = pd.Series(value, dtype=dtype)
        except (TypeError, ValueError):  # periods, intervals: their missing value
            cols[i] = pd.Series([None] * n, dtype=dtype)
    return cols


def _apply(func: Callable, args: tuple, kwargs: dict, values: tuple):
    def sub(a):
        return values[a.i] if isinstance(a, In) else a

    return func(*(sub(a) for a in args), **{k: sub(v) for k, v in kwargs.items()})


class MapChunks(Operand):
    """``func(*args, **kwargs)`` on each row block of the inputs (the ``In`` placeholders)."""

    _params = ("func", "args", "kwargs", "keep_rows", "broadcast")
    keep_rows = True
    broadcast = ()

    def tile(self, ctx, out):
        rowwise = [inp for i, inp in enumerate(out.inputs) if i not in self.broadcast]
        aligned = iter((yield from aligned_rows(ctx, rowwise)))
        whole = {i: whole_chunk(ctx[inp], inp.meta) for i, inp in enumerate(out.inputs) if i in self.broadcast}
        per_input = [None if i in whole else next(aligned) for i in range(len(out.inputs))]
        n = len(next(t for t in per_input if t is not None))
        chunks = []
        for i in range(n):
            ins = [whole[j] if t is None else t[i] for j, t in enumerate(per_input)]
            first = next(t[i] for t in per_input if t is not None)
            rows = first.shape[0] if self.keep_rows else math.nan
            chunks.append(ChunkData(self.new(), ins, chunk_shape(out.meta, rows), out.meta,
                                    _index(out.meta, i)))
        return rows_grid(chunks, out.meta)

    def execute(self, *values):
        return _apply(self.func, self.args, self.kwargs or {}, values)

    def rebuild(self, node, inputs):
        """Metadata inferred again from the new inputs' (an optimizer may have pruned columns);
        kept when every input's metadata is unchanged (it may have come from samples)."""
        if all(_same_meta(a.meta, b.meta) for a, b in zip(inputs, node.inputs)):
            return TileableData(self, inputs, node.shape, node.meta, node.chunk_size)
        meta = _apply(self.func, self.args, self.kwargs or {}, tuple(_stand_in(i.meta) for i in inputs))
        rowwise = [x for i, x in enumerate(inputs) if i not in self.broadcast]
        nrows = rowwise[0].shape[0] if self.keep_rows else math.nan
        return TileableData(self, inputs, chunk_shape(meta, nrows), meta, node.chunk_size)

    def describe(self) -> str:
        shown = [repr(a) for a in self.args if not isinstance(a, In) and not callable(a)]
        shown += [f"{k}={v!r}" for k, v in (self.kwargs or {}).items() if not isinstance(v, In)]
        text = f"{self.name}({', '.join(shown)})" if shown else self.name
        return text if len(text) <= 80 else text[:77] + "..."


def _same_meta(a, b) -> bool:
    if isinstance(a, pd.DataFrame) and isinstance(b, pd.DataFrame):
        return a.columns.equals(b.columns) and a.dtypes.equals(b.dtypes)
    if isinstance(a, (pd.Series, pd.Index)) and isinstance(b, (pd.Series, pd.Index)):
        return type(a) is type(b) and a.dtype == b.dtype and a.name == b.name
    return a is b


def _index(meta, i: int) -> tuple:
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


def map_chunks(func: Callable, args: tuple, kwargs: dict | None = None, *, keep_rows: bool = True,
               label: str | None = None, meta=None, validate: bool = False, broadcast=()):
    """A frame computed block by block; tileable args are lined up by rows.

    The result metadata is ``func`` run on the inputs' metadata unless ``meta`` is given;
    ``validate`` also runs it on one-row samples, to raise pandas' errors that empty input hides.
    Tileable args in ``broadcast`` (objects) are passed whole to every block.
    """
    kwargs = dict(kwargs or {})
    inputs: list = []

    bcast: list[int] = []

    def placeholder(a):
        lazy_scalar = isinstance(a, Tensor) and a.ndim == 0  # ``s - s.mean()``: with every block
        if isinstance(a, (_Frame, Index)) or lazy_scalar:
            if lazy_scalar or any(a is b for b in broadcast):
                bcast.append(len(inputs))
            inputs.append(a)
            return In(len(inputs) - 1)
        return a

    args_t = tuple(placeholder(a) for a in args)
    kwargs_t = {k: placeholder(v) for k, v in kwargs.items()}
    if meta is None:
        meta = _apply(func, args_t, kwargs_t, tuple(_stand_in(i.data.meta) for i in inputs))
    if validate:
        _apply(func, args_t, kwargs_t, tuple(_stand_in(i.data.meta, sample_of) for i in inputs))
    rowwise = [x for i, x in enumerate(inputs) if i not in bcast]
    nrows = rowwise[0].shape[0] if keep_rows else math.nan
    op = MapChunks(func=func, args=args_t, kwargs=kwargs_t, keep_rows=keep_rows,
                   broadcast=tuple(bcast), label=label)
    return new_frame(op, inputs, nrows, meta)


def _stand_in(meta, sample=None):
    """What an input stands for when inferring metadata: a frame's meta (or ``sample`` of it);
    a 0-d tensor's value of its dtype."""
    if isinstance(meta, np.ndarray):
        return np.ones((), dtype=meta.dtype)[()]
    return meta if sample is None else sample(meta)


def whole_chunk(tiled: Tiled, meta) -> ChunkData:
    """One chunk holding all of a (small) tileable's rows."""
    chunks = row_chunks(tiled)
    if len(chunks) == 1:
        return chunks[0]
    op = RowSlices(slices=((0, None),) * len(chunks), label="concat")
    return ChunkData(op, chunks, chunk_shape(meta, sum(c.shape[0] for c in chunks)), meta,
                     _index(meta, 0))


def aligned_rows(ctx, inputs):
    """The row chunks of each input, rechunked to common row splits when they differ."""
    tiled = [ctx[i] for i in inputs]
    splits = [t.nsplits[0] for t in tiled]
    if len(inputs) == 1:
        return [row_chunks(tiled[0])]
    if any(t.has_unknown_shape for t in tiled):
        if all(t is tiled[0] for t in tiled) or _same_chunks(tiled) or _same_row_roots(tiled):
            return [row_chunks(t) for t in tiled]
        tiled = []
        for i in inputs:
            tiled.append((yield from ctx.known(i)))
        splits = [t.nsplits[0] for t in tiled]
    if all(s == splits[0] for s in splits):
        return [row_chunks(t) for t in tiled]
    target = common_splits(splits)
    return [row_chunks(t) if s == target else rechunk_rows(t, i.meta, target)
            for t, s, i in zip(tiled, splits, inputs)]


def _same_chunks(tiled) -> bool:
    keys = [c.key for c in tiled[0].flat]
    return all([c.key for c in t.flat] == keys for t in tiled)


def _row_root(chunk) -> str:
    """The key of the chunk whose rows ``chunk`` has, one for one: followed back through
    blockwise maps that keep rows (a column taken from a filtered frame, arithmetic on it)."""
    while isinstance(chunk.op, MapChunks) and chunk.op.keep_rows and chunk.inputs:
        rowwise = [c for i, c in enumerate(chunk.inputs) if i not in chunk.op.broadcast]
        if not rowwise:
            break
        chunk = rowwise[0]
    return chunk.key


def _same_row_roots(tiled) -> bool:
    """Whether every input's i-th row block has the rows of the same chunk, so the blocks
    pair up even while their sizes are unknown (``f[m]["a"] * f[m]["b"]``)."""
    rows = [row_chunks(t) for t in tiled]
    if any(len(r) != len(rows[0]) for r in rows):
        return False
    return all(len({_row_root(r[i]) for r in rows}) == 1 for i in range(len(rows[0])))


def common_splits(splits: list[tuple]) -> tuple:
    """The coarsest row splits that refine every one of ``splits``."""
    bounds = sorted({int(b) for s in splits for b in np.cumsum((0,) + tuple(s))})
    return tuple(b - a for a, b in zip(bounds[:-1], bounds[1:])) or (0,)


class RowSlices(Operand):
    """Concatenate row slices ``(start, stop)`` of each input chunk: one rechunked block."""

    _params = ("slices",)

    def execute(self, *values):
        return concat_values([_rows(v, a, b) for v, (a, b) in zip(values, self.slices)])


def _rows(v, a, b):
    return v[a:b] if isinstance(v, pd.Index) else v.iloc[a:b]


def rechunk_rows(tiled: Tiled, meta, target: tuple) -> list[ChunkData]:
    """Chunks with row splits ``target`` built from ``tiled`` (known splits)."""
    chunks = row_chunks(tiled)
    starts = np.cumsum((0,) + tuple(int(s) for s in tiled.nsplits[0]))
    out, pos = [], 0
    for j, size in enumerate(target):
        stop = pos + size
        ins, slices = [], []
        for i, c in enumerate(chunks):
            lo, hi = max(pos, starts[i]), min(stop, starts[i + 1])
            if hi > lo or (size == 0 and not ins):
                ins.append(c)
                slices.append((int(lo - starts[i]), int(max(lo, hi) - starts[i])))
        op = RowSlices(slices=tuple(slices), label="rechunk")
        out.append(ChunkData(op, ins, chunk_shape(meta, size), meta, _index(meta, j)))
        pos = stop
    return out

