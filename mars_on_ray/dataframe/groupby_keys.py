"""groupby keys that are not columns: Series keys (aligned by label), index levels, and
functions / dicts of the labels are attached to the grouped frame as key columns
(``__mars_groupby_key__<i>``); results are named back as pandas names those keys."""
from __future__ import annotations

import operator

import numpy as np
import pandas as pd

from .core import Series
from .rules.usage import uses

_KEY = "__mars_groupby_key__"  # the first key column groupby attaches; the i-th is _KEY + str(i)


def _key_column(i: int) -> str:
    return _KEY if i == 0 else f"{_KEY}{i}"


def is_key_column(label) -> bool:
    """Whether ``label`` is a key column groupby attached (a Series key, a level, a mapping)."""
    return isinstance(label, str) and label.startswith(_KEY)


def _from_index(index: pd.Index, how: tuple) -> pd.Index:
    """A key computed from the labels: ``("level", L)`` a level's values, ``("map", f)`` each
    label mapped by ``f`` (a function or a dict, as pandas groups by them)."""
    kind, value = how
    return index.get_level_values(value) if kind == "level" else index.map(value)


def pandas_keys(frame: pd.DataFrame, by, names, pop: bool = False, series: bool = False):
    """What pandas groups ``frame`` by: column labels as they are (their columns when
    ``series``), attached key columns as Series named as the user's keys (``names``), taken
    out of ``frame`` when ``pop``. One attached key alone is a Series, not a list."""
    if names is None:
        return [frame[b] for b in by] if series else list(by)
    keys = [((frame.pop(b) if pop else frame[b]).rename(name) if is_key_column(b)
             else frame[b] if series else b) for b, name in zip(by, names)]
    return keys[0] if len(keys) == 1 else keys


def _attach_keys(values, *keys, derived=()):
    """``values`` (as a frame) with its keys as columns: the Series ``keys`` (same rows), then
    the keys ``derived`` from its labels (``_from_index``)."""
    for key in keys:
        if not values.index.equals(key.index):  # only when neither index was known at build time
            raise NotImplementedError("groupby by a Series whose index turned out to differ from "
                                      "the grouped object's: group by key.reindex(obj.index)")
    frame = values.to_frame() if isinstance(values, pd.Series) else values
    columns = [key.to_numpy() for key in keys]
    columns += [pd.Series(_from_index(values.index, how), index=values.index) for how in derived]
    return frame.assign(**{_key_column(i): column for i, column in enumerate(columns)})


@uses(_attach_keys, rows="same")
def _keyed_columns(node, needed):
    values = None if needed is None else {c for c in needed if not is_key_column(c)}
    return [values] + [None] * (len(node.inputs) - 1)


def _key_sources(obj, by, level) -> list[tuple[str, object]]:
    """Each key of a groupby as ("label", column label), ("series", a lazy Series key),
    ("level", level), or ("map", a function / dict of the labels), in the user's order."""
    if level is not None:
        return [("level", lv) for lv in (level if isinstance(level, (list, tuple)) else [level])]
    sources = []
    for key in (by if isinstance(by, list) else [by]):
        if isinstance(key, Series):
            sources.append(("label", key.name) if _is_column_of(key, obj) else ("series", key))
        elif callable(key) or isinstance(key, dict):
            sources.append(("map", key))
        elif _is_level_name(obj, key):  # pandas groups by an index level named so
            sources.append(("level", key))
        else:
            sources.append(("label", key))
    return sources


def _is_level_name(obj, key) -> bool:
    meta = obj.data.meta
    columns = meta.columns if isinstance(meta, pd.DataFrame) else ()
    try:
        return key not in columns and key is not None and key in meta.index.names
    except TypeError:  # an unhashable key: pandas' error comes from its own groupby
        return False


def _grouping(obj, by, level):
    """(the frame grouped, its key columns, the result's index names or None): column labels
    are keys as they are; Series keys and keys from the labels become attached columns."""
    sources = _key_sources(obj, by, level)
    if all(kind == "label" for kind, _ in sources):
        return obj, [value for _, value in sources], None
    from .align import index_relation
    from .blockwise import map_chunks

    series = [v for kind, v in sources if kind == "series"]
    series = [key.reindex(obj.index) if index_relation(obj, key) == "differ" else key
              for key in series]  # a key indexed differently is aligned first, as pandas does
    derived = tuple((kind, v) for kind, v in sources if kind in ("level", "map"))
    frame = map_chunks(_attach_keys, (obj, *series), {"derived": derived}, label="md.groupby")
    index = obj.data.meta.index
    keys, names, attached = [], [], iter(range(len(series)))
    derived_at = iter(range(len(series), len(series) + len(derived)))
    for kind, value in sources:
        if kind == "label":
            keys.append(value)
            names.append(value)
            continue
        keys.append(_key_column(next(attached) if kind == "series" else next(derived_at)))
        # pandas names a key from the labels as the labels it computes are named
        names.append(value.name if kind == "series" else _from_index(index, (kind, value)).name)
    return frame, keys, tuple(names)


def _lazy_key(key, obj):
    """A pandas Series key as a lazy one, aligned to ``obj``'s labels here when they are known
    (its dtype then stays pandas': no missing labels, no float)."""
    if not isinstance(key, pd.Series):
        return key
    from .align import _client_index
    from .datasource import from_pandas

    index = _client_index(obj.data)
    if index is not None and not key.index.equals(index):
        key = key.reindex(index)
    return from_pandas(key)


def _on_rows_of(frame, values):
    """An array key's values (by position) labelled with the grouped chunk's rows."""
    return pd.Series(values.to_numpy(), index=frame.index)


@uses(_on_rows_of, rows="same")
def _array_key_columns(node, needed):
    return [set(), None]


def array_key(key, obj):
    """An array or 1-d tensor key (pandas groups by its values, position by position) as an
    unnamed Series on ``obj``'s rows; pandas' ValueError when the lengths differ."""
    from .datasource import from_pandas, from_tensor
    from .setting import positional_map

    from ..tensor.core import Tensor

    if isinstance(key, Tensor):
        values = from_tensor(key, False)
    else:
        values = from_pandas(pd.Series(np.asarray(key)))
    if values.ndim != 1:
        raise NotImplementedError("groupby by a 2-d array is not supported")
    n, k = obj.shape[0], values.shape[0]
    if n == n and k == k and n != k:
        raise ValueError("Grouper and axis must be same length")  # pandas' message
    meta = pd.Series(dtype=values.data.meta.dtype, index=obj.data.meta.index)
    return positional_map(_on_rows_of, (obj, values), meta, label="md.groupby")


def _is_column_of(key, obj) -> bool:
    from .blockwise import MapChunks

    op = key.data.op
    return (isinstance(op, MapChunks) and op.func is operator.getitem and len(key.data.inputs) == 1
            and key.data.inputs[0].key == obj.key and op.args[1] == key.name)
