"""The lazy Index's positional and set methods (``idx[...]``, ``append``, ``argsort``,
``union`` ...) on the frame primitives: the labels become a Series (by position, or indexed by
themselves), the Series operation runs (iloc, concat, sort, value_counts, a merge) and its
values or index are the result. Facts pandas returns as plain values (``equals``) are computed
when called."""
from __future__ import annotations

import operator

import numpy as np
import pandas as pd

from .blockwise import map_chunks
from .core import DataFrame, Index, Series, methods

__all__: list[str] = []


def as_lazy_index(other):
    """``other`` (a lazy or pandas Index, or labels) as a lazy Index."""
    if isinstance(other, Index):
        return other
    if isinstance(other, (Series, DataFrame)):
        raise TypeError(f"expected an Index, got a {type(other).__name__}")
    return Index(other if isinstance(other, pd.Index) else pd.Index(other))


def _labels_at(v, start):
    out = v.to_series()
    out.index = pd.RangeIndex(start, start + len(out))
    return out


def _positions_at(v, start):
    return pd.Series(np.arange(start, start + len(v), dtype=np.intp), index=v)


def labels(obj) -> Series:
    """The labels as the values of a Series indexed by position (tuples for a MultiIndex)."""
    from .frame_index import by_position

    meta = obj.data.meta.to_series().reset_index(drop=True)
    return by_position(obj, _labels_at, (), meta, "md.Index.labels")


def _to_index(v, like):
    if isinstance(like, pd.MultiIndex):
        return pd.MultiIndex.from_tuples(list(v), names=like.names) if len(v) else like[:0]
    out = pd.Index(v.array, name=like.name)
    return out if out.dtype == like.dtype else out.astype(like.dtype)


def to_index(values: Series, like: pd.Index) -> Index:
    """The values of a Series as the labels of an Index like (empty) ``like``."""
    return map_chunks(_to_index, (values, like[:0]), label="md.Index", meta=like[:0])


@methods(Index, name="__getitem__")
def index_getitem(obj, key):
    """Labels by position: an int gives one label, a slice / mask / positions an Index."""
    if isinstance(key, tuple):
        raise IndexError("too many indices for array")
    s = obj.to_series()
    if pd.api.types.is_integer(key):
        return s.iloc[key]
    return s.iloc[key].index


@methods(Index, name="to_numpy")
def index_to_numpy(obj, dtype=None, copy=False, na_value=pd.api.extensions.no_default):
    """The labels as a lazy tensor."""
    return labels(obj).to_numpy(dtype=dtype, na_value=na_value)


Index.values = property(index_to_numpy)


@methods(Index, name="append")
def index_append(obj, other):
    """The labels followed by those of ``other`` (an Index or a list of them)."""
    from .align import concat

    others = other if isinstance(other, (list, tuple)) else [other]
    parts = [obj, *(as_lazy_index(o) for o in others)]
    metas = [p.data.meta for p in parts]
    like = metas[0].append(metas[1:])
    parts = [p if p.dtype == like.dtype else p.astype(like.dtype) for p in parts]
    return concat([p.to_series() for p in parts]).index.set_names(like.names)


@methods(Index, name="insert")
def index_insert(obj, loc, item):
    """``item`` inserted before position ``loc``."""
    if not pd.api.types.is_integer(loc):
        raise TypeError(f"loc must be an integer, got {type(loc).__name__}")
    meta = obj.data.meta
    one = pd.Index([item], name=meta.name) if meta.nlevels == 1 else \
        pd.MultiIndex.from_tuples([item], names=meta.names)
    if loc == -1 or loc >= 0 and obj.shape[0] == loc:
        return obj.append(one) if loc >= 0 else obj[:-1].append([one, obj[-1:]])
    return obj[:loc].append([one, obj[loc:]])


@methods(Index, name="repeat")
def index_repeat(obj, repeats, axis=None):
    """Each label ``repeats`` times in a row."""
    if not pd.api.types.is_integer(repeats):
        raise NotImplementedError("Index.repeat with per-label counts: pass one int")
    obj.data.meta.repeat(repeats)  # pandas' ValueError for a negative count
    return map_chunks(lambda v, n: v.repeat(n), (obj, repeats), keep_rows=False,
                      label="md.Index.repeat")


@methods(Index, name="argsort")
def index_argsort(obj, *args, **kwargs):
    """The positions that sort the labels (ties in their order)."""
    return labels(obj).sort_values(kind="stable").index.to_numpy()


def _arg_extreme(obj, how, skipna):
    if obj.data.meta.nlevels > 1:
        raise NotImplementedError(f"MultiIndex.{how}")
    return getattr(labels(obj), f"idx{how[3:]}")(skipna=skipna)


