"""``Rolling.corr`` / ``Rolling.cov`` and ``Expanding.corr`` / ``Expanding.cov`` of a Series
with a Series.

The two Series (their indexes the same rows) go side by side block by block. Rolling: pandas
on each block with the ``window`` rows before it borrowed (``neighbours``). Expanding: a
prefix scan of the co-moments of the rows where both values are present (count, means, M2
of each, co-moment C), merged as Chan et al.; cov = C / (n - ddof), corr = C / sqrt(M2x·M2y).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .align import index_relation
from .blockwise import map_chunks
from .core import Series
from .scan import RunningState, neighbours, scan
from .window import Expanding, Rolling, _Window

__all__: list[str] = []


def _side_by_side(a, b):
    return pd.DataFrame({0: a.to_numpy(), 1: b.to_numpy()}, index=a.index)


def _pair(window: _Window, other, pairwise, how):
    obj = window.obj
    if not isinstance(obj, Series) or (other is not None and not isinstance(other, Series)):
        raise NotImplementedError(f"{how} of a window is supported for a Series with a Series")
    if pairwise:
        raise NotImplementedError(f"{how}(pairwise=True) is not supported")
    other = obj if other is None else other
    if index_relation(obj, other) != "same":
        raise NotImplementedError(f"{how} of Series whose indexes are not the same rows")
    names = (obj.data.meta.name, other.data.meta.name)
    return map_chunks(_side_by_side, (obj, other), label=f"md.{window.kind}.{how}"), names


def _pair_call(frame, names, kind, params, how, kwargs):
    a, b = frame[0].rename(names[0]), frame[1].rename(names[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(getattr(a, kind)(**dict(params)), how)(b, **dict(kwargs))


def _meta(window, names, how, kwargs):
    meta = window.obj.data.meta
    a = pd.Series([1.0], name=names[0]).astype(meta.dtype)
    a.index = meta.index[:0].append(pd.Index([0]))[:1] if len(meta.index) else a.index
    return _pair_call(pd.DataFrame({0: a.to_numpy(), 1: a.to_numpy()}, index=a.index), names,
                      window.kind, tuple(window.params.items()), how, kwargs).iloc[:0]


def _rolling(self, how, other, pairwise, ddof):
    frame, names = _pair(self, other, pairwise, how)
    kwargs = (("ddof", ddof),)
    meta = _meta(self, names, how, kwargs)
    kernel = (_pair_call, (names, self.kind, tuple(self.params.items()), how, kwargs), ())
    before, after = self._rows()
    return neighbours(frame, kernel, before, after, meta, f"md.rolling.{how}")


def _rolling_cov(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The rolling covariance with ``other`` (a Series with the same rows)."""
    return _rolling(self, "cov", other, pairwise, ddof)


def _rolling_corr(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The rolling correlation with ``other`` (a Series with the same rows)."""
    return _rolling(self, "corr", other, pairwise, ddof)


Rolling.cov, Rolling.corr = _rolling_cov, _rolling_corr


class _CoMoments(RunningState):
    """Running count, means, M2 of each and co-moment of the rows where both are present."""

    def __init__(self, how: str, min_periods: int, ddof: int, name):
        self.how, self.min_periods, self.ddof, self.name = how, min_periods, ddof, name

    @staticmethod
    def _local(frame):
        x, y = frame[0].to_numpy(np.float64), frame[1].to_numpy(np.float64)
        both = ~(np.isnan(x) | np.isnan(y))
        x, y = np.where(both, x, 0.0), np.where(both, y, 0.0)
        n = np.cumsum(both).astype(np.float64)
        sx, sy = np.cumsum(x), np.cumsum(y)
        with np.errstate(invalid="ignore", divide="ignore"):
            mx, my = np.where(n > 0, sx / n, 0.0), np.where(n > 0, sy / n, 0.0)
        return {"n": n, "mx": mx, "my": my, "cx": np.cumsum(x * x) - sx * mx,
                "cy": np.cumsum(y * y) - sy * my, "cxy": np.cumsum(x * y) - sx * my}

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
        return pd.Series(out, index=chunk.index, name=self.name)


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


def _expanding(self, how, other, pairwise, ddof):
    frame, names = _pair(self, other, pairwise, how)
    kwargs = (("ddof", ddof),)
    meta = _meta(self, names, how, kwargs)
    kernel = _CoMoments(how, self.params.get("min_periods", 1), ddof, meta.name)
    return scan(frame, kernel, meta, f"md.expanding.{how}")


def _expanding_cov(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The expanding covariance with ``other`` (a Series with the same rows)."""
    return _expanding(self, "cov", other, pairwise, ddof)


def _expanding_corr(self, other=None, pairwise=None, ddof=1, numeric_only=False):
    """The expanding correlation with ``other`` (a Series with the same rows)."""
    return _expanding(self, "corr", other, pairwise, ddof)


Expanding.cov, Expanding.corr = _expanding_cov, _expanding_corr
