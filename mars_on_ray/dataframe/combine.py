"""combine_first and combine: two objects lined up by label (the union, in pandas' order).

Both go through ``align.label_aligned`` with an outer join: chunk by chunk when the indexes are
known (or found) equal, else an outer merge on the index. Each aligned block is then answered
from its two sides and the masks of the rows each side lacked: ``combine_first`` takes the
caller's value unless it is missing; ``combine`` calls ``func`` on the pairs, a lacking side
giving ``fill_value``. The declared dtypes are pandas' on one-row samples whose labels
partly overlap (a column one side lacks gets missing values) unless the indexes are known
equal.

``DataFrame.combine`` calls ``func`` on whole column pairs (pandas' ``func`` may reduce them,
say compare sums): both aligned frames are cut into the same column groups, each group's
pieces concatenated into whole columns (as ``apply(axis=0)``, ``apply_columns.py``) and pandas'
per-column loop run on them. The result dtypes are whatever ``func`` returns (downcast as
pandas does): they are learned when called, from each group's result.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from pandas.core.dtypes.cast import find_common_type, maybe_downcast_to_dtype
from pandas.core.dtypes.missing import na_value_for_dtype

from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .align import index_relation, label_aligned
from .apply import MetaParam
from .apply_columns import ColumnGroupApply, ColumnSplit
from .blockwise import row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, _Frame, methods, new_frame
from .positional import PANDAS3

__all__: list[str] = []


def _samples(a, b, same: bool):
    """One-row samples of ``a`` and ``b`` (two rows, one shared label, unless ``same``)."""
    sa, sb = sample_of(a.data.meta), sample_of(b.data.meta)
    if isinstance(sa, pd.Series):
        sa = sa.rename(a.data.meta.name)
    if isinstance(sb, pd.Series):
        sb = sb.rename(b.data.meta.name)
    if same:
        return sa, sb
    sa = pd.concat([sa, sa]).set_axis(pd.Index([0, 1]))
    sb = pd.concat([sb, sb]).set_axis(pd.Index([1, 2]))
    return sa, sb


def _index_meta(a, b, meta):
    """``meta`` with the index type the union of both indexes has."""
    union = a.data.meta.index.union(b.data.meta.index)
    return meta.set_axis(union[:0])


def _first(a, b, a_missing, b_missing, meta):
    if isinstance(a, pd.Series):
        res = a.where(a.notna() | b_missing, b)
        return res.astype(meta.dtype) if res.dtype != meta.dtype else res
    columns = []
    for name in meta.columns:
        if name in a.columns and name in b.columns:
            col = a[name].where(a[name].notna() | b_missing, b[name])
        else:
            col = (a if name in a.columns else b)[name]
        columns.append(col)
    res = pd.concat(columns, axis=1) if columns else pd.DataFrame(index=a.index)
    res.columns = meta.columns
    for i, dtype in enumerate(meta.dtypes):
        if res.dtypes.iloc[i] != dtype:
            res.isetitem(i, res.iloc[:, i].astype(dtype))
    return res


@methods(DataFrame, Series)
def combine_first(obj, other):
    """Missing values (and labels) of ``obj`` filled from ``other``, lined up by label: the
    union of both indexes (and columns), in pandas' order."""
    if isinstance(other, (pd.Series, pd.DataFrame)):
        from .datasource import from_pandas

        other = from_pandas(other)
    if not isinstance(other, _Frame):
        obj.data.meta.combine_first(other)  # pandas' error
    if isinstance(obj, Series) != isinstance(other, Series):
        raise NotImplementedError("combine_first of a DataFrame and a Series")
    relation = index_relation(obj, other)
    sa, sb = _samples(obj, other, relation == "same")
    meta = _index_meta(obj, other, sa.combine_first(sb).iloc[:0])
    return label_aligned(obj, other, _first, {"meta": meta}, meta, join="outer", label="md.combine_first",
                         relation=relation)


def _cast(res, dtype):
    """``res`` as the declared ``dtype`` unless its values do not fit (pandas' result dtype
    depends on the values there)."""
    try:
        return res.astype(dtype) if res.dtype != dtype else res
    except (TypeError, ValueError):
        return res


