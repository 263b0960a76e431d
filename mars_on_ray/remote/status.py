"""A map job's progress: counters and durations, as JSON and as an HTML page.

``MapStatus.snapshot()`` is the JSON document (what the dashboard shows); with a checkpoint it
is written next to it as ``status.json`` and ``status.html`` every few seconds and at the end,
and while the job runs it is also published in Ray's key-value store (namespace
``mars_on_ray.map``) so a dashboard on the cluster lists running jobs without a checkpoint.
"""
from __future__ import annotations

import html
import json
import statistics
import time
from typing import Any

KV_NAMESPACE = "mars_on_ray.map"
_WRITE_EVERY = 2.0


class MapStatus:
    """Counters of one map job, updated by the scheduler as tasks move."""

    def __init__(self, job_id: str, job_name: str | None, func_name: str, total: int | None):
        self.job_id = job_id
        self.job_name = job_name
        self.func_name = func_name
        self.total = total
        self.started = time.time()
        self.finished: float | None = None
        self.state = "running"
        self.submitted = 0  # inputs sent to the cluster (first attempts)
        self.done = 0  # inputs whose result is known (computed or from the checkpoint)
        self.from_checkpoint = 0
        self.failed = 0  # inputs that failed for good
        self.retried = 0  # attempts again after the user's function raised
        self.resubmitted = 0  # speculative copies of stragglers
        self.worker_deaths = 0  # attempts again after the worker process died
        self.running = 0  # inputs in flight now
        self.tasks = 0  # Ray tasks submitted (a task runs a batch of trivial inputs)
        self.batch_size = 1
        self.durations: list[float] = []  # seconds a computed input took, most recent last
        self.errors: list[dict] = []
        self._last_write = 0.0

    def add_durations(self, seconds: list[float]) -> None:
        self.durations.extend(seconds)
        if len(self.durations) > 10_000:  # a sliding window is enough for the statistics
            del self.durations[:-5_000]

    def snapshot(self) -> dict[str, Any]:
        now = self.finished or time.time()
        d = self.durations
        return {
            "job_id": self.job_id, "job_name": self.job_name, "function": self.func_name,
            "state": self.state, "total": self.total, "submitted": self.submitted,
            "done": self.done, "running": self.running, "failed": self.failed,
            "from_checkpoint": self.from_checkpoint, "retried": self.retried,
            "resubmitted": self.resubmitted, "worker_deaths": self.worker_deaths,
            "ray_tasks": self.tasks, "batch_size": self.batch_size,
            "started": self.started, "elapsed": round(now - self.started, 3),
            "durations": {
                "count": len(d),
                "median": statistics.median(d) if d else None,
                "mean": statistics.fmean(d) if d else None,
                "max": max(d) if d else None,
            },
            "errors": self.errors[-20:],
        }

    def to_json(self) -> str:
        return json.dumps(self.snapshot(), indent=1, default=str)

    def to_html(self) -> str:
        return render_html(self.snapshot())

    def maybe_write(self, store, force: bool = False) -> None:
        """Write ``status.json`` / ``status.html`` into the job's checkpoint folder (at most
        every few seconds unless ``force``) and publish the JSON in Ray's key-value store."""
        now = time.time()
        if not force and now - self._last_write < _WRITE_EVERY:
            return
        self._last_write = now
        text = self.to_json()
        if store is not None:
            try:
                store.write_bytes("status.json", text.encode())
                store.write_bytes("status.html", self.to_html().encode())
            except Exception:  # progress reporting never stops the job
                pass
        publish(self.job_id, text)


def publish(job_id: str, text: str | None) -> None:
    """Put (``text``) or delete (``None``) a job's status JSON in Ray's key-value store."""
    try:
        from ray.experimental import internal_kv

        if not internal_kv._internal_kv_initialized():
            return
        if text is None:
            internal_kv._internal_kv_del(job_id, namespace=KV_NAMESPACE)
        else:
            internal_kv._internal_kv_put(job_id, text, overwrite=True, namespace=KV_NAMESPACE)
    except Exception:
        pass


def running_jobs() -> list[dict]:
    """The status documents of the map jobs running on the connected cluster (for the
    dashboard)."""
    from ray.experimental import internal_kv

    jobs = []
    for key in internal_kv._internal_kv_list("", namespace=KV_NAMESPACE) or []:
        raw = internal_kv._internal_kv_get(key, namespace=KV_NAMESPACE)
        if raw:
            jobs.append(json.loads(raw))
    return jobs


def render_html(doc: dict) -> str:
    """A self-contained page of a status document (refreshes itself while the job runs)."""
    total = doc.get("total")
    done = doc.get("done", 0)
    share = (100.0 * done / total) if total else None
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(doc.get(k)))}</td></tr>"
                   for k in ("state", "total", "done", "running", "failed", "from_checkpoint",
                             "retried", "resubmitted", "worker_deaths", "ray_tasks",
                             "batch_size", "elapsed"))
    dur = doc.get("durations") or {}
    dur_rows = "".join(f"<tr><th>{k}</th><td>{'' if v is None else f'{v:.4g}'}</td></tr>"
                       for k, v in dur.items() if k != "count")
    errors = "".join(f"<li>{html.escape(str(e))}</li>" for e in doc.get("errors", []))
    bar = (f'<div style="background:#ddd;width:400px"><div style="background:#4a4;width:'
           f'{share:.1f}%;height:1em"></div></div><p>{share:.1f}%</p>') if share is not None else ""
    refresh = '<meta http-equiv="refresh" content="5">' if doc.get("state") == "running" else ""
    title = html.escape(f"mr.map {doc.get('job_name') or doc.get('job_id')}")
    return (f"<!doctype html><html><head><meta charset='utf-8'>{refresh}<title>{title}</title>"
            f"</head><body><h1>{title}</h1><p>{html.escape(str(doc.get('function')))}</p>{bar}"
            f"<table>{rows}</table><h2>seconds an input took</h2><table>{dur_rows}</table>"
            f"<h2>errors</h2><ul>{errors}</ul></body></html>")
