"""Frame and Index methods that keep rows: rename, drop, assign, set_index, reset_index, where..."""
from __future__ import annotations

__all__: list[str] = []
