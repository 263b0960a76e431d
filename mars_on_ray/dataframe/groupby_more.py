"""The rest of GroupBy: transform, cum*, cumcount, fills, shift / diff, head, sample, apply,
and all / any / skew / kurt.

Row-wise operations (a result row per input row, or a subset of them) shuffle the rows by key
hash with their global position, run pandas' own groupby method on whole groups in each
reducer, and send every result row back to the chunk it came from, where the rows are put in
their original order: the result is chunked like the input. ``apply`` runs pandas' apply per
reducer and puts the groups in pandas' order in one chunk (sorted keys, or first appearance
with ``sort=False``). ``sample`` draws per group with a seed derived from ``random_state`` and
the reducer, so its rows are not pandas' draws (as ``DataFrame.sample``); they come back in
their original order.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.exchange import exchange
from ..core.shuffle import hash_partition, split_by_codes
from ..core.tokenize import tokenize
from .blockwise import index_sample, row_chunks, rows_grid
from .core import new_frame
from .groupby import _ORDER_COL, GroupBy, _concat, _Meta
from .groupby_keys import is_key_column, pandas_keys
from .scan import sample

__all__: list[str] = []

PANDAS3 = int(pd.__version__.split(".")[0]) >= 3
#: methods returning some of the input rows (computed on positions, index-independent)
_SUBSET = ("head", "tail", "sample", "nth", "filter")


def _idx(meta, i):
    return (i, 0) if isinstance(meta, pd.DataFrame) else (i,)


class OrderedShuffle(Operand):
    """Number a chunk's rows by global position (``base`` + row) and split them by key hash."""

    _params = ("by", "n", "base")
    fusable = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n

    def execute(self, frame):
        frame = frame.assign(**{_ORDER_COL: np.arange(len(frame), dtype=np.int64) + self.base})
        pieces = hash_partition(frame, self.n, on=list(self.by))
        return pieces if self.n > 1 else pieces[0]


class RowIndex(Operand):
    """A chunk's index (the labels its rows get back after the shuffle)."""

    def execute(self, frame):
        return frame.index


