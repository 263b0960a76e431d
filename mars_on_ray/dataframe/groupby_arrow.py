"""The per-chunk partial of a groupby aggregation with pyarrow's hash aggregation.

pyarrow's ``Table.group_by`` is about twice as fast as pandas' groupby on one thread (sum of
two float columns over 2.5M rows and 1,000 integer keys: 0.043 s against 0.075 s), so the
partial stage, which reads every row, uses it where the answer is pandas' to the bit in
dtype and missing-value handling: one integer key column (no missing keys, so ``dropna``
and ``observed`` do not matter), sorted groups, and sum / count / size / min / max of
int64 or float64 columns. Anything else returns None and pandas runs.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

_ARROW_HOW = {"sum": "sum", "count": "count", "size": "count_all", "min": "min", "max": "max"}
_VALUE_DTYPES = (np.dtype("int64"), np.dtype("float64"))


def arrow_partial(frame: pd.DataFrame, by: tuple, partials: tuple) -> pd.DataFrame | None:
    """Columns ``p0..pn`` (one per ``(column, how)`` partial) indexed by the sorted keys of
    ``by``, or None when pyarrow's answer could differ from pandas'."""
    if len(by) != 1 or not frame.columns.is_unique or by[0] not in frame.columns:
        return None
    key = by[0]
    if not _is_int(frame[key].dtype) or not isinstance(key, str):
        return None
    columns = []
    for col, how in partials:
        if how not in _ARROW_HOW:
            return None
        if how != "size":
            if (col == key or not isinstance(col, str) or col not in frame.columns
                    or frame[col].dtype not in _VALUE_DTYPES):
                return None
            columns.append(col)
    import pyarrow as pa
    import pyarrow.compute as pc

    table = pa.Table.from_pandas(frame[[key, *dict.fromkeys(columns)]], preserve_index=False)
    # pandas' sum of an all-missing group is 0 (min_count=0); NaN became null in from_pandas
    sum_options = pc.ScalarAggregateOptions(skip_nulls=True, min_count=0)
    aggs = [([], "count_all") if how == "size" else
            (col, _ARROW_HOW[how], sum_options) if how == "sum" else (col, _ARROW_HOW[how])
            for col, how in partials]
    result = table.group_by(key, use_threads=False).aggregate(aggs)
    order = np.argsort(result.column(key).to_numpy(), kind="stable")
    index = pd.Index(result.column(key).to_numpy()[order], name=key)
    # pyarrow names each aggregate "<column>_<function>" ("count_all" for size)
    names = ["count_all" if how == "size" else f"{col}_{_ARROW_HOW[how]}" for col, how in partials]
    data = {f"p{i}": _values(result.column(name), how)[order]
            for i, (name, (_, how)) in enumerate(zip(names, partials))}
    return pd.DataFrame(data, index=index)


def _is_int(dtype) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind in "iu"


def _values(column, how: str) -> np.ndarray:
    if how in ("min", "max") and column.null_count:  # an all-NaN group: NaN, as pandas
        return column.to_numpy(zero_copy_only=False).astype("float64")
    return column.to_numpy(zero_copy_only=False)
