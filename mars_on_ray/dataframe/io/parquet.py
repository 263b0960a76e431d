"""``read_parquet``: chunks of whole row groups, with shapes and dtypes from the footers.

The dataset is discovered once when the user calls ``read_parquet`` (files, hive partitions,
row groups and their sizes), the way ``pandas.read_parquet`` discovers it through pyarrow, so
columns, dtypes, index and partition categories equal pandas'. Consecutive row groups are put
into one chunk up to the chunk byte limit. Filters pushed down by the optimizer skip row groups
whose statistics (or hive partition values) exclude them; the user's ``filters=`` also drop rows,
as in pandas.
"""
from __future__ import annotations

import json
import math
import os
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ...config import options
from ...core.chunk_sizes import balanced_runs
from ...core.entity import ChunkData
from ..blockwise import chunk_shape, rows_grid
from ..core import new_frame
from ...core import paths
from .arrow import check_dtype_backend, to_pandas
from .reader import Reader, format_dnf, normalize_dnf, range_indexed


#: pandas >= 3 keeps a RangeIndex when a boolean mask selects equally spaced rows; before, only
#: an all-true mask did. Rows of skipped row groups are rows the plan's filter drops, so a
#: pruned read must not look like an all-true selection there.
_MASK_KEEPS_RANGE = isinstance(pd.RangeIndex(4)[np.array([False, True, True, False])], pd.RangeIndex)


class RowGroup(NamedTuple):
    path: str
    partition: Any  # the file's hive partition expression (pyarrow), or None
    id: int
    rows: int
    nbytes: int
    position: int  # the first row's position in the whole dataset


class ReadParquet(Reader):
    """A parquet file, directory (hive partitions) or list of files."""

    _params = ("path", "fs", "fmt", "schema", "row_groups", "filters", "dtype_backend",
               "to_pandas_kwargs", "index_columns", "index_range", "total_rows", "pandas_metadata", "chunk_bytes", "pruned")
    accepts_filters = True
    label = "md.read_parquet"
    pruned = False

    def source_name(self) -> str:
        return str(self.path)

    def describe(self) -> str:
        text = super().describe()
        if self.filters:
            text = text[:-1] + f", user filters=[{format_dnf(self.filters)}])"
        return text

    # -- planning ------------------------------------------------------------------------
    def tile(self, ctx, out):
        groups = self._surviving(self.row_groups)
        pruned = len(groups) < len(self.row_groups)
        ncols = max(1, len(self.schema.names))
        width = ncols if self.columns is None else len(self.columns) + len(self.index_columns)
        sizes = [rg.nbytes * width / ncols for rg in groups]
        runs = balanced_runs(sizes, self.chunk_bytes or options.chunk_store_limit, ctx.cpus)
        pieces = [[groups[i] for i in run] for run in runs]
        if self.limit is not None:
            pieces = _first_rows(pieces, self.limit)
        rows_known = not self.filters
        chunks = []
        for i, piece in enumerate(pieces):
            rows = sum(rg.rows for rg in piece) if rows_known else math.nan
            op = self.new(row_groups=tuple(piece), pruned=pruned)
            chunks.append(ChunkData(op, [], chunk_shape(out.meta, rows), out.meta, (i, 0)))
        if not rows_known and self.index_range is not None:
            shapes = yield chunks  # rows the user's filters kept: the RangeIndex needs them
            rows = [s[0] for s in shapes]
            start, step, name = _range_labels(self.index_range, sum(rows))
            chunks = range_indexed(chunks, rows, out.meta, start, step, name, label=self.label)
        return rows_grid(chunks, out.meta)

    def _surviving(self, groups: tuple) -> list:
        """The row groups that statistics and partition values do not exclude."""
        dnf = _and_filters(self.filters, self.pushed_filters)
        if not dnf:
            return list(groups)
        import pyarrow.parquet as pq

        expression = pq.filters_to_expression(dnf)
        kept: set = set()
        for path, partition, ids in _by_file(groups):
            fragment = self.fmt.make_fragment(path, self.fs, partition_expression=partition,
                                              row_groups=ids)
            subset = fragment.subset(filter=expression, schema=self.schema)
            kept.update((path, rg.id) for rg in subset.row_groups)
        return [rg for rg in groups if (rg.path, rg.id) in kept]

    # -- reading -------------------------------------------------------------------------
    def execute(self):
        table = self._dataset(self.row_groups).to_table(columns=self._read_columns(),
                                                        filter=_expression(self.filters))
        frame = self._to_pandas(table)
        if self.index_range is not None and not self.filters:
            labels = _range_labels(self.index_range, self.total_rows)
            index = _positions(self.row_groups, *labels)
            if self.pruned and not _MASK_KEEPS_RANGE:
                index = pd.Index(index.to_numpy(), name=index.name)  # as the plan's filter would give
            frame.index = index  # our own new frame: no copy
        return frame

    def _dataset(self, groups):
        import pyarrow.dataset as ds

        fragments = [self.fmt.make_fragment(path, self.fs, partition_expression=partition, row_groups=ids)
                     for path, partition, ids in _by_file(groups)]
        return ds.FileSystemDataset(fragments, schema=self.schema, format=self.fmt, filesystem=self.fs)

    def _read_columns(self):
        if self.columns is None:
            return None
        return list(self.columns) + [c for c in self.index_columns if c not in self.columns]

    def _to_pandas(self, table):
        if self.pandas_metadata is not None:
            metadata = dict(table.schema.metadata or {})
            metadata[b"pandas"] = self.pandas_metadata
            table = table.replace_schema_metadata(metadata)
        return to_pandas(table, self.dtype_backend, self.to_pandas_kwargs)


