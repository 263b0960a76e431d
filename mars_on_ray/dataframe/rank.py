"""rank: global ranks by range partitioning, sent back to the rows' own chunks.

Per column: each chunk samples its distinct values, one operand picks range boundaries, and
each chunk splits its (value, global position) pairs by value range (equal values always meet
in one range; missing values go to the last). A reducer ranks its range with pandas (ties in
global position order, so ``method='first'`` is pandas'), and counts its valid and distinct
values; one operand turns every reducer's counts into its offset (the ranges before it, or
after it when descending, plus the missing values ranked first) and the divisor of ``pct``.
Each reducer adds its offset and sends every rank back to the chunk it came from, where the
ranks are put in row order: the result is chunked like the input.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.exchange import exchange
from ..core.operand import Operand
from ..core.shuffle import pick_boundaries, range_codes, sample_keys, split_by_codes
from .blockwise import map_chunks, row_chunks, rows_grid
from .core import DataFrame, Series, methods, new_frame
from .groupby_more import RowIndex
from .scan import sample

__all__: list[str] = []


def _column(chunk, col):
    """The ranked values: a categorical's are pandas' rank keys (category order if ordered)."""
    values = chunk if col is None else chunk.iloc[:, col]
    if isinstance(values.dtype, pd.CategoricalDtype):
        return pd.Series(values.array._values_for_rank(), index=values.index)
    return values


def _nan_ranks(n: int, method: str) -> np.ndarray:
    """Ranks of ``n`` tied missing values among themselves (in row order for 'first')."""
    return pd.Series(np.zeros(n)).rank(method=method).to_numpy()


class Rank(Operand):
    """The stages of a distributed rank (see the module docstring); ``cols``: the ranked
    column positions (None: a Series), ``parts``: per column, how many sent-back pieces each
    gathering chunk receives."""

    _params = ("method", "ascending", "na_option", "pct", "stage", "col", "col_base", "n", "cols",
               "parts", "name_value", "columns_value")
    stage = col = cols = parts = name_value = columns_value = None
    n, col_base = 1, 0
    #: the result has its input's index (align.py lines such results up chunk by chunk)
    keeps_index = True

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return {"map": self.n, "offsets": self.n, "back": self.n, "local": 2}.get(self.stage, 1)

    def execute(self, *values):
        stage = self.stage
        if stage == "sample":
            return sample_keys(_column(values[0], self.col))
        if stage == "bounds":
            return pick_boundaries(list(values), self.n)
        if stage == "map":
            chunk, bounds = values
            v = _column(chunk, self.col)
            pairs = pd.DataFrame({"v": v.to_numpy(), "p": np.arange(len(v), dtype=np.int64) + self.col_base})
            out = split_by_codes(pairs, range_codes(pairs["v"], bounds), self.n)
            return out if self.n > 1 else out[0]
        if stage == "local":
            return self._local(values)
        if stage == "offsets":
            out = self._offsets(values)
            return tuple(out) if self.n > 1 else out[0]
        if stage == "back":
            ranked, (offset, na_offset, divisor) = values
            r = ranked["r"].to_numpy() + np.where(ranked["na"].to_numpy(), na_offset, offset)
            if self.pct:
                with np.errstate(divide="ignore", invalid="ignore"):  # no valid values: all NaN
                    r = r / divisor
            back = pd.DataFrame({"r": r, "p": ranked["p"].to_numpy()})
            if self.na_option == "keep":
                back.loc[ranked["na"].to_numpy(), "r"] = np.nan
            out = split_by_codes(back, back["p"].to_numpy() >> 32, self.n)
            return out if self.n > 1 else out[0]
        return self._gather(values)

    def _local(self, pieces):
        parts = [p for p in pieces if len(p)] or list(pieces[:1])
        rows = pd.concat(parts, ignore_index=True).sort_values("p", kind="stable")
        missing = rows["v"].isna().to_numpy()
        valid = rows["v"][~missing]
        r = np.empty(len(rows))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            r[~missing] = valid.rank(method=self.method, ascending=self.ascending).to_numpy()
        r[missing] = _nan_ranks(int(missing.sum()), self.method)
        ranked = pd.DataFrame({"r": r, "p": rows["p"].to_numpy(), "na": missing})
        counts = np.array([len(valid), valid.nunique(), int(missing.sum())], dtype=np.int64)
        return ranked, counts

    def _offsets(self, counts):
        """Per reducer: (offset of its valid ranks, offset of missing ones, pct divisor)."""
        counts = np.array(counts).reshape(-1, 3)
        dense = self.method == "dense"
        sizes = counts[:, 1] if dense else counts[:, 0]
        n_na = int(counts[:, 2].sum())
        na_size = (1 if n_na else 0) if dense else n_na
        before = np.cumsum(sizes) - sizes
        offsets = before if self.ascending else sizes.sum() - before - sizes
        total = int(sizes.sum())
        if self.na_option == "top":
            offsets, na_offset = offsets + na_size, 0
        else:
            na_offset = total
        divisor = total + (na_size if self.na_option != "keep" else 0)
        return [(int(o), na_offset, divisor) for o in offsets]

    def _gather(self, values):
        index = values[-1]
        columns, start = [], 0
        for k in self.parts:
            pieces = [p for p in values[start:start + k] if len(p)]
            start += k
            r = np.full(len(index), np.nan)
            if pieces:
                back = pd.concat(pieces, ignore_index=True)
                r[back["p"].to_numpy() & 0xFFFFFFFF] = back["r"].to_numpy()
            columns.append(r)
        if self.cols is None:
            return pd.Series(columns[0], index=index, name=self.name_value)
        frame = pd.DataFrame(dict(enumerate(columns)), index=index)
        frame.columns = self.columns_value
        return frame

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n, unknown = len(chunks), (math.nan, math.nan)
        backs, parts = [], []
        for col in (self.cols if self.cols is not None else (None,)):
            op = self.new(col=col, n=n)
            samples = [ChunkData(op.new(stage="sample"), [c], (math.nan,), None, (i,))
                       for i, c in enumerate(chunks)]
            bounds = ChunkData(op.new(stage="bounds"), samples, (math.nan,), None, (0,))
            received = exchange([(op.new(stage="map", col_base=i << 32), [c, bounds])
                                 for i, c in enumerate(chunks)], n, self.label)
            local = [[ChunkData(op.new(stage="local"), received[j], unknown, None, (j, 0), k)
                      for k in range(2)] for j in range(n)]
            offsets = op.new(stage="offsets")
            offs = [ChunkData(offsets, [lc[1] for lc in local], (math.nan,), None, (0,), j)
                    for j in range(n)]
            back = exchange([(op.new(stage="back"), [local[j][0], offs[j]]) for j in range(n)],
                            n, self.label)
            backs.append(back)
            parts.append(len(back[0]))
        meta = out.meta
        gather = self.new(stage="gather", parts=tuple(parts))
        result = []
        for i, c in enumerate(chunks):
            index = ChunkData(RowIndex(label=self.label), [c], (c.shape[0],), None, (i,))
            inputs = [p for back in backs for p in back[i]] + [index]
            shape = (c.shape[0], len(meta.columns)) if isinstance(meta, pd.DataFrame) else (c.shape[0],)
            result.append(ChunkData(gather, inputs, shape, meta, (i, 0) if len(shape) == 2 else (i,)))
        return rows_grid(result, meta)


def _rank_rows(frame, kwargs):
    return frame.rank(axis=1, **kwargs)


@methods(DataFrame, Series)
def rank(obj, axis=0, method="average", numeric_only=False, na_option="keep", ascending=True,
         pct=False):
    """Ranks of the values (1 = smallest): pandas' ``method`` for ties ('average', 'min',
    'max', 'first', 'dense'), ``na_option`` ('keep', 'top', 'bottom') and ``pct``; down the
    rows by a range partitioning of each column's values."""
    meta = obj.data.meta
    kwargs = {"method": method, "na_option": na_option, "ascending": ascending, "pct": pct}
    if isinstance(obj, DataFrame):
        kwargs["numeric_only"] = numeric_only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        result_meta = sample(meta).rank(axis=axis, **kwargs).iloc[:0]  # pandas' errors and columns
    if isinstance(obj, DataFrame) and meta._get_axis_number(axis) == 1:
        return map_chunks(_rank_rows, (obj, kwargs), label="md.rank",
                          meta=result_meta)
    cols = None
    if isinstance(obj, DataFrame):
        cols = tuple(i for i, d in enumerate(meta.dtypes)
                     if not numeric_only or pd.api.types.is_numeric_dtype(d))
    op = Rank(method=method, ascending=bool(ascending), na_option=na_option, pct=bool(pct), cols=cols,
              name_value=getattr(meta, "name", None),
              columns_value=result_meta.columns if cols is not None else None, label="md.rank")
    return new_frame(op, [obj], obj.shape[0], result_meta)
