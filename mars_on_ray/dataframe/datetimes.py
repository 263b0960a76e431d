"""to_datetime, to_numeric, date_range."""
from __future__ import annotations

__all__: list[str] = []
