"""``Series.dt``, ``to_datetime``, ``to_numeric`` and ``date_range``.

``Series.dt`` is one mechanism, like ``Series.str``: pandas' accessor attribute or method
runs on each row block. ``tz`` and ``unit`` come from the dtype; ``freq`` (pandas infers it
from all the values) is a lazy 0-d value; a period Series' ``freq`` is its dtype's.
Where pandas' answer depends on the values, what it needs is learned when the operation is
built (see ``accessors.learn``): dtypes that change with missing values (``dt.year`` is int32
without NaT, float64 with), the resolution and time zone ``to_datetime`` parses, the format
it guesses from the first value, the dtype ``to_numeric`` parses and the one it downcasts to.
"""
from __future__ import annotations

import contextlib
import inspect
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from .accessors import (chunkwise, depends_on_missing, learn, learn_dtypes, settle_dtypes,
                        summarize, _astype)
from .blockwise import rows_grid
from .core import DataFrame, Index, Series, _Frame, methods, new_frame

__all__ = ["to_datetime", "to_numeric", "date_range"]


# -- Series.dt ----------------------------------------------------------------------------------
def _dt_kernel(chunk, name, args, kwargs, dtype=None):
    attr = getattr(chunk.dt, name)
    res = attr if args is None else attr(*args, **kwargs)
    return res if dtype is None else _astype(res, dtype)


def _dt_call(obj, name, args=None, kwargs=None):
    """``obj.dt.<name>`` (``args`` None: an attribute) block by block."""
    kwargs = dict(kwargs or {})
    _check_ambiguous(name, kwargs)
    meta = obj.data.meta
    result = _dt_kernel(meta, name, args, kwargs)  # pandas' errors, at build time
    label = f"md.dt.{name}"
    lazy = chunkwise(_dt_kernel, (obj, name, args, kwargs), result, label=label)
    return settle_dtypes(lazy, depends_on_missing(_dt_kernel, meta, name, args, kwargs), label)


def _check_ambiguous(name, kwargs):
    ambiguous = kwargs.get("ambiguous", "raise")
    if isinstance(ambiguous, str) and ambiguous == "infer":
        raise NotImplementedError(f"dt.{name}(ambiguous='infer') infers from the order of all "
                                  "values and is not supported; pass 'NaT', 'raise' or a bool")
    if not isinstance(ambiguous, (str, bool, np.bool_)):
        raise NotImplementedError(f"dt.{name} with an array of ambiguous flags is not supported")


def _freq_part(chunk, *args):
    """A block's int64 values, as (first, step, count) when evenly spaced."""
    values = np.asarray(chunk.array.asi8)
    steps = np.diff(values)
    if len(values) > 2 and (steps == steps[0]).all():
        return ("range", int(values[0]), int(steps[0]), len(values))
    return ("values", values)


def _freq_whole(parts, meta, future):
    arrays = [np.arange(p[3], dtype=np.int64) * p[2] + p[1] if p[0] == "range" else p[1]
              for p in parts]
    values = np.concatenate(arrays) if arrays else np.array([], dtype=np.int64)
    dtype = meta.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        data = pd.DatetimeIndex(values.view(f"M8[{dtype.unit}]")).tz_localize("UTC")
        data = data.tz_convert(dtype.tz)
    else:
        data = pd.Index(values.view(dtype))
    option = (contextlib.nullcontext() if future is None
              else pd.option_context("future.infer_freq_returns_offset", future))
    with warnings.catch_warnings(), option:
        warnings.simplefilter("ignore")
        return pd.Series(data).dt.freq


def _future_freq():
    try:
        return pd.get_option("future.infer_freq_returns_offset")
    except KeyError:  # pandas before 3.1
        return None


