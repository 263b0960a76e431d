"""``pivot_table(margins=True)`` and ``md.crosstab``.

pandas computes the "All" row and column by aggregating the original data per row key, per
column key and in total (not by summing the table's cells: wrong for a mean). Those
aggregates are computed here by the distributed groupby and reductions (each as small as
the table's margins), and pandas' own margin code lays them out: it is given a stand-in for
the data that answers its group-by and column aggregations with the computed ones.
``crosstab`` is pandas' pivot_table of a count (``len``) or of ``values`` by ``aggfunc``;
its normalization is pandas' own, on the computed table (small: it was computed when built).
"""
from __future__ import annotations

import inspect
import warnings

import pandas as pd
from pandas.core.reshape import pivot as pd_pivot

from .blockwise import map_chunks
from .core import Series
from .reshape import compute_now

__all__ = ["crosstab"]


class _Aggregated:
    """The data as pandas' ``_add_margins`` sees it: ``data[cols].groupby(keys).agg(f)`` and
    ``getattr(data[values][k], f)()`` answered by aggregates computed beforehand."""

    _constructor_sliced = pd.Series  # pandas' empty row margin when there are no columns

    def __init__(self, groups: dict, grand: dict):
        self.groups, self.grand = groups, grand

    def __getitem__(self, cols):
        return _Selection(self, list(cols))


class _Selection:
    def __init__(self, owner, cols):
        self.owner, self.cols = owner, cols

    def groupby(self, keys, **kwargs):
        res = self.owner.groups[tuple(keys)]
        return _Done(res[[c for c in self.cols if c not in keys]])

    def items(self):
        for col in self.cols:
            yield col, _Value(self.owner.grand[col])


class _Done:
    def __init__(self, res):
        self.res = res

    def agg(self, *args, **kwargs):
        return self.res


class _Value:
    """A column whose aggregate is known: any aggregation method (or ``len``) returns it."""

    def __init__(self, value):
        self.value = value

    def __len__(self):
        return int(self.value)

    def __getattr__(self, name):
        return lambda *args, **kwargs: self.value


def add_margins(data, table: pd.DataFrame, kwargs: dict, margins_name) -> pd.DataFrame:
    """pandas' margins of the computed ``table`` (its value level kept), then pandas' last
    steps: a single value's level dropped, all-missing columns dropped."""
    aggfunc = kwargs["aggfunc"]
    if not (isinstance(aggfunc, str) or aggfunc is len):
        raise NotImplementedError("pivot_table(margins=True) with an aggfunc other than a name or len")
    rows, cols = _list(kwargs["index"]), _list(kwargs.get("columns"))
    values = kwargs["values"]
    values = list(values) if isinstance(values, (list, tuple)) else (
        [values] if values is not None else [c for c in data.data.meta.columns if c not in rows + cols])
    dropna = kwargs.get("dropna", True)
    keys = [tuple(rows)] + ([tuple(cols), tuple(cols[:1])] if cols else [])
    stand_in = _aggregates_for(data, rows, cols, keys, values, aggfunc, dropna)
    given = {"table": table, "data": stand_in, "values": values, "rows": rows, "cols": cols,
             "aggfunc": aggfunc, "kwargs": {}, "observed": dropna, "margins_name": margins_name,
             "fill_value": kwargs.get("fill_value"), "dropna": dropna}
    accepted = inspect.signature(pd_pivot._add_margins).parameters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        res = pd_pivot._add_margins(**{k: v for k, v in given.items() if k in accepted})
    single = kwargs["values"] is not None and not isinstance(kwargs["values"], (list, tuple))
    if single and res.columns.nlevels > 1:
        res.columns = res.columns.droplevel(0)
    return res.dropna(how="all", axis=1) if dropna else res


