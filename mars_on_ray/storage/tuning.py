"""Mars worker tuning (cache-mem, spill dirs, phy-mem, min-mem) expressed as Ray settings."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import psutil

_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1024**2, "mb": 1024**2,
          "mib": 1024**2, "g": 1024**3, "gb": 1024**3, "gib": 1024**3, "t": 1024**4,
          "tb": 1024**4, "tib": 1024**4}


def parse_size(value, total: int | None = None) -> int | None:
    """Bytes from ``value``: an int, "4GiB", "512m", or a share of ``total`` ("30%", 0.3)."""
    if value is None:
        return None
    total = total if total is not None else psutil.virtual_memory().total
    if isinstance(value, float) and 0 < value < 1:
        return int(total * value)
    if isinstance(value, (int, float)):
        return int(value)
    match = re.fullmatch(r"\s*([\d.]+)\s*(%|[a-zA-Z]*)\s*", str(value))
    if not match or (match.group(2) != "%" and match.group(2).lower() not in _UNITS):
        raise ValueError(f"cannot read a size from {value!r} (use e.g. '4GiB', '30%', 1073741824)")
    number, unit = float(match.group(1)), match.group(2)
    if unit == "%":
        return int(total * number / 100)
    return int(number * _UNITS[unit.lower()])


@dataclass
class WorkerTuning:
    """Worker options as in Mars; ``ray_init_kwargs()`` turns them into ``ray.init`` arguments."""

    cache_mem: str | int | float | None = None  # -> object store memory
    spill_dirs: list[str] = field(default_factory=list)  # -> object spilling directories
    phy_mem: str | int | float | None = None  # -> memory the memory monitor protects
    min_mem: str | int | float | None = None  # -> refuse to start below this available memory

    def ray_init_kwargs(self) -> dict:
        kwargs: dict = {}
        system_config: dict = {}
        if self.cache_mem is not None:
            kwargs["object_store_memory"] = parse_size(self.cache_mem)
        if self.spill_dirs:
            system_config["object_spilling_config"] = json.dumps({
                "type": "filesystem", "params": {"directory_path": list(self.spill_dirs)}})
        if self.phy_mem is not None:
            total = psutil.virtual_memory().total
            system_config["memory_usage_threshold"] = min(0.99, parse_size(self.phy_mem) / total)
        if self.min_mem is not None:
            available = psutil.virtual_memory().available
            if available < parse_size(self.min_mem):
                raise MemoryError(f"only {available} bytes available, min_mem is {self.min_mem}")
        if system_config:
            kwargs["_system_config"] = system_config
        return kwargs
