"""rolling, expanding, ewm: windows across chunk boundaries."""
from __future__ import annotations

__all__: list[str] = []
