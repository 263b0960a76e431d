"""melt, get_dummies, pivot_table, stack, explode, transpose, to_frame, to_tensor."""
from __future__ import annotations

__all__: list[str] = []
