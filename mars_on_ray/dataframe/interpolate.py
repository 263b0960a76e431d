"""interpolate: missing values filled from the valid values around them, across chunks.

A run of missing values may span many chunks, so each chunk needs, per column, the last valid
value before it and the first one after it (with their global positions and x). Every chunk
makes a small summary (its row count, and per column its first and last valid value), one
operand turns the summaries into each chunk's start position and neighbours, and each chunk
is filled from its own valid values plus those two. ``limit`` / ``limit_direction`` /
``limit_area`` are pandas' rules on the distances (in rows) to the valid values on either side.
x is the global row position for ``linear``, the index values for ``index`` / ``values`` /
``time`` / ``nearest`` (an increasing index: pandas sorts the valid points by x, which on an
unsorted index reaches beyond the neighbours). Along the columns each row block is answered
by pandas.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import chunk_shape, map_chunks, row_chunks, rows_grid, sample_of
from .core import DataFrame, Series, methods, new_frame
from .cumulative import PANDAS3, _inplace

__all__: list[str] = []

_BY_INDEX = ("index", "values", "time", "nearest")
_METHODS = ("linear",) + _BY_INDEX
#: pandas' SciPy methods, not built here
_SCIPY = ("zero", "slinear", "quadratic", "cubic", "barycentric", "krogh", "spline", "polynomial",
          "from_derivatives", "piecewise_polynomial", "pchip", "akima", "cubicspline")


def _xs(chunk, method, start):
    if method == "linear":
        return np.arange(start, start + len(chunk), dtype=np.float64)
    index = chunk.index
    values = index.asi8 if isinstance(index, pd.DatetimeIndex) else index.to_numpy()
    return np.asarray(values, dtype=np.float64)


def _columns(chunk, cols):
    if isinstance(chunk, pd.Series):
        return [chunk.to_numpy(dtype=np.float64, na_value=np.nan)] if cols else []
    return [chunk.iloc[:, j].to_numpy(dtype=np.float64, na_value=np.nan) for j in cols]


class Interpolate(Operand):
    """Stages: ``summary`` (per chunk), ``prefix`` (all summaries -> each chunk's start and
    neighbouring valid points), ``apply``. ``cols``: positions of the float columns filled."""

    _params = ("method", "limit", "direction", "area", "cols", "stage", "n")
    stage = None
    n = 1
    #: the result has its input's index (align.py lines such results up chunk by chunk)
    keeps_index = True

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n if self.stage == "prefix" else 1

    def execute(self, *values):
        if self.stage == "summary":
            chunk = values[0]
            x = _xs(chunk, self.method, 0)
            ends = []
            for y in _columns(chunk, self.cols):
                valid = np.flatnonzero(~np.isnan(y))
                ends.append(None if not len(valid) else
                            ((int(valid[0]), y[valid[0]], x[valid[0]]), (int(valid[-1]), y[valid[-1]], x[valid[-1]])))
            return len(chunk), ends
        if self.stage == "prefix":
            out = self._prefix(values)
            return tuple(out) if self.n > 1 else out[0]
        return self._apply(*values)

    def _prefix(self, summaries):
        """Per chunk: (start row, per column the last valid point before it, the first after
        it), a point being (global row, y, x) or None."""
        starts = np.cumsum([0] + [s[0] for s in summaries])
        ncols = len(summaries[0][1]) if summaries else 0
        before, after = [], [None] * len(summaries)
        last = [None] * ncols
        for i, (_, ends) in enumerate(summaries):
            before.append(list(last))
            for j, e in enumerate(ends):
                if e is not None:
                    last[j] = self._point(int(starts[i]), e[1])
        first = [None] * ncols
        for i in range(len(summaries) - 1, -1, -1):
            after[i] = list(first)
            for j, e in enumerate(summaries[i][1]):
                if e is not None:
                    first[j] = self._point(int(starts[i]), e[0])
        return [(int(starts[i]), before[i], after[i]) for i in range(len(summaries))]

    def _point(self, start, end):
        """A chunk's (row, y, x) end point with its global row (the x of ``linear``)."""
        row = start + end[0]
        return row, end[1], float(row) if self.method == "linear" else end[2]

    def _apply(self, chunk, info=None):
        start, before, after = info if info is not None else (0, None, None)
        x = _xs(chunk, self.method, start)
        rows = np.arange(start, start + len(chunk))
        filled = []
        for k, y in enumerate(_columns(chunk, self.cols)):
            prev = before[k] if before else None
            nxt = after[k] if after else None
            filled.append(self._fill(y, x, rows, prev, nxt))
        if isinstance(chunk, pd.Series):
            return pd.Series(filled[0], index=chunk.index, name=chunk.name) if filled else chunk
        res = chunk.copy()
        for j, values in zip(self.cols, filled):
            res.isetitem(j, pd.Series(values, index=chunk.index))
        return res

    def _fill(self, y, x, rows, prev, nxt):
        missing = np.isnan(y)
        if not missing.any():
            return y
        valid = ~missing
        pts = [p for p in (prev,) if p is not None] + list(zip(rows[valid], y[valid], x[valid])) \
            + [p for p in (nxt,) if p is not None]
        if not pts:
            return y  # no valid value in the whole column: pandas leaves it
        prow, py, px = (np.array(v, dtype=np.float64) for v in zip(*pts))
        ends = [prev[2]] if prev is not None else []
        if self.method != "linear" and (np.diff(np.concatenate([ends, x, [nxt[2]] if nxt is not None else []])) < 0).any():
            raise NotImplementedError(f"interpolate(method={self.method!r}) on an index that is not increasing")
        at = x[missing]
        if self.method == "nearest":
            right = np.searchsorted(prow, rows[missing])
            inside = (right > 0) & (right < len(prow))
            left_i, right_i = np.clip(right - 1, 0, len(prow) - 1), np.clip(right, 0, len(prow) - 1)
            take_left = (at - px[left_i]) <= (px[right_i] - at)
            values = np.where(inside, np.where(take_left, py[left_i], py[right_i]), np.nan)
        else:
            values = np.interp(at, px, py)
        # distances (rows) to the valid values on either side, inf where there is none
        prev_row = np.where(valid, rows, -np.inf)
        left = np.maximum.accumulate(np.concatenate([[prev[0] if prev is not None else -np.inf], prev_row]))[1:]
        next_row = np.where(valid, rows, np.inf)
        right = np.minimum.accumulate(np.concatenate([[nxt[0] if nxt is not None else np.inf],
                                                      next_row[::-1]]))[1:][::-1]
        d_left, d_right = (rows - left)[missing], (right - rows)[missing]
        start_run, end_run = np.isinf(d_left), np.isinf(d_right)
        limit = np.inf if self.limit is None else self.limit
        if self.direction == "forward":
            keep = start_run | (d_left > limit)
        elif self.direction == "backward":
            keep = end_run | (d_right > limit)
        else:
            keep = (d_left > limit) & (d_right > limit)
        if self.area == "inside":
            keep |= start_run | end_run
        elif self.area == "outside":
            keep |= ~start_run & ~end_run
        out = y.copy()
        out[np.flatnonzero(missing)[~keep]] = values[~keep]
        return out

    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n = len(chunks)
        infos = [None] * n
        if n > 1:
            summaries = [ChunkData(self.new(stage="summary"), [c], (math.nan,), None, (i,))
                         for i, c in enumerate(chunks)]
            prefix = self.new(stage="prefix", n=n)
            infos = [ChunkData(prefix, summaries, (math.nan,), None, (0,), i) for i in range(n)]
        result = []
        for i, c in enumerate(chunks):
            ins = [c] if infos[i] is None else [c, infos[i]]
            result.append(ChunkData(self.new(stage="apply"), ins, chunk_shape(out.meta, c.shape[0]), out.meta,
                                    (i, 0) if isinstance(out.meta, pd.DataFrame) else (i,)))
        return rows_grid(result, out.meta)