@methods(Index, name="argmin")
def index_argmin(obj, axis=None, skipna=True):
    """The position of the (first) smallest label."""
    return _arg_extreme(obj, "argmin", skipna)


@methods(Index, name="argmax")
def index_argmax(obj, axis=None, skipna=True):
    """The position of the (first) largest label."""
    return _arg_extreme(obj, "argmax", skipna)


@methods(Index, name="factorize")
def index_factorize(obj, sort=False, use_na_sentinel=True):
    """Codes (a lazy tensor) and the distinct labels, as ``Series.factorize``."""
    return labels(obj).factorize(sort=sort, use_na_sentinel=use_na_sentinel)


@methods(Index, name="equals")
def index_equals(obj, other) -> bool:
    """Whether ``other`` is an Index with the same labels in the same order (computed now)."""
    from .conversion import n_rows
    from .reshape import compute_now

    if not isinstance(other, (Index, pd.Index)):
        return False
    other = as_lazy_index(other)
    if obj.data.meta.nlevels != other.data.meta.nlevels or n_rows(obj) != n_rows(other):
        return False
    a, b = labels(obj), labels(other)
    return bool(compute_now(((a == b) | (a.isna() & b.isna())).all()))


@methods(Index, name="get_indexer")
def index_get_indexer(obj, target, method=None, limit=None, tolerance=None):
    """The position of each ``target`` label (-1 when absent), as a lazy tensor; the labels
    must be unique (pandas' InvalidIndexError otherwise, raised when computed)."""
    if method is not None or limit is not None or tolerance is not None:
        raise NotImplementedError("get_indexer with method=, limit= or tolerance=")
    from .frame_index import by_position

    meta = obj.data.meta
    positions = by_position(obj, _positions_at, (), pd.Series([], dtype=np.intp, index=meta[:0]),
                            "md.Index.get_indexer")
    found = positions.reindex(as_lazy_index(target) if isinstance(target, Index)
                              else pd.Index(target, tupleize_cols=meta.nlevels > 1))
    return found.fillna(-1).astype(np.intp).to_numpy()


# -- set operations: unique labels through a merge (a hash shuffle), sorted like pandas -----------

def _name(obj, other):
    a, b = obj.data.meta, other.data.meta
    return list(a.names) if list(a.names) == list(b.names) else [None] * a.nlevels


def _frame(values: Series) -> DataFrame:
    return values.to_frame(name="__mars_label__")


def _kept(values: Series, other_values: Series, present: bool) -> Series:
    """The ``values`` found (``present``) or not found in ``other_values`` (both unique), in
    their order: a left merge with pandas' NaN matching."""
    left, right = _frame(values), _frame(other_values)
    if values.dtype != other_values.dtype:
        left, right = left.astype(object), right.astype(object)
    merged = left.merge(right, on="__mars_label__", how="left", indicator="__mars_in__")
    keep = merged["__mars_in__"] == "both"
    out = merged[keep if present else ~keep]["__mars_label__"]
    return out.astype(values.dtype) if out.dtype != values.dtype else out


def _result(values: Series, like: pd.Index, names, sort) -> Index:
    if sort is not False:
        values = values.sort_values(kind="stable")
    return to_index(values, like).set_names(names)


def _check_sort(sort, allowed=(None, False, True)):
    if not any(sort is a for a in allowed):
        raise ValueError(f"The 'sort' keyword only takes the values of {', '.join(map(str, allowed))}. "
                         f"{sort} was passed.")


def _unique_labels(obj) -> Series:
    return labels(obj.unique())


@methods(Index, name="intersection")
def index_intersection(obj, other, sort=False):
    """The distinct labels also in ``other``, in their first order (``sort=True``: sorted)."""
    _check_sort(sort, (False, True, None))
    other = as_lazy_index(other)
    kept = _kept(_unique_labels(obj), _unique_labels(other), True)
    return _result(kept, obj.data.meta, _name(obj, other), sort is True)


@methods(Index, name="difference")
def index_difference(obj, other, sort=None):
    """The distinct labels not in ``other``, sorted (``sort=False``: in their first order)."""
    _check_sort(sort)
    other = as_lazy_index(other)
    kept = _kept(_unique_labels(obj), _unique_labels(other), False)
    names = _name(obj, other)
    if sort is None and _len(other) == 0:  # pandas returns the unique labels unsorted
        sort = False
    return _result(kept, obj.data.meta, names, sort)


