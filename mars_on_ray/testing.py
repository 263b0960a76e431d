"""``assert_eq``: the parity check every test uses.

It compares a lazy object with the NumPy / pandas result AND checks that the metadata declared
at build time (shape, dtype, columns, chunk shapes) matches what was computed, and that keys
are derived from content (rebuilding a node's key from its operand and inputs gives it back).
"""
from __future__ import annotations

import math
import pickle

import cloudpickle
import numpy as np
import pandas as pd

from .core.entity import TileableData, node_key
from .core.graph import FlatGraph, topo_order
from .core.local import LocalExecutor
from .core.tokenize import tokenize
from .core.user import Tileable


def _compute(obj: Tileable):
    from . import session as session_mod

    if session_mod.get_default_session(create=False) is not None:
        return obj.fetch()
    return LocalExecutor().compute(obj.data)[0]


def assert_eq(actual, expected, *, check_chunks: bool = True, check_dtype: bool = True,
              rtol: float = 1e-7, atol: float = 0.0, check_index_type: bool = True,
              check_index_meta: bool = True) -> None:
    """Assert a lazy object (or a plain value) equals ``expected`` in values and metadata.

    ``check_index_meta=False`` skips comparing the declared index (kind, levels, names, dtype)
    with the result's: only for results whose index dtype depends on the data.
    """
    if isinstance(actual, Tileable):
        _check_declared(actual.data, expected, check_dtype, check_index_meta)
        _check_keys(actual.data)
        if check_chunks:
            _check_chunks(actual.data, check_dtype, check_index_meta)
        actual = _compute(actual)
    _check_values(actual, expected, check_dtype, rtol, atol, check_index_type)


def _check_values(actual, expected, check_dtype, rtol, atol, check_index_type):
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(actual, expected, check_dtype=check_dtype, rtol=rtol, atol=atol,
                                      check_index_type=check_index_type)
    elif isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(actual, expected, check_dtype=check_dtype, rtol=rtol, atol=atol,
                                       check_index_type=check_index_type)
    elif isinstance(expected, pd.Index):
        pd.testing.assert_index_equal(actual, expected, exact=check_index_type)
    else:
        expected_arr, actual_arr = np.asarray(expected), np.asarray(actual)
        assert actual_arr.shape == expected_arr.shape, f"shape {actual_arr.shape} != {expected_arr.shape}"
        if check_dtype:
            assert actual_arr.dtype == expected_arr.dtype, f"dtype {actual_arr.dtype} != {expected_arr.dtype}"
        if np.issubdtype(expected_arr.dtype, np.number) and not np.issubdtype(expected_arr.dtype, np.integer):
            np.testing.assert_allclose(actual_arr, expected_arr, rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(actual_arr, expected_arr)


def index_meta_mismatch(declared: pd.Index, real: pd.Index) -> str | None:
    """How a declared index differs from a real one in kind (MultiIndex or not), levels, names
    or dtype(s) (a RangeIndex and an int64 Index agree), or None."""
    if isinstance(declared, pd.MultiIndex) != isinstance(real, pd.MultiIndex):
        return f"index {type(declared).__name__} != {type(real).__name__}"
    if declared.nlevels != real.nlevels:
        return f"index nlevels {declared.nlevels} != {real.nlevels}"
    if list(declared.names) != list(real.names):
        return f"index names {list(declared.names)} != {list(real.names)}"
    declared_dtypes, real_dtypes = _level_dtypes(declared), _level_dtypes(real)
    if declared_dtypes != real_dtypes:
        return f"index dtype {declared_dtypes} != {real_dtypes}"
    return None


def _index_of(obj) -> pd.Index | None:
    """An Index itself, else a frame's or Series' index (None for other metadata)."""
    return obj if isinstance(obj, pd.Index) else getattr(obj, "index", None)


def _level_dtypes(index: pd.Index) -> list:
    return list(index.dtypes) if isinstance(index, pd.MultiIndex) else [index.dtype]


def _check_declared(node: TileableData, expected, check_dtype: bool, check_index_meta: bool = True) -> None:
    shape = np.shape(expected) if not hasattr(expected, "shape") else expected.shape
    for declared, real in zip(node.shape, shape):
        assert math.isnan(declared) or declared == real, f"declared shape {node.shape} != {shape}"
    assert len(node.shape) == len(shape), f"declared ndim {len(node.shape)} != {len(shape)}"
    meta = node.meta
    if check_index_meta and isinstance(expected, (pd.DataFrame, pd.Series, pd.Index)):
        problem = index_meta_mismatch(_index_of(meta), _index_of(expected))
        assert problem is None, f"declared {problem}"
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_index_equal(meta.columns, expected.columns)
        if check_dtype:
            pd.testing.assert_series_equal(meta.dtypes, expected.dtypes, check_index_type=False)
    elif isinstance(expected, (pd.Series, pd.Index)):
        assert meta.name == expected.name, f"declared name {meta.name!r} != {expected.name!r}"
        if check_dtype:
            assert meta.dtype == expected.dtype, f"declared dtype {meta.dtype} != {expected.dtype}"
    elif check_dtype:
        expected_dtype = np.asarray(expected).dtype
        assert meta.dtype == expected_dtype, f"declared dtype {meta.dtype} != {expected_dtype}"


def _check_chunks(node: TileableData, check_dtype: bool, check_index_meta: bool = True) -> None:
    """Every chunk's computed value agrees with the chunk's declared shape, dtype(s) and index."""
    executor = LocalExecutor()
    tiled = executor.tile(node)
    executor._run(tiled.flat)
    for pos, chunk in np.ndenumerate(tiled.chunks):
        value = executor.values[chunk.key]
        real = tuple(np.shape(value))
        for declared, r in zip(chunk.shape, real):
            assert math.isnan(declared) or declared == r, f"chunk {pos}: declared {chunk.shape} != {real}"
        if check_index_meta and isinstance(value, (pd.DataFrame, pd.Series, pd.Index)):
            declared = _index_of(chunk.meta)
            problem = None if declared is None else index_meta_mismatch(declared, _index_of(value))
            assert problem is None, f"chunk {pos}: declared {problem}"
        if not check_dtype:
            continue
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_index_equal(value.columns, chunk.meta.columns)
            pd.testing.assert_series_equal(value.dtypes, chunk.meta.dtypes, check_index_type=False)
        elif isinstance(value, (pd.Series, pd.Index)):
            assert value.dtype == chunk.meta.dtype, f"chunk {pos}: dtype {value.dtype} != {chunk.meta.dtype}"
        elif chunk.meta is not None and hasattr(chunk.meta, "dtype"):
            assert np.asarray(value).dtype == chunk.meta.dtype, (
                f"chunk {pos}: dtype {np.asarray(value).dtype} != {chunk.meta.dtype}")


def _check_keys(node: TileableData) -> None:
    """Keys come from content: a pickled graph rebuilds every key from operand + inputs."""
    roundtrip = pickle.loads(cloudpickle.dumps(FlatGraph([node]))).roots[0]
    for n in topo_order([roundtrip]):
        extra = n.chunk_size if isinstance(n, TileableData) else n.index
        rebuilt = node_key(tokenize(type(n.op), n.op.params), n.inputs, n.output_index, extra)
        assert rebuilt == n.key, f"key of {n!r} is not derived from its operand and inputs"