def _interpolate_rows(frame, kwargs):
    return frame.interpolate(axis=1, **kwargs)


def _probe(meta):
    """Two rows (a valid value, then a missing one) with ``meta``'s dtypes and index type:
    pandas validates its arguments only when there is something to fill."""
    rows = sample_of(meta)
    rows = pd.concat([rows, rows])
    index = sample_of(pd.DataFrame({0: meta.index[:0]}))[0] if not isinstance(meta.index, pd.MultiIndex) \
        else meta.index[:0]
    if len(index):
        rows.index = pd.Index(np.resize(index.to_numpy(), 2), dtype=meta.index.dtype)
    if isinstance(meta, pd.Series):
        rows = rows.rename(meta.name)
        if rows.dtype.kind == "f":
            rows.iloc[1] = np.nan
    else:
        for j, dtype in enumerate(meta.dtypes):
            if getattr(dtype, "kind", "O") == "f":
                rows.iloc[1, j] = np.nan
    return rows


@methods(DataFrame, Series)
def interpolate(obj, method="linear", *, axis=0, limit=None, inplace=False, limit_direction=None,
                limit_area=None, downcast=None, **kwargs):
    """Missing values filled by interpolation: ``linear`` (evenly spaced rows), ``index`` /
    ``values`` / ``time`` (x from an increasing index), ``nearest``; pandas' ``limit``,
    ``limit_direction`` and ``limit_area``, across chunk boundaries."""
    meta = obj.data.meta
    if method in _SCIPY and axis in (0, "index", "rows"):
        raise NotImplementedError(f"interpolate(method={method!r})")
    args = {"method": method, "limit": limit, "limit_direction": limit_direction, "limit_area": limit_area}
    if downcast is not None:
        args["downcast"] = downcast
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        probe = _probe(meta).interpolate(axis=axis, **args, **kwargs)  # pandas' errors
    result_meta = probe.iloc[:0]
    if not PANDAS3 and method in ("pad", "ffill", "backfill", "bfill"):  # pandas 2 only
        if limit_area is not None or limit_direction not in (None, "forward" if method in ("pad", "ffill")
                                                             else "backward"):
            raise NotImplementedError("interpolate(method='pad'/'bfill') with limit_area")
        fill = obj.ffill if method in ("pad", "ffill") else obj.bfill
        return _inplace(obj, fill(limit=limit), inplace)
    if kwargs or downcast is not None:
        raise NotImplementedError(f"interpolate with {sorted(kwargs) or ['downcast']}")
    if isinstance(obj, DataFrame) and meta._get_axis_number(axis) == 1:
        result = map_chunks(_interpolate_rows, (obj, args), label="md.interpolate", meta=result_meta)
        return _inplace(obj, result, inplace)
    direction = limit_direction or "forward"
    dtypes = [meta.dtype] if isinstance(obj, Series) else meta.dtypes
    cols = tuple(j for j, d in enumerate(dtypes) if getattr(d, "kind", "O") == "f")  # others have no NaN
    op = Interpolate(method=method, limit=limit, direction=direction, area=limit_area, cols=cols,
                     label="md.interpolate")
    return _inplace(obj, new_frame(op, [obj], obj.shape[0], result_meta), inplace)