def _by_file(groups) -> list[tuple]:
    """(path, partition expression, row group ids) per file, in order."""
    found: dict = {}
    for rg in groups:
        found.setdefault(rg.path, (rg.partition, []))[1].append(rg.id)
    return [(path, partition, ids) for path, (partition, ids) in found.items()]


def _first_rows(pieces: list, n: int) -> list:
    taken, have = [], 0
    for piece in pieces:
        if taken and have >= n:
            break
        taken.append(piece)
        have += sum(rg.rows for rg in piece)
    return taken


def _and_filters(a, b):
    if not a:
        return b
    if not b:
        return a
    return [x + y for x in a for y in b]


def _expression(dnf):
    if not dnf:
        return None
    import pyarrow.parquet as pq

    return pq.filters_to_expression(dnf)


def _positions(groups, start: int, step: int, name) -> pd.Index:
    """The index labels of ``groups``' rows: a RangeIndex where they are consecutive."""
    runs: list[list[int]] = []
    for rg in groups:
        if runs and runs[-1][1] == rg.position:
            runs[-1][1] += rg.rows
        else:
            runs.append([rg.position, rg.position + rg.rows])
    if len(runs) <= 1:
        lo, hi = runs[0] if runs else (0, 0)
        return pd.RangeIndex(start + lo * step, start + hi * step, step, name=name)
    labels = np.concatenate([np.arange(lo, hi, dtype=np.int64) for lo, hi in runs]) * step + start
    return pd.Index(labels, name=name)


# -- discovery (in the client, when the user calls read_parquet) -------------------------------
def _arrow_filesystem(path, storage_options, filesystem):
    """(pyarrow filesystem, path or list of paths in it) for what the user passed."""
    from pyarrow import fs as pafs

    if filesystem is not None:
        return filesystem, path
    if isinstance(path, (list, tuple)) or any(ch in os.fspath(path) for ch in "*?["):
        fs, files = paths.expand(path, storage_options, directories=False)
        target: Any = files
    else:
        fs, target = paths.filesystem(path, storage_options)
        if not fs.exists(target):
            raise FileNotFoundError(f"[Errno 2] No such file or directory: {os.fspath(path)!r}")
    if paths.is_local(fs):
        return pafs.LocalFileSystem(), target
    return pafs.PyFileSystem(pafs.FSSpecHandler(fs)), target


def _pandas_metadata(dataset) -> tuple[dict, bytes | None]:
    """(pandas metadata, bytes to put on tables that lack it) as pyarrow's reader uses them."""
    metadata = dataset.schema.metadata or {}
    if b"pandas" in metadata:
        return json.loads(metadata[b"pandas"]), None
    common = dataset._get_common_pandas_metadata() if hasattr(dataset, "_get_common_pandas_metadata") else None
    if common and b"pandas" in common:
        return json.loads(common[b"pandas"]), common[b"pandas"]
    return {}, None


