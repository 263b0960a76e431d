"""Column-wise user functions (``apply`` / ``transform`` / ``agg`` on ``axis=0``): whole columns.

Frames are split by rows, so a function of whole columns needs a shuffle: every row block is
cut into column groups (one output per group), each group's pieces are concatenated into whole
columns and the pandas method runs on them. A reduction's group results (Series indexed by
column) are concatenated in one small chunk. Frame results go back into row blocks: tiling
runs the groups, and when every group's result has the same index (a transform), each is cut
at the same row bounds and the pieces of one row range are put side by side; otherwise (each
column with its own index) one chunk aligns them as pandas does.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.tiling import ValuesRequest
from .apply import MetaParam, conform, infer_meta, rows_of
from .blockwise import row_chunks, rows_grid
from .core import new_frame

__all__: list[str] = []


class ColumnSplit(Operand):
    """Cut a row block into column groups (positions ``bounds[g]:bounds[g + 1]``)."""

    _params = ("bounds",)
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.bounds) - 1

    def execute(self, chunk):
        pieces = tuple(chunk.iloc[:, a:b] for a, b in zip(self.bounds[:-1], self.bounds[1:]))
        return pieces if len(pieces) > 1 else pieces[0]


class ColumnGroupApply(Operand):
    """The user call on one column group (``stage='apply'``), the fingerprint of a group
    result's index ('index'), a reduction's gather ('gather'), the cut of a group result into
    row ranges ('cut'), one row range put side by side ('stitch') or pandas' alignment of
    every column in one chunk ('align')."""

    _params = ("call", "result_meta", "stage", "bounds", "max_groups", "align")
    max_groups = None
    align = "frame"

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return len(self.bounds) - 1 if self.stage == "cut" else 1

    def execute(self, *values):
        meta = self.result_meta.value
        if self.stage == "apply":
            group = values[0] if len(values) == 1 else pd.concat(values)
            try:
                return self.call(group)
            except Exception as exc:
                exc.add_note(f"in {self.label} on columns {list(group.columns)} ({rows_of(group)})")
                raise
        if self.stage == "index":
            res = values[0]
            if not isinstance(res, pd.DataFrame):
                return None
            if isinstance(res.index, pd.RangeIndex):
                return ("range", res.index.start, res.index.stop, res.index.step)
            hashed = pd.util.hash_pandas_object(res.index, index=False).to_numpy()
            weights = np.arange(1, len(hashed) + 1, dtype=np.uint64)  # order counts too
            return (len(res), int(hashed.sum()), int((hashed * weights).sum()))
        if self.stage == "gather":
            parts = [v for v in values if len(v)] or list(values[:1])
            res = parts[0] if len(parts) == 1 else pd.concat(parts)
            return conform(_as_series(res, meta), meta)
        if self.stage == "cut":
            res = values[0]
            pieces = tuple(res.iloc[a:b] for a, b in zip(self.bounds[:-1], self.bounds[1:]))
            return pieces if len(pieces) > 1 else pieces[0]
        if self.stage == "stitch":
            res = values[0] if len(values) == 1 else pd.concat(values, axis=1)
            return conform(res, meta)
        if self.align == "concat":  # agg / transform: pandas concatenates per-column results
            return conform(pd.concat(values, axis=1, sort=False), meta)
        columns = [f.iloc[:, j] for f in values for j in range(f.shape[1])]
        res = pd.DataFrame(dict(enumerate(columns)))  # apply: a frame from a dict of columns
        if res.shape[1] == len(meta.columns):
            res.columns = meta.columns
        return conform(res, meta)

    def tile(self, ctx, out):
        inp = out.inputs[0]
        chunks = row_chunks(ctx[inp])
        ncols = inp.shape[1]
        n_groups = max(1, min(ncols, len(chunks), self.max_groups or len(chunks)))
        bounds = tuple(int(b) for b in np.linspace(0, ncols, n_groups + 1).round())
        pieces = []
        for i, c in enumerate(chunks):
            op = ColumnSplit(bounds=bounds, label=self.label)
            pieces.append([ChunkData(op, [c], (c.shape[0], b - a), None, (i, 0), g)
                           for g, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))])
        unknown = (math.nan, math.nan)
        groups = [ChunkData(self.new(stage="apply"), [p[g] for p in pieces], unknown, None, (g, 0))
                  for g in range(n_groups)]
        meta = out.meta
        if isinstance(meta, pd.Series):
            final = ChunkData(self.new(stage="gather"), groups, out.shape, meta, (0,))
            return rows_grid([final], meta)
        shapes = yield groups
        prints = [ChunkData(self.new(stage="index"), [g], (), None, (i,)) for i, g in enumerate(groups)]
        fingerprints = yield ValuesRequest(prints)
        width = len(meta.columns)
        if any(f is None or f != fingerprints[0] for f in fingerprints):
            final = ChunkData(self.new(stage="align"), groups, (math.nan, width), meta, (0, 0))
            return rows_grid([final], meta)
        nrows = int(shapes[0][0])
        splits = ctx[inp].nsplits[0]
        if sum(splits) != nrows or any(isinstance(s, float) and math.isnan(s) for s in splits):
            splits = (nrows,)
        row_bounds = tuple(int(b) for b in np.cumsum((0,) + tuple(int(s) for s in splits)))
        cuts = [[ChunkData(self.new(stage="cut", bounds=row_bounds), [g], unknown, None, (j, 0), r)
                 for r in range(len(splits))] for j, g in enumerate(groups)]
        blocks = [ChunkData(self.new(stage="stitch"), [cut[r] for cut in cuts], (int(n), width),
                            meta, (r, 0)) for r, n in enumerate(splits)]
        return rows_grid(blocks, meta)


def _as_series(res, meta):
    if isinstance(res, pd.DataFrame):  # a group of one column may come back as a frame
        res = res.iloc[:, 0]
    return res


def columnwise(obj, call, label: str, hints: dict, max_groups=None, align="frame"):
    """``call`` (a pandas method of a frame) run on whole columns, in column groups; ``align``:
    how results with different indexes combine ('frame': a DataFrame of a dict of columns, as
    ``apply``; 'concat': side by side, as ``agg`` and ``transform``)."""
    meta = infer_meta(call, obj, label, hints)
    if isinstance(meta, pd.Series):
        nrows = len(obj.data.meta.columns) if hints.get("meta") is None else math.nan
    else:
        nrows = math.nan
    op = ColumnGroupApply(call=call, result_meta=MetaParam(meta), stage=None, bounds=(),
                          max_groups=max_groups, align=align, label=label)
    return new_frame(op, [obj], nrows, meta)
