"""Properties and conversions that compute: ``is_unique``, ``hasnans``, ``empty``, ``size``,
``tolist``, ``to_dict``, ``to_records``, ``equals``, ``first_valid_index`` / ``last_valid_index``.

pandas answers these with plain Python values that users test in ``if`` statements, so, as in
Mars and Dask, they compute when accessed (on the default session, or in this process when
there is none): small per-chunk facts reduced in a tree (``summarize``). ``tolist``,
``to_dict`` and ``to_records`` return in-memory objects holding every value: they fetch.
"""
from __future__ import annotations

import pandas as pd

from .accessors import summarize
from .blockwise import map_chunks
from .core import DataFrame, Index, Series, _Frame, methods
from .reshape import compute_now

__all__: list[str] = []


def _first(parts, *_):
    return next((p for p in parts if p is not None), None)


def _all(parts):
    return bool(all(parts))


def _any(parts):
    return bool(any(parts))


def n_rows(obj) -> int:
    """The number of rows: declared, or counted now (block lengths summed) when unknown."""
    n = obj.shape[0]
    if n == n:
        return int(n)
    return int(compute_now(summarize(obj, len, sum, label="md.len")))


@methods(Series, Index, name="is_unique", prop=True)
def is_unique(obj) -> bool:
    """Whether every value (NaN included) is distinct; computed when accessed."""
    from .unique import nunique

    return int(compute_now(nunique(obj, dropna=False), obj)) == n_rows(obj)


def _hasnans(v):
    return bool(v.hasnans)


@methods(Series, Index, name="hasnans", prop=True)
def hasnans(obj) -> bool:
    """Whether any value is missing; computed when accessed."""
    return compute_now(summarize(obj, _hasnans, _any, label="md.hasnans"))


@methods(DataFrame, Series, name="size", prop=True)
def size(obj) -> int:
    """The number of elements; rows are counted when accessed if still unknown."""
    if isinstance(obj, DataFrame):
        ncols = len(obj.columns)
        return 0 if ncols == 0 else n_rows(obj) * ncols
    return n_rows(obj)


@methods(DataFrame, Series, name="empty", prop=True)
def empty(obj) -> bool:
    """Whether any axis has length 0; rows are counted when accessed if still unknown."""
    if isinstance(obj, DataFrame) and len(obj.columns) == 0:
        return True
    return n_rows(obj) == 0


@methods(Series, name="tolist")
def tolist(obj) -> list:
    """The values as a Python list (fetched: the result holds them all)."""
    return compute_now(obj).tolist()


methods(Series, name="to_list")(tolist)


@methods(DataFrame, Series, name="to_dict")
def to_dict(obj, *args, **kwargs):
    """``pandas.DataFrame.to_dict`` / ``Series.to_dict`` of the fetched values (the result holds
    them all); bad options raise pandas' error before anything runs."""
    obj.data.meta.to_dict(*args, **kwargs)
    return compute_now(obj).to_dict(*args, **kwargs)


@methods(DataFrame, name="to_records")
def to_records(obj, *args, **kwargs):
    """``pandas.DataFrame.to_records`` of the fetched values (a NumPy record array of them all)."""
    obj.data.meta.to_records(*args, **kwargs)
    return compute_now(obj).to_records(*args, **kwargs)


def _block_equals(a, b):
    return a.equals(b)


@methods(DataFrame, Series, name="equals")
def equals(obj, other) -> bool:
    """Whether ``other`` has the same shape, labels, dtypes and values (NaNs in the same places
    are equal), as pandas' ``equals``; row blocks are compared in parallel when called."""
    if isinstance(other, (pd.DataFrame, pd.Series)):
        other = DataFrame(other) if isinstance(other, pd.DataFrame) else Series(other)
    if not isinstance(other, _Frame) or type(other) is not type(obj):
        return False
    a, b = obj.data.meta, other.data.meta
    if isinstance(a, pd.DataFrame):
        if not (a.columns.equals(b.columns) and a.dtypes.equals(b.dtypes)):
            return False
    elif a.dtype != b.dtype:
        return False
    if n_rows(obj) != n_rows(other):
        return False
    flags = map_chunks(_block_equals, (obj, other), keep_rows=False, label="md.equals",
                       meta=pd.Series([], dtype=bool))
    return compute_now(summarize(flags, bool, _all, label="md.equals"))


def _valid_index(v, last):
    return v.last_valid_index() if last else v.first_valid_index()


def _last_of(parts, *_):
    return _first(parts[::-1])


@methods(DataFrame, Series, name="first_valid_index")
def first_valid_index(obj):
    """The label of the first row holding a non-missing value (None if none); computed now."""
    return compute_now(summarize(obj, _valid_index, _first, (False,), label="md.first_valid_index"))


@methods(DataFrame, Series, name="last_valid_index")
def last_valid_index(obj):
    """The label of the last row holding a non-missing value (None if none); computed now."""
    return compute_now(summarize(obj, _valid_index, _last_of, (True,), label="md.last_valid_index"))

