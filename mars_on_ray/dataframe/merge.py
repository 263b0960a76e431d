"""merge and join: broadcast or hash-shuffle joins with pandas' row order."""
from __future__ import annotations

__all__: list[str] = []
