"""GroupBy access pandas users reach for: ``len(g)``, ``g.groups``, ``g.get_group(key)``,
iteration, and ``value_counts`` / ``unique`` per group.

``get_group`` stays lazy (a filter on the keys); ``len`` computes the group sizes; ``groups``
computes the key columns; iterating computes the whole grouped object, since every group goes
to the driver anyway (as ``iterrows`` does)."""
from __future__ import annotations

import warnings

import pandas as pd

from .core import Series
from .groupby import GroupBy
from .groupby_keys import is_key_column, pandas_keys
from .groupby_stats import _on_groups

__all__: list[str] = []


def _grouped(gb, frame: pd.DataFrame):
    """pandas' groupby of ``frame`` (``gb.frame`` computed: the object plus attached keys)."""
    keys = pandas_keys(frame, gb.keys, gb.index_names, pop=True)
    given = gb.by if gb.level is None else gb.level
    if not isinstance(given, list) and isinstance(keys, list) and len(keys) == 1:
        keys = keys[0]  # one key given alone: scalar group names, as pandas
    extra = {} if gb.observed is None else {"observed": gb.observed}
    kwargs = dict(sort=gb.sort, dropna=gb.dropna, **extra)
    if isinstance(gb.obj, Series):
        return frame.iloc[:, 0].rename(gb.obj.data.meta.name).groupby(keys, **kwargs)
    grouped = frame.groupby(keys, **kwargs)
    return grouped if gb.selection is None else grouped[gb.selection]


def _len(self) -> int:
    """The number of groups (their sizes are computed)."""
    return len(self.size())


def _groups(self) -> dict:
    """Group name -> the row labels of the group (the key columns are computed)."""
    frame = self.frame if isinstance(self.obj, Series) else self.frame[list(self.keys)]
    return _grouped(self, frame.fetch()).groups


def _iter(self):
    """``(name, group)`` pairs as pandas yields them (the grouped object is computed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        yield from iter(_grouped(self, self.frame.fetch()))


def _get_group(self, name):
    """The rows of group ``name`` (lazy: a filter on the keys); pandas' KeyError when no
    group has that name (the group sizes are computed to know)."""
    sizes = self.size().fetch()
    if name not in sizes.index:
        raise KeyError(name)
    values = name if isinstance(name, tuple) else (name,)
    if len(values) != len(self.keys):
        raise ValueError("must supply a tuple to get_group with multiple grouping keys")
    frame = self.frame
    mask = None
    for key, value in zip(self.keys, values):
        cond = frame[key].isna() if pd.isna(value) else frame[key] == value
        mask = cond if mask is None else mask & cond
    rows = frame[mask]
    attached = [k for k in self.keys if is_key_column(k)]
    if isinstance(self.obj, Series):
        return rows.iloc[:, 0].rename(self.obj.data.meta.name)
    rows = rows.drop(columns=attached) if attached else rows
    return rows if self.selection is None else rows[self.selection]


def value_counts(self, normalize=False, sort=True, ascending=False, bins=None, dropna=True):
    """Counts of each value per group (pandas on whole groups)."""
    kwargs = dict(normalize=normalize, sort=sort, ascending=ascending, bins=bins, dropna=dropna)
    return _on_groups(self, [("value_counts", (), kwargs)], "md.groupby.value_counts")


def unique(self):
    """Each group's distinct values, in order of appearance (pandas on whole groups)."""
    return _on_groups(self, [("unique", (), {})], "md.groupby.unique")


for _name, _func in (("__len__", _len), ("__iter__", _iter), ("get_group", _get_group),
                     ("value_counts", value_counts), ("unique", unique)):
    setattr(GroupBy, _name, _func)
GroupBy.groups = property(_groups)
