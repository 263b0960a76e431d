"""Methods of the lazy Index (``df.index``): labels block by block (rename, astype, map, drop,
dropna, fillna, to_series, to_frame) and whole-index facts as tree reductions to one value
(all, any, max, min, memory_usage, inferred_type)."""
from __future__ import annotations

import builtins

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of
from .core import Index, methods
from .frame_index import set_index_names
from .frame_methods import _DEFAULT, checked, inplace_result, per_chunk
from .positional import scalar_dtype
from .stats import _index_bytes, user_index

__all__: list[str] = []


# --- properties ---------------------------------------------------------------------------------

@methods(Index, name="T", prop=True)
def index_t(obj):
    """The transpose of an Index: itself."""
    return obj


@methods(Index, name="size", prop=True)
def index_size(obj):
    """The number of labels (nan until known)."""
    n = obj.shape[0]
    return int(n) if n == n else n


def index_names(obj):
    """The names of the levels (settable: a frame's index renames the frame's)."""
    return obj.data.meta.names


Index.names = property(index_names, set_index_names)


# --- label by label -----------------------------------------------------------------------------

@methods(Index, name="rename")
def index_rename(obj, name, *, inplace=False):
    """The Index with a new name (names, for a MultiIndex)."""
    obj.data.meta.rename(name)  # pandas' errors
    return inplace_result(obj, per_chunk(obj, "rename", name), inplace)


@methods(Index)
def set_names(obj, names, *, level=None, inplace=False):
    """New level names (all, or those of ``level``)."""
    return inplace_result(obj, per_chunk(obj, "set_names", names, level=level), inplace)


@methods(Index, name="astype")
def index_astype(obj, dtype, copy=True):
    """The labels cast to ``dtype`` (to categories learned from all of them, as a Series'
    ``astype('category')``, when none are given)."""
    from .arithmetic import _open_category, category_of
    from .index_ops import labels

    if _open_category(dtype) and obj.data.meta.nlevels == 1:
        dtype = category_of(labels(obj), dtype)
    return per_chunk(obj, "astype", dtype)


@methods(Index, name="fillna")
def index_fillna(obj, value):
    """Missing labels replaced by ``value``."""
    if not pd.api.types.is_scalar(value):
        raise TypeError(f"'value' must be a scalar, passed: {type(value).__name__}")
    return per_chunk(obj, "fillna", value)


@methods(Index, name="dropna")
def index_dropna(obj, how="any"):
    """The Index without missing labels."""
    obj.data.meta.dropna(how=how)  # pandas' ValueError for a bad ``how``
    return per_chunk(obj, "dropna", how=how, keep_rows=False)


def _drop_labels(v, labels):
    return v.drop(labels, errors="ignore")


@methods(Index, name="drop")
def index_drop(obj, labels, errors="raise"):
    """The Index without ``labels``; missing ones raise KeyError unless ``errors='ignore'``."""
    labels = list(labels) if pd.api.types.is_list_like(labels) else [labels]
    built = map_chunks(_drop_labels, (obj, labels), keep_rows=False, label="md.drop")
    return checked(built, labels) if errors == "raise" else built


def _map(v, mapper, na_action, dtype):
    res = v.map(mapper, na_action=na_action)
    return res if dtype is None or res.dtype == dtype else res.astype(dtype)


@methods(Index, name="map")
def index_map(obj, mapper, na_action=None, dtype=None):
    """Labels mapped by a function, a dict or a Series. The result dtype is that of mapping one
    sample label (a key of a dict mapper); ``dtype=`` sets it."""
    meta = obj.data.meta
    if dtype is not None:
        dtype = pd.api.types.pandas_dtype(dtype)
        out = pd.Index([], dtype=dtype, name=meta.name)
    else:
        if pd.api.types.is_dict_like(mapper) and len(mapper):
            keys = mapper.index if isinstance(mapper, pd.Series) else list(mapper)
            sample = pd.Index(keys[:1], name=meta.name)
        else:
            sample = pd.Index(sample_of(pd.Series([], dtype=meta.dtype)).array, name=meta.name)
        try:
            out = _map(sample, mapper, na_action, None)[:0]
        except Exception as exc:
            raise ValueError(f"cannot infer the labels' dtype by mapping the sample label "
                             f"{sample[0]!r} ({type(exc).__name__}: {exc}); pass dtype=") from exc
    return map_chunks(_map, (obj, mapper, na_action, dtype), label="md.map", meta=out)


@methods(Index, name="to_series")
def index_to_series(obj, index=None, name=None):
    """A Series of the labels, indexed by them (or by ``index``: labels by position)."""
    result = per_chunk(obj, "to_series", name=name)
    if index is not None:
        result = result.set_axis(index)
    return result


@methods(Index, name="to_frame")
def index_to_frame(obj, index=True, name=_DEFAULT):
    """A one-column DataFrame of the labels (one column per level of a MultiIndex)."""
    from .frame_index import by_position, ranged

    kwargs = {} if isinstance(name, str) and name == _DEFAULT else {"name": name}
    if index:
        return per_chunk(obj, "to_frame", **kwargs)
    kwargs["index"] = False
    meta = obj.data.meta.to_frame(**kwargs)
    return by_position(obj, ranged, ("to_frame", kwargs), meta, "md.to_frame")


