"""WebService: the dashboard. Until the dashboard issue lands it serves nothing and says so."""
from __future__ import annotations

from .registry import Service


class WebService(Service):
    async def address(self) -> str | None:
        return None
