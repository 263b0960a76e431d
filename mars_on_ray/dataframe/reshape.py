"""Row reshaping: ``melt``, ``stack``, ``explode`` and ``rebalance``.

Each works chunk by chunk on row blocks (a row's output depends on that row alone). Where
pandas numbers the result's rows (``ignore_index``), the blocks' real row counts are asked
for and every block gets its own slice of the RangeIndex; where pandas' result dtype is the
whole data's (a column of values taken from several columns), blocks are cast to it.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import chunk_shape, map_chunks, rechunk_rows, row_chunks, rows_grid, sample_of
from .core import DataFrame, Index, Series, methods, new_frame
from .groupby import _Meta as FrameMeta  # one structural-token meta wrapper
from .positional import PANDAS3
from .rules.usage import uses

__all__ = ["melt"]


def compute_now(obj, source=None):
    """The value of a small lazy object, computed now (on the default session, or in this
    process when there is none): what pandas knows when the call returns must be known.
    ``source`` (what ``obj`` is computed from) is executed first on a session, so the
    operation built next reads its stored chunks instead of computing it again."""
    from .. import session as session_mod
    from .accessors import learn

    sess = session_mod.get_default_session(create=False)
    if source is not None and sess is not None and not sess.closed:
        source.execute(session=sess)
    return learn(obj)




def conform(value, meta):
    """``value`` with ``meta``'s dtypes (blocks may see a narrower dtype than the whole)."""
    if isinstance(value, pd.DataFrame):
        wrong = [i for i, (a, b) in enumerate(zip(value.dtypes, meta.dtypes)) if a != b]
        if wrong:
            value = value.copy(deep=False)
            for i in wrong:
                value.isetitem(i, value.iloc[:, i].astype(meta.dtypes.iloc[i]))
        return value
    if isinstance(value, (pd.Series, pd.Index)) and value.dtype != meta.dtype:
        return value.astype(meta.dtype)
    return value


def meta_of(empty, sample):
    """Metadata: pandas' answer on empty input (index type, names) with the dtypes of its
    answer on a one-row sample (empty input hides the dtypes values give)."""
    return conform(empty, sample.iloc[:0])


class Finish(Operand):
    """The last step of a block: ``meta``'s dtypes and (``start`` given) the rows numbered
    from ``start``."""

    _params = ("meta", "start")
    start = None

    def execute(self, value):
        value = conform(value, self.meta.value)
        if self.start is not None:
            value = value.copy(deep=False)
            value.index = pd.RangeIndex(self.start, self.start + len(value))
        return value


def _finished(op, chunks, meta, starts=None):
    out = []
    for i, c in enumerate(chunks):
        start = None if starts is None else int(starts[i])
        out.append(ChunkData(Finish(meta=FrameMeta(meta), start=start, label=op.label), [c],
                             chunk_shape(meta, c.shape[0]), meta, _idx(meta, i)))
    return rows_grid(out, meta)


def _idx(meta, i):
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


class Renumber(Operand):
    """Rows numbered 0..n-1 across blocks (pandas' ``ignore_index``) and cast to the result's
    dtypes: the blocks' real row counts give each block its start."""

    def tile(self, ctx, out):
        chunks = row_chunks((yield from ctx.known(out.inputs[0])))
        starts = np.cumsum([0] + [int(c.shape[0]) for c in chunks])
        return _finished(self, chunks, out.meta, starts)


def renumber(obj, label: str):
    """``obj`` with a RangeIndex over all its rows."""
    meta = obj.data.meta.copy(deep=False)
    meta.index = pd.RangeIndex(0)
    return new_frame(Renumber(label=label), [obj], obj.shape[0], meta)


# -- melt ----------------------------------------------------------------------------------------
class MeltChunk(Operand):
    """One block melted; output ``j`` holds the rows of the ``j``-th value column."""

    _params = ("kwargs", "n_vars")
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return max(1, self.n_vars)

    def execute(self, chunk):
        res = pd.melt(chunk, ignore_index=False, **self.kwargs)
        n = len(chunk)
        if self.n_vars <= 1:
            return res
        return tuple(res.iloc[j * n:(j + 1) * n] for j in range(self.n_vars))


class Melt(Operand):
    """pandas' melt order: all rows of the first value column, then of the next, ..."""

    _params = ("kwargs", "n_vars", "ignore_index")

    def tile(self, ctx, out):
        node = out.inputs[0]
        tiled = (yield from ctx.known(node)) if self.ignore_index else ctx[node]
        chunks = row_chunks(tiled)
        n_vars, meta = self.n_vars, out.meta
        melted = []
        for i, c in enumerate(chunks):
            op = MeltChunk(kwargs=self.kwargs, n_vars=n_vars, label=self.label)
            rows = c.shape[0] if n_vars else 0
            melted.append([ChunkData(op, [c], chunk_shape(meta, rows), None, (i, 0), j)
                           for j in range(max(1, n_vars))])
        if not n_vars:
            return _finished(self, [melted[0][0]], meta, [0] if self.ignore_index else None)
        order = [m[j] for j in range(n_vars) for m in melted]
        starts = None
        if self.ignore_index:
            starts = np.cumsum([0] + [int(c.shape[0]) for c in order])
        return _finished(self, order, meta, starts)


