"""MetaService: chunk metadata (shape, nbytes) per session."""
from __future__ import annotations

from .registry import Service


class MetaService(Service):
    def __init__(self):
        self._metas: dict[str, dict[str, tuple]] = {}

    async def set(self, session_id: str, metas: dict[str, tuple]) -> None:
        self._metas.setdefault(session_id, {}).update(metas)

    async def get(self, session_id: str, keys: list[str]) -> list[tuple | None]:
        metas = self._metas.get(session_id, {})
        return [metas.get(k) for k in keys]

    async def delete(self, session_id: str, keys: list[str]) -> None:
        metas = self._metas.get(session_id, {})
        for k in keys:
            metas.pop(k, None)

    async def drop_session(self, session_id: str) -> None:
        self._metas.pop(session_id, None)

    async def stats(self) -> dict:
        return {sid: {"chunks": len(m), "nbytes": sum(v[1] for v in m.values())}
                for sid, m in self._metas.items()}
