"""rolling, expanding, ewm: windows across chunk boundaries, exact at every boundary.

``rolling(window)`` runs pandas on each chunk with the ``window`` rows before it (and after it
when ``center``) borrowed from its neighbours, however many chunks that spans. ``expanding``
sum / mean / count / min / max / std / var are a prefix scan of per-chunk moments (count,
sum, M2, min, max); its other aggregations see every earlier row. ``ewm`` is a prefix scan of
exponentially decayed sums (see ``ewm.py``).
"""
from __future__ import annotations

import operator
import warnings

import numpy as np
import pandas as pd

from .core import DataFrame, Series, methods
from .scan import RunningState, neighbours, sample, scan
from .window_time import time_neighbours

__all__: list[str] = []


def _meta(obj, func, *args):
    """Empty result metadata from a one-row sample (pandas' DataError for strings and the
    like surface here; empty input hides them)."""
    values = sample(obj.data.meta)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return func(values, *args).iloc[:0]


def _window_call(values, kind, params, how, args, kwargs):
    """``values.<kind>(**params).<how>(*args, **kwargs)`` (the chunk kernel)."""
    window = getattr(values, kind)(**dict(params))
    return getattr(window, how)(*args, **dict(kwargs))


class _Window:
    """The lazy result of ``obj.rolling(...)`` / ``obj.expanding(...)``."""

    kind = ""
    pick = None  # the one column a ``[key]`` selection with ``on=`` returns

    def __init__(self, obj, params: dict):
        self.obj, self.params = obj, params
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            getattr(obj.data.meta, self.kind)(**params)  # pandas' errors for bad arguments

    def _rows(self) -> tuple:
        """Rows borrowed before / after each chunk (None: all before)."""
        raise NotImplementedError

    def _call(self, how, *args, **kwargs):
        params, kw = tuple(self.params.items()), tuple(kwargs.items())
        call_args = (self.kind, params, how, args, kw)
        meta = _meta(self.obj, _window_call, *call_args)
        res = self._run((_window_call, call_args, ()), meta, f"md.{self.kind}.{how}")
        return res if self.pick is None else res[self.pick]

    def _run(self, kernel, meta, label):
        """The lazy result of ``kernel`` on every chunk with the rows its windows reach."""
        before, after = self._rows()
        return neighbours(self.obj, kernel, before, after, meta, label)

    def agg(self, func, *args, **kwargs):
        """Aggregate with a name, a list of names, a dict or a function."""
        return self._call("agg", func, *args, **kwargs)

    aggregate = agg

    def apply(self, func, raw=False, engine=None, engine_kwargs=None, args=None, kwargs=None):
        """``func`` on every window."""
        return self._call("apply", func, raw=raw, args=args, kwargs=kwargs)

    def __getitem__(self, key):
        """Select columns first, then window them (with the ``on`` column, as pandas)."""
        on = self.params.get("on")
        if on is None or isinstance(self.obj, Series):
            return type(self)._of(self.obj[key], self.params)
        if pd.api.types.is_list_like(key):
            keys = list(key)
            return type(self)._of(self.obj[keys if on in keys else keys + [on]], self.params)
        if key == on:
            return type(self)._of(self.obj[[key]], self.params)
        inst = type(self)._of(self.obj[[key, on]], self.params)
        inst.pick = key  # a Series result: the windowed column alone
        return inst

    @classmethod
    def _of(cls, obj, params):
        inst = object.__new__(cls)
        inst.obj, inst.params = obj, params
        return inst


def _agg_method(how):
    def method(self, *args, **kwargs):
        return self._call(how, *args, **kwargs)

    method.__name__ = how
    method.__doc__ = f"Windowed {how}."
    return method


for _how in ("sum", "mean", "min", "max", "std", "var", "count", "median", "quantile", "skew",
             "kurt", "sem", "rank"):
    setattr(_Window, _how, _agg_method(_how))


class Rolling(_Window):
    """Fixed-size windows of ``window`` rows (``step``: every step-th window, pandas' ``[::step]``
    of all of them)."""

    kind = "rolling"

    def _rows(self):
        window = self.params["window"]
        return window, (window if self.params.get("center") else 0)

    def _call(self, how, *args, **kwargs):
        if not self.params.get("step"):
            return super()._call(how, *args, **kwargs)
        whole = Rolling._of(self.obj, {k: v for k, v in self.params.items() if k != "step"})
        return whole._call(how, *args, **kwargs).iloc[::self.params["step"]]


class TimeRolling(_Window):
    """Windows of a time span over a monotonic datetime-like index (or ``on`` column)."""

    kind = "rolling"

    def __init__(self, obj, params: dict):
        self.obj, self.params = obj, params
        with warnings.catch_warnings():  # pandas checks the index only when there are rows
            warnings.simplefilter("ignore", FutureWarning)
            sample(obj.data.meta).rolling(**params)

    def _run(self, kernel, meta, label):
        span = pd.Timedelta(pd.tseries.frequencies.to_offset(self.params["window"]))
        return time_neighbours(self.obj, kernel, span, self.params.get("center"),
                               self.params.get("on"), meta, label)