def _index_range(pandas_meta: dict):
    """The stored RangeIndex ``(start, stop, step, name)``, ``()`` for none, None when the index
    is made of stored columns."""
    index_columns = pandas_meta.get("index_columns", [])
    if any(isinstance(c, str) for c in index_columns):
        return None
    for descr in index_columns:
        if descr.get("kind") == "range":
            return (descr["start"], descr["stop"], descr["step"], descr.get("name"))
    return ()


def _range_labels(index_range: tuple, total_rows: int) -> tuple:
    """(start, step, name) of the index of ``total_rows`` rows: pyarrow keeps the stored
    RangeIndex only when its length matches, else numbers the rows from 0."""
    if index_range:
        start, stop, step, name = index_range
        if len(range(start, stop, step)) == total_rows:
            return start, step, name
    return 0, 1, None


def _meta(op: ReadParquet, dataset) -> pd.DataFrame:
    """The empty result, converted like pandas' (pyarrow's errors for unknown columns included)."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    empty = ds.FileSystemDataset([], schema=op.schema, format=op.fmt, filesystem=op.fs)
    table = empty.to_table(columns=op._read_columns(), filter=_expression(op.filters))
    partitioning = getattr(dataset._dataset, "partitioning", None)
    dictionaries = getattr(partitioning, "dictionaries", None) or []
    if partitioning is not None and dictionaries:
        for field_name, values in zip(partitioning.schema.names, dictionaries):
            if values is None or field_name not in table.column_names:
                continue
            i = table.column_names.index(field_name)
            field = table.schema.field(i)
            column = pa.DictionaryArray.from_arrays(pa.array([], field.type.index_type), values)
            table = table.set_column(i, field.with_type(column.type), column)
    return op._to_pandas(table)


def read_parquet(path, engine: str = "auto", columns=None, storage_options=None, dtype_backend=None,
                 filesystem=None, filters=None, to_pandas_kwargs=None, chunk_bytes=None, **kwargs):
    """A lazy DataFrame over parquet data, as ``pandas.read_parquet`` would read it.

    ``path``: a file, a directory (hive-partitioned or not), a glob or a list of files, local
    or any fsspec URL (with ``storage_options``). Each chunk is one row group or a run of small
    ones (at most ``chunk_bytes``, default ``options.chunk_store_limit``). Nothing is read but
    the footers until the result runs; only the columns and row groups it needs are read.
    """
    import pyarrow.parquet as pq

    if engine not in ("auto", "pyarrow"):
        raise ValueError("engine must be 'auto' or 'pyarrow' (the only engine mars_on_ray reads with)")
    check_dtype_backend(dtype_backend)
    fs, target = _arrow_filesystem(path, storage_options, filesystem)
    dataset = pq.ParquetDataset(target, filesystem=fs, **kwargs)
    fmt = dataset._dataset.format
    row_groups, position = [], 0
    for fragment in dataset.fragments:
        for rg in fragment.row_groups:
            row_groups.append(RowGroup(fragment.path, fragment.partition_expression, rg.id,
                                       rg.num_rows, rg.total_byte_size, position))
            position += rg.num_rows
    pandas_meta, replacement = _pandas_metadata(dataset)
    index_columns = tuple(c for c in pandas_meta.get("index_columns", []) if isinstance(c, str))
    op = ReadParquet(path=os.fspath(path) if not isinstance(path, (list, tuple)) else list(path),
                     fs=dataset.filesystem, fmt=fmt, schema=dataset.schema, row_groups=tuple(row_groups),
                     filters=normalize_dnf(filters), dtype_backend=dtype_backend,
                     to_pandas_kwargs=to_pandas_kwargs, index_columns=index_columns,
                     index_range=_index_range(pandas_meta), total_rows=position,
                     pandas_metadata=replacement,
                     columns=None if columns is None else list(columns), chunk_bytes=chunk_bytes)
    meta = _meta(op, dataset)
    if op.index_range and not filters:  # the stored RangeIndex's name (an empty table has none)
        meta.index = pd.RangeIndex(0, name=_range_labels(op.index_range, position)[2])
    nrows = position if not filters else math.nan
    return new_frame(op, [], nrows, meta.iloc[:0])
