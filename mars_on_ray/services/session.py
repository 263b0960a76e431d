"""SessionService: creates, lists and closes sessions; closing frees all of a session's data."""
from __future__ import annotations

import time
import uuid

from .registry import Service


class SessionLostError(RuntimeError):
    """The services do not know this session: it was closed (maybe by another driver), or
    the supervisor actor restarted after a failure and its sessions' data is gone."""


class SessionService(Service):
    def __init__(self):
        self._sessions: dict[str, dict] = {}

    async def create(self, session_id: str | None = None) -> str:
        session_id = session_id or uuid.uuid4().hex[:16]
        self._sessions.setdefault(session_id, {"created": time.time()})
        return session_id

    async def exists(self, session_id: str) -> bool:
        return session_id in self._sessions

    async def check(self, session_id: str) -> None:
        """Raise ``SessionLostError`` unless ``session_id`` is open."""
        if session_id not in self._sessions:
            raise SessionLostError(
                f"session {session_id} is unknown to the mars_on_ray services: it was closed, "
                "or the supervisor restarted after a failure and lost its data; open a new "
                "session (mr.new_session()) and run again")

    async def list(self) -> list[str]:
        return list(self._sessions)

    async def close(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)
        await self.service("task").cancel_session.remote(session_id)
        for name in ("lifecycle", "storage", "meta"):
            await self.service(name).drop_session.remote(session_id)
