"""MultiIndex methods of the lazy Index (levels label by label, ``sortlevel`` by a sort of the
levels as columns, ``levels`` / ``codes`` from the distinct values of each level) and the
``md.MultiIndex.from_*`` constructors."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .core import DataFrame, Index, Series, methods
from .frame_methods import per_chunk

__all__ = ["MultiIndex"]


def _label_method(name, doc):
    def method(obj, *args, **kwargs):
        getattr(obj.data.meta, name)(*args, **kwargs)  # pandas' errors (and AttributeError)
        return per_chunk(obj, name, *args, **kwargs)

    method.__name__, method.__doc__ = name, doc
    return method


for _name, _doc in (("get_level_values", "The labels of one level."),
                    ("droplevel", "The index without the given levels."),
                    ("swaplevel", "Two levels swapped."),
                    ("reorder_levels", "The levels in a new order."),
                    ("to_flat_index", "The labels as tuples (a flat Index)."),
                    ("remove_unused_levels", "The same labels; levels no label uses dropped.")):
    setattr(Index, _name, _label_method(_name, _doc))
del _name, _doc


@methods(Index, name="nlevels", prop=True)
def nlevels(obj) -> int:
    """The number of levels."""
    return obj.data.meta.nlevels


def _multi(obj) -> pd.MultiIndex:
    meta = obj.data.meta
    if not isinstance(meta, pd.MultiIndex):
        raise AttributeError(f"'{type(meta).__name__}' object has no attribute 'levels'")
    return meta


@methods(Index, name="levels", prop=True)
def levels(obj) -> list:
    """Each level's distinct labels, sorted (computed when accessed). pandas keeps the levels a
    MultiIndex was built with, unused ones too; here they are the labels there are (which is
    pandas' answer for a MultiIndex made by ``set_index`` / ``from_arrays``)."""
    from .reshape import compute_now

    meta = _multi(obj)
    values = [obj.get_level_values(i).dropna().drop_duplicates() for i in range(meta.nlevels)]
    got = [compute_now(v).sort_values() for v in values]
    return pd.core.indexes.frozen.FrozenList(
        [g.astype(m.dtype) if g.dtype != m.dtype else g for g, m in zip(got, meta.levels)])


@methods(Index, name="codes", prop=True)
def codes(obj) -> list:
    """Each label's position in its level's ``levels`` (-1 for missing), as lazy tensors."""
    meta, lv = _multi(obj), obj.levels
    out = []
    for i in range(meta.nlevels):
        code, _ = obj.get_level_values(i).factorize(sort=True)
        out.append(code.astype(_code_dtype(len(lv[i]))))
    return pd.core.indexes.frozen.FrozenList(out)


def _code_dtype(n: int):
    for dtype in (np.int8, np.int16, np.int32):
        if n < np.iinfo(dtype).max:
            return dtype
    return np.int64


@methods(Index, name="sortlevel")
def sortlevel(obj, level=0, ascending=True, sort_remaining=True, na_position="first"):
    """The labels sorted by ``level`` (then the others): the sorted Index and the positions
    that sort it (a lazy tensor)."""
    meta = obj.data.meta
    levels_ = level if isinstance(level, (list, tuple)) else [level]
    nums = [meta._get_level_number(lev) for lev in levels_]
    if sort_remaining:
        nums += [i for i in range(meta.nlevels) if i not in nums]
    frame = obj.to_frame(index=False).set_axis(list(range(meta.nlevels)), axis=1)
    asc = ascending if isinstance(ascending, list) else [ascending] * len(nums)
    if len(asc) < len(nums):
        asc = asc + [True] * (len(nums) - len(asc))
    ordered = frame.sort_values(nums, ascending=asc, kind="stable", na_position=na_position)
    index = ordered.set_index(list(range(meta.nlevels))).index.set_names(list(meta.names))
    return index, ordered.index.to_numpy()


def _lazy(labels: pd.MultiIndex, chunk_size) -> Index:
    from .datasource import from_pandas

    return from_pandas(pd.DataFrame(index=labels), chunk_size).index


class MultiIndex:
    """``md.MultiIndex.from_arrays / from_tuples / from_product / from_frame``: a lazy
    MultiIndex from pandas-like inputs or from lazy Series / frames (their rows by position)."""

    @staticmethod
    def from_tuples(tuples, sortorder=None, names=None, chunk_size=None) -> Index:
        return _lazy(pd.MultiIndex.from_tuples(tuples, sortorder=sortorder, names=names),
                     chunk_size)

    @staticmethod
    def from_product(iterables, sortorder=None, names=None, chunk_size=None) -> Index:
        return _lazy(pd.MultiIndex.from_product(iterables, sortorder=sortorder, names=names),
                     chunk_size)

    @staticmethod
    def from_arrays(arrays, sortorder=None, names=None, chunk_size=None) -> Index:
        if not any(isinstance(a, (Series, Index)) for a in arrays):
            return _lazy(pd.MultiIndex.from_arrays(arrays, sortorder=sortorder, names=names),
                         chunk_size)
        from .align import concat

        default = [getattr(a, "name", None) for a in arrays]
        cols = [Series(a).reset_index(drop=True) if isinstance(a, Series) else
                (a if isinstance(a, Index) else Index(pd.Index(a))).to_series().reset_index(drop=True)
                for a in arrays]
        # rows pair by position; a length mismatch surfaces as the cast's ValueError (pandas')
        frame = concat([c.rename(i) for i, c in enumerate(cols)], axis=1)
        frame = frame.astype({i: c.dtype for i, c in enumerate(cols)})
        return MultiIndex.from_frame(frame, names=default if names is None else names)

    @staticmethod
    def from_frame(df, sortorder=None, names=None) -> Index:
        if not isinstance(df, DataFrame):
            return _lazy(pd.MultiIndex.from_frame(df, sortorder=sortorder, names=names), None)
        pd.MultiIndex.from_frame(df.data.meta, names=names)  # pandas' errors
        keys = list(range(df.shape[1]))
        flat = df.set_axis(keys, axis=1).set_index(keys).index
        return flat.set_names(list(df.columns) if names is None else names)
