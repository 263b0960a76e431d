"""What the dashboard knows of Ray nodes: resources, object-store use, memory samples, logs.

Object-store numbers come from each raylet's node stats (``storage.stats``, the source of
``session.storage_stats()``); memory and logs from a tiny zero-CPU Ray task pinned to the node, run
only while someone looks at that node (nothing is sampled at rest).
"""
from __future__ import annotations

import collections
import glob
import os
import re
import time

import ray

SAMPLES_KEPT = 720  # memory samples kept per node (an hour at one per 5 s)
MIN_SAMPLE_GAP = 2.0  # seconds between two samples of one node
LOG_LINES = 200
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour codes Ray puts around task names
_RAY_MARKERS = (":job_id:", ":task_name:", ":actor_name:")  # Ray's per-task lines in worker logs


def _available_per_node() -> dict:
    try:
        from ray._private.state import available_resources_per_node

        return available_resources_per_node()
    except Exception:
        return {}


def cluster_nodes() -> list[dict]:
    """Every node: address, liveness, CPUs (total / in use), memory, object store, spilled."""
    from ..storage.stats import node_store_stats  # the numbers session.storage_stats() gives

    available = _available_per_node()
    try:
        stores = node_store_stats()
    except Exception:  # a private API of Ray underneath: the page shows what it has
        stores = {}
    out = []
    for node in ray.nodes():
        total = node.get("Resources", {})
        free = available.get(node["NodeID"], {})
        entry = {"node_id": node["NodeID"], "address": node["NodeManagerAddress"],
                 "alive": bool(node["Alive"]), "is_head": "node:__internal_head__" in total,
                 "cpus": total.get("CPU", 0.0), "cpus_in_use": total.get("CPU", 0.0) - free.get("CPU", total.get("CPU", 0.0)),
                 "memory": total.get("memory", 0.0),
                 "object_store_memory": total.get("object_store_memory", 0.0)}
        store = stores.get(node["NodeID"])
        if store:
            entry.update({"object_store_used": store["store_used_bytes"],
                          "object_store_available": store["store_capacity_bytes"],
                          "objects": store["store_objects"], "spilled_bytes": store["spilled_bytes"],
                          "restored_bytes": store["restored_bytes"]})
        out.append(entry)
    return out


def _probe(log_lines: int) -> dict:
    """Runs on the node: its memory now and the tail of its Ray worker logs."""
    import psutil

    mem = psutil.virtual_memory()
    logs = []
    try:
        log_dir = ray._private.worker._global_node.get_logs_dir_path()
        files = sorted(glob.glob(os.path.join(log_dir, "worker-*.err")) +
                       glob.glob(os.path.join(log_dir, "worker-*.out")),
                       key=os.path.getmtime, reverse=True)
        for path in files[:8]:
            if os.path.getsize(path) == 0:
                continue
            with open(path, "rb") as f:
                f.seek(max(0, os.path.getsize(path) - 64 * 1024))
                text = _ANSI.sub("", f.read().decode("utf-8", "replace"))
            lines = [line for line in text.splitlines() if not line.startswith(_RAY_MARKERS)]
            if lines:
                logs.append({"file": os.path.basename(path), "lines": lines[-log_lines:]})
    except Exception as exc:  # a node without readable logs still reports memory
        logs.append({"file": "(unreadable)", "lines": [repr(exc)]})
    return {"time": time.time(), "memory_total": mem.total, "memory_used": mem.total - mem.available,
            "memory_percent": mem.percent, "logs": logs}


_probe_remote = ray.remote(num_cpus=0, max_retries=0)(_probe)


class NodeWatcher:
    """Memory samples per node, taken when a node's page asks (at most one per MIN_SAMPLE_GAP)."""

    def __init__(self):
        self._samples: dict[str, collections.deque] = {}
        self._logs: dict[str, list] = {}

    def sample(self, node_id: str, timeout: float = 10.0) -> None:
        history = self._samples.setdefault(node_id, collections.deque(maxlen=SAMPLES_KEPT))
        if history and time.time() - history[-1]["time"] < MIN_SAMPLE_GAP:
            return
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ref = _probe_remote.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
            node_id, soft=False)).remote(LOG_LINES)
        try:
            probe = ray.get(ref, timeout=timeout)
        except Exception as exc:
            self._logs[node_id] = [{"file": "(probe failed)", "lines": [repr(exc)]}]
            ray.cancel(ref, force=True)
            return
        self._logs[node_id] = probe.pop("logs")
        history.append(probe)

    def memory(self, node_id: str) -> list[dict]:
        return list(self._samples.get(node_id, ()))

    def logs(self, node_id: str) -> list[dict]:
        return self._logs.get(node_id, [])
