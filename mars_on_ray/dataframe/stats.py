"""describe, quantile, median, corr, cov, skew, kurt, sem, mode, all/any, cut/qcut."""
from __future__ import annotations

__all__: list[str] = []
