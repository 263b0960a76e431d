"""Combining two frames cell by cell: ``DataFrame.update`` and ``compare``.

``update`` aligns ``other`` to the rows of the frame by label (a left ``align``), then every
row block takes pandas' update of its own rows. ``compare`` keeps the columns with a difference
anywhere and gives a column pandas' masked dtype when any of its cells is equal: both are small
per-column facts computed when called; then each row block is compared on its own.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .accessors import summarize
from .blockwise import map_chunks, sample_of
from .conversion import _all, _any, n_rows
from .core import DataFrame, Series, _Frame, methods
from .positional import PANDAS3
from .reshape import compute_now

__all__: list[str] = []


# --- update ---------------------------------------------------------------------------------------

def _update_block(a, b, kwargs):
    out = a.reset_index(drop=True)  # labels are already matched: update by position
    out.update(b.set_axis(out.index), **kwargs)
    out.index = a.index
    if not out.dtypes.equals(a.dtypes):  # some values of other cannot be held by the column
        lossy = [c for c, x, y in zip(a.columns, a.dtypes, out.dtypes) if x != y]
        raise TypeError(f"update: values of other cannot be held in the columns {lossy} "
                        f"(dtypes {list(a.dtypes[lossy].astype(str))})")
    return out


def _overlaps(a, b):
    return bool((a.notna().to_numpy() & b.notna().to_numpy()).any())


@methods(DataFrame)
def update(obj, other, join="left", overwrite=True, filter_func=None, errors="ignore"):
    """Modify in place with the non-missing values of ``other`` (a DataFrame, or a Series
    taken as a named column), matched by row label and column name."""
    if join != "left":
        raise NotImplementedError("Only left join is supported")
    if errors not in ("ignore", "raise"):
        raise ValueError("The parameter errors must be either 'ignore' or 'raise'")
    if isinstance(other, (pd.DataFrame, pd.Series)):
        other = DataFrame(other) if isinstance(other, pd.DataFrame) else Series(other)
    if isinstance(other, Series):
        other = other.to_frame()
    if not isinstance(other, DataFrame):
        other = DataFrame(other)
    common = obj.columns.intersection(other.columns)
    if not other.index.is_unique:
        raise ValueError("Update not allowed with duplicate indexes on other." if PANDAS3
                         else "cannot reindex on an axis with duplicate labels")
    if len(common) == 0:
        return None
    kwargs = dict(overwrite=overwrite, filter_func=filter_func)
    _, matched = obj.align(other[list(common)], join="left", axis=0)
    if errors == "raise":  # pandas raises when called: both sides' values found now
        both = map_chunks(_overlaps, (obj[list(common)], matched), keep_rows=False, label="md.update",
                          meta=pd.Series([], dtype=bool))
        if compute_now(summarize(both, bool, _any, label="md.update"), obj):
            raise ValueError("Data overlaps.")
    obj.data = map_chunks(_update_block, (obj, matched, kwargs), label="md.update",
                          meta=obj.data.meta).data
    return None


# --- compare --------------------------------------------------------------------------------------

def _diff_mask(a, b):
    mask = ~((a == b) | (a.isna() & b.isna()))
    return mask.fillna(True)


def _column_facts(mask_block, _ncols):
    if isinstance(mask_block, pd.Series):
        return np.array([mask_block.any()]), np.array([mask_block.all()])
    return mask_block.any().to_numpy(), mask_block.all().to_numpy()


def _merge_facts(parts, ncols):
    anys = np.zeros(ncols, dtype=bool)
    alls = np.ones(ncols, dtype=bool)
    for a, b in parts:
        anys |= a
        alls &= b
    return anys, alls


def _masked_dtypes(meta, keep):
    """pandas' dtypes after ``where`` with some False (``keep``: columns whose cells all differ)."""
    sample = sample_of(meta)
    masked = sample.where(np.zeros(sample.shape, dtype=bool))
    if isinstance(meta, pd.Series):
        return [meta.dtype if keep[0] else masked.dtype]
    return [x if k else y for x, y, k in zip(meta.dtypes, masked.dtypes, keep)]


def _compare_block(a, b, cols, dtypes, kw):
    mask = _diff_mask(a, b)
    if not kw["keep_equal"]:
        a, b = a.where(mask), b.where(mask)
    if isinstance(a, pd.Series):
        a, b = (a.astype(dtypes[0]), b.astype(dtypes[0])) if a.dtype != dtypes[0] else (a, b)
        if not kw["keep_shape"]:
            a, b = a[mask], b[mask]
    else:
        a = a.astype(dict(zip(a.columns, dtypes))) if list(a.dtypes) != dtypes else a
        b = b.astype(dict(zip(b.columns, dtypes))) if list(b.dtypes) != dtypes else b
        if not kw["keep_shape"]:
            rows = mask.any(axis=1).to_numpy()
            a, b = a.iloc[rows, cols], b.iloc[rows, cols]
    return a.compare(b, align_axis=kw["align_axis"], keep_shape=True, keep_equal=True,
                     result_names=kw["result_names"])


def _index_equals(a, b):
    return a.index.equals(b.index)


@methods(DataFrame, Series)
def compare(obj, other, align_axis=1, keep_shape=False, keep_equal=False, result_names=("self", "other")):
    """The cells that differ from ``other`` (identically labelled), side by side: pandas'
    ``compare``; which columns differ is computed when called."""
    if isinstance(other, (pd.DataFrame, pd.Series)):
        other = DataFrame(other) if isinstance(other, pd.DataFrame) else Series(other)
    a, b = obj.data.meta, other.data.meta if isinstance(other, _Frame) else None
    a.compare(a if b is None else b, align_axis=align_axis, keep_shape=keep_shape,
              keep_equal=keep_equal, result_names=result_names)  # pandas' errors on the options
    what = "DataFrame" if isinstance(obj, DataFrame) else "Series"
    mismatch = ValueError(f"Can only compare identically-labeled (both index and columns) {what} objects"
                          if what == "DataFrame" else "Can only compare identically-labeled Series objects")
    if isinstance(a, pd.DataFrame) and not a.columns.equals(b.columns):
        raise mismatch
    if n_rows(obj) != n_rows(other):
        raise mismatch
    same = map_chunks(_index_equals, (obj, other), keep_rows=False, label="md.compare",
                      meta=pd.Series([], dtype=bool))
    if not compute_now(summarize(same, bool, _all, label="md.compare")):
        raise mismatch
    ncols = 1 if isinstance(a, pd.Series) else a.shape[1]
    masks = map_chunks(_diff_mask, (obj, other), label="md.compare", meta=_diff_mask(a, b))
    anys, alls = compute_now(summarize(masks, _column_facts, _merge_facts, (ncols,), label="md.compare"))
    declared = [a.dtype] if isinstance(a, pd.Series) else list(a.dtypes)
    dtypes = declared if keep_equal else _masked_dtypes(a, alls)
    cols = np.arange(ncols) if keep_shape else np.flatnonzero(anys)
    kw = dict(keep_equal=keep_equal, keep_shape=keep_shape, align_axis=align_axis, result_names=result_names)
    meta = _compare_block(a, b, cols, dtypes, kw)
    return map_chunks(_compare_block, (obj, other, cols, dtypes, kw), keep_rows=False,
                      label="md.compare", meta=meta)

