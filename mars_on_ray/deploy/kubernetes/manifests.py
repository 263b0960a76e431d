"""RayCluster manifests for a Mars-style cluster: a head (the supervisor) and one worker group.

The head runs Ray's GCS and dashboard and, once Ray is up, the mars_on_ray services (the
supervisor actor); the workers run chunks with Mars' worker tuning (cache memory, spill
directories) expressed as ``rayStartParams`` by the one tuning object in ``mars_on_ray.storage``.
"""
from __future__ import annotations

from typing import NamedTuple

import ray

from ...storage.tuning import WorkerTuning, parse_size

API_VERSION = "ray.io/v1"
RAY_VERSION = ray.__version__
# an image with Ray, Python and mars_on_ray installed (deploy/kuberay/Dockerfile builds it)
DEFAULT_IMAGE = f"mars-on-ray:ray{RAY_VERSION}"
DEFAULT_WORKER_CACHE_MEM = "40%"  # Mars' default: 40% of the worker's memory is the cache
WORKER_GROUP = "workers"
HEAD_CONTAINER = "ray-head"
WORKER_CONTAINER = "ray-worker"
GCS_PORT, DASHBOARD_PORT, CLIENT_PORT = 6379, 8265, 10001
# started by the head once Ray answers; backgrounded so the pod's start is never blocked by it
SERVICES_HOOK = ("python -m mars_on_ray.deploy.kubernetes.services --timeout 600 "
                 ">/tmp/mars-services.log 2>&1 &")


def quantity(nbytes: int) -> str:
    """A Kubernetes memory quantity: ``16Gi`` / ``512Mi`` when exact, else plain bytes."""
    for unit, size in (("Gi", 1024**3), ("Mi", 1024**2)):
        if nbytes % size == 0:
            return f"{nbytes // size}{unit}"
    return str(int(nbytes))


def _env(extra: dict | None) -> list[dict]:
    return [{"name": str(k), "value": str(v)} for k, v in (extra or {}).items()]


def _resources(cpu, mem_bytes: int | None) -> dict:
    amounts = {}
    if cpu is not None:
        amounts["cpu"] = str(cpu)
    if mem_bytes is not None:
        amounts["memory"] = quantity(mem_bytes)
    # requests == limits: the scheduler reserves what Ray is told it has (Guaranteed QoS)
    return {"requests": dict(amounts), "limits": dict(amounts)} if amounts else {}


class Spill(NamedTuple):
    """Spill storage for every pod: volumes, their mounts, the directories inside the pod."""

    volumes: list[dict]
    mounts: list[dict]
    dirs: list[str]


NO_SPILL = Spill([], [], [])


def spill_volumes(spill_paths) -> Spill:
    """Volumes, mounts and in-pod directories for Mars' ``worker_spill_paths``.

    A string is a directory on the host (a ``hostPath`` volume, as in Mars); a dict is a
    Kubernetes volume with a ``mountPath`` key (e.g. an ``emptyDir`` or a PVC).
    """
    volumes, mounts, dirs = [], [], []
    for idx, path in enumerate(spill_paths or ()):
        if isinstance(path, str):
            name, mount = f"mars-spill-{idx}", f"/mnt/mars-spill-{idx}"
            volumes.append({"name": name, "hostPath": {"path": path, "type": "DirectoryOrCreate"}})
        elif isinstance(path, dict) and "mountPath" in path and "name" in path:
            volume = dict(path)
            name, mount = volume["name"], volume.pop("mountPath")
            volumes.append(volume)
        else:
            raise TypeError("worker_spill_paths holds host directories (str) or volumes "
                            f"(dict with 'name' and 'mountPath'), not {path!r}")
        mounts.append({"name": name, "mountPath": mount})
        dirs.append(mount)
    return Spill(volumes, mounts, dirs)


def _with_spill(container: dict, pod_spec: dict, spill: Spill) -> None:
    if spill.mounts:
        container["volumeMounts"] = container.get("volumeMounts", []) + list(spill.mounts)
        pod_spec["volumes"] = pod_spec.get("volumes", []) + list(spill.volumes)


def head_group(image: str, cpu=1, mem="4G", extra_env=None, service_type="ClusterIP",
               spill: Spill = NO_SPILL) -> dict:
    """The head group: GCS, dashboard, Ray Client server and the mars_on_ray services.

    The spill directories are set here (Ray hands the head's spilling config to every node),
    and their volumes are mounted in every pod.
    """
    container = {
        "name": HEAD_CONTAINER, "image": image,
        "ports": [{"name": "gcs-server", "containerPort": GCS_PORT},
                  {"name": "dashboard", "containerPort": DASHBOARD_PORT},
                  {"name": "client", "containerPort": CLIENT_PORT}],
        "resources": _resources(cpu, parse_size(mem) if mem is not None else None),
        "lifecycle": {"postStart": {"exec": {"command": ["/bin/sh", "-c", SERVICES_HOOK]}}},
    }
    env = _env(extra_env) + WorkerTuning(spill_dirs=spill.dirs).kuberay_env(head=True)
    if env:
        container["env"] = env
    pod_spec: dict = {"containers": [container]}
    _with_spill(container, pod_spec, spill)
    return {
        "serviceType": service_type,
        # no chunk runs on the head, as no Mars subtask ran on a supervisor
        "rayStartParams": {"num-cpus": "0", "dashboard-host": "0.0.0.0"},
        "template": {"spec": pod_spec},
    }


def worker_group(image: str, replicas: int, cpu, mem, cache_mem=DEFAULT_WORKER_CACHE_MEM,
                 spill: Spill = NO_SPILL, extra_env=None, min_replicas: int | None = None) -> dict:
    """One worker group of ``replicas`` pods; Mars' ``cache_mem`` (bytes or a share of ``mem``)
    becomes the object store through the one tuning object."""
    mem_bytes = parse_size(mem)
    container = {"name": WORKER_CONTAINER, "image": image, "resources": _resources(cpu, mem_bytes)}
    if extra_env:
        container["env"] = _env(extra_env)
    pod_spec: dict = {"containers": [container]}
    _with_spill(container, pod_spec, spill)
    minimum = replicas if min_replicas is None else min_replicas
    return {
        "groupName": WORKER_GROUP, "replicas": replicas,
        "minReplicas": minimum, "maxReplicas": max(replicas, minimum),
        "rayStartParams": WorkerTuning(cache_mem=cache_mem).kuberay_start_params(mem_bytes),
        "template": {"spec": pod_spec},
    }


def raycluster(name: str, namespace: str | None, head: dict, workers: list[dict],
               token_auth: bool = False, labels: dict | None = None) -> dict:
    """A ``ray.io/v1`` RayCluster object."""
    metadata: dict = {"name": name, "labels": {"app.kubernetes.io/name": "mars-on-ray",
                                               **(labels or {})}}
    if namespace:
        metadata["namespace"] = namespace
    spec: dict = {"rayVersion": RAY_VERSION, "headGroupSpec": head, "workerGroupSpecs": workers}
    if token_auth:
        spec["authOptions"] = {"mode": "token"}
    return {"apiVersion": API_VERSION, "kind": "RayCluster", "metadata": metadata, "spec": spec}


def namespace_manifest(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": name, "labels": {"app.kubernetes.io/name": "mars-on-ray"}}}
