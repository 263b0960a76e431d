"""What a supervisor does once its Ray head is up: start the services, wait for the job API."""
from __future__ import annotations

import json
import time
import urllib.request


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
        return {"nodes": ray.get(cluster.nodes.remote())}
    finally:
        reset_handles()
        if not connected_before:
            ray.shutdown()


def wait_for_job_api(dashboard_url: str, timeout: float = 120.0) -> dict:
    """Wait until the head's dashboard answers (``ray job submit`` needs it); its version."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{dashboard_url}/api/version", timeout=5) as reply:
                return json.loads(reply.read())
        except Exception as exc:  # not listening yet
            last = exc
            time.sleep(0.5)
    raise TimeoutError(f"the Ray dashboard at {dashboard_url} did not answer in {timeout:.0f} s "
                       f"({last})")
