"""Positional and label indexing: iloc, loc, at, iat, tail, setitem, sample, take."""
from __future__ import annotations

__all__: list[str] = []
