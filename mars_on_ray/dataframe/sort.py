"""sort_values, sort_index, nlargest, nsmallest: sample-based range partitioning, top-k."""
from __future__ import annotations

__all__: list[str] = []
