"""``Series.cat``: pandas' categorical methods, chunk by chunk.

The categories live in the dtype, so every method but one is pandas' method on each block,
its result dtype pandas' answer on the empty metadata (and its errors raised there, at build
time). ``remove_unused_categories`` depends on the values: the codes the whole column uses
are computed when it is called (a small union of each block's codes).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .accessors import summarize
from .blockwise import map_chunks
from .core import Series, methods
from .reshape import compute_now
from .rules.usage import same_as_output, uses

__all__: list[str] = []


def _cat_call(chunk, name, args, kwargs):
    return getattr(chunk.cat, name)(*args, **kwargs)


def _cat_attr(chunk, name):
    return getattr(chunk.cat, name)


uses(_cat_call, rows="same")(same_as_output)
uses(_cat_attr, rows="same")(same_as_output)


def _used_codes(chunk):
    codes = chunk.cat.codes.to_numpy()
    return np.unique(codes[codes >= 0])


def _union(parts):
    return np.unique(np.concatenate(parts)) if parts else np.array([], dtype=np.int64)


class CategoricalAccessor:
    """``s.cat``: the categories, codes and categorical methods of a 'category' Series."""

    def __init__(self, obj):
        dtype = obj.data.meta.dtype
        if not isinstance(dtype, pd.CategoricalDtype):
            raise AttributeError("Can only use .cat accessor with a 'category' dtype")
        self._obj = obj
        self._dtype = dtype

    @property
    def categories(self) -> pd.Index:
        """The categories (known from the dtype)."""
        return self._dtype.categories

    @property
    def ordered(self) -> bool:
        """Whether the categories have an order."""
        return bool(self._dtype.ordered)

    @property
    def codes(self) -> Series:
        """The category code of each value (-1 for a missing one)."""
        meta = self._obj.data.meta.cat.codes
        return map_chunks(_cat_attr, (self._obj, "codes"), label="md.cat.codes", meta=meta)

    def _call(self, name, *args, **kwargs):
        meta = getattr(self._obj.data.meta.cat, name)(*args, **kwargs)  # pandas' errors now
        return map_chunks(_cat_call, (self._obj, name, args, kwargs), label=f"md.cat.{name}", meta=meta)

    def rename_categories(self, new_categories):
        """Categories renamed (a list, a dict or a function of the old ones)."""
        return self._call("rename_categories", new_categories)

    def add_categories(self, new_categories):
        """New categories appended after the existing ones."""
        return self._call("add_categories", new_categories)

    def remove_categories(self, removals):
        """Categories removed (their values become missing)."""
        return self._call("remove_categories", removals)

    def set_categories(self, new_categories, ordered=None, rename=False):
        """The categories replaced (values outside them become missing)."""
        return self._call("set_categories", new_categories, ordered=ordered, rename=rename)

    def reorder_categories(self, new_categories, ordered=None):
        """The same categories in a new order."""
        return self._call("reorder_categories", new_categories, ordered=ordered)

    def as_ordered(self):
        """The categories marked ordered."""
        return self._call("as_ordered")

    def as_unordered(self):
        """The categories marked unordered."""
        return self._call("as_unordered")

    def remove_unused_categories(self):
        """Categories no value uses removed (computed now: they depend on the values)."""
        used = compute_now(summarize(self._obj, _used_codes, _union, label="md.cat.remove_unused_categories"),
                           self._obj)
        return self._call("set_categories", self.categories[used])


@methods(Series, name="cat", prop=True)
def cat_accessor(obj) -> CategoricalAccessor:
    return CategoricalAccessor(obj)