@methods(Index, name="max")
def index_max(obj, skipna=True):
    """The largest label."""
    return _extreme(obj, "max", skipna)


@methods(Index, name="min")
def index_min(obj, skipna=True):
    """The smallest label."""
    return _extreme(obj, "min", skipna)


def _extreme(obj, how, skipna):
    meta = obj.data.meta
    getattr(meta, how)(skipna=skipna)  # pandas' TypeError
    dtype = scalar_dtype(meta.dtype)
    return index_fact(obj, how, dtype, skipna=skipna, dtype=dtype)


# --- whole-index facts: a tree of small partials ------------------------------------------------

class IndexFact(Operand):
    """A per-chunk partial (``stage='map'``), partials merged ('combine') or the value ('final')
    of the fact ``how`` (see ``_FACTS``)."""

    _params = ("how", "stage", "kwargs")

    def execute(self, *values):
        partial, merge, finish = _FACTS[self.how]
        if self.stage == "map":
            return partial(values[0], **dict(self.kwargs))
        merged = merge(list(values))
        return merged if self.stage == "combine" else finish(merged, **dict(self.kwargs))

    def tile(self, ctx, out):
        level = [ChunkData(self.new(stage="map"), [c], (), None, (i,))
                 for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        k = builtins.max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(stage="final"), level, (), out.meta, ())
        return Tiled(grid, ())


def _part_extreme(how):
    def partial(v, skipna, dtype):
        return [getattr(v, how)(skipna=skipna)] if len(v) else []

    def finish(parts, skipna, dtype):
        if not parts:
            return np.nan
        value = getattr(pd.Index(parts, dtype=object), how)(skipna=skipna)
        return value if dtype == object else np.asarray(value, dtype=dtype)[()]

    return partial, _flat, finish


def _flat(parts):
    return [x for p in parts for x in p]


def _logical(v, how):
    return [bool(getattr(v, how)())] if len(v) else []


def _all(v):
    return _logical(v, "all")


def _any(v):
    return _logical(v, "any")


def _truth(how):
    return (_all if how == "all" else _any, _flat,
            lambda parts: np.bool_(all(parts) if how == "all" else any(parts)))


def _usage(v, deep=False):
    if isinstance(v, pd.RangeIndex):
        return [("range", v.start, v.stop, v.step)]
    return [("n", int(_index_bytes(v, deep)), len(v))]


def _usage_total(parts, deep=False):
    if parts and all(p[0] == "range" for p in parts):
        ranges = [pd.RangeIndex(*p[1:]) for p in parts]
        return int(ranges[0].append(ranges[1:]).memory_usage(deep=deep))
    if not parts:
        return 0
    return builtins.sum(p[1] if p[0] == "n" else 8 * len(range(*p[1:])) for p in parts)


def _kinds(v):
    """One label of each (type, missing) kind: enough for pandas' ``infer_dtype``."""
    seen = {}
    for x in v:
        key = (type(x), bool(pd.api.types.is_scalar(x) and pd.isna(x)))
        seen.setdefault(key, x)
    return list(seen.values())


def _kinds_merged(parts):
    return _kinds(_flat(parts))


def _infer(parts):
    return pd.api.types.infer_dtype(np.array(parts + [None], dtype=object)[:-1], skipna=False)


_FACTS = {
    "max": _part_extreme("max"),
    "min": _part_extreme("min"),
    "all": _truth("all"),
    "any": _truth("any"),
    "memory_usage": (_usage, _flat, _usage_total),
    "inferred_type": (_kinds, _kinds_merged, _infer),
}


def index_fact(obj, how, result_dtype, **kwargs):
    """A 0-d tensor of the whole-index fact ``how``."""
    op = IndexFact(how=how, kwargs=tuple(kwargs.items()), label=f"md.Index.{how}")
    return new_tensor(op, [obj], (), result_dtype)


@methods(Index, name="all")
def index_all(obj):
    """Whether every label is truthy."""
    obj.data.meta.all()  # pandas' TypeError for dtypes without truth values
    return index_fact(obj, "all", bool)


@methods(Index, name="any")
def index_any(obj):
    """Whether some label is truthy."""
    obj.data.meta.any()
    return index_fact(obj, "any", bool)


@methods(Index, name="memory_usage")
def index_memory_usage(obj, deep=False):
    """Bytes used by the labels (as pandas counts them for the whole index)."""
    client = user_index(obj)
    if client is not None:  # the user's own index, counted whole (without a lookup hashtable)
        from ..tensor import tensor

        return tensor(np.int64(_index_bytes(client, deep)))
    return index_fact(obj, "memory_usage", np.int64, deep=deep)


def inferred_type_of(obj):
    """A 0-d tensor of pandas' ``inferred_type`` of the whole index."""
    return index_fact(obj, "inferred_type", object)


@methods(Index, name="inferred_type", prop=True)
def index_inferred_type(obj):
    """pandas' inferred type of the labels: from the dtype, or (object labels) computed."""
    meta = obj.data.meta
    if meta.dtype != object:
        return meta.inferred_type
    return inferred_type_of(obj).fetch()

