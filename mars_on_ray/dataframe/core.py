"""DataFrame, Series and Index: the user objects of the pandas API.

Frames are split by rows only: a DataFrame's chunk grid is (n, 1), a Series' or Index's (n,).
``data.meta`` is an empty pandas object with the real columns, dtypes, name and index type.
"""
from __future__ import annotations


import pandas as pd

from ..core.entity import TileableData
from ..core.operand import Operand
from ..core.user import Tileable, lazy_method


def new_frame(op: Operand, inputs, nrows, meta, chunk_size=None):
    """Wrap a new DataFrame / Series / Index node whose metadata is the empty ``meta``."""
    nodes = [getattr(i, "data", i) for i in inputs]
    shape = (nrows, len(meta.columns)) if isinstance(meta, pd.DataFrame) else (nrows,)
    data = TileableData(op, nodes, shape, meta, chunk_size)
    if isinstance(meta, pd.DataFrame):
        return DataFrame(data)
    if isinstance(meta, pd.Series):
        return Series(data)
    return Index(data)


def _lazy(module: str, name: str, reflected: bool = False):
    return lazy_method("mars_on_ray.dataframe", module, name, reflected)


def methods(*classes, name: str | None = None, prop: bool = False):
    """Attach the decorated function ``f(obj, ...)`` to ``classes`` as the method (or, with
    ``prop``, the property) ``name`` (default: the function's name). Operation modules use it
    next to their code, so no class table lists every method."""

    def attach(func):
        attr = property(func) if prop else func
        for cls in classes:
            setattr(cls, name or func.__name__, attr)
        return func

    return attach


class _Frame(Tileable):
    __slots__ = ()
    __array_priority__ = 100  # NumPy defers binary operators to us
    __array_ufunc__ = _lazy("arithmetic", "frame_array_ufunc")  # ndarray + s, np.exp(df) stay lazy
    __array__ = _lazy("arithmetic", "frame_array")

    @property
    def index(self) -> "Index":
        from .indexing import index_of

        return index_of(self)

    def __hash__(self):
        return hash(self.key)

    head = _lazy("indexing", "head")
    to_csv = _lazy("io", "to_csv")
    to_sql = _lazy("io", "to_sql")
    for _name in ("sum", "mean", "count", "min", "max", "prod", "std", "var"):
        locals()[_name] = _lazy("reduction", _name)
    for _dunder, _func in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "truediv"),
                           ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow")):
        locals()[f"__{_dunder}__"] = _lazy("arithmetic", _func)
        locals()[f"__r{_dunder}__"] = _lazy("arithmetic", _func, reflected=True)
        locals()[_func] = _lazy("arithmetic", _func)
    for _func in ("eq", "ne", "lt", "le", "gt", "ge"):
        locals()[f"__{_func}__"] = _lazy("arithmetic", _func)
        locals()[_func] = _lazy("arithmetic", _func)
    for _dunder, _func in (("and", "and_"), ("or", "or_"), ("xor", "xor")):
        locals()[f"__{_dunder}__"] = _lazy("arithmetic", _func)
        locals()[f"__r{_dunder}__"] = _lazy("arithmetic", _func, reflected=True)
    __invert__ = _lazy("arithmetic", "invert")
    for _func in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow"):
        locals()[f"r{_func}"] = _lazy("arithmetic", _func, reflected=True)
    div, rdiv = _lazy("arithmetic", "truediv"), _lazy("arithmetic", "truediv", reflected=True)
    divide, multiply, subtract = div, _lazy("arithmetic", "mul"), _lazy("arithmetic", "sub")
    product = _lazy("reduction", "prod")
    __neg__ = _lazy("arithmetic", "neg")
    __abs__ = _lazy("arithmetic", "abs")
    abs = _lazy("arithmetic", "abs")
    astype = _lazy("arithmetic", "astype")
    isna = isnull = _lazy("missing", "isna")
    notna = notnull = _lazy("missing", "notna")
    fillna = _lazy("missing", "fillna")
    dropna = _lazy("missing", "dropna")
    del _name, _dunder, _func


class DataFrame(_Frame):
    """A lazy pandas DataFrame split into row blocks."""

    __slots__ = ()

    def __init__(self, data=None, index=None, columns=None, dtype=None, chunk_size=None):
        if isinstance(data, TileableData):
            super().__init__(data)
            return
        from .datasource import dataframe_from

        super().__init__(dataframe_from(data, index=index, columns=columns, dtype=dtype,
                                        chunk_size=chunk_size).data)

    @property
    def columns(self) -> pd.Index:
        return self.data.meta.columns

    @property
    def dtypes(self) -> pd.Series:
        return self.data.meta.dtypes

    def __getattr__(self, name):
        if not name.startswith("_") and name in self.data.meta.columns:
            return self[name]
        raise AttributeError(f"'DataFrame' object has no attribute '{name}'")

    __getitem__ = _lazy("indexing", "getitem")
    groupby = _lazy("groupby", "groupby")
    to_parquet = _lazy("io", "to_parquet")


class Series(_Frame):
    """A lazy pandas Series split into row blocks."""

    __slots__ = ()

    def __init__(self, data=None, index=None, dtype=None, name=None, chunk_size=None):
        if isinstance(data, TileableData):
            super().__init__(data)
            return
        from .datasource import series_from

        super().__init__(series_from(data, index=index, dtype=dtype, name=name,
                                     chunk_size=chunk_size).data)

    @property
    def dtype(self):
        return self.data.meta.dtype

    @property
    def name(self):
        return self.data.meta.name

    __getitem__ = _lazy("indexing", "getitem")
    groupby = _lazy("groupby", "groupby")


class Index(Tileable):
    """A lazy pandas Index split into row blocks."""

    __slots__ = ()

    def __init__(self, data=None, dtype=None, copy=False, name=None, tupleize_cols=True,
                 chunk_size=None, names=None):
        if isinstance(data, TileableData):
            super().__init__(data)
            return
        from .datasource import index_from

        super().__init__(index_from(data, dtype=dtype, copy=copy, name=name, names=names,
                                    tupleize_cols=tupleize_cols, chunk_size=chunk_size).data)

    @property
    def dtype(self):
        return self.data.meta.dtype

    @property
    def name(self):
        return self.data.meta.name

    def __hash__(self):
        return hash(self.key)
