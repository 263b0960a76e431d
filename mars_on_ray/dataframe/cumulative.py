"""cum*, diff, shift, pct_change, ffill/bfill: results that depend on earlier rows.

Cumulative operations and unlimited fills are prefix scans (``scan.py``): each chunk's last
cumulative row is its summary, the scan turns them into the running value before each chunk,
and each chunk runs pandas on that one carried row followed by its own rows. ``diff``,
``shift``, ``pct_change`` and limited fills borrow the rows they need from the chunks before
(after) them.

``tshift`` (removed from pandas in 2.0) is ``shift(periods, freq=freq)``: it moves the index,
never the data. pandas defaulted ``freq`` to the index's own frequency, which a lazy index does
not know before it is computed, so here ``freq`` is required (ValueError without it).
"""
from __future__ import annotations

import operator
import warnings

import pandas as pd

from .blockwise import map_chunks
from .core import DataFrame, Series, methods
from .rules.usage import same_as_output, uses
from .scan import Kernel, neighbours, sample, scan

__all__: list[str] = []

PANDAS3 = int(pd.__version__.split(".")[0]) >= 3


def _axis(obj, axis) -> int:
    """0 or 1 (pandas' ValueError for an axis the object does not have)."""
    if axis is None:
        return 0
    try:
        return obj.data.meta._get_axis_number(axis)
    except ValueError:
        kind = type(obj.data.meta).__name__
        raise ValueError(f"No axis named {axis} for object type {kind}") from None


