"""Byte-level CSV helpers: where lines start outside quoted fields, and reading byte ranges.

A quoted field may hold newlines; with the usual CSV quoting (a quote inside a quoted field is
doubled) a position is inside quotes exactly when an odd number of quote characters precede
it. ``inside`` below is that parity at the scan's starting offset.
"""
from __future__ import annotations

_BLOCK = 1 << 16


def find_line_start(buf: bytes, offset: int, quote: bytes | None, inside: int,
                    newline: bytes = b"\n") -> int | None:
    """Index in ``buf`` of the first line start at or after ``offset`` (>= 1) that is outside
    quotes, given the quote parity ``inside`` at ``offset``; None if ``buf`` ends first."""
    j = offset - 1
    if buf[j:j + 1] == newline and not inside:
        return offset
    while True:
        nl = buf.find(newline, j + 1)
        if nl < 0:
            return None
        if quote is not None:
            inside ^= buf.count(quote, j + 1, nl) & 1
        if not inside:
            return nl + 1
        j = nl


class RangeReader:
    """A file-like object over the lines starting in ``[start, stop)`` of an open file, read in
    small blocks (a range of many MB is never held twice), counting the quotes of the raw
    range ``[start, stop)`` as it goes (``quotes`` is final once everything was read).

    ``parities``: the quote parity at ``start`` and at ``stop`` (0 when outside quotes).
    """

    def __init__(self, f, start: int, stop: int, quote: bytes | None, parities: tuple,
                 newline: bytes = b"\n"):
        self.f, self.quote = f, quote
        begin, head_quotes = (0, 0) if start == 0 else _boundary(f, start, quote, parities[0], newline)
        end, _ = _boundary(f, stop, quote, parities[1], newline)
        self.left = max(0, end - begin)
        if self.left == 0:  # no line starts in the range: count its quotes directly
            f.seek(start)
            head_quotes = f.read(stop - start).count(quote) if quote is not None else 0
        self.quotes, self.count_left = head_quotes, max(0, stop - begin) if self.left else 0
        f.seek(begin)

    @property
    def empty(self) -> bool:
        return self.left == 0

    def read(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        block = self.f.read(size) if size else b""
        self.left -= len(block)
        if self.quote is not None and self.count_left:
            self.quotes += block.count(self.quote, 0, min(len(block), self.count_left))
            self.count_left -= min(len(block), self.count_left)
        return block

    def finish(self) -> int:
        """Read what the parser left unread (to count its quotes); the range's quote count."""
        while self.count_left and self.read(_BLOCK):
            pass
        return self.quotes

    def readable(self) -> bool:
        return True

    def __iter__(self):  # pandas' C parser reads blocks; an iterator protocol marks a file
        return iter(lambda: self.read(_BLOCK), b"")


def _boundary(f, offset: int, quote, inside: int, newline: bytes) -> tuple[int, int]:
    """(file position of the first line start at/after ``offset`` outside quotes, quotes in
    ``[offset, that position)``); the file's end if there is none."""
    f.seek(offset - 1)
    buf = f.read(_BLOCK)
    while True:
        found = find_line_start(buf, 1, quote, inside, newline)
        if found is not None:
            return offset - 1 + found, (buf.count(quote, 1, found) if quote is not None else 0)
        more = f.read(_BLOCK)
        if not more:
            return offset - 1 + len(buf), (buf.count(quote, 1) if quote is not None else 0)
        buf += more


def sample_lines(fs, path: str, start: int, size: int, quote: bytes | None,
                 newline: bytes = b"\n") -> bytes:
    """About ``size`` bytes of whole lines starting at the first line start at/after ``start``
    (guessing it is outside quotes); the last partial line is dropped unless the file ends."""
    base = max(start - 1, 0)
    with fs.open(path, "rb") as f:
        f.seek(base)
        buf = f.read(size + (start - base))
        at_end = len(buf) < size + (start - base)
    begin = 0 if start == 0 else find_line_start(buf, start - base, quote, 0, newline)
    if begin is None:
        return b""
    if at_end:
        return buf[begin:]
    cut = _last_line_end(buf, begin, quote, newline)
    return buf[begin:cut]


def _last_line_end(buf: bytes, begin: int, quote: bytes | None, newline: bytes) -> int:
    """The end of the last complete line of ``buf[begin:]`` (outside quotes)."""
    end, j, inside = begin, begin, 0
    while True:
        nl = buf.find(newline, j)
        if nl < 0:
            return end
        if quote is not None:
            inside ^= buf.count(quote, j, nl) & 1
        if not inside:
            end = nl + 1
        j = nl + 1