def _combine(a, b, a_missing, b_missing, func, fill_value, meta):
    """pandas' Series.combine on rows already lined up (a side's lacking rows: ``fill_value``)."""
    if a_missing.any():
        a = a.astype(object).where(~a_missing, fill_value)
    if b_missing.any():
        b = b.astype(object).where(~b_missing, fill_value)
    res = a.set_axis(pd.RangeIndex(len(a))).combine(b.set_axis(pd.RangeIndex(len(b))), func)
    return _cast(res.set_axis(a.index).rename(meta.name), meta.dtype)


def _combine_scalar(a, other, func, fill_value, meta):
    return _cast(a.combine(other, func, fill_value=fill_value), meta.dtype)


@methods(Series)
def combine(obj, other, func, fill_value=None):
    """``func`` on each pair of values lined up by label (or with the scalar ``other``); a
    label one side lacks gives ``fill_value``. The result dtype is pandas' on a sample pair."""
    from .blockwise import map_chunks

    sa = sample_of(obj.data.meta).rename(obj.data.meta.name)
    if not isinstance(other, (Series, pd.Series)):
        meta = sa.combine(other, func, fill_value=fill_value).iloc[:0]
        return map_chunks(_combine_scalar, (obj, other, func, fill_value, meta), meta=meta,
                          label="md.combine")
    if isinstance(other, pd.Series):
        from .datasource import from_pandas

        other = from_pandas(other)
    relation = index_relation(obj, other)
    sb = sample_of(other.data.meta)
    meta = _index_meta(obj, other, sa.combine(sb, func, fill_value=fill_value).iloc[:0])
    meta = meta.rename(obj.data.meta.name if obj.data.meta.name == other.data.meta.name else None)
    if fill_value is None:  # pandas: the missing value of the caller's dtype
        fill_value = na_value_for_dtype(obj.data.meta.dtype, compat=False)
    kwargs = {"func": func, "fill_value": fill_value, "meta": meta}
    return label_aligned(obj, other, _combine, kwargs, meta, join="outer", label="md.combine",
                         relation=relation)



def _combine_columns(this, other, names, self_columns, func, fill_value, overwrite):
    """pandas' ``DataFrame.combine`` loop on whole aligned columns ``names``."""
    result = {}
    for i in range(this.shape[1]):
        series, other_series = this.iloc[:, i], other.iloc[:, i]
        this_dtype, other_dtype = series.dtype, other_series.dtype
        this_mask, other_mask = series.isna(), other_series.isna()
        if not overwrite and other_mask.all():
            result[i] = series.copy()
            continue
        if fill_value is not None:
            series, other_series = series.copy(), other_series.copy()
            series[this_mask] = fill_value
            other_series[other_mask] = fill_value
        if names[i] not in self_columns:
            new_dtype = other_dtype
            try:
                series = series.astype(new_dtype)
            except ValueError:
                pass
        else:
            new_dtype = find_common_type([this_dtype, other_dtype])
            series, other_series = series.astype(new_dtype), other_series.astype(new_dtype)
        arr = func(series, other_series)
        if isinstance(new_dtype, np.dtype):
            arr = maybe_downcast_to_dtype(arr, new_dtype)
        result[i] = arr
    res = pd.DataFrame(result, index=this.index)
    res.columns = names
    return res


class CombineGroup(Operand):
    """One column group (positions ``lo:hi``) of both aligned frames: pandas' combine on the
    whole columns (``stage='apply'``), their dtypes ('dtypes'), every group's dtypes ('gather')."""

    _params = ("func", "fill_value", "overwrite", "self_columns", "names", "stage", "n_this")

    def execute(self, *values):
        if self.stage == "gather":
            return [d for v in values for d in v]
        this, other = pd.concat(values[:self.n_this]), pd.concat(values[self.n_this:])
        res = _combine_columns(this, other, self.names, self.self_columns, self.func,
                               self.fill_value, self.overwrite)
        return list(res.dtypes) if self.stage == "dtypes" else res


