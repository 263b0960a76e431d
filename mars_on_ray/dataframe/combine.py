"""combine_first and combine: two objects lined up by label (the union, in pandas' order).

Both go through ``align.label_aligned`` with an outer join: chunk by chunk when the indexes are
known (or found) equal, else an outer merge on the index. Each aligned block is then answered
from its two sides and the masks of the rows each side lacked: ``combine_first`` takes the
caller's value unless it is missing; ``combine`` calls ``func`` on the pairs, a lacking side
giving ``fill_value``. The declared dtypes are pandas' on one-row samples whose labels
partly overlap (a column one side lacks gets missing values) unless the indexes are known
equal.
"""
from __future__ import annotations

import pandas as pd
from pandas.core.dtypes.missing import na_value_for_dtype

from .align import index_relation, label_aligned
from .blockwise import sample_of
from .core import DataFrame, Series, _Frame, methods

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

