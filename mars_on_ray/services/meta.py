"""MetaService: chunk metadata (shape, nbytes) per session, and the largest chunk seen."""
from __future__ import annotations

from .registry import Service


class MetaService(Service):
    def __init__(self):
        self._metas: dict[str, dict[str, tuple]] = {}
        self._peaks: dict[str, int] = {}  # bytes of the largest chunk a session has computed

    async def set(self, session_id: str, metas: dict[str, tuple]) -> None:
        self._metas.setdefault(session_id, {}).update(metas)
        peak = max((int(v[1]) for v in metas.values()), default=0)
        if peak > self._peaks.get(session_id, 0):
            self._peaks[session_id] = peak

    async def get(self, session_id: str, keys: list[str]) -> list[tuple | None]:
        metas = self._metas.get(session_id, {})
        return [metas.get(k) for k in keys]

    async def delete(self, session_id: str, keys: list[str]) -> None:
        metas = self._metas.get(session_id, {})
        for k in keys:
            metas.pop(k, None)

    async def drop_session(self, session_id: str) -> None:
        self._metas.pop(session_id, None)
        self._peaks.pop(session_id, None)

    async def stats(self) -> dict:
        """Per session: chunks held, their bytes, and ``peak_chunk_nbytes`` (the largest chunk
        computed so far, released or not)."""
        return {sid: {"chunks": len(m), "nbytes": sum(v[1] for v in m.values()),
                      "peak_chunk_nbytes": self._peaks.get(sid, 0)}
                for sid, m in self._metas.items()}