@methods(Index, name="symmetric_difference")
def index_symmetric_difference(obj, other, result_name=None, sort=None):
    """The distinct labels in exactly one of the two, sorted (``sort=False``: ours first)."""
    from .align import concat

    _check_sort(sort)
    other = as_lazy_index(other)
    mine, theirs = _unique_labels(obj), _unique_labels(other)
    both = concat([_kept(mine, theirs, False), _kept(theirs, mine, False)], ignore_index=True)
    like = pd.concat([obj.data.meta.to_series(), other.data.meta.to_series()]).index[:0]
    names = _name(obj, other) if result_name is None else [result_name]
    return _result(both, like, names, sort)


def _len(obj) -> int:
    from .conversion import n_rows

    return n_rows(obj)


def _repeat_counts(v, like):
    return pd.Index(v.index.repeat(v.to_numpy()), name=like.name).astype(like.dtype)


@methods(Index, name="union")
def index_union(obj, other, sort=None):
    """Every label of either, a label as often as in the one holding it most, sorted; an
    empty or equal ``other`` gives the labels as they are (as pandas does)."""
    from .align import concat

    _check_sort(sort)
    if sort is False:
        raise NotImplementedError("Index.union(sort=False)")
    other = as_lazy_index(other)
    names = _name(obj, other)
    if _len(other) == 0 or obj.equals(other):
        return obj.set_names(names) if sort is None else obj.sort_values().set_names(names)
    if _len(obj) == 0:
        return other.set_names(names)
    counts = concat([obj.value_counts(dropna=False), other.value_counts(dropna=False)])
    counts = counts.groupby(level=0, dropna=False).max().sort_index()
    like = pd.concat([obj.data.meta.to_series(), other.data.meta.to_series()]).index[:0]
    out = map_chunks(_repeat_counts, (counts, like), keep_rows=False, label="md.Index.union",
                     meta=like)
    return out.set_names(names)


# -- datetime-like labels: label by label ---------------------------------------------------------

def _attr(v, name):
    return getattr(v, name)


def _label_property(name):
    def prop(obj):
        getattr(obj.data.meta, name)  # pandas' AttributeError for other labels
        return map_chunks(_attr, (obj, name), label=f"md.Index.{name}")

    prop.__doc__ = f"Each label's ``{name}`` (datetime-like labels)."
    return property(prop)


def _label_method(name):
    def method(obj, *args, **kwargs):
        from .frame_methods import per_chunk

        getattr(obj.data.meta, name)(*args, **kwargs)  # pandas' errors
        return per_chunk(obj, name, *args, **kwargs)

    method.__doc__ = f"``{name}`` label by label (datetime-like labels)."
    method.__name__ = name
    return method


for _label in ("year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond",
              "dayofweek", "day_of_week", "weekday", "dayofyear", "day_of_year", "quarter",
              "days_in_month", "daysinmonth", "is_month_start", "is_month_end",
              "is_quarter_start", "is_quarter_end", "is_year_start", "is_year_end",
              "is_leap_year", "days", "seconds", "microseconds", "nanoseconds"):
    setattr(Index, _label, _label_property(_label))
for _label in ("floor", "ceil", "round", "strftime", "normalize", "day_name", "month_name",
              "to_period", "to_timestamp", "tz_localize", "tz_convert", "total_seconds",
              "isocalendar", "shift", "as_unit"):
    setattr(Index, _label, _label_method(_label))
del _label


@methods(Index, name="tz", prop=True)
def index_tz(obj):
    """The labels' time zone."""
    return obj.data.meta.tz


@methods(Index, name="get_loc")
def index_get_loc(obj, key):
    """The position of ``key`` (computed now): an int for one match, else a slice on a
    monotonic index or a boolean mask, as pandas; KeyError when absent."""
    from .conversion import n_rows
    from .reshape import compute_now

    lab = labels(obj)
    found = compute_now(lab[lab.isin([key])].index.to_numpy())
    if len(found) == 0:
        raise KeyError(key)
    if len(found) == 1:
        return int(found[0])
    if obj.is_monotonic_increasing or obj.is_monotonic_decreasing:
        return slice(int(found[0]), int(found[-1]) + 1)
    mask = np.zeros(n_rows(obj), dtype=bool)
    mask[found] = True
    return mask


@methods(Index, name="where")
def index_where(obj, cond, other=None):
    """Labels where ``cond`` (by position) holds, ``other`` elsewhere (missing by default)."""
    from .datasource import series_from

    if isinstance(cond, Index):
        cond = labels(cond)
    elif not isinstance(cond, Series):
        cond = series_from(cond)  # arrays, lists and lazy tensors: by position
    values = labels(obj).where(cond.reset_index(drop=True), other)
    return to_index(values, pd.Index(values.data.meta, name=obj.data.meta.name))


# -- comparisons: a lazy boolean tensor, as pandas gives an array ---------------------------------

