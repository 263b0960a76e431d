"""drop_duplicates, duplicated, value_counts, nunique, unique: shuffles with map-side combines."""
from __future__ import annotations

__all__: list[str] = []
