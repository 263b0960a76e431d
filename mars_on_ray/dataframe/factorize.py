"""factorize: codes and uniques from the distributed drop_duplicates and a left merge.

The uniques are the Series' distinct values (first appearance, or sorted with ``sort``;
missing values kept only without ``use_na_sentinel``), numbered 0..k-1; each row's code is its
value's number, found by a left merge on the value (pandas' merge keeps the rows' order and
matches missing keys with each other).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .core import Series, methods
from .merge import merge_frames

__all__: list[str] = []

_VALUE, _CODE = "__mars_factorize_value__", "__mars_factorize_code__"


@methods(Series)
def factorize(obj, sort=False, use_na_sentinel=True, size_hint=None):
    """``(codes, uniques)``: a tensor of each value's code (-1 for missing values with
    ``use_na_sentinel``) and an Index of the distinct values, as pandas."""
    meta = obj.data.meta
    meta.factorize(sort=sort, use_na_sentinel=use_na_sentinel)  # pandas' errors
    if isinstance(meta.dtype, pd.CategoricalDtype):  # pandas' uniques are then a Categorical
        raise NotImplementedError("factorize of a categorical Series")
    uniques = obj.drop_duplicates()
    if use_na_sentinel:
        uniques = uniques.dropna()
    if sort:
        uniques = uniques.sort_values(na_position="last")
    uniques = uniques.reset_index(drop=True).rename(_VALUE)
    table = uniques.to_frame().reset_index().rename(columns={"index": _CODE})
    rows = obj.rename(_VALUE).to_frame().reset_index(drop=True)
    codes = merge_frames(rows, table, on=_VALUE, how="left")[_CODE]
    if use_na_sentinel:
        codes = codes.fillna(-1)
    codes = codes.astype(np.int64).to_tensor()
    return codes, uniques.to_frame().set_index(_VALUE).index.rename(None)
