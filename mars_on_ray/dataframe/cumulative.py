"""cum*, diff, shift, pct_change, ffill/bfill: results that depend on earlier rows."""
from __future__ import annotations

__all__: list[str] = []
