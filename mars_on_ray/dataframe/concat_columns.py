"""``concat(axis=1)`` of differently indexed objects, and the unique-labels rule of reindexing.

pandas reindexes every object to the combined index: the union of the indexes in order of
first appearance (``join="outer"``; sorted with ``sort=True``) or the labels of the first
present in all (``join="inner"``). Here the combined labels are a one-column frame, every
object is matched to it by a left (inner) merge on its index, which keeps the labels' order,
and each block of the result is cut back into the objects and concatenated by pandas. As in
pandas, an object with repeated labels cannot be reindexed: ValueError.
"""
from __future__ import annotations

import math

import pandas as pd

from ..core.operand import Operand
from .align import _client_index, _positional, _restore, conform, promoted
from .blockwise import map_chunks
from .core import new_frame

_LABEL = "__mars_label__"
_DUPLICATES = "cannot reindex on an axis with duplicate labels"


def _labels(obj) -> pd.DataFrame:
    index = obj.index
    labels = index.to_flat_index() if isinstance(index, pd.MultiIndex) else index.array
    return pd.DataFrame({_LABEL: labels}, index=pd.RangeIndex(len(obj)))


class UniqueLabelsGuard(Operand):
    """Its first input unchanged, once the labels of the second are known to be unique
    (the third input counts the distinct ones); otherwise ValueError(``message``), where
    ``{repeated}`` names the repeated labels."""

    _params = ("message",)
    message = _DUPLICATES

    def tile(self, ctx, out):
        result, obj, distinct = out.inputs
        tiled = yield from ctx.known(obj)
        (count,) = yield from ctx.values([ctx[distinct].chunks[()]])
        if count < sum(tiled.nsplits[0]):
            repeated = ""
            if "{repeated}" in self.message:  # the few repeated labels, as pandas names them
                index = pd.concat((yield from ctx.values(list(tiled.flat)))).index
                repeated = index[index.duplicated()].unique()
            raise ValueError(self.message.format(repeated=repeated))
        return ctx[result]


def _check_known_labels(obj, message: str = _DUPLICATES) -> bool:
    """Whether ``obj``'s index is the client's (known now); ValueError if it repeats a label."""
    known = _client_index(obj.data)
    if known is not None and not known.is_unique:
        raise ValueError(message.format(repeated=known[known.duplicated()].unique()))
    return known is not None


def unique_labels_guard(result, objs, message: str = _DUPLICATES, label: str = "md.reindex"):
    """``result`` (computed from ``objs``), failing with ValueError(``message``) as pandas does
    when one of them repeats a label: at once when its index is known now, else before
    ``result`` runs."""
    for obj in objs:
        if _check_known_labels(obj, message):
            continue
        labels = map_chunks(_labels, (obj,), label=label, meta=_labels(obj.data.meta))
        distinct = labels[_LABEL].nunique(dropna=False)
        result = new_frame(UniqueLabelsGuard(message=message, label=label), [result, obj, distinct],
                           result.shape[0], result.data.meta)
    return result


def _combined_labels(objs, join: str, sort: bool):
    from .align import concat

    if join == "inner":
        labels = map_chunks(_labels, (objs[0],), label="md.concat", meta=_labels(objs[0].data.meta))
    else:
        frames = [map_chunks(_labels, (o,), label="md.concat", meta=_labels(o.data.meta)) for o in objs]
        labels = concat(frames, ignore_index=True).drop_duplicates(ignore_index=True)
    return labels.sort_values(_LABEL, ignore_index=True) if sort else labels


def _assemble(m: pd.DataFrame, metas, widths, index_name, concat_kwargs, meta):
    parts, start = [], 1
    index = pd.Index(m[_LABEL].array, name=index_name)
    for part_meta, width in zip(metas, widths):
        part = _restore(m.iloc[:, start:start + width], part_meta)
        parts.append(part.set_axis(index, axis=0))
        start += width + 1  # the presence column follows each object's columns
    return conform(pd.concat(parts, axis=1, **concat_kwargs), meta)


def _by_label(objs, join: str, keys, names, sort: bool, ignore_index: bool, meta):
    from .merge import merge_frames as merge

    m = _combined_labels(objs, join, sort)
    metas, widths = [], []
    for i, obj in enumerate(objs):
        right = map_chunks(_positional, (obj, f"c{i}_"), label="md.concat")
        m = merge(m, right, how="left" if join == "outer" else "inner", left_on=_LABEL, right_index=True)
        part = obj.data.meta
        metas.append(promoted(part) if join == "outer" else part)
        widths.append(1 if isinstance(part, pd.Series) else part.shape[1])
    m = unique_labels_guard(m, objs)
    concat_kwargs = dict(keys=keys, names=names, ignore_index=ignore_index)
    return map_chunks(_assemble, (m, tuple(metas), tuple(widths), meta.index.name, concat_kwargs, meta),
                      label="md.concat", meta=meta)


def _blockwise(*objs, concat_kwargs, meta):
    return conform(pd.concat(list(objs), axis=1, **concat_kwargs), meta)


class ConcatColumns(Operand):
    """``pd.concat(objs, axis=1)`` of objects whose indexes differ, or may (``check``: compare
    them block by block first, and concatenate blocks side by side when they are equal)."""

    _params = ("join", "keys", "names", "sort", "ignore_index", "check")

    def tile(self, ctx, out):
        from .align import _indexes_equal, _tile_sub, _wrap

        objs = [_wrap(n) for n in out.inputs]
        equal = self.check
        for other in objs[1:]:
            equal = equal and (yield from _indexes_equal(ctx, objs[0].data, other.data))
        concat_kwargs = dict(keys=self.keys, names=self.names, ignore_index=self.ignore_index)
        if equal:
            res = map_chunks(_blockwise, tuple(objs), dict(concat_kwargs=concat_kwargs, meta=out.meta),
                             meta=out.meta, label=self.label)
        else:
            res = _by_label(objs, self.join, self.keys, self.names, self.sort, self.ignore_index, out.meta)
        return (yield from _tile_sub(ctx, res))


def concat_columns_by_label(objs, join: str, keys, names, sort: bool, ignore_index: bool, meta,
                            check: bool):
    """``pd.concat(objs, axis=1)`` of objects whose indexes differ (``check``: or may). The
    columns rows may be missing from are declared with the dtype holding missing values."""
    if not check:  # pandas reindexes every object: repeated labels are an error
        for obj in objs:
            _check_known_labels(obj)
    parts = [promoted(o.data.meta) if join == "outer" else o.data.meta for o in objs]
    want = pd.concat(parts, axis=1, keys=keys, names=names, ignore_index=ignore_index)
    want.index.name = meta.index.name
    op = ConcatColumns(join=join, keys=None if keys is None else tuple(keys), names=names, sort=sort,
                       ignore_index=ignore_index, check=check, label="md.concat")
    return new_frame(op, objs, math.nan, want)