def dt_freq(obj):
    """``obj.dt.freq``: the frequency pandas infers from all the values, as a lazy 0-d value
    (a period Series' frequency is its dtype's)."""
    meta = obj.data.meta
    if isinstance(meta.dtype, pd.PeriodDtype):
        return meta.dt.freq
    meta.dt.freq  # pandas' warnings and errors
    return summarize(obj, _freq_part, _freq_whole, (meta, _future_freq()), label="md.dt.freq")


def _to_period(obj, freq=None):
    if freq is None and not isinstance(obj.data.meta.dtype, pd.PeriodDtype):
        from pandas.tseries.frequencies import get_period_alias

        inferred = learn(dt_freq(obj))
        if inferred is None:
            raise ValueError("You must pass a freq argument as current index has none.")
        inferred = getattr(inferred, "freqstr", inferred)
        freq = get_period_alias(inferred) or inferred
    return _dt_call(obj, "to_period", (freq,), {})


#: attributes given by the dtype, not the values
_FROM_DTYPE = ("tz", "unit")


class DatetimeAccessor:
    """``obj.dt``: pandas' datetime, timedelta and period properties and methods, lazily."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        obj.data.meta.dt  # pandas' AttributeError for values that are not datetime-like
        self._obj = obj

    def _pandas(self):
        return self._obj.data.meta.dt

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        acc = self._pandas()
        kind = inspect.getattr_static(type(acc), name, None)
        if kind is None:
            getattr(acc, name)  # pandas' AttributeError
        if name in _FROM_DTYPE:
            return getattr(acc, name)
        if name == "freq":
            return dt_freq(self._obj)
        obj = self._obj
        if isinstance(kind, property):
            return _dt_call(obj, name)
        if name == "to_period":
            return lambda freq=None: _to_period(obj, freq)

        def method(*args, **kwargs):
            return _dt_call(obj, name, args, kwargs)

        method.__name__ = name
        return method

    def __dir__(self):
        names = {n for n in dir(self._pandas()) if not n.startswith("_")}
        return sorted(set(dir(type(self))) | names)


@methods(Series, name="dt", prop=True)
def dt_accessor(obj) -> DatetimeAccessor:
    """Datetime-like properties of the values (pandas' ``.dt``), lazily."""
    return DatetimeAccessor(obj)


# -- shared: inputs of the top-level converters -------------------------------------------------
def _lazy_input(arg):
    """(lazy frame, kind) for a converter's argument: kind 'series' / 'index' / 'frame' keep
    their type; 'array' is a list or array (pandas answers with an array or an Index)."""
    from .datasource import from_pandas

    if isinstance(arg, Series):
        return arg, "series"
    if isinstance(arg, Index):
        return arg, "index"
    if isinstance(arg, DataFrame):
        return arg, "frame"
    if isinstance(arg, pd.Series):
        return from_pandas(arg), "series"
    if isinstance(arg, pd.DataFrame):
        return from_pandas(arg), "frame"
    if isinstance(arg, pd.Index):
        series = pd.Series(arg, name=arg.name, index=pd.RangeIndex(len(arg)))
        return from_pandas(series), "index-values"
    values = np.asarray(arg) if isinstance(arg, np.ndarray) else list(arg)
    return from_pandas(pd.Series(values)), "array"


def _is_scalar(arg) -> bool:
    return not isinstance(arg, (_Frame, Index)) and not pd.api.types.is_list_like(arg)


def _text(dtype) -> bool:
    return dtype == object or isinstance(dtype, pd.StringDtype)


# -- to_datetime --------------------------------------------------------------------------------
def _datetime_kernel(chunk, kw, kind, dtype=None):
    if kind == "index-values":  # a pandas Index given by the user: pandas keeps its name
        res = pd.to_datetime(pd.Index(chunk, name=chunk.name), **kw)
    elif kind == "array":
        res = pd.to_datetime(chunk.to_numpy(), **kw)
    else:
        res = pd.to_datetime(chunk, **kw)
    return res if dtype is None else _as_datetimes(res, dtype)


def _as_datetimes(res, dtype):
    """``res`` in the whole result's dtype (a block of only NaT parses naive)."""
    if res.dtype == dtype:
        return res
    if isinstance(dtype, pd.DatetimeTZDtype) and getattr(res.dtype, "tz", None) is None:
        res = (res.dt if isinstance(res, pd.Series) else res).tz_localize(dtype.tz)
    return res.astype(dtype)


def _first_present(chunk):
    from pandas._libs.tslib import first_non_null

    values = chunk.to_numpy(dtype=object)
    i = first_non_null(values)
    return None if i == -1 else values[i]


def _first(parts):
    return next((p for p in parts if p is not None), None)


def _guessed_format(obj, dayfirst):
    """The format pandas guesses from the first present value of the whole data ('mixed':
    each value parsed on its own, as pandas does when it cannot guess)."""
    from pandas.core.tools.datetimes import _guess_datetime_format_for_array

    first = learn(summarize(obj, _first_present, _first, label="md.to_datetime"))
    if first is None:
        return "mixed"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        guess = _guess_datetime_format_for_array(np.array([first], dtype=object), dayfirst=dayfirst)
    if guess is None and isinstance(first, str):
        warnings.warn("Could not infer format, so each element will be parsed individually, "
                      "falling back to `dateutil`. To ensure parsing is consistent and "
                      "as-expected, please specify a format.", UserWarning, stacklevel=3)
    return guess or "mixed"


def _mixed_zones(dtype):
    if int(pd.__version__.split(".")[0]) >= 3:
        return ValueError("Mixed timezones detected. Pass utc=True in to_datetime or tz='UTC' "
                          "in DatetimeIndex to convert to a common timezone.")
    return NotImplementedError("to_datetime of values with mixed time zones (an object result "
                               "in pandas 2) is not supported; pass utc=True")


def to_datetime(arg, errors="raise", dayfirst=False, yearfirst=False, utc=False, format=None,
                unit=None, origin="unix", **kwargs):
    """Convert to datetimes as ``pd.to_datetime``: lazily for Series / Index / DataFrame
    (assembled from its columns) / lists, directly for scalars. The parsed resolution, time
    zone and guessed format depend on the values: they are learned from the whole data."""
    kw = dict(errors=errors, dayfirst=dayfirst, yearfirst=yearfirst, utc=utc, format=format,
              unit=unit, origin=origin, **kwargs)
    if _is_scalar(arg) or isinstance(arg, dict):
        return pd.to_datetime(arg, **kw)
    obj, kind = _lazy_input(arg)
    meta = obj.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("error" if errors == "ignore" else "default", FutureWarning)
        try:
            result = _datetime_kernel(meta, kw, kind)  # pandas' errors, at build time
        except FutureWarning:
            raise NotImplementedError("to_datetime(errors='ignore') returns the input when any "
                                      "value fails, a whole-data decision not supported") from None
    if kind != "frame" and _text(meta.dtype) and unit is None:
        if format is None:
            kw["format"] = _guessed_format(obj, dayfirst)
            if kw["format"] == "mixed" and "exact" in kw:
                kw.pop("format")
        raw = chunkwise(_datetime_kernel, (obj, kw, kind), result, label="md.to_datetime")
        dtype = learn_dtypes(raw, "md.to_datetime")
        if dtype == object:
            raise _mixed_zones(dtype)
        result = (pd.Series([], dtype=dtype, index=result.index, name=result.name)
                  if isinstance(result, pd.Series) else pd.Index([], dtype=dtype, name=result.name))
        return chunkwise(_datetime_kernel, (obj, kw, kind, dtype), result, label="md.to_datetime")
    return chunkwise(_datetime_kernel, (obj, kw, kind), result, label="md.to_datetime")


# -- to_numeric ---------------------------------------------------------------------------------
def _numeric_kernel(chunk, kw, kind, base=None, final=None):
    res = pd.to_numeric(chunk.to_numpy() if kind == "array" else chunk, **kw)
    if kind == "index-values":
        res = pd.Index(res, name=chunk.name)
    for dtype in (base, final):
        if dtype is not None and res.dtype != dtype:
            res = res.astype(dtype)
    return res


def _downcast_part(chunk, downcast, base):
    return pd.to_numeric(chunk, downcast=downcast).dtype


def _downcast_whole(parts, downcast, base):
    """The dtype pandas downcasts the whole data to: its checks are per value, so a dtype
    fits the whole iff it fits every block; blocks that fit none keep ``base``."""
    if not parts or base in parts:
        return base
    return max(parts, key=lambda d: np.dtype(getattr(d, "numpy_dtype", d)).itemsize)


def to_numeric(arg, errors="raise", downcast=None, **kwargs):
    """Convert to numbers as ``pd.to_numeric``: lazily for Series / Index / lists (an array in
    pandas: a tensor), directly for scalars. The parsed dtype and the ``downcast`` target
    depend on all the values: they are learned from the whole data."""
    kw = dict(errors=errors, **kwargs)
    if _is_scalar(arg):
        return pd.to_numeric(arg, downcast=downcast, **kw)
    if isinstance(arg, (DataFrame, pd.DataFrame)):
        pd.to_numeric(arg.data.meta if isinstance(arg, DataFrame) else arg)  # pandas' TypeError
    obj, kind = _lazy_input(arg)
    meta = obj.data.meta
    with warnings.catch_warnings():
        warnings.simplefilter("error" if errors == "ignore" else "default", FutureWarning)
        try:
            pd.to_numeric(meta, downcast=downcast, **kw)  # pandas' errors, at build time
        except FutureWarning:
            raise NotImplementedError("to_numeric(errors='ignore') returns the input when any "
                                      "value fails, a whole-data decision not supported") from None
    if errors == "ignore":
        raise NotImplementedError("to_numeric(errors='ignore') is not supported")
    result = _numeric_kernel(meta, kw, kind)
    label = "md.to_numeric"
    base = getattr(result, "dtype", None)
    if not pd.api.types.is_numeric_dtype(meta.dtype):
        base = learn_dtypes(chunkwise(_numeric_kernel, (obj, kw, kind), result, label=label), label)
    final = None
    if downcast is not None:
        based = chunkwise(_numeric_kernel, (obj, kw, kind, base), _astype(result, base),
                          label=label)
        final = learn(summarize(based, _downcast_part, _downcast_whole, (downcast, base),
                                label=label))
    result = _numeric_kernel(meta, kw, kind, base, final)
    return chunkwise(_numeric_kernel, (obj, kw, kind, base, final), result, label=label)


# -- date_range ---------------------------------------------------------------------------------
class DateRange(Operand):
    """Blocks of a date range, each regenerated by pandas from its first value and length
    (the same recurrence pandas runs, so each block equals that stretch of the whole)."""

    _params = ("starts", "counts", "freq", "index_name", "unit")

    def tile(self, ctx, out):
        chunks = [ChunkData(self.new(starts=(s,), counts=(n,)), [], (n,), out.meta, (i,))
                  for i, (s, n) in enumerate(zip(self.starts, self.counts))]
        return rows_grid(chunks, out.meta)

    def execute(self):
        return pd.date_range(start=self.starts[0], periods=self.counts[0], freq=self.freq.offset,
                             name=self.index_name, unit=self.unit)


class _Offset:
    """A pandas offset as an operand parameter (its pickle is not a stable token)."""

    __slots__ = ("offset",)

    def __init__(self, offset):
        self.offset = offset

    def __mars_token__(self):
        return ("offset", type(self.offset).__name__, repr(self.offset))


#: ranges up to this long are generated in the client to find their block starts
_CLIENT_RANGE = 1_000_000


def _regular_range(kw):
    """(first int value, step, count) of a long fixed-step, time-zone-naive range; None when
    the range is short or not of that kind (then pandas generates it in the client)."""
    from pandas.tseries.frequencies import to_offset

    start, end, periods, freq = kw["start"], kw["end"], kw["periods"], kw["freq"]
    if freq is None or kw["tz"] is not None:
        return None
    offset = to_offset(freq)
    try:
        step = pd.Timedelta(offset)
    except (TypeError, ValueError):
        return None
    ends = [pd.Timestamp(x) for x in (start, end) if x is not None]
    if not ends or any(t.tz is not None for t in ends) or step <= pd.Timedelta(0):
        return None
    probe = pd.date_range(start=ends[0], periods=1, freq=freq, unit=kw.get("unit"))
    unit = probe.unit  # pandas 3 takes the resolution from the ends
    ends = [t.as_unit(unit, round_ok=False) for t in ends]
    if kw["normalize"]:
        ends = [t.normalize() for t in ends]
    stride = int(step.as_unit(unit, round_ok=False)._value)
    if periods is None:
        first, last = ends[0]._value, ends[1]._value
        count = max(0, (last - first) // stride + 1)
    elif start is not None:
        first, count = ends[0]._value, int(periods)
    else:
        count = int(periods)
        first = ends[0]._value - (count - 1) * stride
    if count <= _CLIENT_RANGE:
        return None
    left, right = kw["inclusive"] in ("both", "left"), kw["inclusive"] in ("both", "right")
    start_v = ends[0]._value if start is not None else first
    end_v = ends[-1]._value if end is not None else first + (count - 1) * stride
    if start is not None and end is not None and start_v == end_v:
        if left and right:
            return first, stride, count, unit
        return first + stride, stride, max(0, count - 2), unit
    if not left and count and first == start_v:
        first, count = first + stride, count - 1
    if not right and count and first + (count - 1) * stride == end_v:
        count -= 1
    return first, stride, count, unit


def date_range(start=None, end=None, periods=None, freq=None, tz=None, normalize=False,
               name=None, inclusive="both", *, unit=None, chunk_size=None, **kwargs):
    """A lazy DatetimeIndex as ``pd.date_range``, in blocks of ``chunk_size`` values.

    Each block is regenerated by pandas from its first value. Long fixed-step naive ranges
    are laid out by arithmetic; others are generated once in the client to find where the
    blocks start (the graph holds only those starts).
    """
    from pandas.tseries.frequencies import to_offset

    from .datasource import from_pandas, row_splits

    if freq is None and any(x is None for x in (periods, start, end)):
        freq = "D"
    kw = dict(start=start, end=end, periods=periods, freq=freq, tz=tz, normalize=normalize,
              name=name, inclusive=inclusive, **({"unit": unit} if unit else {}), **kwargs)
    regular = _regular_range(kw)
    if regular is not None:
        first, stride, count, unit = regular
        meta = pd.date_range(start=pd.Timestamp(first, unit=unit), periods=0, freq=freq,
                             name=name, unit=unit)
        splits = row_splits(chunk_size, count, 8)
        offsets = np.cumsum((0,) + splits[:-1])
        starts = tuple(pd.Timestamp(first + int(o) * stride, unit=unit) for o in offsets)
    else:
        full = pd.date_range(**kw)
        meta, count = full[:0], len(full)
        splits = row_splits(chunk_size, count, 8)
        if freq is None:  # evenly spaced between the ends: blocks of the client's values
            series = from_pandas(pd.Series(full, name=name), chunk_size=splits)
            return chunkwise(_index_of_values, (series,), meta, label="md.date_range")
        offsets = np.cumsum((0,) + splits[:-1])
        starts = tuple(full[int(o)] if count else pd.Timestamp(0) for o in offsets)
    op = DateRange(starts=starts, counts=tuple(int(n) for n in splits),
                   freq=_Offset(to_offset(meta.freq or freq)),
                   index_name=name, unit=unit or meta.unit, label="md.date_range")
    return new_frame(op, [], count, meta)


def _index_of_values(chunk):
    return pd.DatetimeIndex(chunk.array, name=chunk.name)
