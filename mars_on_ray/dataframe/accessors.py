"""``Series.str`` (and ``Index.str``): pandas' string methods, chunk by chunk.

Every method is one mechanism: the pandas method runs on each row block (``MapChunks``);
its metadata is pandas' answer on the empty metadata. Three things pandas decides from
the values are made exact here:

- Object data: pandas checks the kind of values the whole Series holds (``.str`` refuses
  integers, ``decode`` refuses str, ...). A small summary of each chunk's value types is
  reduced to the whole Series' inferred type, which every block uses instead of its own.
- Result dtypes that depend on missing values (``len`` is int64 without NaN and float64
  with it) and result columns that depend on the values (``split(expand=True)``,
  ``partition``, ``get_dummies``) are *learned*: a small reduction of the chunk results
  runs when the operation is built (on the default session, or in this process when there
  is none), then the blocks are cast / padded to what pandas gives for the whole.
"""
from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pandas as pd
from pandas.core.dtypes.cast import find_common_type
from pandas.core.strings.accessor import StringMethods

from ..config import options
from ..core.entity import ChunkData, TileableData, Tiled, chunk_grid
from ..core.operand import Operand
from ..tensor.core import Tensor, new_tensor
from .blockwise import In, MapChunks, row_chunks, sample_of, whole_chunk
from .core import Index, Series, _Frame, methods, new_frame

__all__: list[str] = []


# -- small reductions whose values the build step may need ---------------------------------------
class Summary(Operand):
    """``combine([per_chunk(chunk, *whole, *args) for chunk], *args)`` as a 0-d object tensor.

    Input 0 is read block by block; further inputs (small tensors) go whole to every block.
    Partials are lists, merged ``options.combine_size`` at a time.
    """

    _params = ("per_chunk", "combine", "args", "stage")

    def tile(self, ctx, out):
        whole = [whole_chunk(ctx[i], i.meta) for i in out.inputs[1:]]
        level = [ChunkData(self.new(stage="map"), [c, *whole], (), None, (i,))
                 for i, c in enumerate(row_chunks(ctx[out.inputs[0]]))]
        k = max(2, options.combine_size)
        while len(level) > k:
            level = [ChunkData(self.new(stage="merge"), level[i:i + k], (), None, (j,))
                     for j, i in enumerate(range(0, len(level), k))]
        grid = chunk_grid(())
        grid[()] = ChunkData(self.new(stage="final"), level, (), out.meta, ())
        return Tiled(grid, ())

    def execute(self, *values):
        if self.stage == "map":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return [self.per_chunk(*values, *self.args)]
        parts = [p for v in values for p in v]
        return parts if self.stage == "merge" else self.combine(parts, *self.args)


def summarize(obj, per_chunk, combine, args=(), whole=(), label="md.summary") -> Tensor:
    """A lazy 0-d object value reduced from ``obj``'s blocks (see ``Summary``)."""
    op = Summary(per_chunk=per_chunk, combine=combine, args=tuple(args), label=label)
    return new_tensor(op, [obj, *whole], (), object)


def learn(obj: Tensor):
    """Compute a small lazy value now: what pandas decides from the data (a dtype, the
    columns of ``split(expand=True)``) must be known when the operation is built."""
    from .. import session as session_mod

    sess = session_mod.get_default_session(create=False)
    if sess is not None and not sess.closed:
        return obj.fetch(session=sess)
    from ..core.local import LocalExecutor

    return LocalExecutor().compute(obj.data)[0]