@methods(DataFrame, Series)
def rolling(obj, window, min_periods=None, center=False, win_type=None, on=None, axis=0,
            closed=None, step=None, method="single"):
    """Rolling windows of ``window`` rows, or of a time span (``"2s"``, a Timedelta or a
    fixed DateOffset) over a monotonic datetime-like index or ``on`` column."""
    if isinstance(window, (str, pd.offsets.BaseOffset)) or hasattr(window, "total_seconds"):
        if step not in (None, 0, 1):
            raise NotImplementedError("step is not supported with frequency windows")  # pandas'
        if axis not in (0, "index", "rows"):
            raise NotImplementedError("time-based rolling with axis=1 is not supported")
        params = {"window": window, "min_periods": min_periods, "center": center,
                  "win_type": win_type, "on": on, "closed": closed, "method": method}
        return TimeRolling(obj, {k: v for k, v in params.items() if v is not None})
    if not pd.api.types.is_integer(window):
        raise NotImplementedError("rolling needs an integer window")
    if window < 0:
        raise ValueError("window must be an integer 0 or greater")
    if axis not in (0, "index", "rows"):
        raise NotImplementedError("rolling with axis=1 is not supported")
    params = {"window": operator.index(window), "min_periods": min_periods, "center": center,
              "win_type": win_type, "on": on, "closed": closed, "step": step, "method": method}
    return Rolling(obj, {k: v for k, v in params.items() if v is not None})


# -- expanding -----------------------------------------------------------------------------
def _float(values) -> np.ndarray:
    frame = values.to_frame() if isinstance(values, pd.Series) else values
    return frame.to_numpy(dtype=np.float64, na_value=np.nan).reshape(len(frame), frame.shape[1])


class _Moments(RunningState):
    """Running count / sum / mean / M2 / min / max per column, carried as one state."""

    def __init__(self, how: str, min_periods: int, ddof: int):
        self.how, self.min_periods, self.ddof = how, min_periods, ddof

    @staticmethod
    def _local(values):
        x = _float(values)
        obs = ~np.isnan(x)
        n = np.cumsum(obs, axis=0).astype(np.float64)
        s = np.cumsum(np.where(obs, x, 0.0), axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = s / n
        m2 = pd.DataFrame(x).expanding(1).var(ddof=0).to_numpy() * n
        rows = np.arange(1, len(x) + 1, dtype=np.float64)[:, None]
        return {"rows": rows, "n": n, "s": s, "mean": mean, "m2": np.nan_to_num(m2),
                "min": np.fmin.accumulate(x, axis=0), "max": np.fmax.accumulate(x, axis=0)}

    @staticmethod
    def _merge(a, b):
        return _merge(a, b)

    def apply(self, chunk, carry):
        st = self.running(chunk, carry)
        n, rows, minp = st["n"], st["rows"], self.min_periods
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.how == "count":
                out = np.where(rows >= minp, n, np.nan)
            elif self.how in ("var", "std"):
                out = np.where((n >= minp) & (n > self.ddof), st["m2"] / (n - self.ddof), np.nan)
                out = np.sqrt(out) if self.how == "std" else out
            else:
                least = max(minp, 1 if self.how != "sum" else 0)
                out = np.where(n >= least, st[_KEY.get(self.how, self.how)], np.nan)
        if isinstance(chunk, pd.Series):
            return pd.Series(out[:, 0], index=chunk.index, name=chunk.name)
        return pd.DataFrame(out, index=chunk.index, columns=chunk.columns)


_KEY = {"sum": "s"}


def _merge(a, b):
    """State ``a`` of the rows before followed by the (running) state ``b``."""
    n = a["n"] + b["n"]
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = b["mean"] - a["mean"]
        joined = np.where(a["n"] > 0, a["mean"] + delta * b["n"] / n, b["mean"])
        mean = np.where(b["n"] > 0, joined, a["mean"])
        m2 = np.where((a["n"] > 0) & (b["n"] > 0), a["m2"] + b["m2"] + delta ** 2 * a["n"] * b["n"] / n,
                      a["m2"] + b["m2"])
    return {"rows": a["rows"] + b["rows"], "n": n, "s": a["s"] + b["s"], "mean": mean, "m2": m2,
            "min": np.fmin(a["min"], b["min"]), "max": np.fmax(a["max"], b["max"])}


class Expanding(_Window):
    """Windows from the first row to each row."""

    kind = "expanding"

    def _rows(self):
        return None, 0

    def _scan(self, how, ddof=1, numeric_only=False):
        meta = _meta(self.obj, _window_call, self.kind, tuple(self.params.items()), how, (),
                     (("numeric_only", numeric_only),) if numeric_only else ())
        obj = self.obj
        if isinstance(meta, pd.DataFrame) and list(meta.columns) != list(obj.data.meta.columns):
            obj = obj[list(meta.columns)]
        minp = self.params.get("min_periods", 1)
        return scan(obj, _Moments(how, minp, ddof), meta, f"md.expanding.{how}")

    def var(self, ddof=1, numeric_only=False):
        """Expanding variance (merged running moments)."""
        return self._scan("var", ddof, numeric_only)

    def std(self, ddof=1, numeric_only=False):
        """Expanding standard deviation (merged running moments)."""
        return self._scan("std", ddof, numeric_only)


def _scan_method(how):
    def method(self, numeric_only=False):
        return self._scan(how, numeric_only=numeric_only)

    method.__name__ = how
    method.__doc__ = f"Expanding {how} (a prefix scan of running moments)."
    return method


for _how in ("sum", "mean", "min", "max", "count"):
    setattr(Expanding, _how, _scan_method(_how))


@methods(DataFrame, Series)
def expanding(obj, min_periods=1, axis=0, method="single"):
    """Windows from the first row to each row."""
    if axis not in (0, "index", "rows"):
        raise NotImplementedError("expanding along the columns is not supported")
    return Expanding(obj, {"min_periods": min_periods, "method": method})


from . import ewm as _ewm  # noqa: E402,F401  (attaches DataFrame.ewm / Series.ewm)
