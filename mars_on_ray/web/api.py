"""The JSON API under ``/api/``: read-only views of the cluster, sessions, tasks and workers.

Every handler only reads: no endpoint takes a request body, so nothing sent to the dashboard is
ever executed or unpickled. Data comes from the services (ProgressService records, the session
registry) and from Ray itself (nodes).
"""
from __future__ import annotations

import asyncio
import os
import time

import ray
from aiohttp import web

from .. import __version__
from ..services.registry import NAMESPACE, SERVICE_NAMES, get_service
from .nodes import NodeWatcher, cluster_nodes

SERVICE_TIMEOUT = 5.0


async def _call(service: str, method: str, *args):
    return await asyncio.wait_for(getattr(get_service(service), method).remote(*args), SERVICE_TIMEOUT)


def _json(data, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def _not_found(what: str) -> web.Response:
    return _json({"error": f"{what} not found"}, status=404)


class Api:
    """Handlers of ``/api/``; ``server`` gives the URL and the Ray address clients attach to."""

    def __init__(self, server):
        self.server = server
        self.nodes = NodeWatcher()

    def routes(self) -> list:
        return [web.get("/api/connect", self.connect),
                web.get("/api/cluster", self.cluster),
                web.get("/api/sessions", self.sessions),
                web.get("/api/sessions/{session_id}/tasks", self.session_tasks),
                web.get("/api/tasks/{task_id}", self.task),
                web.get("/api/workers/{node_id}", self.worker),
                web.get("/api/map_jobs", self.map_jobs),
                web.get("/api/openapi.json", self.openapi)]

    async def connect(self, request: web.Request) -> web.Response:
        """What ``mr.new_session("http://host:port")`` needs to attach to this cluster."""
        return _json({"ray_address": self.server.ray_address, "namespace": NAMESPACE,
                      "web_url": self.server.url, "version": __version__})

    async def cluster(self, request: web.Request) -> web.Response:
        nodes = await asyncio.to_thread(cluster_nodes)
        services = []
        for name in SERVICE_NAMES:
            try:
                state = "ready" if await _call(name, "ready") else "not ready"
            except Exception as exc:  # a service that does not answer is shown as such
                state = f"not answering ({type(exc).__name__})"
            services.append({"name": name, "state": state})
        return _json({"nodes": nodes, "services": services, "supervisor_pid": os.getpid(),
                      "time": time.time()})

    async def _held(self, session_id: str) -> dict:
        """What an open session keeps in the object store (``session.storage_stats()``)."""
        try:
            usage = await _call("storage", "usage", session_id)
        except Exception:  # the storage service cannot say now: the page shows dashes
            return {"held_bytes": None, "objects": None}
        return {"held_bytes": usage.get("held_bytes"), "objects": usage.get("objects")}

    async def sessions(self, request: web.Request) -> web.Response:
        open_ids = await _call("session", "list")
        tasks = await _call("progress", "tasks")
        by_session: dict[str, dict] = {
            sid: {"session_id": sid, "open": True, "tasks": 0, "running": 0, "failed": 0,
                  "last_activity": None} for sid in open_ids}
        for task in tasks:
            entry = by_session.setdefault(task["session_id"], {
                "session_id": task["session_id"], "open": False, "tasks": 0, "running": 0,
                "failed": 0, "last_activity": None})
            entry["tasks"] += 1
            entry["running"] += task["state"] == "running"
            entry["failed"] += task["state"] == "failed"
            entry["last_activity"] = max(entry["last_activity"] or 0, task["ended"] or time.time())
        for sid in open_ids:
            by_session[sid].update(await self._held(sid))
        return _json(list(by_session.values()))

    async def session_tasks(self, request: web.Request) -> web.Response:
        session_id = request.match_info["session_id"]
        tasks = await _call("progress", "tasks", session_id)
        if not tasks and not await _call("session", "exists", session_id):
            return _not_found(f"session {session_id}")
        return _json(tasks)

    async def task(self, request: web.Request) -> web.Response:
        task_id = request.match_info["task_id"]
        detail = await _call("progress", "task", task_id)
        return _not_found(f"task {task_id}") if detail is None else _json(detail)

    async def worker(self, request: web.Request) -> web.Response:
        node_id = request.match_info["node_id"]
        nodes = {n["node_id"]: n for n in await asyncio.to_thread(cluster_nodes)}
        if node_id not in nodes:
            return _not_found(f"node {node_id}")
        if nodes[node_id]["alive"]:
            await asyncio.to_thread(self.nodes.sample, node_id)
        return _json({"node": nodes[node_id],
                      "recent_subtasks": await _call("progress", "node_runs", node_id),
                      "memory": self.nodes.memory(node_id), "logs": self.nodes.logs(node_id)})

    async def map_jobs(self, request: web.Request) -> web.Response:
        """Running ``mr.map`` jobs: the status documents they publish in Ray's key-value store."""
        from ..remote.status import running_jobs

        return _json(await asyncio.to_thread(running_jobs))

    async def openapi(self, request: web.Request) -> web.Response:
        from .openapi import spec

        return _json(spec(__version__))


def ray_address() -> str | None:
    """The GCS address of the cluster this process belongs to."""
    if not ray.is_initialized():  # never let the runtime context start or join a cluster
        return None
    try:
        return ray.get_runtime_context().gcs_address
    except Exception:
        return None
