"""``pivot_table``: rows shuffled by their ``index`` keys, pandas' pivot_table per reducer.

Every row of one index key reaches the same reducer, so each reducer's pivot holds that
key's whole rows; one chunk joins them (columns aligned, gaps filled as pandas fills them)
in sorted order; with ``sort=False`` rows carry their global order through the shuffle and
the joined table takes the order pandas gives a table of each key combination's first row. The
result's columns are values of the data, so it is computed when
``pivot_table`` is called (an aggregate: small), as pandas knows its columns then.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from .blockwise import row_chunks, rows_grid
from .core import DataFrame, methods, new_frame
from .datasource import from_pandas
from .groupby import _ORDER_COL, RowShuffleMap
from .reshape import compute_now

__all__ = ["pivot_table", "pivot"]


def _as_list(keys) -> list:
    if keys is None:
        return []
    return list(keys) if isinstance(keys, (list, tuple, pd.Index)) else [keys]


class PivotRows(Operand):
    """Reducer: pandas' pivot_table of whole index-key groups. Gather: the pieces joined."""

    _params = ("kwargs", "stage")

    def execute(self, *values):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            if self.stage == "reduce":
                rows = values[0] if len(values) == 1 else pd.concat(values)
                if "aggfunc" not in self.kwargs:
                    return rows.pivot(**self.kwargs)
                if self.kwargs.get("sort", True):
                    return pd.pivot_table(rows, **self.kwargs)
                return _unsorted_part(rows, self.kwargs)
            if not self.kwargs.get("sort", True):
                return _in_first_appearance_order(values, self.kwargs)
            return _join(values, self.kwargs)


def _keys(kwargs) -> list:
    return _as_list(kwargs.get("index")) + _as_list(kwargs.get("columns"))


def _unsorted_part(rows, kwargs):
    """A reducer's sorted table, and the first row of each key combination it holds (with
    its global position): what ``sort=False`` orders the joined table by."""
    ordered = rows.sort_values(_ORDER_COL, kind="stable")
    firsts = ordered.drop_duplicates(subset=_keys(kwargs), keep="first")
    table = pd.pivot_table(ordered.drop(columns=_ORDER_COL), **{**kwargs, "sort": True})
    return table, firsts


def _in_first_appearance_order(parts, kwargs):
    """pandas' ``sort=False`` order: the joined tables reordered as pandas orders a table of
    each key combination's first row (rows and columns in the order they first appear)."""
    table = _join([p[0] for p in parts], {**kwargs, "sort": True})
    firsts = pd.concat([p[1] for p in parts]).sort_values(_ORDER_COL, kind="stable").drop(columns=_ORDER_COL)
    keys = set(_keys(kwargs))
    for col in firsts.columns:  # no value missing: every first row shows up in the probe
        if col not in keys and firsts[col].isna().any():
            firsts[col] = firsts[col].fillna(0 if pd.api.types.is_numeric_dtype(firsts[col]) else "")
    probe = pd.pivot_table(firsts, **kwargs)
    return table.iloc[_ranks(table.index, probe.index)].iloc[:, _ranks(table.columns, probe.columns)]


def _ranks(labels, order):
    """Positions that put ``labels`` in the order of ``order`` (labels it lacks last)."""
    rank = order.get_indexer(labels)  # pandas matches missing labels (NaN) as equal
    rank = np.where(rank < 0, len(order), rank)
    return np.argsort(rank, kind="stable")


def _join(parts, kwargs):
    parts = [p for p in parts if p.shape[1] or len(p)] or list(parts[:1])
    if len(parts) == 1:
        return parts[0]
    dtypes = {}
    for p in parts:
        for col, dtype in p.dtypes.items():
            dtypes.setdefault(col, dtype)
    table = pd.concat(parts, axis=0, sort=False)
    fill = kwargs.get("fill_value")
    if fill is not None:
        table = table.fillna(fill)
        for col in table.columns:
            if table[col].dtype != dtypes[col] and table[col].notna().all():
                table[col] = table[col].astype(dtypes[col])
    if "aggfunc" not in kwargs:  # pivot: a block per value column, in the frame's order
        return _sort_columns(table, isinstance(table.columns, pd.MultiIndex)).sort_index()
    return _sort_columns(table, isinstance(kwargs["aggfunc"], list)).sort_index()