def _meta_of(obj, func, *args, **kwargs):
    """The result's empty object (and pandas' errors): ``func`` on a one-row sample, whose
    dtypes empty input can hide."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return func(sample(obj.data.meta), *args, **kwargs).iloc[:0]


def _like(values, dtypes):
    """``values`` with the dtypes of a carried row (cumsum of bools carries int64)."""
    if isinstance(values, pd.Series):
        return values if values.dtype == dtypes else values.astype(dtypes)
    if (values.dtypes.to_numpy() == dtypes.to_numpy()).all():
        return values
    values = values.copy()
    for i, dtype in enumerate(dtypes):
        if values.dtypes.iloc[i] != dtype:
            values.isetitem(i, values.iloc[:, i].astype(dtype))
    return values


def _dtypes(v):
    return v.dtype if isinstance(v, pd.Series) else v.dtypes


class Cumulative(Kernel):
    """A running pandas method (cumsum ... ffill / bfill) carried across chunks as one row."""

    def __init__(self, how: str, kwargs: tuple = (), reverse: bool = False):
        self.how, self.kwargs, self.reverse = how, kwargs, reverse

    def _run(self, values):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            res = getattr(values, self.how)(**dict(self.kwargs))
            # skipped missing values leave the running value on the last valid row
            if self.how.startswith("cum") and dict(self.kwargs).get("skipna", True):
                res = res.bfill() if self.reverse else res.ffill()
        return res

    def _end(self, values):
        return values.iloc[:1] if self.reverse else values.iloc[-1:]

    def _join(self, values, carry):
        values = _like(values, _dtypes(carry))
        return pd.concat([values, carry] if self.reverse else [carry, values])

    def summary(self, chunk):
        return self._end(self._run(chunk))

    def combine(self, state, summary):
        if not len(summary):
            return state
        return self._end(self._run(self._join(summary, state)))

    def apply(self, chunk, carry):
        if carry is None or not len(carry) or not len(chunk):
            res = getattr(chunk, self.how)(**dict(self.kwargs))
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                res = getattr(self._join(chunk, carry), self.how)(**dict(self.kwargs))
            res = res.iloc[:-1] if self.reverse else res.iloc[1:]
        res.index = chunk.index
        return res


def _cumulative(obj, how: str, axis, kwargs: dict, reverse: bool = False):
    axis = _axis(obj, axis)
    label = f"md.{how}"
    if axis == 1:
        kwargs = {**kwargs, "axis": 1}
        meta = _meta_of(obj, _method, how, kwargs)
        return map_chunks(_method, (obj, how, kwargs), label=label, meta=meta)
    meta = _meta_of(obj, _method, how, kwargs)
    return scan(obj, Cumulative(how, tuple(kwargs.items()), reverse), meta, label, reverse)


def _method(values, how, kwargs):
    return getattr(values, how)(**kwargs)


uses(_method, rows="same")(same_as_output)


def _cum(how):
    def cum(obj, axis=None, skipna=True, *args, **kwargs):
        return _cumulative(obj, how, axis, {"skipna": skipna})

    cum.__name__ = cum.__qualname__ = how
    cum.__doc__ = f"Running {how[3:]} down the rows (a prefix scan over the chunks)."
    return methods(DataFrame, Series)(cum)


cumsum, cumprod, cummax, cummin = (_cum(h) for h in ("cumsum", "cumprod", "cummax", "cummin"))


# -- fills ---------------------------------------------------------------------------------
def _fill(obj, how, axis, limit, limit_area):
    if limit_area is not None:
        raise NotImplementedError("limit_area is not supported")
    axis = _axis(obj, axis)
    if limit is not None:
        limit = operator.index(limit)
        if limit <= 0:
            raise ValueError("Limit must be greater than 0")
    kwargs = {} if limit is None else {"limit": limit}
    if axis == 1:
        kwargs = {**kwargs, "axis": 1}
        meta = _meta_of(obj, _method, how, kwargs)
        return map_chunks(_method, (obj, how, kwargs), label=f"md.{how}", meta=meta)
    meta = _meta_of(obj, _method, how, kwargs)
    if limit is not None:  # a fill reaches at most ``limit`` rows
        before, after = (limit, 0) if how == "ffill" else (0, limit)
        return neighbours(obj, (_method, (how, kwargs), ()), before, after, meta, f"md.{how}")
    reverse = how == "bfill"
    return scan(obj, Cumulative(how, (), reverse), meta, f"md.{how}", reverse)


@methods(DataFrame, Series)
def ffill(obj, *, axis=None, inplace=False, limit=None, limit_area=None):
    """Fill missing values with the last valid one before them (across chunks)."""
    return _inplace(obj, _fill(obj, "ffill", axis, limit, limit_area), inplace)


@methods(DataFrame, Series)
def bfill(obj, *, axis=None, inplace=False, limit=None, limit_area=None):
    """Fill missing values with the next valid one after them (across chunks)."""
    return _inplace(obj, _fill(obj, "bfill", axis, limit, limit_area), inplace)


@methods(DataFrame, Series)
def pad(obj, *, axis=None, inplace=False, limit=None):
    """``ffill`` (Mars documents ``pad``; pandas 3 dropped the alias)."""
    return ffill(obj, axis=axis, inplace=inplace, limit=limit)


@methods(DataFrame, Series)
def backfill(obj, *, axis=None, inplace=False, limit=None):
    """``bfill`` (Mars documents ``backfill``; pandas 3 dropped the alias)."""
    return bfill(obj, axis=axis, inplace=inplace, limit=limit)


def _inplace(obj, result, inplace):
    if not inplace:
        return result
    obj.data = result.data
    return None


# -- shifts --------------------------------------------------------------------------------
def _shifted(obj, kernel_func, args, periods, label):
    meta = _meta_of(obj, kernel_func, *args)
    before, after = (periods, 0) if periods >= 0 else (0, -periods)
    return neighbours(obj, (kernel_func, args, ()), before, after, meta, label)


def _shift_rows(values, periods, fill_value):
    kw = {} if fill_value is None else {"fill_value": fill_value}
    return values.shift(periods, **kw)


def _shift_index(values, periods, freq):
    return values.shift(periods, freq=freq)


uses(_shift_index, rows="same")(same_as_output)


@methods(DataFrame, Series)
def shift(obj, periods=1, freq=None, axis=0, fill_value=None, suffix=None):
    """Move the data ``periods`` rows down (up when negative), or the index by ``freq``; a
    list of periods gives a frame of the shifted columns, each suffixed by its period."""
    if not isinstance(periods, int) and pd.api.types.is_list_like(periods):
        return _shifts(obj, list(periods), freq, axis, fill_value, suffix)
    periods = operator.index(periods)
    axis = _axis(obj, axis)
    if freq is not None:
        if freq == "infer":
            raise NotImplementedError("freq='infer' needs the whole index")
        if fill_value is not None:
            raise ValueError("Passing a 'freq' together with a 'fill_value' is not allowed.")
        if axis == 1:
            raise NotImplementedError("shift of the columns by freq is not supported")
        return map_chunks(_shift_index, (obj, periods, freq), label="md.shift")
    if axis == 1:
        kwargs = {"periods": periods, "axis": 1}
        if fill_value is not None:
            kwargs["fill_value"] = fill_value
        return map_chunks(_method, (obj, "shift", kwargs), label="md.shift",
                          meta=_meta_of(obj, _method, "shift", kwargs))
    return _shifted(obj, _shift_rows, (periods, fill_value), periods, "md.shift")


def _shifts(obj, periods, freq, axis, fill_value, suffix):
    from .align import concat

    if not periods:
        raise ValueError("If `periods` is an iterable, it cannot be empty.")
    if axis in (1, "columns"):
        raise ValueError("If `periods` contains multiple shifts, `axis` cannot be 1.")
    for p in periods:
        if not isinstance(p, int):
            raise TypeError(f"Periods must be integer, but {p} is {type(p)}.")
    if isinstance(obj, Series) and not PANDAS3:  # pandas 2.2 drops a Series' suffix
        suffix = None
    frame = obj.to_frame() if isinstance(obj, Series) else obj
    parts = []
    for p in periods:
        text = f"{suffix}_{p}" if suffix else f"_{p}"
        if freq is None and axis in (0, "index"):  # keeps the index: the parts line up by chunk
            parts.append(_shifted(frame, _shift_rows_suffixed, (p, fill_value, text), p, "md.shift"))
        else:
            parts.append(shift(frame, p, freq=freq, axis=axis, fill_value=fill_value).add_suffix(text))
    return concat(parts, axis=1)


def _shift_rows_suffixed(values, periods, fill_value, suffix):
    return _shift_rows(values, periods, fill_value).add_suffix(suffix)


@methods(DataFrame, Series)
def tshift(obj, periods=1, freq=None, axis=0):
    """Move the index by ``periods * freq`` (pandas' removed ``tshift``; ``freq`` required)."""
    if freq is None:
        raise ValueError("Freq was not given: tshift needs freq= (the index's own frequency "
                         "is not known before it is computed)")
    return shift(obj, periods, freq=freq, axis=axis)


def _diff(values, periods, axis):
    return values.diff(periods) if axis is None else values.diff(periods, axis=axis)


@methods(DataFrame, Series)
def diff(obj, periods=1, axis=0):
    """Difference with the row ``periods`` before (after when negative), across chunks."""
    whole = isinstance(periods, float) and periods.is_integer()
    if not pd.api.types.is_integer(periods) and not whole:
        raise ValueError("periods must be an integer")
    periods = int(periods)
    if isinstance(obj, Series):
        return _shifted(obj, _diff, (periods, None), periods, "md.diff")
    if _axis(obj, axis) == 1:
        meta = _meta_of(obj, _diff, periods, 1)
        return map_chunks(_diff, (obj, periods, 1), label="md.diff", meta=meta)
    return _shifted(obj, _diff, (periods, 0), periods, "md.diff")


def _pct(values, periods):
    return values.pct_change(periods, fill_method=None)


@methods(DataFrame, Series)
def pct_change(obj, periods=1, fill_method=None if PANDAS3 else "pad", limit=None, freq=None, **kwargs):
    """Change from the row ``periods`` before; pandas 2's ``fill_method='pad'`` fills first."""
    if PANDAS3 and (fill_method is not None or limit is not None):
        obj.data.meta.pct_change(periods, fill_method=fill_method, limit=limit)  # pandas' error
    if freq is not None or kwargs:
        raise NotImplementedError("pct_change with freq= or extra keywords is not supported")
    periods = operator.index(periods)
    if fill_method in ("pad", "ffill"):
        obj = ffill(obj, limit=limit)
    elif fill_method in ("bfill", "backfill"):
        obj = bfill(obj, limit=limit)
    elif fill_method is not None:
        raise ValueError("Invalid fill method. Expecting pad (ffill) or backfill (bfill). "
                         f"Got {fill_method}")
    return _shifted(obj, _pct, (periods,), periods, "md.pct_change")
