"""clip: values bounded by scalars, per-column lists, or Series / DataFrames lined up by label.

pandas clips with the lower bound, then with the upper one; bounds that pair with rows are
lined up with them first: by label (a Series / DataFrame: ``align.label_aligned``; a row whose
label the bound lacks becomes missing, as in pandas) or by position (a list / array as long as
the object). Bounds that pair with the columns (a scalar, a list or Series with ``axis=1``) go
whole to every chunk. pandas changes a column's dtype only when a bound replaces one of its
values: with scalar / per-column bounds the rows where each bound first does so are computed
when called (``_by_binding``); bounds lined up with the rows declare the dtype a column gets
when a value is replaced.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..tensor.core import Tensor
from .accessors import summarize
from .align import conform, index_relation, label_aligned, promoted
from .blockwise import map_chunks, sample_of
from .core import _Frame, DataFrame, Series, methods
from .cumulative import _inplace
from .frame_methods import _fractional
from .reshape import compute_now

__all__: list[str] = []


def _clip(obj, lower, upper, axis, meta):
    return conform(obj.clip(lower, upper, axis=axis), meta)


def _clip_by_position(obj, bound, which, axis, meta):
    return conform(obj.clip(**{which: bound.set_axis(obj.index)}, axis=axis), meta)


def _clip_by_label(a, b, a_missing, b_missing, which, axis, meta):
    res = a.clip(**{which: b}, axis=axis)
    if b_missing.any():  # pandas: a row whose label the bound lacks becomes missing
        res = res.mask(b_missing if res.ndim == 1 else np.broadcast_to(b_missing[:, None], res.shape))
    return conform(res, meta)


def _along_rows(obj, bound, axis) -> bool:
    """Whether ``bound`` pairs with the rows (else with the columns, or is a scalar)."""
    if bound is None or np.ndim(bound) == 0 and not isinstance(bound, (_Frame, Tensor)):
        return False
    if isinstance(bound, Tensor) and bound.ndim == 0:  # a lazy scalar (``s.median()``)
        return False
    if isinstance(obj, Series) or isinstance(bound, (DataFrame, pd.DataFrame)):
        return True
    return axis is not None and obj.data.meta._get_axis_number(axis) == 0


def _sample_bound(bound, rows, by_rows):
    """A stand-in for ``bound`` on the one-row sample ``rows``: replaced values are
    fractional, as real data's seldom are whole (see ``frame_methods._fractional``)."""
    if isinstance(bound, Tensor) and bound.ndim == 0:
        return _fractional(sample_of(pd.Series(np.ones(1, dtype=bound.dtype)))).iloc[0]
    if isinstance(bound, (_Frame, Tensor)):
        meta = bound.data.meta if isinstance(bound, _Frame) else pd.Series(np.ones(1, dtype=bound.dtype))
        sample = _fractional(sample_of(meta))
        if not by_rows:  # a lazy Series of per-column bounds
            return pd.Series(sample.iloc[0], index=rows.columns)
        return sample.set_axis(rows.index) if isinstance(sample, pd.Series) else sample
    if isinstance(bound, (pd.Series, pd.DataFrame)):
        if not by_rows:
            return _fractional(bound)
        sample = _fractional(sample_of(bound.iloc[:0]))
        return sample.set_axis(rows.index)
    if by_rows:  # a positional list or array
        return _fractional(pd.Series(np.resize(np.asarray(bound), len(rows)), index=rows.index))
    if np.ndim(bound) == 1 and len(bound) == rows.shape[1]:  # a list of per-column bounds
        return pd.Series(list(bound), index=rows.columns)
    return bound


def _declared(obj, rows, lower, upper, axis, flags):
    """The result's empty pandas object (and pandas' errors): clipped with every value
    replaced, so a column gets the dtype of its bound's values."""
    replaced = rows
    for bound, by_rows in zip((lower, upper), flags):
        if bound is None or np.ndim(bound) == 0 and not isinstance(bound, (_Frame, Tensor)) \
                and pd.isna(bound):  # pandas: no bound
            continue
        sample = _sample_bound(bound, rows, by_rows)
        plain = not by_rows and not isinstance(bound, (_Frame, Tensor))
        rows.clip(bound if plain else sample, None, axis=axis)  # pandas' errors
        if np.ndim(sample) == 0:
            replaced = replaced.where(np.zeros(rows.shape, dtype=bool), sample)
        elif by_rows or isinstance(obj, Series):
            replaced = replaced.where(np.zeros(rows.shape, dtype=bool), sample, axis=0)
        else:  # a missing per-column bound leaves its column alone
            keep = np.broadcast_to(sample.reindex(rows.columns).isna().to_numpy()[None, :], rows.shape)
            replaced = replaced.where(keep, sample, axis=1)
    return replaced.iloc[:0]


