"""``DataFrame.agg`` of lists / dicts of reduction names on numeric columns, from tree reductions.

Each name is reduced (``reduction.py``) over the columns that need it, one reduction per
column dtype so every value keeps its column's own type; one small chunk then assembles the
values the way pandas does (a Series per column, concatenated; or a Series of scalars).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from . import reduction
from .apply import MetaParam, conform, infer_meta
from .blockwise import rows_grid
from .core import new_frame

__all__: list[str] = []

TREE = {"sum": "sum", "prod": "prod", "product": "prod", "min": "min", "max": "max",
        "mean": "mean", "count": "count", "var": "var", "std": "std"}


def _specs(func, columns) -> list[tuple] | None:
    """(column, names or a single name) in pandas' result order, or None when not a list /
    dict of reduction names."""
    def names_ok(v):
        vs = v if isinstance(v, (list, tuple)) else [v]
        return bool(vs) and all(isinstance(f, str) and f in TREE for f in vs)

    if isinstance(func, (list, tuple)) and names_ok(func):
        return [(c, list(func)) for c in columns]
    if isinstance(func, dict) and func and all(names_ok(v) for v in func.values()):
        return [(c, list(v) if isinstance(v, (list, tuple)) else v) for c, v in func.items()]
    return None


class AssembleAgg(Operand):
    """Reduced values (one Series per name and column dtype) assembled as pandas' ``agg``."""

    _params = ("specs", "layout", "result_meta")

    def execute(self, *reduced):
        values = {}
        for (name, cols), res in zip(self.layout, reduced):
            for c in cols:
                values[(name, c)] = res[c]
        results = []
        for col, spec in self.specs:
            if isinstance(spec, list):
                results.append(pd.Series([values[(f, col)] for f in spec], index=spec, name=col))
            else:
                results.append(values[(spec, col)])
        keys = [c for c, _ in self.specs]
        if isinstance(results[0], pd.Series):
            out = pd.concat(results, keys=pd.Index(keys), axis=1, sort=False)
        else:
            out = pd.Series(results, index=keys)
        return conform(out, self.result_meta.value)

    def tile(self, ctx, out):
        ins = [ctx[i].flat[0] for i in out.inputs]
        meta = out.meta
        index = (0, 0) if isinstance(meta, pd.DataFrame) else (0,)
        return rows_grid([ChunkData(self.new(), ins, out.shape, meta, index)], meta)


def tree_agg(obj, func, label: str):
    """The lazy result, or None when the tree reductions do not apply (other names,
    non-numeric or duplicate columns)."""
    meta = obj.data.meta
    specs = _specs(func, list(meta.columns))
    if specs is None or not meta.columns.is_unique or obj.shape[0] == 0:
        return None  # (empty frames: pandas' empty-column dtypes, from pandas itself)
    if isinstance(func, dict) and any(isinstance(v, list) for _, v in specs):
        specs = [(c, v if isinstance(v, list) else [v]) for c, v in specs]  # pandas' normalization
    dtypes = meta.dtypes
    if not all(isinstance(dtypes[c], np.dtype) and dtypes[c].kind in "iufb" for c, _ in specs):
        return None
    needed: dict[tuple, list] = {}
    for col, spec in specs:
        for name in (spec if isinstance(spec, list) else [spec]):
            needed.setdefault((name, dtypes[col]), [])
            if col not in needed[(name, dtypes[col])]:
                needed[(name, dtypes[col])].append(col)
    layout, inputs = [], []
    for (name, _), cols in needed.items():
        layout.append((name, tuple(cols)))
        inputs.append(getattr(reduction, TREE[name])(obj[cols]))
    out = infer_meta(lambda f: f.agg(func), obj, label, {})
    nrows = len(specs) if isinstance(out, pd.Series) else len(_names(specs))
    op = AssembleAgg(specs=tuple((c, s) for c, s in specs), layout=tuple(layout),
                     result_meta=MetaParam(out), label=label)
    return new_frame(op, inputs, nrows, out)


def _names(specs) -> list:
    seen: dict = {}
    for _, spec in specs:
        for f in spec:
            seen.setdefault(f, None)
    return list(seen)
