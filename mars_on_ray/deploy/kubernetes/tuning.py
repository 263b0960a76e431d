"""Mars worker tuning for a worker pod, through the one tuning object in ``mars_on_ray.storage``."""
from __future__ import annotations

from ...storage.tuning import parse_size


def worker_tuning_params(cache_mem, spill_dirs, mem_bytes: int | None) -> dict[str, str]:
    """``rayStartParams`` for a worker pod of ``mem_bytes`` (``cache_mem`` may be a share of it)."""
    params: dict[str, str] = {}
    if cache_mem is not None:
        params["object-store-memory"] = str(parse_size(cache_mem, total=mem_bytes))
    if spill_dirs:
        params["object-spilling-directory"] = spill_dirs[0]
    return params