def _binding_rows(block, lower, upper, axis, _meta):
    """The rows of ``block`` holding, per column, a first value each bound replaces."""
    picked = set()
    for bounds in ((lower, None), (None, upper)) if len(block) else ():
        changed = block.clip(*bounds, axis=axis).ne(block) & block.notna()
        flags = changed.to_numpy(dtype=bool, na_value=False)
        flags = flags[:, None] if flags.ndim == 1 else flags
        picked.update(flags.argmax(axis=0)[flags.any(axis=0)].tolist())
    return block.iloc[sorted(picked)]


def _clipped_meta(parts, lower, upper, axis, meta):
    return pd.concat([meta, *parts]).clip(lower, upper, axis=axis).iloc[:0]


def _by_binding(obj, lower, upper, axis, declared):
    """``declared`` with the dtypes pandas gives: a column changes dtype only if a bound
    replaces one of its values, so pandas clips the rows where each bound first replaces a
    value in each column (computed now), which bind as the whole data does."""
    if _dtypes(declared) == _dtypes(obj.data.meta):
        return declared, lower, upper
    lower, upper = (compute_now(b) if isinstance(b, Tensor) else b for b in (lower, upper))
    learned = compute_now(summarize(obj, _binding_rows, _clipped_meta, (lower, upper, axis, obj.data.meta),
                                    label="md.clip"), obj)
    return conform(declared, learned), lower, upper


def _dtypes(meta):
    return [meta.dtype] if isinstance(meta, pd.Series) else list(meta.dtypes)


def _rows(obj):
    """A one-row sample of ``obj`` (a Series keeps its name)."""
    rows = sample_of(obj.data.meta)
    return rows.rename(obj.data.meta.name) if isinstance(rows, pd.Series) else rows


@methods(DataFrame, Series)
def clip(obj, lower=None, upper=None, *, axis=None, inplace=False, **kwargs):
    """Values below ``lower`` set to it and above ``upper`` to it (a missing bound does not
    clip); bounds are scalars, list-likes (per column with ``axis=1``, per row otherwise) or
    Series / DataFrames aligned by label as pandas does."""
    rows = _rows(obj)
    flags = tuple(_along_rows(obj, b, axis) for b in (lower, upper))
    for bound, by_rows in zip((lower, upper), flags):
        if isinstance(obj, DataFrame) and isinstance(bound, (Series, pd.Series)) and axis is None:
            raise ValueError("Must specify axis=0 or 1")
        if isinstance(bound, Series) and not by_rows:
            raise NotImplementedError("clip with a lazy Series of per-column bounds (axis=1)")
        n = obj.shape[0]
        positional = by_rows and not isinstance(bound, (_Frame, Tensor, pd.Series, pd.DataFrame))
        if positional and not math.isnan(n) and len(bound) != n:  # pandas' length error
            raise ValueError(f"Length of values ({len(bound)}) does not match length of index ({n})"
                             if isinstance(obj, Series) else
                             f"Unable to coerce to Series, length must be {n}: given {len(bound)}")
    if not any(flags):  # scalars and per-column bounds: blockwise
        result_meta, lower, upper = _by_binding(obj, lower, upper, axis,
                                                _declared(obj, rows, lower, upper, axis, flags))
        result = map_chunks(_clip, (obj, lower, upper, axis, result_meta), label="md.clip", meta=result_meta)
        return _inplace(obj, result, inplace)
    result = obj
    for which, bound, by_rows in (("lower", lower, flags[0]), ("upper", upper, flags[1])):
        if bound is None:
            continue
        bounds = (bound, None) if which == "lower" else (None, bound)
        step = _declared(result, _rows(result), *bounds, axis, (by_rows, by_rows))
        if not by_rows:
            result = map_chunks(_clip, (result, *bounds, axis, step), label="md.clip", meta=step)
        elif isinstance(bound, (_Frame, pd.Series, pd.DataFrame)):
            if isinstance(bound, (pd.Series, pd.DataFrame)):
                from .datasource import from_pandas

                bound = from_pandas(bound)
            relation = index_relation(obj, bound)  # result has obj's labels, row for row
            step = step if relation == "same" else promoted(step)
            result = label_aligned(result, bound, _clip_by_label, {"which": which, "axis": axis, "meta": step},
                                   step, join="left", label="md.clip", relation=relation)
        else:
            values = Series(bound if isinstance(bound, Tensor) else np.asarray(bound))
            result = map_chunks(_clip_by_position, (result, values, which, axis, step),
                                label="md.clip", meta=step)
    return _inplace(obj, result, inplace)
