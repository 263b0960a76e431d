"""What a supervisor does once its Ray head is up: start the services, wait for the job API.

The services are started from a child process (``python -m mars_on_ray.deploy.head GCS
TUNING``): its ``ray.init`` can be abandoned if the node dies meanwhile, and the supervisor
command itself never becomes a Ray driver (which would replace its signal handlers).
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request

from .process import NodeStartError, RayNode


def start_services(gcs_address: str, tuning: dict | None = None) -> dict:
    """Start the supervisor actor (every service) on the head at ``gcs_address``, record the
    worker tuning with the cluster service, and disconnect; returns the cluster's nodes."""
    import ray

    from ..services import ensure_services, get_service
    from ..services.registry import reset_handles

    connected_before = ray.is_initialized()
    if not connected_before:
        ray.init(address=gcs_address, log_to_driver=False, include_dashboard=False)
    try:
        reset_handles()
        ensure_services()
        cluster = get_service("cluster")
        if tuning:
            ray.get(cluster.set_tuning.remote(tuning))
        _wait_for_head_agent()
        return {"nodes": ray.get(cluster.nodes.remote())}
    finally:
        reset_handles()
        if not connected_before:
            ray.shutdown()


def _wait_for_head_agent(timeout: float = 300.0) -> None:
    """Wait until the head's dashboard agent has registered: the job API hands every submitted
    job to it and answers "No available agent" (HTTP 500) until then."""
    import ray
    from ray._private.ray_constants import KV_NAMESPACE_DASHBOARD
    from ray.dashboard.consts import DASHBOARD_AGENT_ADDR_NODE_ID_PREFIX
    from ray.experimental.internal_kv import _internal_kv_get

    head = next(n["NodeID"] for n in ray.nodes()
                if n["Alive"] and "node:__internal_head__" in n["Resources"])
    deadline = time.monotonic() + timeout
    while not _internal_kv_get(f"{DASHBOARD_AGENT_ADDR_NODE_ID_PREFIX}{head}",
                               namespace=KV_NAMESPACE_DASHBOARD):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the head's dashboard agent did not register in {timeout:.0f} s")
        time.sleep(0.5)


def start_services_beside(node: RayNode, gcs_address: str, tuning: dict,
                          timeout: float = 600.0) -> None:
    """``start_services`` in a child process, given up (NodeStartError) if ``node`` dies."""
    child = subprocess.Popen([sys.executable, "-m", __name__, gcs_address, json.dumps(tuning)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    try:
        while child.poll() is None:
            if not node.alive():
                raise NodeStartError("the Ray node exited while the services were starting:\n"
                                     + "\n".join(list(node.output)[-15:]))
            if time.monotonic() > deadline:
                raise TimeoutError(f"the services did not start in {timeout:.0f} s")
            time.sleep(0.2)
    finally:
        if child.poll() is None:
            child.kill()
        output = child.communicate()[0]
    if child.returncode != 0:
        raise RuntimeError(f"the services did not start:\n{output[-3000:]}")


def wait_for_job_api(dashboard_url: str, timeout: float = 120.0, node: RayNode | None = None) -> dict:
    """Wait until the head's dashboard answers (``ray job submit`` needs it); its version."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if node is not None and not node.alive():
            raise NodeStartError("the Ray node exited before its dashboard answered")
        try:
            with urllib.request.urlopen(f"{dashboard_url}/api/version", timeout=5) as reply:
                return json.loads(reply.read())
        except Exception as exc:  # not listening yet
            last = exc
            time.sleep(0.5)
    raise TimeoutError(f"the Ray dashboard at {dashboard_url} did not answer in {timeout:.0f} s "
                       f"({last})")


if __name__ == "__main__":
    start_services(sys.argv[1], json.loads(sys.argv[2]))
