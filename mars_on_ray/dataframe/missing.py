"""Missing values: isna / notna, fillna, dropna of rows.

``fillna`` with a limit is a prefix scan of missing-value counts per column; a Series /
DataFrame of fill values (aligned by label, as pandas does) goes whole to every chunk, so it
should be small next to the data.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .blockwise import map_chunks
from .core import DataFrame, Series, methods
from .rules.usage import same_as_output, uses
from .scan import Kernel, scan

_LAZY = (DataFrame, Series)
_NO_VALUE = object()

__all__: list[str] = []


def _isna(obj):
    return obj.isna()


def _notna(obj):
    return obj.notna()


def _fillna(obj, value):
    return obj.fillna(value)


def _fillna_across(obj, value, limit):
    return obj.fillna(value, axis=1, limit=limit)


def _dropna(obj, kwargs):
    return obj.dropna(**kwargs)


uses(_isna, rows="same")(same_as_output)
uses(_notna, rows="same")(same_as_output)
uses(_fillna, rows="same")(same_as_output)  # a dict of fill values may name absent columns


@uses(_dropna, rows="subset", passthrough=True)
def _dropna_columns(node, needed):
    subset = node.op.args[1].get("subset")
    if subset is None or needed is None:  # every column decides whether a row is dropped
        return [None]
    return [needed | set([subset] if isinstance(subset, str) else subset)]


def isna(obj):
    """True where a value is missing."""
    return map_chunks(_isna, (obj,), label="md.isna")


def notna(obj):
    """True where a value is present."""
    return map_chunks(_notna, (obj,), label="md.notna")


class _LimitedFill(Kernel):
    """fillna(value, limit=n): a running count of missing values per column is the carry."""

    def __init__(self, value, limit):
        self.value, self.limit = value, limit

    def summary(self, chunk):
        return chunk.isna().sum()

    def combine(self, state, summary):
        return state + summary

    def apply(self, chunk, carry):
        left = self.limit - (0 if carry is None else np.asarray(carry))  # fills left per column
        if isinstance(chunk, pd.Series):
            return chunk.fillna(self.value, limit=int(left)) if left > 0 else chunk
        res = chunk.copy()
        for i in range(chunk.shape[1]):
            n = int(left if np.ndim(left) == 0 else left[i])
            value = self.value.get(chunk.columns[i]) if isinstance(self.value, dict) else self.value
            if n > 0 and value is not None:
                res.isetitem(i, chunk.iloc[:, i].fillna(value, limit=n))
        return res


def _validate(obj, value, kwargs):
    meta = obj.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        if isinstance(value, _LAZY):
            value = value.data.meta
        return meta.fillna(value, **kwargs)


@methods(DataFrame, Series)
def fillna(obj, value=_NO_VALUE, *, method=None, axis=None, inplace=False, limit=None, downcast=None):
    """Replace missing values with a scalar, a column -> value dict, a Series / DataFrame
    (aligned by label) or, pandas 2 only, ``method='ffill' / 'bfill'``."""
    from .cumulative import _inplace, bfill, ffill

    if value is _NO_VALUE:
        if method is None:
            obj.data.meta.fillna()  # pandas' error: TypeError (pandas 3) or ValueError
        value = None
    kwargs = {k: v for k, v in (("method", method), ("axis", axis), ("limit", limit),
                                 ("downcast", downcast)) if v is not None}
    _validate(obj, value, kwargs)  # pandas' errors (both value and method, a bad method, ...)
    if downcast is not None:
        raise NotImplementedError("fillna(downcast=) is not supported")
    if method is not None:
        fill = ffill if method in ("pad", "ffill") else bfill
        return fill(obj, axis=axis, inplace=inplace, limit=limit)
    if axis not in (None, 0, "index", "rows"):
        if isinstance(value, (dict, pd.Series, pd.DataFrame) + _LAZY):
            raise NotImplementedError("fillna along the columns fills with a scalar only")
        # each row block holds whole rows: a fill across the columns is blockwise
        result = map_chunks(_fillna_across, (obj, value, limit), label="md.fillna", validate=True)
        return _inplace(obj, result, inplace)
    if isinstance(value, pd.Series) and isinstance(obj, DataFrame):
        value = value.to_dict()  # a value per column
    if limit is not None:
        if isinstance(value, _LAZY + (pd.DataFrame, pd.Series)):
            raise NotImplementedError("fillna with a limit and a Series / DataFrame value")
        meta = _validate(obj, value, {"limit": limit})
        result = scan(obj, _LimitedFill(value, int(limit)), meta, "md.fillna")
    elif isinstance(value, _LAZY):
        meta = _validate(obj, value, {})
        result = map_chunks(_fillna, (obj, value), label="md.fillna", meta=meta, broadcast=(value,))
    else:
        result = map_chunks(_fillna, (obj, value), label="md.fillna", validate=True)
    return _inplace(obj, result, inplace)


_NO_DEFAULT = object()


def dropna(obj, *, axis=0, how=_NO_DEFAULT, thresh=_NO_DEFAULT, subset=None, inplace=False,
           ignore_index=False):
    """Drop rows (``axis=0``) or columns (``axis=1``: which ones is computed now, as pandas
    knows the columns when it returns) with missing values; pandas' ``how`` / ``thresh`` /
    ``subset`` / ``ignore_index``."""
    from .cumulative import _inplace

    kwargs = {k: v for k, v in (("how", how), ("thresh", thresh)) if v is not _NO_DEFAULT}
    if subset is not None:
        kwargs["subset"] = subset
    by_columns = axis in (1, "columns")
    checked = {k: v for k, v in kwargs.items() if k != "subset" or not by_columns}  # rows: known when run
    obj.data.meta.dropna(axis=axis, **checked)  # pandas' errors: both how and thresh, bad axis, subset
    if by_columns:
        result = _drop_columns(obj, kwargs)
    else:
        result = map_chunks(_dropna, (obj, kwargs), keep_rows=False, label="md.dropna")
        if ignore_index:
            result = result.reset_index(drop=True)
    return _inplace(obj, result, inplace)


def _drop_columns(frame, kwargs):
    """The columns pandas keeps, from the non-missing counts per column (of the ``subset``
    rows) and the row count: one small frame computed now."""
    from .reshape import compute_now

    rows = frame.loc[list(kwargs["subset"])] if "subset" in kwargs else frame
    tally = compute_now(map_chunks(_counts_and_rows, (rows,), keep_rows=False, label="md.dropna").sum())
    counts, total = tally.to_numpy()[:-1], tally.to_numpy()[-1]
    thresh = kwargs.get("thresh")
    keep = counts >= thresh if thresh is not None else counts > 0 if kwargs.get("how") == "all" \
        else counts == total
    return frame[list(frame.data.meta.columns[keep])]


def _counts_and_rows(block):
    """One row: the non-missing count of each column (by position), then the row count."""
    return pd.DataFrame([np.append(block.notna().sum().to_numpy(), len(block))])