def _aggregates_for(data, rows, cols, keys, values, aggfunc, dropna):
    """The stand-in: the data's aggregates per key list in ``keys`` and in total."""
    frame = data[rows + cols + values]
    if dropna:
        frame = frame.dropna()  # pandas: data[data.notna().all(axis=1)]
    groups = {}
    for by in dict.fromkeys(keys):
        gb = frame.groupby(list(by), observed=dropna, dropna=dropna)  # as pandas' margins
        if aggfunc is len:
            res = compute_now(gb.size(), frame)
            groups[by] = pd.DataFrame({v: res for v in values}, index=res.index)
        else:
            groups[by] = compute_now(gb[values].agg(aggfunc), frame)
    if aggfunc is len:
        n = compute_now(frame[values[0]].isna().count(), frame)  # the rows, missing values included
        grand = {v: n for v in values}
    else:
        totals = compute_now(frame[values].agg(aggfunc), frame)
        grand = {v: totals[v] for v in values}
    return _Aggregated(groups, grand)


def _list(keys) -> list:
    if keys is None:
        return []
    return list(keys) if isinstance(keys, (list, tuple, pd.Index)) else [keys]


def _side_by_side(names, *columns):
    frame = pd.DataFrame({n: c.reset_index(drop=True) for n, c in zip(names, columns)})
    return frame.set_axis(columns[0].index)  # the same rows: no alignment (labels may repeat)


def _names(objs, names, prefix):
    """pandas' names of the row / column keys: given, else each Series' name or prefix_i."""
    if names is not None:
        if len(names) != len(objs):
            raise AssertionError("arrays and names must have the same length")
        return list(names)
    return [o.name if o.name is not None else f"{prefix}_{i}" for i, o in enumerate(objs)]


def crosstab(index, columns, values=None, rownames=None, colnames=None, aggfunc=None, margins=False,
             margins_name="All", dropna=True, normalize=False):
    """A frequency table of ``index`` by ``columns`` (or ``values`` aggregated by ``aggfunc``);
    computed now, as ``pivot_table``."""
    from .align import concat, index_relation
    from .pivot import pivot_table_now

    if values is None and aggfunc is not None:
        raise ValueError("aggfunc cannot be used without values.")
    if values is not None and aggfunc is None:
        raise ValueError("values cannot be used without an aggfunc.")
    index = list(index) if isinstance(index, (list, tuple)) else [index]
    columns = list(columns) if isinstance(columns, (list, tuple)) else [columns]
    objs = index + columns + ([values] if values is not None else [])
    if not all(isinstance(o, (Series, pd.Series)) for o in objs):
        raise NotImplementedError("crosstab of Series (lazy or pandas) only")
    rownames = _names(index, rownames, "row")
    colnames = _names(columns, colnames, "col")
    row_map, rows, col_map, cols = pd_pivot._build_names_mapper(rownames, colnames)
    named = [Series(o) if isinstance(o, pd.Series) else o for o in objs]
    names = rows + cols + (["__dummy__"] if values is not None else [])
    if all(index_relation(named[0], o) == "same" for o in named[1:]):  # block by block
        frame = map_chunks(_side_by_side, (names, *named), label="md.crosstab")
    else:  # pandas keeps the labels every key has
        frame = concat([s.rename(n) for s, n in zip(named, names)], axis=1, join="inner")
    if values is None:
        frame = frame.assign(__dummy__=0)
        kwargs = {"aggfunc": len, "fill_value": 0}
    else:
        kwargs = {"aggfunc": aggfunc}
    table = pivot_table_now(frame, values="__dummy__", index=rows, columns=cols, margins=margins,
                            margins_name=margins_name, dropna=dropna, observed=dropna, **kwargs)
    if normalize is not False:
        table = pd_pivot._normalize(table, normalize=normalize, margins=margins, margins_name=margins_name)
    table = table.rename_axis(index=row_map, axis=0).rename_axis(columns=col_map, axis=1)
    from .datasource import from_pandas

    return from_pandas(table)
