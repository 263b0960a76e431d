"""``Rolling.corr`` / ``Rolling.cov`` and ``Expanding.corr`` / ``Expanding.cov`` of Series and
DataFrames, as pandas' ``flex_binary_moment``: a Series with a Series, each column of a frame
with a Series, matching columns of two frames, or (``pairwise``) every column pair.

The objects (their indexes the same rows) go side by side block by block, and every column
pair pandas computes is a column of a row-aligned "wide" result. Rolling: pandas' Series
corr/cov of each pair on each block with the ``window`` rows before it borrowed
(``neighbours``). Expanding: a prefix scan of the co-moments of each pair's rows where both
values are present (count, means, M2 of each, co-moment C), merged as Chan et al.;
cov = C / (n - ddof), corr = C / sqrt(M2x·M2y). The wide blocks are then laid out as pandas'
result (pairwise: one row per row and column of the other, a MultiIndex).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .align import index_relation
from .blockwise import map_chunks, sample_of
from .core import DataFrame, Series
from .scan import RunningState, neighbours, scan
from .window import Expanding, Rolling, _Window

__all__: list[str] = []


def _side_by_side(*objs):
    columns = [c for o in objs for c in ([o] if isinstance(o, pd.Series) else [o.iloc[:, i] for i in range(o.shape[1])])]
    return pd.DataFrame({i: c.to_numpy() for i, c in enumerate(columns)}, index=objs[0].index)


def _numeric(frame):
    return frame.select_dtypes(include=["number"], exclude=["timedelta"])


def _plan(window: _Window, other, pairwise, how, ddof, numeric_only):
    """The side-by-side frame, the column position pairs pandas computes, how their results
    are laid out, and pandas' empty result."""
    from .datasource import from_pandas

    obj = window.obj
    if isinstance(other, (pd.Series, pd.DataFrame)):
        other = from_pandas(other)
    if other is not None and not isinstance(other, (Series, DataFrame)):
        raise ValueError("other must be a DataFrame or Series")
    if numeric_only and isinstance(obj, DataFrame):
        obj = obj[list(_numeric(obj.data.meta).columns)]
    if numeric_only and isinstance(other, DataFrame):
        other = other[list(_numeric(other.data.meta).columns)]
    if other is not None and index_relation(obj, other) != "same":
        raise NotImplementedError(f"{how} of objects whose indexes are not the same rows")
    meta = _pandas_meta(window, obj, other, pairwise, how, ddof)
    if other is None:
        pairwise = True if pairwise is None else pairwise
    arg1, arg2 = (other, obj) if isinstance(obj, Series) and isinstance(other, DataFrame) else (obj, other)
    k1 = 1 if isinstance(arg1, Series) else arg1.shape[1]
    frame = map_chunks(_side_by_side, (arg1,) if arg2 is None else (arg1, arg2), label=f"md.{window.kind}.{how}")
    if isinstance(arg1, Series):
        return frame, ((0, 1 if arg2 is not None else 0),), ("series",), meta
    m1 = arg1.data.meta
    if arg2 is None or isinstance(arg2, Series):  # a column by itself, or each column with the Series
        if arg2 is None and pairwise:
            pairs = tuple((i, j) for i in range(k1) for j in range(k1))
            return frame, pairs, ("pairwise", k1, k1, m1.columns), meta
        return frame, tuple((i, i if arg2 is None else k1) for i in range(k1)), ("columns",), meta
    m2 = arg2.data.meta
    if pairwise:
        if m2.columns.nlevels > 1:  # pandas sorts the whole result by its index then
            raise NotImplementedError(f"{how}(pairwise=True) with MultiIndex columns")
        k2 = len(m2.columns)
        return frame, tuple((i, k1 + j) for i in range(k1) for j in range(k2)), ("pairwise", k1, k2, m2.columns), meta
    pos1, pos2 = {c: i for i, c in enumerate(m1.columns)}, {c: i for i, c in enumerate(m2.columns)}
    both = [c for c in meta.columns if c in pos1 and c in pos2]
    return frame, tuple((pos1[c], k1 + pos2[c]) for c in both), ("named", tuple(both)), meta


