"""User functions: apply, map, transform, agg with callables, map_chunk, eval/query."""
from __future__ import annotations

__all__: list[str] = []