def melt(frame, id_vars=None, value_vars=None, var_name=None, value_name="value", col_level=None,
         ignore_index=True):
    """Unpivot a DataFrame from wide to long format (pandas' row order)."""
    if not isinstance(frame, DataFrame):
        raise AttributeError(f"'{type(frame).__name__}' object has no attribute 'melt'")
    kwargs = {"id_vars": id_vars, "value_vars": value_vars, "var_name": var_name,
              "value_name": value_name, "col_level": col_level}
    meta = frame.data.meta
    empty = pd.melt(meta, ignore_index=ignore_index, **kwargs)
    sample = pd.melt(sample_of(meta), **kwargs)
    n_vars = len(sample)
    op = Melt(kwargs=kwargs, n_vars=n_vars, ignore_index=ignore_index, label="md.melt")
    return new_frame(op, [frame], frame.shape[0] * n_vars, meta_of(empty, sample))


methods(DataFrame)(melt)


@uses(Melt)
def _melt_columns(node, needed):
    """With both id_vars and value_vars named, the other columns are never read."""
    kw, columns = node.op.kwargs, node.inputs[0].meta.columns
    if kw["value_vars"] is None or kw["col_level"] is not None or isinstance(columns, pd.MultiIndex):
        return [None]
    named = [kw[k] if isinstance(kw[k], (list, tuple)) else ([] if kw[k] is None else [kw[k]])
             for k in ("id_vars", "value_vars")]
    return [set(named[0]) | set(named[1])]


# -- stack ---------------------------------------------------------------------------------------
def _stack(chunk, kwargs, meta):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return conform(chunk.stack(**kwargs), meta)


@methods(DataFrame)
def stack(frame, level=-1, **kwargs):
    """Stack column level(s) into the row index (a Series for one column level)."""
    kwargs = {"level": level, **kwargs}
    meta = frame.data.meta
    with warnings.catch_warnings():
        empty = meta.stack(**kwargs)
        warnings.simplefilter("ignore", FutureWarning)  # shown once above, not per block
        res_meta = meta_of(empty, sample_of(meta).stack(**kwargs))
    return map_chunks(_stack, (frame, kwargs, res_meta), keep_rows=False, label="md.stack",
                      meta=res_meta)


# -- explode -------------------------------------------------------------------------------------
def _explode(chunk, column):
    return chunk.explode(column) if column is not None else chunk.explode()


@methods(DataFrame, Series)
def explode(obj, column=None, ignore_index: bool = False):
    """One row per element of list-likes (in ``column`` for a DataFrame)."""
    meta = obj.data.meta
    if isinstance(obj, DataFrame):
        if column is None:
            raise TypeError("DataFrame.explode() missing 1 required positional argument: 'column'")
        meta.explode(column)  # pandas' errors: missing / duplicate columns
    elif column is not None:
        raise TypeError("Series.explode() got an unexpected keyword argument 'column'")
    exploded = map_chunks(_explode, (obj, column), keep_rows=False, label="md.explode")
    cols = [column] if isinstance(obj, DataFrame) and not pd.api.types.is_list_like(column) else column
    exploded_meta = meta[list(cols)].dtypes if isinstance(obj, DataFrame) else [meta.dtype]
    if PANDAS3 and any(d == object for d in exploded_meta):
        # pandas infers str for exploded values that are all strings, block by block: the
        # whole data decides (learned now) and every block is cast to it
        from .accessors import _astype, chunkwise, learn_dtypes

        learned = learn_dtypes(exploded, "md.explode")
        exploded = chunkwise(_astype, (exploded, learned), _astype(exploded.data.meta, learned),
                             label="md.explode")
    return renumber(exploded, "md.explode") if ignore_index else exploded


# -- rebalance -----------------------------------------------------------------------------------
class Rebalance(Operand):
    """Re-split rows into ``num_partitions`` (or ``factor`` x CPUs) even chunks."""

    _params = ("factor", "num_partitions")

    def tile(self, ctx, out):
        tiled = yield from ctx.known(out.inputs[0])
        total = int(sum(tiled.nsplits[0]))
        n = self.num_partitions or max(1, int(ctx.cpus * self.factor))
        size = max(1, math.ceil(total / n))
        target = tuple(min(size, total - s) for s in range(0, total, size)) or (0,)
        if target == tuple(tiled.nsplits[0]):
            return tiled
        return rows_grid(rechunk_rows(tiled, out.meta, target), out.meta)


@methods(DataFrame, Series, Index)
def rebalance(obj, factor=None, axis=0, num_partitions=None, reassign_worker=True):
    """Make the data evenly split: ``num_partitions`` chunks, or ``factor`` (default 1.2)
    times the CPUs running it."""
    if axis not in (0, "index"):
        raise NotImplementedError("rebalance only splits rows (axis=0)")
    if num_partitions is not None and (not isinstance(num_partitions, (int, np.integer))
                                       or num_partitions < 1):
        raise ValueError(f"num_partitions must be a positive integer, got {num_partitions!r}")
    if num_partitions is None:
        factor = 1.2 if factor is None else factor
        if factor <= 0:
            raise ValueError(f"factor must be positive, got {factor!r}")
    op = Rebalance(factor=factor, num_partitions=num_partitions, label="md.rebalance")
    return new_frame(op, [obj], obj.shape[0], obj.data.meta)
