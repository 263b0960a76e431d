"""StorageService: which chunk keys a session has, and the ObjectRefs holding them.

Refs travel wrapped in lists so Ray passes them through as references instead of resolving
them; the data itself never passes through this actor.
"""
from __future__ import annotations

import asyncio

import ray

from .registry import Service


class StorageService(Service):
    def __init__(self):
        self._refs: dict[str, dict[str, ray.ObjectRef]] = {}

    async def put(self, session_id: str, refs: dict[str, list[ray.ObjectRef]]) -> None:
        catalog = self._refs.setdefault(session_id, {})
        for key, (ref,) in refs.items():
            catalog[key] = ref

    async def stored(self, session_id: str, keys: list[str]) -> list[str]:
        catalog = self._refs.get(session_id, {})
        return [k for k in keys if k in catalog]

    async def get_refs(self, session_id: str, keys: list[str]) -> list[ray.ObjectRef]:
        catalog = self._refs.get(session_id, {})
        missing = [k for k in keys if k not in catalog]
        if missing:
            await self.service("session").check.remote(session_id)  # a lost session says so
            raise KeyError(f"chunks {missing[:3]} are not stored in session {session_id}")
        return [catalog[k] for k in keys]

    async def delete(self, session_id: str, keys: list[str]) -> None:
        catalog = self._refs.get(session_id, {})
        for k in keys:
            catalog.pop(k, None)

    async def drop_session(self, session_id: str) -> None:
        self._refs.pop(session_id, None)

    async def stats(self) -> dict:
        return {sid: len(c) for sid, c in self._refs.items()}

    async def usage(self, session_id: str) -> dict:
        """Bytes held, spilled and restored, objects: for the session and per node."""
        from ..storage.stats import storage_report

        refs = list(self._refs.get(session_id, {}).values())
        return await asyncio.to_thread(storage_report, refs)
