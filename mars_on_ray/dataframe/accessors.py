"""Series.str and Series.dt: pandas' string and datetime accessors, chunk by chunk."""
from __future__ import annotations

__all__: list[str] = []
