"""Deterministic tokens: the same value gives the same token in every process and run."""
from __future__ import annotations

import hashlib
import pickle
import sys
from typing import Any

import numpy as np


def tokenize(*args: Any) -> str:
    """Return a hex token of ``args``; equal inputs give equal tokens across processes."""
    h = hashlib.blake2b(digest_size=16)
    text = _text(args)
    if text is not None:  # one update of what _feed would feed piece by piece
        h.update(text.encode())
    else:
        _feed(h, args)
    return h.hexdigest()


_PRIMITIVES = frozenset({type(None), bool, int, float, complex, str, bytes})


def _text(obj: Any) -> str | None:
    """Exactly the text ``_feed`` hashes for ``obj`` when it is made of plain values (the
    parameters of most operands), else None: a chunk operand's token is one hash update."""
    kind = type(obj)
    if kind in _PRIMITIVES:
        return f"{kind.__name__}:{obj!r};"
    if kind is tuple or kind is list:
        if all(type(item) in _PRIMITIVES for item in obj):
            return f"{kind.__name__}{obj!r};"
        parts = [f"{kind.__name__}[{len(obj)}"]
        for item in obj:
            part = _text(item)
            if part is None:
                return None
            parts.append(part)
        parts.append("]")
        return "".join(parts)
    if isinstance(obj, dict):
        parts = [f"dict[{len(obj)}"]
        for k, v in obj.items():
            key, value = _text(k), _text(v)
            if key is None or value is None:
                return None
            parts += (key, value)
        parts.append("]")
        return "".join(parts)
    if isinstance(obj, np.dtype):
        return f"dt:{obj.str}{obj.descr if obj.fields else ''};"
    if isinstance(obj, np.generic) and not isinstance(obj, (tuple, list, dict, slice)):
        return f"np:{type(obj).__name__}:{obj!r};"
    if isinstance(obj, type) and not hasattr(obj, "__mars_token__"):
        return f"type:{obj.__module__}.{obj.__qualname__};"
    return None


def _feed(h, obj: Any) -> None:
    kind = type(obj)
    if kind in _PRIMITIVES:
        h.update(f"{kind.__name__}:{obj!r};".encode())
    elif kind is tuple or kind is list:
        if all(type(item) in _PRIMITIVES for item in obj):  # fast path: one update
            h.update(f"{kind.__name__}{obj!r};".encode())
            return
        h.update(f"{kind.__name__}[{len(obj)}".encode())
        for item in obj:
            _feed(h, item)
        h.update(b"]")
    elif isinstance(obj, dict):  # insertion order counts (e.g. the column order of an agg)
        h.update(f"dict[{len(obj)}".encode())
        for k, v in obj.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b"]")
    elif isinstance(obj, (tuple, list)):  # subclasses such as named tuples
        _feed(h, (kind.__qualname__, *obj))
    elif isinstance(obj, slice):
        _feed(h, ("slice", obj.start, obj.stop, obj.step))
    elif isinstance(obj, np.ndarray):
        h.update(f"nd{obj.dtype.str}{obj.shape}".encode())
        if obj.dtype.hasobject:
            _feed(h, obj.tolist())
        else:
            h.update(np.ascontiguousarray(obj).view(np.uint8).data)
    elif isinstance(obj, np.dtype):
        h.update(f"dt:{obj.str}{obj.descr if obj.fields else ''};".encode())
    elif isinstance(obj, np.generic):
        h.update(f"np:{type(obj).__name__}:{obj!r};".encode())
    elif _is_pandas(obj):
        import pandas as pd

        h.update(type(obj).__name__.encode())
        _feed(h, repr(obj.dtypes if isinstance(obj, pd.DataFrame) else obj.dtype))
        if isinstance(obj, pd.DataFrame):
            _feed(h, list(map(str, obj.columns)))
        frame = obj.to_frame() if isinstance(obj, pd.Index) else obj
        h.update(pd.util.hash_pandas_object(frame, index=not isinstance(obj, pd.Index)).to_numpy().data)
    elif hasattr(obj, "__mars_token__"):
        _feed(h, obj.__mars_token__())
    elif isinstance(obj, type):
        h.update(f"type:{obj.__module__}.{obj.__qualname__};".encode())
    elif callable(obj) and hasattr(obj, "__qualname__") and "<" not in obj.__qualname__:
        h.update(f"fn:{getattr(obj, '__module__', '')}.{obj.__qualname__};".encode())
    else:
        try:
            import cloudpickle

            h.update(cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # unpicklable: unique per object, never shared
            h.update(f"id:{id(obj)};".encode())


def _is_pandas(obj) -> bool:
    """A pandas object (pandas is imported only where one exists: the services and the
    tensor-only workers start without it)."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, (pd.DataFrame, pd.Series, pd.Index))
