"""Remote functions on Ray: ``mr.map`` (a resumable parallel map) and Mars' ``mr.spawn``."""
from .map import map, MapResults  # noqa: A004
from .spawn import spawn

__all__ = ["map", "MapResults", "spawn"]
