"""Label alignment of differently indexed frames (binary operations), align, concat, reindex."""
from __future__ import annotations

__all__: list[str] = []
