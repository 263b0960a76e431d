"""Sums and counts per group by direct addressing: integer keys in a dense range.

A groupby's partial and combine stages read every row; with one integer key spanning at most
``DENSITY`` times the rows, ``np.bincount`` over the key offsets sums and counts each group
with no hash table (2.5M rows, 1M keys, two columns' sum and count: 0.055 s against pyarrow's
0.37 and pandas' 0.30). The groups come out sorted, as a sorted groupby wants them. Only sum /
count / size, of float64 columns and of int64 / bool ones whose sums float64 holds exactly;
anything else returns None and pyarrow or pandas runs. Float sums may differ from pandas'
compensated sums in the last bits, as any split of the rows into chunks makes them.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

DENSITY = 4
MIN_SPAN = 1 << 16
MAX_SPAN = 1 << 27
EXACT = 2**53  # float64 holds every integer below this


def dense_span(keys: np.ndarray):
    """(lowest key, number of slots) when integer ``keys`` span at most ``DENSITY`` times
    their number (any span up to ``MIN_SPAN``; never over ``MAX_SPAN``), else None; also the
    direct join's test (direct_join.py)."""
    if not len(keys):
        return None
    lo, hi = int(keys.min()), int(keys.max())
    span = hi - lo + 1
    if span > max(DENSITY * len(keys), MIN_SPAN) or span > MAX_SPAN:
        return None
    return lo, span


def _summable(values: np.ndarray) -> bool:
    if values.dtype == np.float64:
        return True
    if values.dtype.kind in "iub":
        if values.dtype.kind == "b" or not len(values):
            return True
        return float(np.abs(values).max()) * len(values) < EXACT
    return False


def _sums(offsets, values, span, size):
    """Per slot: (sum of the non-missing values, their count), in the values' kind."""
    if values.dtype == np.float64:
        present = ~np.isnan(values)
        if not present.all():
            offsets, values = offsets[present], values[present]
            size = np.bincount(offsets, minlength=span)
        return np.bincount(offsets, weights=values, minlength=span), size
    sums = np.bincount(offsets, weights=values.astype(np.float64), minlength=span)
    return sums.astype(np.int64), size


def dense_sums(keys: np.ndarray, columns: list, hows: list[str], name) -> pd.DataFrame | None:
    """Columns ``p0..pn``: per group of ``keys`` (sorted, the index, named ``name``), the
    sum / count / size of each of ``columns`` as ``hows`` say; None when it does not apply."""
    if not (isinstance(keys.dtype, np.dtype) and keys.dtype.kind == "i"):
        return None
    if any(h not in ("sum", "count", "size") for h in hows):
        return None
    if any(h != "size" and not _summable(c) for c, h in zip(columns, hows)):
        return None
    found = dense_span(keys)
    if found is None:
        return None
    lo, span = found
    offsets = (keys - lo).astype(np.intp, copy=False)
    size = np.bincount(offsets, minlength=span)
    out = []
    for values, how in zip(columns, hows):
        if how == "size":
            out.append(size)
            continue
        sums, counts = _sums(offsets, values, span, size)
        out.append(sums if how == "sum" else counts)
    groups = np.flatnonzero(size)
    index = pd.Index(groups + lo, dtype=keys.dtype, name=name)
    return pd.DataFrame({f"p{i}": column[groups] for i, column in enumerate(out)}, index=index)


def dense_partial(frame: pd.DataFrame, by: tuple, partials: tuple) -> pd.DataFrame | None:
    """A groupby's partial (``(column, how)`` pairs) on one integer key column by direct
    addressing, or None."""
    if len(by) != 1 or not frame.columns.is_unique or by[0] not in frame.columns:
        return None
    columns = []
    for column, how in partials:
        if how != "size" and (column == by[0] or column not in frame.columns):
            return None
        columns.append(None if how == "size" else frame[column].to_numpy())
    return dense_sums(frame[by[0]].to_numpy(), columns, [how for _, how in partials], by[0])


def dense_combine(partials: pd.DataFrame) -> pd.DataFrame | None:
    """Partials ``p0..pn`` of several chunks summed per key (one integer index level)."""
    if partials.index.nlevels != 1:
        return None
    columns = [partials[c].to_numpy() for c in partials.columns]
    res = dense_sums(partials.index.to_numpy(), columns, ["sum"] * len(columns),
                     partials.index.name)
    return None if res is None else res.set_axis(partials.columns, axis=1)
