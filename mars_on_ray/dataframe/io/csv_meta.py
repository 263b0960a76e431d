"""``read_csv`` itself: files, column names and dtypes decided in the client, before anything runs.

pandas infers a column's dtype from all of its values; a chunked reader only sees its chunk.
So the dtypes are inferred here from the head of the first file plus a few stretches spread
over all the data, combined as pandas would (ints with floats or missing values become floats;
any text makes a text column), and each chunk parses with them (``ReadCSV.forced_dtypes``).
"""
from __future__ import annotations

import csv
import io
import os

import numpy as np
import pandas as pd

from ..core import DataFrame, new_frame
from ...core import paths
from .csv import ReadCSV, _index_names
from ...storage.tuning import parse_size
from .csv_bytes import find_line_start, sample_lines

#: options with which a file can only be read whole: footers, escaped quotes, line lists
_WHOLE_FILE = ("skipfooter", "escapechar")
_ASCII_COMPATIBLE = ("utf", "utf8", "utf-8", "utf_8", "utf-8-sig", "utf_8_sig", "ascii", "latin",
                     "latin1", "latin-1", "iso-8859-1", "iso8859-1", "cp1252", "windows-1252")
_NOT_FOR_SAMPLES = ("header", "skiprows", "names", "nrows")
_SPOTS = 8
_SPOT_BYTES = 32 * 1024


def read_csv(filepath_or_buffer, *, chunk_bytes="64M", sample_bytes="256k", storage_options=None,
             **kwargs) -> DataFrame:
    """A lazy DataFrame over CSV file(s), equal to ``pandas.read_csv`` of them concatenated.

    ``filepath_or_buffer``: a path, glob, directory or list, local or any fsspec URL (with
    ``storage_options``). Each file is split into byte ranges of ``chunk_bytes`` (a size such as
    ``"64M"``; None: one chunk per file); compressed files are read whole. Fields quoted over
    several lines are handled. ``nrows`` reads only the first rows. Every other keyword is
    pandas'. Row counts are known after the first stage; the index is one RangeIndex over all
    files unless ``index_col`` is given.
    """
    if kwargs.get("iterator") or kwargs.get("chunksize"):
        raise NotImplementedError("iterator / chunksize: mars_on_ray splits files itself "
                                  "(chunk_bytes=...); iterate over .fetch() results instead")
    if hasattr(filepath_or_buffer, "read"):  # a buffer is already in this process: pandas reads it
        from .. import datasource

        return datasource.from_pandas(pd.read_csv(filepath_or_buffer, **kwargs))
    chunk_bytes, sample_size = parse_size(chunk_bytes), parse_size(sample_bytes)
    if (chunk_bytes is not None and chunk_bytes <= 0) or not sample_size or sample_size <= 0:
        raise ValueError(f"chunk_bytes and sample_bytes must be positive sizes, got {chunk_bytes!r}, "
                         f"{sample_size!r}")
    fs, files = paths.expand(filepath_or_buffer, storage_options)
    limit = kwargs.pop("nrows", None)
    quote = _quote_byte(kwargs)
    newline = (kwargs.get("lineterminator") or "\n").encode()
    compression = kwargs.pop("compression", "infer")
    compressions = [paths.compression_of(f, compression) for f in files]
    whole = _whole_files_only(kwargs)
    head = _head(fs, files[0], compressions[0], sample_size, quote, newline, kwargs)
    try:
        frame = pd.read_csv(io.BytesIO(head), nrows=limit, **kwargs)
    except Exception as exc:
        exc.add_note(f"md.read_csv: {files[0]}, first {len(head)} bytes")
        raise
    raw_names = _raw_names(head, kwargs)
    header_bytes = _header_bytes(head, kwargs, quote, newline)
    sizes = paths.sizes(fs, files)
    spots = [] if whole else _spots(fs, files, sizes, compressions, sample_size, quote, newline,
                                    kwargs, raw_names)
    dtypes, forced = _decide_dtypes(frame, spots, kwargs)
    empty = frame.iloc[:0].astype(dtypes) if dtypes else frame.iloc[:0]
    kwargs, prunable = _index_by_name(frame, kwargs)
    op = ReadCSV(path=_shown(filepath_or_buffer), fs=fs,
                 files=tuple((f, size, whole or c is not None, c, header_bytes)
                             for f, size, c in zip(files, sizes, compressions)),
                 kwargs=kwargs, raw_names=tuple(raw_names), chunk_bytes=chunk_bytes,
                 forced_dtypes=forced, default_index=not _index_names(kwargs.get("index_col")),
                 quotechar=quote, newline=newline, empty=empty, prunable=prunable, limit=limit)
    return new_frame(op, [], np.nan, empty)


def _shown(path) -> str:
    return os.fspath(path) if isinstance(path, (str, os.PathLike)) else f"{len(path)} paths"


def _quote_byte(kwargs) -> bytes | None:
    if kwargs.get("quoting", csv.QUOTE_MINIMAL) == csv.QUOTE_NONE:
        return None
    return (kwargs.get("quotechar") or '"').encode()


def _whole_files_only(kwargs) -> bool:
    """Options under which byte ranges of a file cannot be parsed on their own."""
    encoding = (kwargs.get("encoding") or "utf-8").lower()
    skiprows = kwargs.get("skiprows")
    return (any(kwargs.get(k) for k in _WHOLE_FILE)
            or encoding not in _ASCII_COMPATIBLE
            or not (skiprows is None or isinstance(skiprows, (int, np.integer)))
            or isinstance(kwargs.get("header"), (list, tuple)))