def _pandas_meta(window, obj, other, pairwise, how, ddof):
    """pandas' result on one-row samples (its errors: strings, repeated column labels, ...)."""
    a = sample_of(obj.data.meta)  # its index of the object's kind
    b = None
    if other is not None:
        b = sample_of(other.data.meta).set_axis(a.index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = getattr(getattr(a, window.kind)(**window.params), how)(b, pairwise=pairwise, ddof=ddof)
    return res.iloc[:0]


def _layout(wide, layout, meta):
    """The wide pair results of a block as pandas lays them out."""
    kind = layout[0]
    if kind == "series":
        return pd.Series(wide[0].to_numpy(), index=wide.index, name=meta.name)
    if kind == "pairwise":
        k1, k2, columns2 = layout[1:]
        values = wide.to_numpy().reshape(len(wide), k1, k2).transpose(0, 2, 1).reshape(-1, k1)
        index = pd.MultiIndex.from_product([wide.index, columns2], names=meta.index.names)
        return pd.DataFrame(values, index=index, columns=meta.columns)
    if kind == "columns":
        res = pd.DataFrame(dict(enumerate(wide[p] for p in wide.columns)), index=wide.index)
        res.columns = meta.columns
        return res
    res = pd.DataFrame({c: wide[p] for p, c in enumerate(layout[1])}, index=wide.index, columns=meta.columns)
    return res.astype(meta.dtypes.to_dict()) if len(meta.columns) else res


def _wide_call(frame, pairs, kind, params, how, ddof):
    """pandas' Series corr/cov of each column pair of ``frame`` (symmetric pairs once)."""
    done = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for a, b in pairs:
            if (b, a) not in done:
                x, y = frame.iloc[:, a], frame.iloc[:, b]
                done[(a, b)] = getattr(getattr(x, kind)(**dict(params)), how)(y, ddof=ddof).to_numpy()
    return pd.DataFrame({p: done.get(ab, done.get(ab[::-1])) for p, ab in enumerate(pairs)}, index=frame.index)


def _wide_meta(frame, pairs):
    return pd.DataFrame({p: pd.Series(dtype=np.float64) for p in range(len(pairs))}, index=frame.data.meta.index[:0])


def _laid_out(frame, wide, layout, meta, label):
    """``wide`` laid out as pandas' result; an empty pairwise one has the other's columns
    (whether the rows are empty is computed when it matters and is unknown)."""
    from .conversion import n_rows

    if layout[0] == "pairwise" and not meta.columns.equals(layout[3]) and n_rows(frame) == 0:
        from .datasource import from_pandas

        empty = pd.DataFrame(index=pd.MultiIndex(levels=[meta.index.levels[0][:0], layout[3]], codes=[[], []],
                                                 names=meta.index.names), columns=layout[3], dtype="float64")
        return from_pandas(empty.rename_axis(columns=meta.columns.names))  # pandas: the other's columns
    return map_chunks(_layout, (wide, layout, meta), meta=meta, label=label, keep_rows=layout[0] != "pairwise")


def _rolling(self, how, other, pairwise, ddof, numeric_only):
    frame, pairs, layout, meta = _plan(self, other, pairwise, how, ddof, numeric_only)
    kernel = (_wide_call, (pairs, self.kind, tuple(self.params.items()), how, ddof), ())
    before, after = self._rows()
    wide = neighbours(frame, kernel, before, after, _wide_meta(frame, pairs), f"md.rolling.{how}")
    return _laid_out(frame, wide, layout, meta, f"md.rolling.{how}")


def _rolling_cov(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The rolling covariance with ``other`` (a Series or DataFrame with the same rows), or of
    every column pair of a frame."""
    return _rolling(self, "cov", other, pairwise, ddof, numeric_only)


def _rolling_corr(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The rolling correlation with ``other`` (a Series or DataFrame with the same rows), or of
    every column pair of a frame."""
    return _rolling(self, "corr", other, pairwise, ddof, numeric_only)


Rolling.cov, Rolling.corr = _rolling_cov, _rolling_corr


class _CoMoments(RunningState):
    """Per column pair (``pairs`` of positions): running count, means, M2 of each and
    co-moment of the rows where both are present (arrays of rows × pairs)."""

    def __init__(self, how: str, min_periods: int, ddof: int, pairs):
        self.how, self.min_periods, self.ddof, self.pairs = how, min_periods, ddof, pairs

    def _local(self, frame):
        values = frame.to_numpy(np.float64)
        x, y = values[:, [a for a, _ in self.pairs]], values[:, [b for _, b in self.pairs]]
        both = ~(np.isnan(x) | np.isnan(y))
        x, y = np.where(both, x, 0.0), np.where(both, y, 0.0)
        n = np.cumsum(both, axis=0).astype(np.float64)
        sx, sy = np.cumsum(x, axis=0), np.cumsum(y, axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mx, my = np.where(n > 0, sx / n, 0.0), np.where(n > 0, sy / n, 0.0)
        return {"n": n, "mx": mx, "my": my, "cx": np.cumsum(x * x, axis=0) - sx * mx,
                "cy": np.cumsum(y * y, axis=0) - sy * my, "cxy": np.cumsum(x * y, axis=0) - sx * my}

    @staticmethod
    def _merge(a, b):
        return _merge(a, b)

    def apply(self, chunk, carry):
        st = self.running(chunk, carry)
        n = st["n"]
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.how == "cov":
                out = st["cxy"] / (n - self.ddof)
                out = np.where(n - self.ddof > 0, out, np.nan)
            else:
                out = st["cxy"] / np.sqrt(st["cx"] * st["cy"])
        out = np.where(n >= max(self.min_periods, 1), out, np.nan)
        return pd.DataFrame(out.reshape(len(chunk), len(self.pairs)), index=chunk.index)


def _merge(a, b):
    """State ``a`` of the rows before followed by the running state ``b``."""
    n = a["n"] + b["n"]
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(n > 0, a["n"] * b["n"] / n, 0.0)
        dx, dy = b["mx"] - a["mx"], b["my"] - a["my"]
        mx = np.where(n > 0, a["mx"] + dx * b["n"] / n, 0.0)
        my = np.where(n > 0, a["my"] + dy * b["n"] / n, 0.0)
    return {"n": n, "mx": mx, "my": my, "cx": a["cx"] + b["cx"] + dx * dx * w,
            "cy": a["cy"] + b["cy"] + dy * dy * w, "cxy": a["cxy"] + b["cxy"] + dx * dy * w}


def _expanding(self, how, other, pairwise, ddof, numeric_only):
    frame, pairs, layout, meta = _plan(self, other, pairwise, how, ddof, numeric_only)
    kernel = _CoMoments(how, self.params.get("min_periods", 1), ddof, pairs)
    wide = scan(frame, kernel, _wide_meta(frame, pairs), f"md.expanding.{how}")
    return _laid_out(frame, wide, layout, meta, f"md.expanding.{how}")


def _expanding_cov(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The expanding covariance with ``other`` (a Series or DataFrame with the same rows), or
    of every column pair of a frame."""
    return _expanding(self, "cov", other, pairwise, ddof, numeric_only)


def _expanding_corr(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The expanding correlation with ``other`` (a Series or DataFrame with the same rows), or
    of every column pair of a frame."""
    return _expanding(self, "corr", other, pairwise, ddof, numeric_only)


Expanding.cov, Expanding.corr = _expanding_cov, _expanding_corr
