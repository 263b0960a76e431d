"""``describe``: pandas' summary table from distributed pieces.

Numeric columns: count, mean, std, min, max (tree reductions) and exact percentiles (the
distributed selection of ``quantile``). Other columns: count, and per column the value counts
of ``groupby(sort=False).size()`` (first-appearance order, so ties pick pandas' top). One small
chunk lays them out with pandas' row labels, column order and dtypes, learnt from pandas
itself on a few sample rows. Datetime columns (rare here) are described by pandas on the
gathered data.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.core.methods.describe import _refine_percentiles

from ..core.entity import ChunkData
from ..core.operand import Operand
from .blockwise import map_chunks, sample_of, whole_chunk
from .core import DataFrame, Series, methods, new_frame
from .correlation import _gathered
from .groupby import _Meta
from .stats import quietly, single

__all__: list[str] = []


def _kind(dtype) -> str:
    if pd.api.types.is_bool_dtype(dtype):
        return "cat"
    if pd.api.types.is_numeric_dtype(dtype) or getattr(dtype, "kind", "O") == "m":
        return "num" if getattr(dtype, "kind", "O") != "m" else "other"
    if getattr(dtype, "kind", "O") == "M" or isinstance(dtype, (pd.DatetimeTZDtype, pd.CategoricalDtype)):
        return "other"
    return "cat"


def _as_key_frame(s):
    return s.to_frame(name="v")


class Describe(Operand):
    """Lays the summaries out: ``columns`` is, per described column, ("num", position) or
    ("cat", position); inputs are the numeric stats then the categorical ones."""

    _params = ("columns", "n_num", "result_meta", "series")

    def execute(self, *values):
        meta = self.result_meta.value
        parts, rest = [], values
        if self.n_num:
            (count, mean, std, low, high, pct), rest = values[:6], values[6:]
        labels = meta.index
        for kind, j in self.columns:
            if kind == "num":
                data = [count.iloc[j], mean.iloc[j], std.iloc[j], low.iloc[j], *pct.iloc[:, j].tolist(),
                        high.iloc[j]]
                names = ["count", "mean", "std", "min", *pct.index.map(_pct_label), "max"]
                parts.append(pd.Series(data, index=names, dtype=np.float64))
            else:
                parts.append(_categorical(rest[0].iloc[j], rest[1 + j]))
        if self.series:
            return parts[0].reindex(labels).astype(meta.dtype).rename(meta.name)
        res = pd.concat([p.reindex(labels) for p in parts], axis=1) if parts else pd.DataFrame(index=labels)
        res.columns = meta.columns
        for i, dtype in enumerate(meta.dtypes):
            if res.dtypes.iloc[i] != dtype:
                res.isetitem(i, res.iloc[:, i].astype(dtype))
        return res

    def tile(self, ctx, out):
        chunks = [whole_chunk(ctx[i], i.meta) for i in out.inputs]
        return single(out, ChunkData(self.new(), chunks, out.shape, out.meta, (0,) * out.ndim))


def _pct_label(p) -> str:
    from pandas.io.formats.format import format_percentiles

    return format_percentiles([p])[0]


def _categorical(count, sizes: pd.Series) -> pd.Series:
    sizes = sizes[sizes != 0]
    if len(sizes):
        top_pos = int(np.argmax(sizes.to_numpy()))  # the first of the most frequent, in appearance order
        top, freq = sizes.index[top_pos], sizes.iloc[top_pos]
        return pd.Series([count, len(sizes), top, freq], index=["count", "unique", "top", "freq"], dtype=object)
    return pd.Series([count, 0, np.nan, np.nan], index=["count", "unique", "top", "freq"], dtype="object")


@methods(DataFrame, Series)
@quietly
def describe(obj, percentiles=None, include=None, exclude=None):
    """Summary statistics of each column, laid out exactly as pandas' ``describe``."""
    meta = obj.data.meta
    kw = {"percentiles": None if percentiles is None else list(percentiles), "include": include,
          "exclude": exclude}
    meta.describe(**kw)  # pandas' errors (bad percentiles, nothing to describe, ...)
    sample = sample_of(meta)
    if isinstance(meta, pd.Series):
        sample = sample.rename(meta.name)
    result = pd.concat([sample] * 4).describe(**kw)
    pcts = [float(p) for p in _refine_percentiles(percentiles)]
    is_series = isinstance(meta, pd.Series)
    frame = obj if not is_series else map_chunks(_as_key_frame, (obj,), label="md.describe")
    cols = [meta.name] if is_series else list(result.columns)
    fmeta = frame.data.meta
    positions = [0] if is_series else [list(meta.columns).index(c) for c in cols]
    kinds = [_kind(fmeta.dtypes.iloc[p]) for p in positions]
    if "other" in kinds or (not is_series and not meta.columns.is_unique):
        return _gathered([obj], "describe", kw, result, "md.describe")
    num = [p for p, k in zip(positions, kinds) if k == "num"]
    cat = [p for p, k in zip(positions, kinds) if k == "cat"]
    inputs = []
    if num:
        sub = frame.iloc[:, num]
        inputs += [sub.count(), sub.mean(), sub.std(), sub.min(), sub.max(), sub.quantile(pcts)]
    if cat:
        sub = frame.iloc[:, cat]
        inputs.append(sub.count())
        for p in cat:
            name = fmeta.columns[p]
            inputs.append(frame.iloc[:, [p]].groupby(name, sort=False).size())
    layout, seen = [], {"num": 0, "cat": 0}
    for k in kinds:
        layout.append((k, seen[k]))
        seen[k] += 1
    op = Describe(columns=tuple(layout), n_num=len(num), result_meta=_Meta(result), series=is_series,
                  label="md.describe")
    return new_frame(op, inputs, len(result), result.iloc[:0])
