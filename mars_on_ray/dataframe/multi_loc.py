"""``loc`` on a MultiIndex: a tuple of every level's label picks a row, as a plain label does;
a shorter tuple (or one label) picks the rows under those leading labels, with those levels
dropped, as pandas does."""
from __future__ import annotations

import math
import warnings

import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import chunk_shape, row_chunks, rows_grid
from .core import DataFrame, new_frame
from .positional import _idx


def _is_label(part) -> bool:
    if isinstance(part, slice) or pd.api.types.is_list_like(part):
        return False
    try:
        hash(part)
    except TypeError:
        return False
    return True


def multi_index_key(obj, key) -> tuple | None:
    """``key`` as a tuple of leading labels when it is one for ``obj``'s MultiIndex (a label,
    or a tuple of labels), else None. A DataFrame's pair ``(rows, columns)`` is not one."""
    index = obj.data.meta.index
    if not isinstance(index, pd.MultiIndex):
        return None
    parts = key if isinstance(key, tuple) else (key,)
    if not parts or not all(_is_label(p) for p in parts) or len(parts) > index.nlevels:
        return None
    if isinstance(obj, DataFrame) and isinstance(key, tuple) and len(key) == 2 \
            and key[1] in obj.data.meta.columns and key[1] not in index.levels[1]:
        return None  # (rows, a column), as pandas reads it when the pair is no row label
    return parts


class MatchPrefix(Operand):
    """The rows of one chunk under the leading labels ``key``, those levels dropped."""

    _params = ("key",)

    def execute(self, v):
        drop = list(range(len(self.key)))
        try:
            with warnings.catch_warnings():  # an unsorted index: pandas scans it, as here
                warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
                loc = v.index.get_loc(self.key)
        except KeyError:
            return v.iloc[:0].droplevel(drop)
        rows = v.iloc[[loc] if pd.api.types.is_integer(loc) else loc]
        return rows.droplevel(drop)


class PrefixRows(Operand):
    """``obj.loc[leading labels]``: every chunk filtered; a KeyError when no chunk has them."""

    _params = ("key",)

    def tile(self, ctx, out):
        meta = out.meta
        chunks = [ChunkData(MatchPrefix(key=self.key, label=self.label), [c],
                            chunk_shape(meta, math.nan), meta, _idx(meta, i))
                  for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        shapes = yield chunks
        if not any(s[0] for s in shapes):
            raise KeyError(self.key if len(self.key) > 1 else self.key[0])
        return rows_grid(chunks, meta)


def prefix_rows(obj, key: tuple):
    """The rows of ``obj`` under the leading labels ``key`` (fewer than its levels)."""
    meta = obj.data.meta.iloc[:0].droplevel(list(range(len(key))))
    return new_frame(PrefixRows(key=key, label="md.loc"), [obj], math.nan, meta)
