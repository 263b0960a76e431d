"""Remote functions on Ray: ``mr.map`` (a resumable parallel map) and Mars' ``mr.spawn``."""
from .map import map, MapResults  # noqa: A004
from .spawn import spawn
from ..core.executable import ExecutableTuple

__all__ = ["map", "MapResults", "spawn", "ExecutableTuple"]
