"""DataFrame.plot / Series.plot: compute, then pandas (matplotlib) draws."""
from __future__ import annotations

__all__: list[str] = []
