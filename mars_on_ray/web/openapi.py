"""The OpenAPI description of ``/api/`` (aiohttp gives none, so it is written here)."""
from __future__ import annotations

_OBJ = {"type": "object"}
_TASK = {"type": "object", "properties": {
    "task_id": {"type": "string"}, "session_id": {"type": "string"}, "name": {"type": "string"},
    "state": {"type": "string", "enum": ["running", "done", "failed", "cancelled"]},
    "subtasks_done": {"type": "integer"}, "subtasks_total": {"type": "integer"},
    "stages": {"type": "array", "items": _OBJ}, "started": {"type": "number"},
    "ended": {"type": ["number", "null"]}, "elapsed": {"type": "number"},
    "error": {"type": ["object", "null"], "description": "type, message, notes, operation (the user-level operation)"},
}}

_PATHS = {
    "/api/connect": ("What mr.new_session('http://host:port') needs: the Ray address and namespace", _OBJ, []),
    "/api/cluster": ("Nodes (CPUs, memory, object store, spilled bytes) and the services' state", _OBJ, []),
    "/api/sessions": ("Sessions with their task counts", {"type": "array", "items": _OBJ}, []),
    "/api/sessions/{session_id}/tasks": ("A session's tasks with progress", {"type": "array", "items": _TASK},
                                         ["session_id"]),
    "/api/tasks/{task_id}": ("One task with its tileable graph and fused subtask graph", _TASK, ["task_id"]),
    "/api/map_jobs": ("Running mr.map jobs: progress counters, durations, recent errors",
                      {"type": "array", "items": _OBJ}, []),
    "/api/workers/{node_id}": ("One node: recent subtasks, memory samples, log tails", _OBJ, ["node_id"]),
}


def spec(version: str) -> dict:
    paths = {}
    for path, (summary, schema, params) in _PATHS.items():
        paths[path] = {"get": {
            "summary": summary,
            "parameters": [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
                           for p in params],
            "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
                          "401": {"description": "the token is missing or wrong (exposed dashboards)"},
                          "404": {"description": "no such session, task or node"}}}}
    return {"openapi": "3.1.0",
            "info": {"title": "mars_on_ray dashboard API", "version": version,
                     "description": "Read-only. When the dashboard is exposed beyond loopback, send "
                                    "'Authorization: Bearer <token>'."},
            "components": {"securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
            "security": [{"token": []}],
            "paths": paths}