def _compare(v, how, other):
    return np.asarray(getattr(operator, how)(v, other), dtype=bool)


def _comparison(how):
    def compare(obj, other):
        from .frame_tensor import series_tensor_map

        if isinstance(other, (Index, Series, DataFrame)) or pd.api.types.is_list_like(other):
            if not isinstance(other, (Index, Series)):
                other = Index(pd.Index(other))
            # label by label, by position
            right = labels(other) if isinstance(other, Index) else other.reset_index(drop=True)
            return getattr(operator, how)(labels(obj), right).to_numpy()
        getattr(operator, how)(obj.data.meta, other)  # pandas' TypeError
        return series_tensor_map(obj, _compare, (how, other), dtype=bool, label=f"md.Index.{how}")

    compare.__name__ = f"__{how}__"
    compare.__doc__ = f"Label by label ``{how}`` (a lazy boolean tensor)."
    return compare


for _how in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(Index, f"__{_how}__", _comparison(_how))
del _how


# -- arithmetic: label by label with a scalar, by position with labels ----------------------------

def _arith_kernel(v, how, other, reflected):
    func = getattr(operator, how)
    return func(other, v) if reflected else func(v, other)


def _arithmetic(how, reflected=False):
    def arith(obj, other):
        if isinstance(other, (Series, DataFrame)):
            return NotImplemented
        meta = obj.data.meta
        if isinstance(other, Index) or pd.api.types.is_list_like(other):
            plain = not isinstance(other, (Index, pd.Index))  # an array has no name to mix in
            other = as_lazy_index(other)
            like = _arith_kernel(meta, how, other.data.meta, reflected)
            like = like.rename(meta.name) if plain else like
            values = _arith_kernel(labels(obj), how, labels(other), reflected)
            return to_index(values, like)
        like = _arith_kernel(meta, how, other, reflected)  # pandas' TypeError
        return map_chunks(_arith_kernel, (obj, how, other, reflected), label=f"md.Index.{how}",
                          meta=like)

    arith.__name__ = f"__{'r' if reflected else ''}{how}__"
    arith.__doc__ = f"Label by label ``{how}`` (by position with other labels)."
    return arith


for _how in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"):
    setattr(Index, f"__{_how}__", _arithmetic(_how))
    setattr(Index, f"__r{_how}__", _arithmetic(_how, reflected=True))
del _how


@methods(Index, name="__neg__")
def index_neg(obj):
    """Each label negated."""
    return map_chunks(operator.neg, (obj,), label="md.Index.neg")


@methods(Index, name="__abs__")
def index_abs(obj):
    """Each label's absolute value."""
    return map_chunks(operator.abs, (obj,), label="md.Index.abs")


@methods(Index, name="has_duplicates", prop=True)
def index_has_duplicates(obj) -> bool:
    """Whether some label repeats (computed when accessed)."""
    return not obj.is_unique


@methods(Index, name="empty", prop=True)
def index_empty(obj) -> bool:
    """Whether there are no labels (counted when accessed if unknown)."""
    return _len(obj) == 0


@methods(Index, name="take")
def index_take(obj, indices, axis=0, allow_fill=True, fill_value=None):
    """The labels at ``indices`` (positions)."""
    return obj[np.asarray(indices) if not isinstance(indices, Index) else indices]


@methods(Index, name="delete")
def index_delete(obj, loc):
    """The labels without those at position(s) ``loc``."""
    n = _len(obj)
    keep = np.ones(n, dtype=bool)
    keep[np.asarray(loc)] = False  # NumPy's IndexError for a position out of range
    return obj[keep]


@methods(Index, name="identical")
def index_identical(obj, other) -> bool:
    """``equals`` with the same type, dtype and names (computed now)."""
    if not isinstance(other, (Index, pd.Index)):
        return False
    meta, theirs = obj.data.meta, as_lazy_index(other).data.meta
    same = (type(meta) is type(theirs) and meta.dtype == theirs.dtype
            and list(meta.names) == list(theirs.names))
    return same and obj.equals(other)


Index.get_indexer_for = Index.get_indexer


def _index_sort_values(obj, *, return_indexer=False, ascending=True, na_position="last", key=None):
    """The labels sorted (ties in their order); ``return_indexer``: also the positions that
    sort them (a lazy tensor)."""
    from .sort import sort_values

    if not return_indexer:
        return sort_values(obj, ascending=ascending, na_position=na_position, key=key)
    ordered = labels(obj).sort_values(ascending=ascending, na_position=na_position, key=key,
                                      kind="stable")
    return to_index(ordered, obj.data.meta), ordered.index.to_numpy()


Index.sort_values = _index_sort_values
