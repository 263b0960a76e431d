"""``md.get_dummies``: one indicator column per distinct value of the encoded columns.

The result's columns depend on the distinct values, so they are computed when
``get_dummies`` is called (each block's distinct values, reduced in block order to the
categories pandas would find: sorted, or in first-appearance order when they do not sort).
Every block then encodes against those categories, so all blocks have the same columns.
Categorical columns bring their categories with their dtype: nothing is computed for them.
"""
from __future__ import annotations

import warnings

import pandas as pd

from .accessors import summarize
from .blockwise import map_chunks, sample_of
from .core import DataFrame, Series
from .reshape import meta_of
from .reshape import compute_now

__all__ = ["get_dummies"]


def _encoded_positions(meta, columns) -> list[int]:
    """Positions of the columns pandas encodes (all of a Series: [0])."""
    if isinstance(meta, pd.Series):
        return [0]
    if columns is None:
        picked = meta.select_dtypes(include=["object", "string", "category"]).columns
    else:
        picked = meta[columns].columns
    wanted = set(picked)
    return [i for i, c in enumerate(meta.columns) if c in wanted]


def _column(obj, i):
    return obj if isinstance(obj, pd.Series) else obj.iloc[:, i]


def _uniques(chunk, positions, dtypes):
    return [pd.unique(_column(chunk, i).dropna()) for i in positions]


def _categories(parts, positions, dtypes):
    """Per encoded column, the categories pandas finds in all the values (in block order)."""
    result = []
    for j, dtype in enumerate(dtypes):
        values = [pd.Series(p[j], dtype=dtype) for p in parts]
        whole = pd.concat(values, ignore_index=True) if values else pd.Series([], dtype=dtype)
        result.append(pd.Categorical(whole).categories)
    return result


def _as_categorical(chunk, positions, categories):
    if isinstance(chunk, pd.Series):
        return pd.Series(pd.Categorical(chunk, categories=categories[0]), index=chunk.index,
                         name=chunk.name)
    chunk = chunk.copy(deep=False)
    for i, cats in zip(positions, categories):
        chunk.isetitem(i, pd.Categorical(chunk.iloc[:, i], categories=cats))
    return chunk


def _encode(chunk, positions, categories, kwargs, names):
    """pandas' get_dummies of the block, its encoded columns given the whole data's categories
    (``names``: the columns pandas gives the whole data)."""
    res = pd.get_dummies(_as_categorical(chunk, positions, categories), **kwargs)
    res.columns = names
    return res


def _names(meta, positions, categories, dtypes, kwargs):
    """The columns pandas gives data holding exactly these values, in this order."""
    length = max([len(c) for c in categories] + [1])
    sample = sample_of(meta)
    frame = sample.iloc[[0] * length].reset_index(drop=True) if len(sample) else sample
    for i, cats, dtype in zip(positions, categories, dtypes):
        values = list(cats) + [cats[0] if len(cats) else None] * (length - len(cats))
        column = pd.Series(values, dtype=dtype)
        if isinstance(frame, pd.Series):
            frame = column
        else:
            frame.isetitem(i, column)
    return pd.get_dummies(frame, **kwargs).columns


def get_dummies(data, prefix=None, prefix_sep="_", dummy_na=False, columns=None, sparse=False,
                drop_first=False, dtype=None):
    """Convert categorical variable(s) into indicator (dummy) columns, as pandas does."""
    if isinstance(data, (pd.DataFrame, pd.Series)):
        from .datasource import from_pandas

        data = from_pandas(data)
    if not isinstance(data, (DataFrame, Series)):
        return pd.get_dummies(data, prefix=prefix, prefix_sep=prefix_sep, dummy_na=dummy_na,
                              columns=columns, sparse=sparse, drop_first=drop_first, dtype=dtype)
    if sparse:
        raise NotImplementedError("get_dummies(sparse=True) is not supported")
    kwargs = {"prefix": prefix, "prefix_sep": prefix_sep, "dummy_na": dummy_na, "columns": columns,
              "drop_first": drop_first, "dtype": dtype}
    if isinstance(data, Series):
        kwargs.pop("columns")
    meta = data.data.meta
    pd.get_dummies(meta, **kwargs)  # pandas' errors (a missing column, prefix lengths) now
    positions = _encoded_positions(meta, columns)
    dtypes = [_column(meta, i).dtype for i in positions]
    categories: list = [d.categories if isinstance(d, pd.CategoricalDtype) else None for d in dtypes]
    todo = [j for j, c in enumerate(categories) if c is None]
    if todo:
        picked = ([positions[j] for j in todo], [dtypes[j] for j in todo])
        found = compute_now(summarize(data, _uniques, _categories, args=picked, label="md.get_dummies"),
                            data)
        for j, cats in zip(todo, found):
            categories[j] = cats
    names = _names(meta, positions, categories, dtypes, kwargs)
    args = (positions, categories, kwargs, names)
    with warnings.catch_warnings():  # the sample's values are not among the categories
        warnings.simplefilter("ignore")
        res_meta = meta_of(_encode(meta, *args), _encode(sample_of(meta), *args))
    return map_chunks(_encode, (data, *args), label="md.get_dummies", meta=res_meta)