class FrameCombine(Operand):
    """``DataFrame.combine`` of two aligned frames (``learn``: the 0-d list of result dtypes)."""

    _params = ("func", "fill_value", "overwrite", "self_columns", "learn")

    def tile(self, ctx, out):
        this, other = out.inputs
        names = this.meta.columns
        tch, och = row_chunks(ctx[this]), row_chunks(ctx[other])
        n_groups = max(1, min(len(names), len(tch)))
        bounds = tuple(int(b) for b in np.linspace(0, len(names), n_groups + 1).round())

        def pieces(chunks):
            ops = ColumnSplit(bounds=bounds, label=self.label)
            return [[ChunkData(ops, [c], (c.shape[0], b - a), None, (i, 0), g)
                     for g, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))] for i, c in enumerate(chunks)]

        tp, op_ = pieces(tch), pieces(och)
        stage = "dtypes" if self.learn else "apply"
        groups = [ChunkData(CombineGroup(func=self.func, fill_value=self.fill_value, overwrite=self.overwrite,
                                         self_columns=self.self_columns, names=names[a:b], stage=stage,
                                         n_this=len(tp), label=self.label),
                            [p[g] for p in tp] + [p[g] for p in op_], (math.nan, b - a), None, (g, 0))
                  for g, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))]
        if self.learn:
            grid = chunk_grid(())
            grid[()] = ChunkData(CombineGroup(stage="gather", label=self.label), groups, (), out.meta, ())
            return Tiled(grid, ())
        splits = tuple(int(s) for s in (yield from ctx.known(this)).nsplits[0])
        row_bounds = tuple(int(b) for b in np.cumsum((0,) + splits))
        meta = MetaParam(out.meta)
        cut = ColumnGroupApply(call=None, result_meta=meta, stage="cut", bounds=row_bounds, label=self.label)
        cuts = [[ChunkData(cut, [g], (math.nan, math.nan), None, (j, 0), r) for r in range(len(splits))]
                for j, g in enumerate(groups)]
        stitch = ColumnGroupApply(call=None, result_meta=meta, stage="stitch", bounds=(), label=self.label)
        blocks = [ChunkData(stitch, [c[r] for c in cuts], (n, len(names)), out.meta, (r, 0))
                  for r, n in enumerate(splits)]
        return rows_grid(blocks, out.meta)


@methods(DataFrame, name="combine")
def combine_frames(obj, other, func, fill_value=None, overwrite=True):
    """Column-wise ``func(column, other_column)`` of two frames lined up by label, as
    ``DataFrame.combine``: ``func`` gets whole columns; ``fill_value`` replaces missing values
    first; ``overwrite=False`` keeps the caller's column where ``other``'s is all missing."""
    from .align import align
    from .conversion import n_rows
    from .reshape import compute_now

    if isinstance(other, pd.DataFrame):
        from .datasource import from_pandas

        other = from_pandas(other)
    if not isinstance(other, DataFrame):
        obj.data.meta.combine(other.data.meta if isinstance(other, _Frame) else other, func)  # pandas' error
        raise TypeError(f"other must be a DataFrame, not {type(other).__name__}")
    this, that = align(obj, other)
    # pandas' shortcuts: the aligned other is empty (no rows on either side, or no columns), or
    # the caller is (unknown row counts are computed)
    self_rows = n_rows(obj)
    nocols = len(this.data.meta.columns) == 0
    if (nocols or (self_rows == 0 and n_rows(other) == 0)) and n_rows(this) == self_rows:
        return obj.copy()
    if (obj.shape[1] == 0 or self_rows == 0) and n_rows(that) == n_rows(other):
        return that.astype(dict(other.data.meta.dtypes))  # other's rows: its dtypes kept
    smeta = obj.data.meta
    names = (smeta.columns.union(other.data.meta.columns, sort=False) if PANDAS3
             else this.data.meta.columns.union(that.data.meta.columns))
    if not names.equals(this.data.meta.columns):
        this, that = this.reindex(columns=names), that.reindex(columns=names)
    params = dict(func=func, fill_value=fill_value, overwrite=overwrite, self_columns=smeta.columns,
                  label="md.combine")
    dtypes = compute_now(new_tensor(FrameCombine(learn=True, **params), [this, that], (), object))
    meta = pd.DataFrame({i: pd.Series(dtype=d) for i, d in enumerate(dtypes)}, index=this.data.meta.index[:0])
    meta.columns = names
    return new_frame(FrameCombine(learn=False, **params), [this, that], this.shape[0], meta)
