"""Value by value operations: ``round``, ``replace``, ``Series.between`` (block by block)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from pandas.api.types import is_list_like

from ..tensor.core import Tensor
from .accessors import settle_dtypes
from .blockwise import map_chunks
from .core import DataFrame, Series, _Frame, methods
from .rules.usage import same_as_output, uses

__all__: list[str] = []


def _round(obj, decimals):
    return obj.round(decimals)


uses(_round, rows="same")(same_as_output)


@methods(DataFrame, Series)
def round(obj, decimals=0, *args, **kwargs):  # noqa: A001 - the pandas method name
    """Round to ``decimals`` places (an int, or per column a dict / Series for a DataFrame)."""
    if isinstance(decimals, _Frame):
        raise NotImplementedError("decimals as a lazy Series: pass a pandas Series or a dict")
    if args or kwargs:
        raise TypeError("round() takes decimals only (numpy's extra arguments are not used)")
    return map_chunks(_round, (obj, decimals), label=f"md.{type(obj).__name__}.round", validate=True)


def _replace(obj, kwargs, **lazy_scalars):
    return obj.replace(**kwargs, **lazy_scalars)


uses(_replace, rows="same")(same_as_output)

_NO_VALUE = object()


@methods(DataFrame, Series)
def replace(obj, to_replace=None, value=_NO_VALUE, *, inplace=False, limit=None, regex=False,
            method=_NO_VALUE):
    """Replace values: a scalar, a list, a dict (per value or per column) or regular
    expressions (``regex=True``). The result's dtypes depend on which values occur, so they
    are learned from the blocks (a small reduction run now)."""
    if limit is not None or method is not _NO_VALUE:
        raise NotImplementedError("replace with method= / limit= fills from neighbouring rows; "
                                  "use ffill / bfill")
    if not (isinstance(regex, bool) or is_list_like(regex) or isinstance(regex, str)) and regex is not None:
        raise TypeError("'regex' must be a string or a compiled regular expression or a list "
                        "or dict of strings or regular expressions")
    kwargs = {"to_replace": to_replace, "regex": regex}
    if value is not _NO_VALUE:
        kwargs["value"] = value
    # lazy scalars (``s.max()``) are inputs of their own, their values given to every block
    lazy = {k: kwargs.pop(k) for k in ("to_replace", "value") if isinstance(kwargs.get(k), Tensor)}
    if any(v.ndim for v in lazy.values()):
        raise NotImplementedError("replace with a lazy array: fetch it first")
    label = f"md.{type(obj).__name__}.replace"
    res = map_chunks(_replace, (obj, kwargs), lazy, label=label, validate=True)
    res = settle_dtypes(res, not _keeps_dtypes(obj, to_replace, value, regex), label)
    if inplace:
        obj.data = res.data
        return None
    return res


def _keeps_dtypes(obj, to_replace, value, regex) -> bool:
    """Whether replacing can not change any dtype: one number by a number every (numeric)
    column holds as it is (then nothing needs learning from the data)."""
    meta = obj.data.meta
    dtypes = list(meta.dtypes) if isinstance(meta, pd.DataFrame) else [meta.dtype]

    def number(x):
        return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))

    if regex is not False or not (number(to_replace) and number(value)):
        return False
    for dtype in dtypes:
        if not isinstance(dtype, np.dtype) or dtype.kind not in "iuf":
            return False
        if dtype.kind in "iu" and not (float(value).is_integer() and
                                         np.can_cast(np.min_scalar_type(int(value)), dtype)):
            return False
        if value != value or dtype.kind == "f" and np.asarray(value, dtype) != value:
            return dtype.kind == "f" and value != value
    return True


def _between(obj, left, right, inclusive):
    return obj.between(left, right, inclusive=inclusive)


uses(_between, rows="same")(same_as_output)


@methods(Series)
def between(s, left, right, inclusive="both"):
    """True where ``left <= value <= right`` (``inclusive``: 'both', 'neither', 'left',
    'right'); bounds may be scalars or row-aligned Series."""
    return map_chunks(_between, (s, left, right, inclusive), label="md.Series.between", validate=True)