class GroupByRows(Operand):
    """A groupby method on whole groups (``stage='apply'``), then each input chunk's rows
    gathered back in order (``'gather'``); ``grouped``: an ``apply`` result in group order."""

    _params = ("by", "key", "sort", "dropna", "observed", "selection", "how", "args", "kwargs",
               "result_meta", "grouped", "stage", "n", "seed", "as_index")
    grouped = False
    as_index = True
    result_meta = None
    stage = None
    n = 1
    seed = None

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return self.n if self.stage == "apply" and not self.grouped else 1

    # -- kernels -------------------------------------------------------------------------
    def _groupby(self, frame):
        values = frame.drop(columns=[_ORDER_COL])
        keys = pandas_keys(values, self.by, self.key, pop=True)  # attached keys leave the values
        extra = {} if self.observed is None else {"observed": self.observed}
        g = values.groupby(keys, sort=self.sort, dropna=self.dropna, **extra, **self._group_keys())
        return values, keys, (g if self.selection is None else g[self.selection])

    def _group_keys(self):
        return {"group_keys": dict(self.kwargs).get("group_keys", True)} if self.how == "apply" else {}

    def _compute(self, frame):
        """pandas' result on ``frame``'s groups and the global position of each result row."""
        order, labels = frame[_ORDER_COL].to_numpy(), frame.index
        if not len(frame) and self.result_meta is not None:  # pandas may fail on no groups
            return self.result_meta.value.set_axis(labels[:0]), order
        if self.how in _SUBSET:  # positions as the index: which rows pandas picks
            frame = frame.set_axis(pd.RangeIndex(len(frame)))
        values, keys, g = self._groupby(frame)
        if self.how not in _SUBSET and self.result_meta is not None and g.ngroups == 0:
            # every key missing: each row's result is missing (pandas' transform fails on no groups)
            return self.result_meta.value.reindex(labels), order
        kwargs = dict(self.kwargs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            if self.how == "sample":
                kwargs["random_state"] = np.random.RandomState(self.seed)
            if self.how == "fillna":
                res = self._fill(values, keys, **kwargs)
            else:
                res = getattr(g, self.how)(*self.args, **kwargs)
        if self.how in _SUBSET:
            picked = res.index.to_numpy()
            res = res.set_axis(labels[picked])
            positions = order[picked]
        else:
            positions = order
        return res, positions

    def _rows(self, frame) -> pd.DataFrame:
        """The result rows with their global positions as the last column."""
        res, positions = self._compute(frame)
        out = res.to_frame() if isinstance(res, pd.Series) else res.copy()
        out.insert(out.shape[1], _ORDER_COL, positions, allow_duplicates=True)
        return out

    def execute(self, *values):
        if self.stage == "apply":
            frame = _concat(values).sort_values(_ORDER_COL, kind="stable")
            if self.grouped:
                if not len(frame):
                    return pd.DataFrame()
                res = self._apply_grouped(frame)
                return res if isinstance(res, pd.DataFrame) else res.to_frame()
            rows = self._rows(frame)
            pieces = split_by_codes(rows, rows[_ORDER_COL].to_numpy() >> 32, self.n)
            return pieces if self.n > 1 else pieces[0]
        meta = self.result_meta.value
        if self.grouped:
            res = _concat(values)
            if not len(res):
                return meta
            res = _order_groups(res, self.sort, len(self.by))
            if not self.as_index:
                res = _unkeyed(res, self.by)
        else:  # the pieces of one input chunk, put back in order under its own index
            index, res = values[-1], _concat(values[:-1]).sort_values(_ORDER_COL, kind="stable")
            local = res[_ORDER_COL].to_numpy() & 0xFFFFFFFF
            res = res.iloc[:, :-1]
            if len(local) == len(index):
                res.index = index
            else:  # the rows pandas keeps, picked by a mask as pandas does
                mask = np.zeros(len(index), dtype=bool)
                mask[local] = True
                res.index = index[mask]
        if isinstance(meta, pd.Series):
            return _cast(res.iloc[:, 0].rename(meta.name), meta.dtype)
        res.columns = meta.columns
        for i, dtype in enumerate(meta.dtypes):
            res.isetitem(i, _cast(res.iloc[:, i], dtype))
        return res

    def _fill(self, values, keys, value=None, limit=None):
        """fillna(value) of the value columns; with ``limit``, of each group's first ones."""
        if self.selection is not None:
            selected = values[self.selection]
        else:
            selected = values.drop(columns=[b for b in self.by if not is_key_column(b)])
        filled = selected.fillna(value)
        if limit is None:
            return filled
        missing = selected.isna()
        by = [k if isinstance(k, pd.Series) else values[k]
              for k in (keys if isinstance(keys, list) else [keys])]
        counts = missing.astype(np.int64).groupby(by, sort=False, dropna=False).cumsum()
        return selected.mask(missing & (counts <= limit), filled)

    def _apply_grouped(self, frame):
        values, _, g = self._groupby(frame)
        kwargs = {k: v for k, v in dict(self.kwargs).items() if k != "group_keys"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            res = g.apply(self.args[0], *self.args[1:], **kwargs)
        meta = None if self.result_meta is None else self.result_meta.value
        if isinstance(meta, pd.Series) and isinstance(res, pd.DataFrame):
            res = _unstacked(res, meta.name)
        frame_keys = pandas_keys(frame, self.by, self.key, series=True)
        firsts = frame[_ORDER_COL].groupby(frame_keys, sort=False, dropna=self.dropna).min()
        nkeys = len(self.by)
        keys = res.index.droplevel(list(range(nkeys, res.index.nlevels))) \
            if res.index.nlevels > nkeys else res.index
        first = firsts.reindex(keys).to_numpy()
        res = res.copy()
        levels = [res.index.get_level_values(i) for i in range(res.index.nlevels)]
        res.index = pd.MultiIndex.from_arrays([first, *levels])
        return res

    # -- tiling ----------------------------------------------------------------------------
    def tile(self, ctx, out):
        chunks = row_chunks(ctx[out.inputs[0]])
        n, unknown = len(chunks), (math.nan, math.nan)
        received = exchange([(OrderedShuffle(by=self.by, n=n, base=i << 32, label=self.label), [c])
                             for i, c in enumerate(chunks)], n, self.label)
        meta = out.meta
        if self.grouped:
            reducers = [ChunkData(self.new(stage="apply", n=n), received[j], unknown, None, (j, 0))
                        for j in range(n)]
            shape = (math.nan, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (math.nan,)
            gather = ChunkData(self.new(stage="gather"), reducers, shape, meta, _idx(meta, 0))
            return rows_grid([gather], meta)
        # each reducer sends every row back to the chunk it came from
        back = exchange([(self.new(stage="apply", n=n, seed=_seed(self.seed, j)), received[j])
                         for j in range(n)], n, self.label)
        result = []
        for i, c in enumerate(chunks):
            rows = c.shape[0] if self.how not in _SUBSET else math.nan
            shape = (rows, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (rows,)
            index = ChunkData(RowIndex(label=self.label), [c], (c.shape[0],), None, (i,))
            inputs = back[i] + [index]
            result.append(ChunkData(self.new(stage="gather"), inputs, shape, meta, _idx(meta, i)))
        return rows_grid(result, meta)


def _seed(seed, j):
    return None if seed is None else int(tokenize(seed, j)[:8], 16)


def _unstacked(res: pd.DataFrame, name) -> pd.Series:
    """The Series pandas gives for groups whose Series results are indexed differently, from
    the frame it gives when they are indexed alike (a reducer holding one such group)."""
    keys, labels = res.index, res.columns
    rows = labels[np.tile(np.arange(len(labels)), len(keys))]
    arrays = [keys.get_level_values(i).repeat(len(labels)) for i in range(keys.nlevels)]
    arrays += [rows.get_level_values(i) for i in range(rows.nlevels)]
    return pd.Series(res.to_numpy().ravel(), index=pd.MultiIndex.from_arrays(arrays), name=name)


def _order_groups(res, sort, nkeys):
    """Concatenated ``apply`` pieces (first-appearance positions as level 0) in pandas' order."""
    if sort:
        res = res.droplevel(0)
        return res.sort_index(level=list(range(nkeys)), kind="stable", sort_remaining=False)
    return res.sort_index(level=0, kind="stable", sort_remaining=False).droplevel(0)


def _cast(values: pd.Series, dtype):
    """``values`` as ``dtype`` (pieces of empty or differently typed reducers), unless missing
    values make that impossible (int results of rows with missing keys: pandas' float)."""
    if values.dtype == dtype:
        return values
    try:
        return values.astype(dtype)
    except (ValueError, TypeError):
        return values


# -- building ------------------------------------------------------------------------------
def _sample_frame(gb):
    frame = sample(gb.frame.data.meta)
    return frame.assign(**{_ORDER_COL: np.zeros(len(frame), dtype=np.int64)})


def _missing_key_sample(gb):
    """The one-row sample and a row whose keys are missing (they hold missing values)."""
    frame = _sample_frame(gb)
    extra = frame.assign(**{_ORDER_COL: np.ones(len(frame), dtype=np.int64)})
    for key in gb.keys:
        extra[key] = pd.Series([None] * len(extra), dtype=frame[key].dtype, index=extra.index)
    return pd.concat([frame, extra])


def _two_groups(gb):
    """A two-row sample in two groups (None when a key has no second value): pandas turns
    the Series results of a single group into a frame's rows, of several into one Series."""
    frame = _sample_frame(gb)
    frame = pd.concat([frame, frame]).set_axis(index_sample(gb.frame.data.meta.index, 2))
    frame[_ORDER_COL] = np.arange(2, dtype=np.int64)
    for key in gb.keys:
        dtype = frame[key].dtype
        kind = getattr(dtype, "kind", "O")
        if isinstance(dtype, pd.CategoricalDtype):
            if len(dtype.categories) < 2:
                return None
            other = dtype.categories[1]
        else:
            other = {"b": False, "M": pd.Timestamp("2000-01-02"), "m": pd.Timedelta(2)}.get(
                kind, 2 if kind in "iuf" else "b")
        column = frame[key].copy()
        column.iloc[1] = other
        frame[key] = column
    return frame


def _op(gb, how, args=(), kwargs=None, seed=None, grouped=False):
    selection = gb.selection
    if isinstance(gb.obj.data.meta, pd.Series):
        selection = gb.frame.data.meta.columns[0]
    return GroupByRows(by=tuple(gb.keys), key=gb.index_names, sort=gb.sort, dropna=gb.dropna,
                       observed=gb.observed, selection=selection, how=how, args=tuple(args),
                       kwargs=tuple((kwargs or {}).items()), grouped=grouped, seed=seed,
                       as_index=gb.as_index or not grouped,
                       label=f"md.groupby.{how}")


def _has_missing(keys) -> bool:
    return bool(keys.isna().to_numpy().any())


def keys_missing(gb) -> bool:
    """Whether a row's keys have no group (a missing key with ``dropna=True``): pandas gives
    such rows missing values in per-row results. Computed now."""
    from .accessors import summarize
    from .conversion import _any
    from .reshape import compute_now

    if not gb.dropna:
        return False
    return compute_now(summarize(gb.frame[list(gb.keys)], _has_missing, _any, label="md.groupby"), gb.frame)


def _rowwise(gb, how, args=(), kwargs=None, seed=None, meta=None):
    from .align import promoted

    op = _op(gb, how, args, kwargs, seed)
    probe = op.new(how="head", args=(1,), kwargs=()) if how == "sample" else op
    if meta is None:
        meta = probe._compute(_sample_frame(gb))[0].iloc[:0]  # pandas' own errors and dtypes
        if how not in _SUBSET and not _dtypes(promoted(meta)).equals(_dtypes(meta)) and keys_missing(gb):
            meta = probe._compute(_missing_key_sample(gb))[0].iloc[:0]
    op.result_meta = _Meta(meta)
    nrows = math.nan if how in _SUBSET else gb.obj.shape[0]
    return new_frame(op, [gb.frame], nrows, meta)


def _grouped_apply(gb, func, args, kwargs):
    op = _op(gb, "apply", (func, *args), kwargs, grouped=True)
    res = op._apply_grouped(_sample_frame(gb)).droplevel(0)  # pandas' errors
    two = _two_groups(gb)
    if two is not None:
        try:
            res = op._apply_grouped(two).droplevel(0)
        except Exception:  # the function fails on made-up values: the one-row result stands
            pass
    names = list(res.index.names[:len(gb.keys)])
    if names != list(gb.index_names or gb.keys):
        raise NotImplementedError("apply results without the group keys in their index "
                                  "(group_keys=False with a non-aggregating function)")
    meta = (res if gb.as_index else _unkeyed(res, gb.keys)).iloc[:0]
    op.result_meta = _Meta(meta)
    return new_frame(op, [gb.frame], math.nan, meta)


def _dtypes(meta):
    return meta.dtypes if isinstance(meta, pd.DataFrame) else pd.Series([meta.dtype])


def _unkeyed(res, by):
    """An ``apply`` result in group order as pandas gives it with ``as_index=False``: a row
    per group has the keys as columns (pandas 2.2: only keys that are columns; Series, level
    and function keys are dropped) and a RangeIndex; rows of the groups' own lose the key
    levels (pandas 3) or get the group's number in their place (pandas 2.2)."""
    nkeys = len(by)
    if res.index.nlevels == nkeys:
        frame = res.to_frame(res.name) if isinstance(res, pd.Series) else res
        dropped = [] if PANDAS3 else [i for i, b in enumerate(by) if is_key_column(b)]
        if len(dropped) == nkeys:
            return frame.reset_index(drop=True)
        return (frame.droplevel(dropped) if dropped else frame).reset_index(allow_duplicates=True)
    rest = list(range(nkeys, res.index.nlevels))
    if PANDAS3:
        return res.droplevel(list(range(nkeys)))
    numbers = pd.factorize(res.index.droplevel(rest), use_na_sentinel=False)[0]
    levels = [res.index.get_level_values(i) for i in rest]
    return res.set_axis(pd.MultiIndex.from_arrays([numbers, *levels]))


def apply(self, func, *args, **kwargs):
    """``func`` on each group (a DataFrame, or a Series after a column selection); results
    combined in pandas' group order."""
    kwargs.setdefault("group_keys", self.group_keys)
    return _grouped_apply(self, func, args, kwargs)


def transform(self, func, *args, engine=None, engine_kwargs=None, **kwargs):
    """A result per row: ``func`` (a name or a function) on each group, in the rows' order."""
    return _rowwise(self, "transform", (func, *args), kwargs)


def cumcount(self, ascending=True):
    """Position of each row within its group."""
    return _rowwise(self, "cumcount", (), {"ascending": ascending})


def head(self, n=5):
    """The first ``n`` rows of each group, in their original order."""
    return _rowwise(self, "head", (n,))


def tail(self, n=5):
    """The last ``n`` rows of each group, in their original order."""
    return _rowwise(self, "tail", (n,))


def sample_(self, n=None, frac=None, replace=False, weights=None, random_state=None):
    """Random rows of each group (reproducible for a given ``random_state``, not pandas' draws)."""
    if weights is not None:
        raise NotImplementedError("groupby sample with weights is not supported")
    if random_state is None:
        seed = int(np.random.randint(0, 2**31 - 1))
    elif isinstance(random_state, (int, np.integer)):
        seed = int(random_state)
    else:
        raise NotImplementedError("random_state must be an int or None")
    kwargs = {"n": n, "frac": frac, "replace": replace}
    self._pandas().sample(**kwargs)  # pandas' errors (both n and frac, ...)
    return _rowwise(self, "sample", (), kwargs, seed=seed)


def fillna(self, value=None, method=None, axis=None, inplace=False, limit=None, downcast=None):
    """Fill missing values with ``value`` (at most ``limit`` per group and column) or, with
    ``method``, from the group's previous / next valid value."""
    if inplace or downcast is not None or axis not in (None, 0, "index"):
        raise NotImplementedError("groupby fillna supports value=, method= and limit= only")
    if value is None and method is None:
        raise ValueError("Must specify a fill 'value' or 'method'.")
    if value is not None and method is not None:
        raise ValueError("Cannot specify both 'value' and 'method'.")
    if method is not None:
        if method not in ("ffill", "pad", "bfill", "backfill"):
            raise ValueError("Invalid fill method. Expecting pad (ffill) or backfill (bfill). "
                             f"Got {method}")
        how = "ffill" if method in ("ffill", "pad") else "bfill"
        return _rowwise(self, how, (), {"limit": limit})
    return _rowwise(self, "fillna", (), {"value": value, "limit": limit})


def _rowwise_method(how, doc):
    def method(self, *args, **kwargs):
        return _rowwise(self, how, args, kwargs)

    method.__name__ = how
    method.__doc__ = doc
    return method


for _how, _doc in (("cumsum", "Running sum within each group."),
                   ("cumprod", "Running product within each group."),
                   ("cummax", "Running maximum within each group."),
                   ("cummin", "Running minimum within each group."),
                   ("ffill", "Fill from the group's previous valid value."),
                   ("bfill", "Fill from the group's next valid value."),
                   ("shift", "Values ``periods`` rows before within each group."),
                   ("diff", "Difference with the row ``periods`` before within each group."),
                   ("pct_change", "Change from the row ``periods`` before within each group."),
                   ("rank", "Rank within each group.")):
    setattr(GroupBy, _how, _rowwise_method(_how, _doc))
GroupBy.pad, GroupBy.backfill = GroupBy.ffill, GroupBy.bfill
for _f in (apply, transform, cumcount, head, tail, fillna):
    setattr(GroupBy, _f.__name__, _f)
GroupBy.sample = sample_


def _sampled(gb):
    """``gb`` on a one-row sample: result dtypes that empty input hides (the empty groupby
    when a key function cannot take the sample's labels)."""
    try:
        return gb._pandas(sample=True)
    except Exception:
        return gb._pandas()


def _agg_method(how, func=None, doc=""):
    def method(self, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            self._pandas().agg(func or how, **kwargs)  # pandas' errors
            meta = _sampled(self).agg(func or how, **kwargs).iloc[:0]
        return self._apply(meta, func or how, kwargs)

    method.__name__ = how
    method.__doc__ = doc
    return method


def _kurt(values):
    return values.kurt()


GroupBy.all = _agg_method("all", doc="Whether every value of each group is true.")
GroupBy.any = _agg_method("any", doc="Whether any value of each group is true.")
GroupBy.skew = _agg_method("skew", doc="Per-group skewness (unbiased).")
kurt = _agg_method("kurt", None if PANDAS3 else _kurt, "Per-group kurtosis (Fisher's, unbiased).")


GroupBy.kurt = GroupBy.kurtosis = kurt
