"""LifecycleService: reference counts of tileables and their chunks; frees chunks at zero."""
from __future__ import annotations

from collections import Counter

from .registry import Service


class LifecycleService(Service):
    def __init__(self):
        self._tileables: dict[str, dict[str, list]] = {}  # session -> key -> [count, chunk keys]
        self._chunks: dict[str, Counter] = {}

    async def incref(self, session_id: str, tileables: dict[str, list[str]]) -> None:
        held = self._tileables.setdefault(session_id, {})
        chunks = self._chunks.setdefault(session_id, Counter())
        for key, chunk_keys in tileables.items():
            entry = held.setdefault(key, [0, list(dict.fromkeys(chunk_keys))])
            if entry[0] == 0:
                chunks.update(entry[1])
            entry[0] += 1

    async def decref(self, session_id: str, keys: list[str]) -> list[str]:
        """Release tileables; returns the chunk keys freed."""
        held = self._tileables.get(session_id, {})
        chunks = self._chunks.get(session_id, Counter())
        freed = []
        for key in keys:
            entry = held.get(key)
            if entry is None:
                continue
            entry[0] -= 1
            if entry[0] > 0:
                continue
            del held[key]
            for ck in entry[1]:
                chunks[ck] -= 1
                if chunks[ck] <= 0:
                    del chunks[ck]
                    freed.append(ck)
        if freed:
            await self.service("storage").delete.remote(session_id, freed)
            await self.service("meta").delete.remote(session_id, freed)
        return freed

    async def drop_session(self, session_id: str) -> None:
        self._tileables.pop(session_id, None)
        self._chunks.pop(session_id, None)

    async def stats(self) -> dict:
        return {sid: {"tileables": len(t), "chunks": len(self._chunks.get(sid, ()))}
                for sid, t in self._tileables.items()}