class _Quiet:
    """A block kernel run with warnings silenced: pandas' warnings showed once, at build time
    (on the metadata), not once per block."""

    __slots__ = ("func",)

    def __init__(self, func):
        self.func = func

    def __mars_token__(self):
        return ("quiet", self.func)

    def __call__(self, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.func(*args)


def chunkwise(func, args, meta, keep_rows=True, label=None):
    """``func(*args)`` block by block (``MapChunks``): frames (and 1-d tensors) in ``args``
    are lined up by rows, 0-d tensors go whole to every block, anything else is a constant."""
    inputs, bcast = [], []

    def slot(a):
        if isinstance(a, (_Frame, Index, Tensor)):
            if isinstance(a, Tensor) and a.ndim == 0:
                bcast.append(len(inputs))
            inputs.append(a)
            return In(len(inputs) - 1)
        return a

    template = tuple(slot(a) for a in args)
    op = MapChunks(func=_Quiet(func), args=template, kwargs={}, keep_rows=keep_rows,
                   broadcast=tuple(bcast), label=label)
    rowwise = [x for i, x in enumerate(inputs) if i not in bcast]
    nrows = rowwise[0].shape[0] if keep_rows else math.nan
    if isinstance(meta, np.ndarray):  # pandas answers with an array: a 1-d tensor of blocks
        return Tensor(TileableData(op, [i.data for i in inputs], (nrows,), meta))
    return new_frame(op, inputs, nrows, meta)


# -- data-dependent result dtypes -------------------------------------------------------------
def _dtypes_of(value, *args):
    return tuple(value.dtypes) if isinstance(value, pd.DataFrame) else value.dtype


def _column_facts(value, *args):
    """Per result column: (dtype, all values missing, some value missing)."""
    frame = isinstance(value, pd.DataFrame)
    cols = [value.iloc[:, i] for i in range(value.shape[1])] if frame else [value]
    facts = []
    for col in cols:
        na = pd.isna(col)
        facts.append((col.dtype, bool(na.all()), bool(na.any())))  # an empty block: no value decides
    return facts


def _promote(dtype):
    """The dtype pandas converts ``dtype`` values to when missing values join them."""
    kind = getattr(dtype, "kind", "O")
    if isinstance(dtype, np.dtype) and kind in "iu":
        return np.dtype(np.float64)
    return np.dtype(object) if isinstance(dtype, np.dtype) and kind == "b" else dtype


def _whole_dtype(facts):
    """The dtype of a whole result column from its blocks' facts. Blocks whose results are
    all missing have their own dtype in pandas (object when every input was missing, else
    converted to float64): the others decide, or any converted one when all are missing."""
    dtypes = {d for d, _, _ in facts}
    if len(dtypes) == 1:
        return dtypes.pop()
    kept = [d for d, all_na, _ in facts if not all_na]
    if not kept:
        converted = [d for d, _, _ in facts if d != object]
        return find_common_type(converted) if converted else np.dtype(object)
    if any(has_na for _, _, has_na in facts):
        kept = [_promote(d) for d in kept]
    if any(d == object for d in kept):  # values pandas found no narrower type for, in one block
        return np.dtype(object)  # (find_common_type(str, object) says str)
    return find_common_type(kept)


def _common_dtypes(parts, frame):
    columns = list(zip(*parts))
    dtypes = tuple(_whole_dtype(list(col)) for col in columns)
    return dtypes if frame else dtypes[0]


def _astype(value, dtype):
    if isinstance(value, pd.DataFrame):
        return value.astype(dict(zip(value.columns, dtype)))
    return value.astype(dtype)


def na_sample(meta):
    """A one-value stand-in of ``meta`` holding a missing value."""
    if isinstance(meta, pd.Index):
        return pd.Index([None], dtype=meta.dtype, name=meta.name)
    return pd.Series([None], dtype=meta.dtype, name=meta.name)


def one_row(meta):
    """A one-row sample of ``meta`` (its dtype, name and index dtype kept)."""
    if isinstance(meta, pd.Index):
        return pd.Index(one_row(pd.Series(meta[:0], name=meta.name)), name=meta.name)
    sample = sample_of(meta)
    if isinstance(meta, pd.Series):
        sample.name = meta.name
    return sample


def _result_dtypes(value):
    return None if value is None else _dtypes_of(value)


def learn_dtypes(lazy, label: str):
    """The dtype(s) pandas gives for the whole of ``lazy``, from its blocks' results."""
    frame = isinstance(lazy.data.meta, pd.DataFrame)
    return learn(summarize(lazy, _column_facts, _common_dtypes, (frame,), label=label))


def settle_dtypes(lazy, depends: bool, label: str):
    """``lazy`` itself, or cast to the dtype(s) pandas gives for the whole data when they
    ``depend`` on the values (learned)."""
    if not depends:
        return lazy
    learned = learn_dtypes(lazy, label)
    if learned == _dtypes_of(lazy.data.meta):
        return lazy
    return chunkwise(_astype, (lazy, learned), _astype(lazy.data.meta, learned), label=label)


def depends_on_missing(func, meta, *args) -> bool:
    """Whether pandas' result dtype of ``func(meta, *args)`` changes when values are missing."""
    try:
        with np.errstate(all="ignore"):
            return _result_dtypes(func(meta, *args)) != _result_dtypes(func(na_sample(meta), *args))
    except Exception:  # the method refuses a missing value: decided by the empty meta
        return False


# -- the inferred type of object values ---------------------------------------------------------
def _type_samples(chunk):
    """One non-missing value of each Python type in the block (enough to infer its kind)."""
    values = chunk[chunk.notna()] if len(chunk) else chunk
    kind = pd.api.types.infer_dtype(values, skipna=True)
    if kind in ("string", "bytes"):
        return [values[0] if isinstance(values, pd.Index) else values.iloc[0]]
    seen: dict = {}
    for v in values:
        seen.setdefault(type(v), v)
    return list(seen.values())


def _whole_inferred(parts):
    samples = [v for p in parts for v in p]
    return StringMethods._validate(pd.Series(samples, dtype=object))


def _inferred_of(obj):
    """For object data, a lazy 0-d tensor with the whole data's inferred type (raising
    pandas' AttributeError when ``.str`` does not apply to it); else None."""
    meta = obj.data.meta
    if meta.dtype != object:
        return None
    return summarize(obj, _type_samples, _whole_inferred, label="md.str")


@functools.cache
def _preset(inferred: str):
    validate = staticmethod(lambda data: inferred)
    return type("StringMethods", (StringMethods,), {"_validate": validate})


def str_of(chunk, inferred=None):
    """``chunk.str``, judged as pandas judges the whole data (its ``inferred`` type)."""
    if isinstance(inferred, str) and chunk.dtype == object:
        return _preset(inferred)(chunk)
    return chunk.str


# -- kernels ----------------------------------------------------------------------------------
def _str_kernel(chunk, inferred, name, args, kwargs, dtype=None):
    res = getattr(str_of(chunk, inferred), name)(*args, **kwargs)
    return res if dtype is None else _conform(res, chunk, dtype)


def _str_kernel_rows(chunk, inferred, name, args, kwargs, dtype=None):
    """``_str_kernel`` for a block of data that is not all empty: an empty block's result
    has the block's index (pandas gives empty input a RangeIndex)."""
    res = _str_kernel(chunk, inferred, name, args, kwargs, dtype)
    return res if len(res) or not isinstance(res, (pd.Series, pd.DataFrame)) else res.set_axis(chunk.index)


def _conform(res, chunk, dtype):
    """A block's result as the whole data's: dtype(s) ``dtype``; for an Index, pandas gives
    an array of bools and an Index of anything else."""
    if isinstance(res, pd.DataFrame):
        return res if tuple(res.dtypes) == dtype else _astype(res, dtype)
    if isinstance(chunk, pd.Index):
        if isinstance(dtype, np.dtype) and dtype == bool:
            return np.asarray(res, dtype=bool)
        if isinstance(res, np.ndarray):
            res = pd.Index(res, name=chunk.name)
    if res.dtype == dtype:
        return res
    return _unconverted(res, chunk) if dtype == object else res.astype(dtype)


def _unconverted(res, chunk):
    """The object values pandas keeps for the whole data where one block's results were all
    missing and so converted to float64: missing inputs keep their own missing value."""
    values = res.to_numpy(dtype=object, copy=True)
    if chunk.dtype == object and len(values) == len(chunk):
        mask = pd.isna(chunk.to_numpy())
        values[mask] = chunk.to_numpy()[mask]
    if isinstance(res, pd.Index):
        return pd.Index(values, dtype=object, name=res.name)
    return pd.Series(values, index=res.index, name=res.name, dtype=object)


def _positional(values):
    return values.to_numpy() if isinstance(values, (pd.Series, pd.Index)) else values


def _str_kernel_arrays(chunk, inferred, name, args, kwargs, kinds, dtype, *arrays):
    """A method with row-aligned array arguments, put where ``args``/``kwargs`` hold ``_ARRAY``."""
    for a, k in zip(arrays, kinds):
        if k == "label" and not a.index.equals(chunk.index):
            # pandas aligns labels globally; row blocks can only line up equal indexes
            raise NotImplementedError(f"str.{name} with a differently indexed argument is "
                                      "not supported yet")
    vals = iter(_positional(a) if k == "pos" else a for a, k in zip(arrays, kinds))

    def fill(v):
        if v is _ARRAY:
            return next(vals)
        return [next(vals) for _ in v] if isinstance(v, list) and v and v[0] is _ARRAY else v

    args = tuple(fill(a) for a in args)
    return _str_kernel(chunk, inferred, name, args, {k: fill(v) for k, v in kwargs.items()}, dtype)


class _ArraySlot:
    """Marks where a row-aligned array argument goes (``_ARRAY``)."""

    def __mars_token__(self):
        return "mars_on_ray.accessors._ARRAY"

    def __reduce__(self):
        return "_ARRAY"

    def __repr__(self):
        return "<array>"


_ARRAY = _ArraySlot()


def _as_input(value, like):
    """A list-like argument as a lazy row input: (frame, 'label') aligned on the index as
    pandas does, or (frame, 'pos') used by position."""
    from .datasource import from_pandas

    if isinstance(value, (_Frame, Index)):
        return value, "label"
    if isinstance(value, (pd.Series, pd.DataFrame)):
        return from_pandas(value), "label"
    if np.ndim(value) != 1:
        raise NotImplementedError("only one-dimensional array arguments are supported")
    arr = pd.Series(np.asarray(value) if isinstance(value, pd.Index) else list(value))
    n = like.shape[0]
    if not math.isnan(n) and len(arr) != n:
        raise ValueError("If `others` contains arrays or lists (or other list-likes without "
                         "an index), these must all be of the same length as the calling "
                         "Series/Index.")
    return from_pandas(arr), "pos"


# -- the accessor ---------------------------------------------------------------------------------
def _call(obj, name, args=(), kwargs=None, keep_rows=True):
    """``obj.str.<name>(*args, **kwargs)`` block by block, with pandas' whole-data dtypes."""
    kwargs = dict(kwargs or {})
    meta = obj.data.meta
    result = _str_kernel(meta, None, name, args, kwargs)  # pandas' errors, at build time
    if isinstance(meta, pd.Index) and not isinstance(result, (pd.Index, np.ndarray)):
        raise NotImplementedError(f"Index.str.{name} returning {type(result).__name__} is not "
                                  "supported; use Series.str")
    kernel = _str_kernel
    if isinstance(meta, pd.Series) and obj.shape[0] != 0:  # data, maybe with empty blocks
        result = result.set_axis(_result_index(meta.index, keep_rows))
        kernel = _str_kernel_rows if keep_rows else kernel
    inferred = _inferred_of(obj)
    label = f"md.str.{name}"

    def build(dtype):
        meta_out = result if dtype is None else _conform(result, meta, dtype)
        return chunkwise(kernel, (obj, inferred, name, args, kwargs, dtype), meta_out,
                         keep_rows=keep_rows, label=label)

    depends = depends_on_missing(_str_kernel, meta, None, name, args, kwargs) or (
        meta.dtype == object and name in _ALL_MISSING_POSSIBLE)
    if not depends:
        return build(None if isinstance(result, pd.DataFrame) else result.dtype)
    return build(learn_dtypes(build(None), label))


def _result_index(index: pd.Index, keep_rows: bool) -> pd.Index:
    """The index of a Series' ``.str`` result on data: the Series' own, or for ``extractall``
    its levels and a ``match`` level (pandas gives empty input a RangeIndex / object levels)."""
    if keep_rows:
        return index[:0]
    levels = [index.get_level_values(i)[:0] for i in range(index.nlevels)]
    return pd.MultiIndex.from_arrays(levels + [pd.Index([], dtype=np.int64)],
                                     names=list(index.names) + ["match"])


#: methods whose results can all be missing for present values (pandas then converts the
#: object result to float64)
_ALL_MISSING_POSSIBLE = {"get", "decode", "extract"}


def _call_with_arrays(obj, name, args, kwargs, arrays):
    """A method some of whose arguments are row-aligned arrays (``cat(others)``, ``repeat``)."""
    kinds = tuple(k for _, k in arrays)
    frames = [f for f, _ in arrays]
    metas = [f.data.meta for f in frames]
    _str_kernel_arrays(obj.data.meta, None, name, args, kwargs, kinds, None, *metas)  # errors
    # empty arrays can give another dtype (repeat: bool in pandas 2): one-row samples decide
    samples = [one_row(m) for m in metas]
    result = _str_kernel_arrays(one_row(obj.data.meta), None, name, args, kwargs, kinds, None,
                                *samples).iloc[:0]
    consts = (name, args, kwargs, kinds, result.dtype)
    return chunkwise(_str_kernel_arrays, (obj, _inferred_of(obj), *consts, *frames), result,
                     label=f"md.str.{name}")


def _expand_kernel(chunk, inferred, name, args, kwargs, ncols, dtype, pad):
    """An expanding method's frame padded to ``ncols`` columns as pandas pads shorter rows."""
    res = _str_kernel(chunk, inferred, name, args, kwargs)
    if ncols is None:
        return res
    have = res.shape[1]
    res = res.reindex(columns=range(ncols)).astype(dtype)
    if have < ncols and have and dtype == object:
        # pandas pads text rows with its pad value; a missing row repeats its missing value
        values = res.to_numpy(dtype=object)
        first = values[:, 0]
        values[:, have:] = np.where(pd.isna(first), first, pad)[:, None]
        res = pd.DataFrame(values, index=res.index, columns=res.columns, dtype=object)
    return res


def _ncols(value):
    return value.shape[1]


def _max(parts):
    return max(parts, default=0)


#: what pandas puts in the columns a shorter split row lacks (None, or NaN in pandas 3)
_PAD = pd.Series(["a", "a b"], dtype=object).str.split(expand=True).iloc[0, 1]


def _expanding(obj, name, args, kwargs):
    """``split``/``rsplit``/``partition``/``rpartition`` with ``expand=True``: the column
    count pandas gives depends on the values, so it is learned first (a max per block)."""
    meta = obj.data.meta
    if isinstance(meta, pd.Index):
        raise NotImplementedError(f"Index.str.{name}(expand=True) is not supported; use Series.str")
    _str_kernel(meta, None, name, args, kwargs)  # pandas' errors, at build time
    inferred = _inferred_of(obj)
    label = f"md.str.{name}"
    raw = chunkwise(_expand_kernel, (obj, inferred, name, args, kwargs, None, None, None),
                    _str_kernel(meta, None, name, args, kwargs), label=label)
    ncols = int(learn(summarize(raw, _ncols, _max, label=label)))
    dtype = _str_kernel(one_row(meta), None, name, args, kwargs).dtypes.iloc[0]
    consts = (name, args, kwargs, ncols, dtype, _PAD)
    result = _expand_kernel(meta, None, *consts)
    return chunkwise(_expand_kernel, (obj, inferred, *consts), result, label=label)


def _tokens(value):
    return list(value.columns)


def _sorted_union(parts):
    return sorted(set().union(*parts)) if parts else []


def _dummies_kernel(chunk, inferred, sep, kwargs, columns, dtype):
    res = _str_kernel(chunk, inferred, "get_dummies", (sep,), kwargs)
    if columns is None:
        return res
    return res.reindex(columns=columns, fill_value=0).astype(dtype)


def _get_dummies(obj, sep="|", **kwargs):
    meta = obj.data.meta
    if isinstance(meta, pd.Index):
        raise NotImplementedError("Index.str.get_dummies is not supported; use Series.str")
    _str_kernel(meta, None, "get_dummies", (sep,), kwargs)
    inferred = _inferred_of(obj)
    raw = chunkwise(_dummies_kernel, (obj, inferred, sep, kwargs, None, None),
                    _dummies_kernel(meta, None, sep, kwargs, None, None),
                    label="md.str.get_dummies")
    tokens = learn(summarize(raw, _tokens, _sorted_union, label="md.str.get_dummies"))
    sample = _str_kernel(one_row(meta), None, "get_dummies", (sep,), kwargs)
    columns = pd.Index(tokens, dtype=sample.columns.dtype)
    consts = (sep, kwargs, columns, sample.dtypes.iloc[0])
    return chunkwise(_dummies_kernel, (obj, inferred, *consts),
                     _dummies_kernel(meta, None, *consts), label="md.str.get_dummies")


def _cat_part(chunk, *rest):
    inferred, sep, na_rep = rest if len(rest) == 3 else (None, *rest)
    kept = len(chunk) if na_rep is not None else int(chunk.notna().sum())
    return kept, str_of(chunk, inferred).cat(sep=sep, na_rep=na_rep)


def _cat_join(parts, sep, na_rep):
    return (sep or "").join(text for kept, text in parts if kept)


def _cat(obj, others=None, sep=None, na_rep=None, join="left"):
    meta = obj.data.meta
    if others is None:
        meta.str.cat(sep=sep, na_rep=na_rep)  # pandas' errors, at build time
        inferred = _inferred_of(obj)
        return summarize(obj, _cat_part, _cat_join, (sep, na_rep),
                         [inferred] if inferred is not None else [], label="md.str.cat")
    listed = isinstance(others, (list, tuple)) and any(
        isinstance(o, (_Frame, Index, pd.Series, pd.Index, np.ndarray, list, tuple))
        for o in others)
    if listed:
        arrays = [_as_input(o, obj) for o in others]
        slot = [_ARRAY] * len(arrays)
    else:
        arrays, slot = [_as_input(others, obj)], _ARRAY
    kwargs = {"others": slot, "sep": sep, "na_rep": na_rep, "join": join}
    return _call_with_arrays(obj, "cat", (), kwargs, arrays)


def _repeat(obj, repeats):
    if pd.api.types.is_list_like(repeats):
        return _call_with_arrays(obj, "repeat", (_ARRAY,), {}, [_as_input(repeats, obj)])
    return _call(obj, "repeat", (repeats,))


_EXPANDING = {"split": False, "rsplit": False, "partition": True, "rpartition": True}


def _method(name: str):
    if name in _EXPANDING:
        default = _EXPANDING[name]

        def method(self, *args, **kwargs):
            expand = kwargs.get("expand", default)
            if expand is True:
                return _expanding(self._obj, name, args, kwargs)
            return _call(self._obj, name, args, kwargs)
    elif name == "extractall":
        def method(self, *args, **kwargs):
            return _call(self._obj, name, args, kwargs, keep_rows=False)
    elif name in _SPECIAL:
        special = _SPECIAL[name]

        def method(self, *args, **kwargs):
            return special(self._obj, *args, **kwargs)
    else:
        def method(self, *args, **kwargs):
            return _call(self._obj, name, args, kwargs)
    method.__name__ = name
    method.__qualname__ = f"StringAccessor.{name}"
    method.__doc__ = f"``Series.str.{name}`` of pandas, block by block."
    return method


_SPECIAL = {"cat": _cat, "get_dummies": _get_dummies, "repeat": _repeat}


class StringAccessor:
    """``obj.str``: pandas' vectorized string methods on a lazy Series or Index."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        obj.data.meta.str  # pandas' AttributeError for data that is not text
        self._obj = obj

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _call(self._obj, "slice", (key.start, key.stop, key.step))
        return _call(self._obj, "get", (key,))

    def __iter__(self):
        raise TypeError(f"'{type(self).__name__}' object is not iterable")


STR_METHODS = tuple(n for n in dir(StringMethods) if not n.startswith("_"))
for _name in STR_METHODS:
    setattr(StringAccessor, _name, _method(_name))
del _name


@methods(Series, Index, name="str", prop=True)
def str_accessor(obj) -> StringAccessor:
    """Vectorized string functions (pandas' ``.str``), lazily."""
    return StringAccessor(obj)
