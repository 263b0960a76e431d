"""The rest of GroupBy: transform, apply, cum*, cumcount, shift, fill, head, sample, nunique..."""
from __future__ import annotations

__all__: list[str] = []