def _head(fs, path, compression, size, quote, newline, kwargs) -> bytes:
    """The first ``size`` bytes of whole lines of the first file (decompressed)."""
    if compression is None:
        return sample_lines(fs, path, 0, size, quote, newline)
    with fs.open(path, "rb") as f:
        frame_text = pd.read_csv(f, compression=compression, nrows=2000, dtype=str,
                                 keep_default_na=False, header=None, index_col=False,
                                 **{k: v for k, v in kwargs.items()
                                    if k in ("sep", "delimiter", "quotechar", "quoting", "encoding")})
    buffer = io.StringIO()
    frame_text.to_csv(buffer, header=False, index=False, sep=kwargs.get("sep") or ",")
    return buffer.getvalue().encode(kwargs.get("encoding") or "utf-8")


def _raw_names(head: bytes, kwargs) -> list:
    """Every column of the file in order, named as pandas names them (index columns too)."""
    skip = ("usecols", "index_col", "dtype", "parse_dates", "converters", "date_format", "nrows")
    names = pd.read_csv(io.BytesIO(head), nrows=0, index_col=False,
                        **{k: v for k, v in kwargs.items() if k not in skip}).columns
    return list(names)


def _header_bytes(head: bytes, kwargs, quote, newline) -> int:
    """Bytes before the first data line of a file: skipped lines and the header."""
    header = kwargs.get("header", "infer")
    lines = int(kwargs.get("skiprows") or 0)
    if header == "infer":
        lines += 0 if kwargs.get("names") is not None else 1
    elif header is not None:
        lines += int(header) + 1
    pos = 0
    for _ in range(lines):
        nxt = find_line_start(head, pos + 1, quote, 0, newline) if pos + 1 <= len(head) else None
        if nxt is None:
            return len(head)
        pos = nxt
    return pos


def _spots(fs, files, sizes, compressions, sample_size, quote, newline, kwargs, raw_names) -> list:
    """Frames parsed from a few stretches spread over all the data (failures are skipped)."""
    total = sum(s for s, c in zip(sizes, compressions) if c is None)
    if total <= sample_size:
        return []
    options = {k: v for k, v in kwargs.items() if k not in _NOT_FOR_SAMPLES}
    found = []
    for spot in range(1, _SPOTS + 1):
        target = total * spot // (_SPOTS + 1)
        for path, size, compression in zip(files, sizes, compressions):
            if compression is not None:
                continue
            if target < size:
                if path == files[0] and target < sample_size:
                    break
                data = sample_lines(fs, path, target, _SPOT_BYTES, quote, newline)
                try:
                    found.append(pd.read_csv(io.BytesIO(data), header=None, names=raw_names, **options))
                except Exception:  # a stretch that is not a clean sample (a quoted newline...)
                    pass
                break
            target -= size
    return found


def _text_dtype(kwargs):
    """The dtype pandas gives a column of text, under the caller's dtype_backend."""
    backend = {"dtype_backend": kwargs["dtype_backend"]} if kwargs.get("dtype_backend") else {}
    return pd.read_csv(io.StringIO("a\nx\n"), **backend)["a"].dtype


def _decide_dtypes(frame: pd.DataFrame, spots: list, kwargs) -> tuple[dict, dict]:
    """(dtype of each column where the spots change it, dtypes every chunk parses with).

    Only text columns are forced: a chunk of digits would otherwise come out as numbers (and
    forcing numbers costs the C parser a third more time). Numeric columns are cast to the
    declared dtype after parsing (``ReadCSV._conform``), which raises where it cannot.
    """
    user = kwargs.get("dtype")
    converters = set(kwargs.get("converters") or {})
    combined = pd.concat([frame, *spots], ignore_index=True) if spots else frame
    text = _text_dtype(kwargs)
    changed, forced = {}, {}
    for column in frame.columns:
        if column in converters or (isinstance(user, dict) and column in user) or (
                user is not None and not isinstance(user, dict)):
            continue
        dtype = combined[column].dtype
        values = combined[column].dropna()
        if dtype == object or pd.api.types.is_string_dtype(dtype):
            if len(values) and not any(isinstance(v, str) for v in values):
                continue  # booleans with missing values and such: pandas' own objects
            dtype = forced[column] = text
        elif not _numeric(dtype):
            continue
        if frame[column].dtype != dtype:
            changed[column] = dtype
    return changed, forced


def _numeric(dtype) -> bool:
    """Numbers and booleans, NumPy's or nullable ones (not dates, categories or objects)."""
    types = pd.api.types
    return ((types.is_numeric_dtype(dtype) or types.is_bool_dtype(dtype))
            and not isinstance(dtype, pd.CategoricalDtype) and dtype != object)


def _index_by_name(frame: pd.DataFrame, kwargs) -> tuple[dict, bool]:
    """``index_col`` given by column names (they keep their meaning when fewer columns are
    parsed); whether the reader may parse fewer columns at all."""
    kwargs = dict(kwargs)
    if isinstance(kwargs.get("header"), (list, tuple)):
        return kwargs, False
    if not _index_names(kwargs.get("index_col")):
        return kwargs, True
    names = list(frame.index.names)
    if any(n is None or isinstance(n, (int, np.integer)) for n in names):
        return kwargs, False
    kwargs["index_col"] = names if len(names) > 1 else names[0]
    return kwargs, True
