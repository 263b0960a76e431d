"""Methods of the lazy Index (``df.index``): labels block by block (rename, astype, map, drop,
dropna, fillna, to_series, to_frame), properties, and ``inferred_type`` (a tree reduction)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..config import options
from ..core.entity import ChunkData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of
from .core import Index, methods
from .frame_methods import _DEFAULT, checked, inplace_result, per_chunk

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


@methods(Index, name="names", prop=True)
def index_names(obj):
    """The names of the levels."""
    return obj.data.meta.names


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
    """The labels cast to ``dtype``."""
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


# --- inferred_type: a tree of small partials ----------------------------------------------------
# (Index all / any / min / max / memory_usage are tree statistics in stats.py)

def _kinds(labels) -> list:
    """One label of each (type, missing) kind: all pandas' ``infer_dtype`` depends on."""
    seen = {}
    for x in labels:
        seen.setdefault((type(x), bool(pd.api.types.is_scalar(x) and pd.isna(x))), x)
    return list(seen.values())


class InferredType(Operand):
    """A chunk's kinds of labels (``stage='map'``), kinds merged ('combine'), pandas'
    inferred type of them ('final')."""

    _params = ("stage",)

    def execute(self, *values):
        if self.stage == "map":
            return _kinds(values[0])
        kinds = _kinds([x for v in values for x in v])
        if self.stage == "combine":
            return kinds
        return pd.api.types.infer_dtype(np.array(kinds + [None], dtype=object)[:-1], skipna=False)

    def tile(self, ctx, out):
        level = [ChunkData(self.new(stage="map"), [c], (), None, (i,))
                 for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        k = max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="combine"), level[i:i + k], (), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(stage="final"), level, (), out.meta, ())
        return Tiled(grid, ())


def inferred_type_of(obj):
    """A 0-d tensor of pandas' ``inferred_type`` of the whole index."""
    return new_tensor(InferredType(label="md.Index.inferred_type"), [obj], (), object)


@methods(Index, name="inferred_type", prop=True)
def index_inferred_type(obj):
    """pandas' inferred type of the labels: from the dtype, or (object labels) computed."""
    meta = obj.data.meta
    if meta.dtype != object:
        return meta.inferred_type
    return inferred_type_of(obj).fetch()