def _sort_columns(table, per_function: bool):
    """pandas' column order: sorted, within each aggregation function's block for a list."""
    if not per_function:
        return table.sort_index(axis=1)
    rank = {f: i for i, f in enumerate(dict.fromkeys(table.columns.get_level_values(0)))}
    order = sorted(table.columns, key=lambda t: (rank[t[0]],) + tuple(t[1:]))
    return table.reindex(columns=pd.MultiIndex.from_tuples(order, names=table.columns.names))


class PivotTable(Operand):
    _params = ("kwargs", "index")

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n, unknown = len(chunks), (math.nan, math.nan)
        ordered = not self.kwargs.get("sort", True)  # rows carry their global order
        mappers = [(RowShuffleMap(by=self.index, n_reducers=n, label=self.label, with_order=ordered,
                                  order_base=i << 32), [c]) for i, c in enumerate(chunks)]
        received = exchange(mappers, n, self.label) if n > 1 or ordered else [chunks]
        reducers = [ChunkData(PivotRows(kwargs=self.kwargs, stage="reduce", label=self.label),
                              received[j], unknown, None, (j, 0)) for j in range(n)]
        gather = PivotRows(kwargs=self.kwargs, stage="gather", label=self.label)
        meta = out.meta
        return rows_grid([ChunkData(gather, reducers, (math.nan, len(meta.columns)), meta, (0, 0))], meta)


@methods(DataFrame)
def pivot_table(data, values=None, index=None, columns=None, aggfunc="mean", fill_value=None,
                margins=False, dropna=True, margins_name="All", observed=None, sort=True):
    """A spreadsheet-style pivot table (computed now: its columns are values of the data);
    ``margins`` adds pandas' "All" row and column, aggregated from the data."""
    return from_pandas(pivot_table_now(data, values, index, columns, aggfunc, fill_value, margins,
                                       dropna, margins_name, observed, sort))


def pivot_table_now(data, values=None, index=None, columns=None, aggfunc="mean", fill_value=None,
                    margins=False, dropna=True, margins_name="All", observed=None, sort=True):
    """``pivot_table``'s computed pandas table."""
    kwargs = {"values": values, "index": index, "columns": columns, "aggfunc": aggfunc,
              "fill_value": fill_value, "dropna": dropna, "sort": sort}
    if observed is not None:
        kwargs["observed"] = observed
    meta = data.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        pd.pivot_table(meta, margins=margins, margins_name=margins_name, **kwargs)  # pandas' errors
    keys = _as_list(index)
    if not keys or not all(isinstance(k, (str, int, float, tuple)) and k in meta.columns for k in keys):
        raise NotImplementedError("pivot_table needs index= column labels")
    if margins:  # pandas adds the margins before it drops a single value's level
        from .crosstab import add_margins

        single = values is not None and not isinstance(values, (list, tuple))
        table = pivot_table_now(data, **{**kwargs, "values": [values] if single else values})
        return add_margins(data, table, kwargs, margins_name)
    op = PivotTable(kwargs=kwargs, index=tuple(keys), label="md.pivot_table")
    lazy = new_frame(op, [data], math.nan, meta.iloc[:0, :0])
    return compute_now(lazy)


@methods(DataFrame)
def pivot(data, *, columns, index=None, values=None):
    """Reshape by ``index`` / ``columns`` values without aggregating (computed now: its
    columns are values of the data); duplicate entries raise pandas' ValueError."""
    meta = data.data.meta
    kwargs = {"columns": columns, "index": index, "values": values}
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    meta.pivot(**kwargs)  # pandas' errors (missing columns)
    keys = _as_list(index)
    if not keys:
        raise NotImplementedError("pivot needs index= column labels")
    op = PivotTable(kwargs=kwargs, index=tuple(keys), label="md.pivot")
    return from_pandas(compute_now(new_frame(op, [data], math.nan, meta.iloc[:0, :0])))
