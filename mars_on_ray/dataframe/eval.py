"""``DataFrame.eval`` / ``md.eval`` and ``DataFrame.query``: pandas' own evaluator per row block.

Expressions over columns are row by row, so each block evaluates the expression itself. Local
variables (``@name``) are looked up in the caller's frame when the operation is built and go
with the expression as ``local_dict``; a frame's columns, its index and lazy frames named in
``md.eval`` are lined up by rows.
"""
from __future__ import annotations

import re
import sys

import numpy as np
import pandas as pd

from ..core.user import Tileable
from ..tensor.core import Tensor
from .accessors import chunkwise
from .blockwise import map_chunks, sample_of
from .core import DataFrame, _Frame, methods

__all__ = ["eval"]

_LOCAL = re.compile(r"@([A-Za-z_][A-Za-z0-9_]*)")
_NAME = re.compile(r"(?<![\w.@`'\"])([A-Za-z_][A-Za-z0-9_]*)")


def _strip_strings(expr: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", " ", expr)


def _caller_locals(expr: str, level: int, local_dict, global_dict) -> dict:
    """The values of the ``@name`` variables of ``expr`` from the caller's frame (``level``
    frames above the public entry point)."""
    names = set(_LOCAL.findall(_strip_strings(expr)))
    if not names:
        return dict(local_dict or {})
    frame = sys._getframe(level + 2)
    scopes = [local_dict or {}, frame.f_locals, global_dict or frame.f_globals, vars(__builtins__)
              if not isinstance(__builtins__, dict) else __builtins__]
    found = dict(local_dict or {})
    for name in names:
        for scope in scopes:
            if name in scope:
                found[name] = scope[name]
                break
    return found


def _block(frame, method, expr, kwargs, names, *values):
    """``frame.eval`` / ``frame.query`` of one block; ``names``: the lazy locals, whose
    blocks (or whole small values) come as ``values``."""
    if names:
        kwargs = {**kwargs, "local_dict": {**kwargs["local_dict"], **dict(zip(names, values))}}
    return getattr(frame, method)(expr, **kwargs)


def _kwargs(local_dict, parser, engine, resolvers):
    out = {"local_dict": local_dict}
    if parser is not None:
        out["parser"] = parser
    if engine is not None:
        out["engine"] = engine
    if resolvers is not None:
        out["resolvers"] = resolvers
    return out


def _stand_in(value, sample: bool):
    """A lazy local's metadata (or a one-row sample of it)."""
    meta = value.data.meta
    if isinstance(value, Tensor):
        if value.ndim == 0:
            return np.ones((), meta.dtype)[()]
        return np.ones(1 if sample else 0, meta.dtype)
    return sample_of(meta) if sample else meta


def _build(df, method, expr, kwargs, label):
    """The lazy ``method`` (eval / query) of ``expr`` block by block, lazy locals lined up."""
    local = kwargs["local_dict"]
    names = tuple(n for n, v in local.items() if isinstance(v, Tileable))
    lazy = [local[n] for n in names]
    kwargs = {**kwargs, "local_dict": {n: v for n, v in local.items() if n not in names}}
    meta = _block(df.data.meta, method, expr, kwargs, names, *(_stand_in(v, False) for v in lazy))
    if not isinstance(meta, (pd.DataFrame, pd.Series)):
        return meta  # no column in the expression: pandas' value
    # errors that empty columns hide
    _block(sample_of(df.data.meta), method, expr, kwargs, names, *(_stand_in(v, True) for v in lazy))
    if method == "query":
        meta = df.data.meta
    return chunkwise(_block, (df, method, expr, kwargs, names, *lazy), meta,
                     keep_rows=method == "eval", label=label)


def _assigns(expr: str) -> bool:
    return any(re.search(r"(?<![=!<>])=(?!=)", _strip_strings(line)) for line in expr.splitlines())


@methods(DataFrame, name="eval")
def frame_eval(df, expr, *, inplace=False, parser=None, engine=None, local_dict=None,
               global_dict=None, resolvers=None, level=0, target=None):
    """Evaluate an expression of the columns (``'a + b * 2'``), or assignments of new columns
    (``'c = a + b'``, one per line) giving a new frame; ``@name`` reads a local variable
    (lazy Series and 0-d tensors included)."""
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string, got {type(expr).__name__}")
    if inplace and not _assigns(expr):
        raise ValueError("Cannot operate inplace if there is no assignment")
    found = _caller_locals(expr, level, local_dict, global_dict)
    res = _build(df, "eval", expr, _kwargs(found, parser, engine, resolvers), "md.DataFrame.eval")
    if inplace and isinstance(res, _Frame):
        df.data = res.data
        return None
    return res


@methods(DataFrame)
def query(df, expr, *, inplace=False, parser=None, engine=None, local_dict=None,
          global_dict=None, resolvers=None, level=0):
    """The rows where a boolean expression of the columns holds (``'a > 2 and b < @x'``)."""
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string, got {type(expr).__name__}")
    found = _caller_locals(expr, level, local_dict, global_dict)
    res = _build(df, "query", expr, _kwargs(found, parser, engine, resolvers), "md.DataFrame.query")
    if inplace:
        df.data = res.data
        return None
    return res


def _md_eval_block(*values, expr, names, kwargs):
    scope = dict(kwargs.get("local_dict") or {})
    scope.update(zip(names, values))
    return pd.eval(expr, **{**kwargs, "local_dict": scope})


def eval(expr, parser="pandas", engine=None, local_dict=None, global_dict=None, resolvers=(),  # noqa: A001
         level=0, target=None, inplace=False):
    """``pd.eval`` over lazy frames and Series named in the expression (or ``local_dict``),
    evaluated row block by row block; plain values come from the caller's frame."""
    if not isinstance(expr, str):
        raise ValueError("expr must be a string")
    frame = sys._getframe(level + 1)
    scope = {**frame.f_globals, **frame.f_locals, **(global_dict or {}), **(local_dict or {})}
    names = [n for n in dict.fromkeys(_NAME.findall(_strip_strings(expr))) if n in scope]
    lazy = [n for n in names if isinstance(scope[n], _Frame)]
    plain = {n: scope[n] for n in names if n not in lazy}
    plain.update({n: scope[n] for n in _LOCAL.findall(_strip_strings(expr)) if n in scope})
    if target is not None or inplace:
        raise NotImplementedError("md.eval with target= / inplace=: use DataFrame.eval")
    if not lazy:
        return pd.eval(expr, parser=parser, engine=engine, local_dict=plain, resolvers=resolvers)
    kwargs = {"parser": parser, "engine": engine, "local_dict": plain, "resolvers": tuple(resolvers)}
    return map_chunks(_MdEval(expr, tuple(lazy), kwargs), tuple(scope[n] for n in lazy),
                      label="md.eval", validate=True)


class _MdEval:
    """A picklable, tokenizable ``pd.eval`` of one row block of each named lazy input."""

    __slots__ = ("expr", "names", "kwargs")

    def __init__(self, expr, names, kwargs):
        self.expr, self.names, self.kwargs = expr, names, kwargs

    def __mars_token__(self):
        return ("md.eval", self.expr, self.names, self.kwargs)

    def __getstate__(self):
        return (self.expr, self.names, self.kwargs)

    def __setstate__(self, state):
        self.expr, self.names, self.kwargs = state

    def __call__(self, *values):
        return _md_eval_block(*values, expr=self.expr, names=self.names, kwargs=self.kwargs)

