"""``read_csv``: byte ranges of CSV files parsed in parallel, equal to pandas on the whole.

Each file is cut into ranges of ``chunk_bytes``; a chunk parses the lines that *start* in its
range. Where a line starts depends on whether the range begins inside a quoted field (a field
may hold newlines), which depends on every quote before it: each chunk guesses "not inside"
and also counts the quotes of its range. After this first stage the real parity at every
boundary is known; the few chunks whose guess was wrong (or whose parse failed) are read again
with the right one. Real parse errors then raise pandas' own exception, naming the file and
byte range.

Column names and dtypes come from pandas reading the head of the first file and a few
stretches spread over the data (``csv_meta``); every chunk is parsed with those dtypes, so all
chunks agree with the declared ones, and a value that does not fit raises, telling the user to
pass ``dtype=``. The default index is one RangeIndex over all rows, as if one file were read.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...core.entity import ChunkData
from ..blockwise import chunk_shape, rows_grid
from .csv_bytes import RangeReader
from .reader import Reader, range_indexed


class ReadCSV(Reader):
    """CSV files. A chunk reads a piece ``(path, start, stop, ranged, compression)``: a byte
    range of a file split into several (then it also outputs ``[quotes in the range, failed]``),
    or a whole file."""

    _params = ("path", "fs", "files", "kwargs", "raw_names", "chunk_bytes", "forced_dtypes",
               "default_index", "quotechar", "newline", "empty", "prunable", "piece", "parities",
               "checked")
    accepts_limit = True
    label = "md.read_csv"
    piece = None
    parities = (0, 0)
    checked = False

    @property
    def n_outputs(self) -> int:  # type: ignore[override]
        return 2 if self.piece is not None and self.piece[3] else 1

    def source_name(self) -> str:
        return str(self.path)

    def can_prune(self) -> bool:
        return self.prunable

    def with_columns(self, columns):
        return self.new(columns=list(columns), empty=self.empty[list(columns)])

    # -- planning ----------------------------------------------------------------------------
    def tile(self, ctx, out):
        if self.limit is not None:
            return (yield from self._tile_limited(out))
        pieces = [p for file in self.files for p in _pieces(*file, self.chunk_bytes)]
        frames, infos = self._chunks(out, pieces, [(0, 0)] * len(pieces), False, range(len(pieces)))
        ranged = [i for i in infos if i is not None]
        if ranged:  # check every guess about quotes at range boundaries
            yield frames + ranged
            counts = yield from ctx.values(ranged)
            frames = self._reread_wrong_guesses(out, pieces, frames, infos, counts)
        shapes = yield frames
        return self._finish(out, frames, [s[0] for s in shapes])

    def _chunks(self, out, pieces, parities, checked, positions):
        frames, infos = [], []
        for i, piece, parity in zip(positions, pieces, parities):
            op = self.new(piece=piece, parities=parity, checked=checked)
            frames.append(ChunkData(op, [], (math.nan, out.shape[1]), out.meta, (i, 0), 0))
            # the same grid index: outputs of one operand run as one step (see build_steps)
            infos.append(ChunkData(op, [], (2,), None, (i, 0), 1) if op.n_outputs == 2 else None)
        return frames, infos

    def _reread_wrong_guesses(self, out, pieces, frames, infos, counts):
        """Chunks whose start or end lay inside quotes, or that failed, read again knowing."""
        counts = iter(counts)
        before: dict[int, int] = {}  # piece -> quote parity at its start
        quotes_in_file: dict[str, int] = {}
        failed = set()
        for i, (piece, info) in enumerate(zip(pieces, infos)):
            if info is None:
                continue
            quotes, did_fail = (int(x) for x in next(counts))
            seen = quotes_in_file.get(piece[0], 0)
            before[i], quotes_in_file[piece[0]] = seen % 2, seen + quotes
            if did_fail:
                failed.add(i)
        wrong_start = {i for i, parity in before.items() if parity}
        wrong = failed | wrong_start | {i - 1 for i in wrong_start}  # a start is the end before it
        if not wrong:
            return frames
        bad = sorted(wrong)
        parities = [(before[i], before.get(i + 1, 0) if _same_file(pieces, i, i + 1) else 0) for i in bad]
        fixed, _ = self._chunks(out, [pieces[i] for i in bad], parities, True, bad)
        frames = list(frames)
        for i, chunk in zip(bad, fixed):
            frames[i] = chunk
        return frames

    def _tile_limited(self, out):
        """The first ``limit`` rows: files read from their start, one at a time, until enough."""
        frames, rows, remaining = [], [], self.limit
        for path, size, _, compression, _ in self.files:
            if frames and remaining <= 0:
                break
            op = self.new(piece=(path, 0, size, False, compression), limit=max(remaining, 0))
            chunk = ChunkData(op, [], (math.nan, out.shape[1]), out.meta, (len(frames), 0))
            (shape,) = yield [chunk]
            frames.append(chunk)
            rows.append(shape[0])
            remaining -= shape[0]
        return self._finish(out, frames, rows)

    def _finish(self, out, frames, rows):
        frames = [f.with_shape(chunk_shape(out.meta, r)) for f, r in zip(frames, rows)]
        if self.default_index:
            frames = range_indexed(frames, rows, out.meta, label=self.label)
        return rows_grid(frames, out.meta)

    # -- reading -----------------------------------------------------------------------------
    def execute(self):
        path, start, stop, ranged, compression = self.piece
        if not ranged:  # a whole file: pandas opens it (compression included)
            with self.fs.open(path, "rb") as f:
                return self._parse(f, f"md.read_csv: {path}", compression=compression)
        with self.fs.open(path, "rb") as f:
            reader = RangeReader(f, start, stop, self.quotechar, self.parities, self.newline)
            try:
                frame = self.empty if reader.empty else \
                    self._parse(reader, f"md.read_csv: {path}, bytes {start}-{stop}")
                failed = 0
            except Exception:
                if self.checked:
                    raise
                frame, failed = self.empty, 1  # maybe only a wrong guess about quotes: read again
            quotes = reader.finish()
        return frame, np.array([quotes, failed])

    def _parse(self, source, where: str, **extra):
        kwargs = dict(self.kwargs)
        if self.piece[1] > 0:  # a later range of a file: no header, the names found at planning
            for key in ("header", "skiprows", "names"):
                kwargs.pop(key, None)
            kwargs.update(header=None, names=list(self.raw_names))
        if self.limit is not None:
            kwargs["nrows"] = self.limit
        dtype = dict(self.forced_dtypes)
        dtype.update(_dtype_dict(kwargs.pop("dtype", None), self.raw_names))
        if self.columns is not None and not _positional(kwargs.get("usecols")):
            keep = set(self.columns) | set(_index_names(kwargs.get("index_col")))
            kwargs["usecols"] = keep.__contains__
        try:
            return self._conform(pd.read_csv(source, dtype=dtype or None, **kwargs, **extra))
        except Exception as exc:
            exc.add_note(where)
            if self.forced_dtypes and isinstance(exc, (TypeError, ValueError)):
                shown = ", ".join(f"{c!r}: {d}" for c, d in self.forced_dtypes.items())
                exc.add_note(f"md.read_csv inferred the dtypes {{{shown}}} from samples of the data; "
                             "pass dtype={column: ...} for a column whose later values differ")
            raise

    def _conform(self, frame):
        """The declared columns and dtypes (a column pandas could not parse as forced raises)."""
        if self.columns is not None:
            frame = frame[list(self.columns)]
        wrong = [c for c, d in self.empty.dtypes.items() if frame[c].dtype != d]
        for column in wrong:
            try:
                frame[column] = frame[column].astype(self.empty[column].dtype)
            except (TypeError, ValueError) as exc:
                exc.add_note(f"md.read_csv inferred {self.empty[column].dtype} for column "
                             f"{column!r} from a sample of the data; pass dtype={{{column!r}: ...}}")
                raise
        return frame


def _same_file(pieces, i, j) -> bool:
    return 0 <= j < len(pieces) and pieces[i][0] == pieces[j][0]


def _positional(usecols) -> bool:
    return usecols is not None and not callable(usecols) and all(
        isinstance(c, (int, np.integer)) for c in usecols)


def _index_names(index_col) -> list:
    if index_col is None or index_col is False:
        return []
    return list(index_col) if isinstance(index_col, (list, tuple)) else [index_col]


def _dtype_dict(dtype, raw_names) -> dict:
    if dtype is None:
        return {}
    if isinstance(dtype, dict):
        return dict(dtype)
    return {name: dtype for name in raw_names}


def _pieces(path, size, whole, compression, header_bytes, chunk_bytes) -> list[tuple]:
    """``(path, start, stop, ranged, compression)`` of one file: byte ranges (the first one
    holding at least the header), or the whole file."""
    first = (chunk_bytes or 0) + header_bytes
    if whole or chunk_bytes is None or size <= first:
        return [(path, 0, size, False, compression)]
    bounds = [0] + list(range(first, size, chunk_bytes)) + [size]
    return [(path, lo, hi, True, None) for lo, hi in zip(bounds[:-1], bounds[1:])]
