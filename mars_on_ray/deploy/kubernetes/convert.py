"""KubeDL's MarsJob (``training.kubedl.io/v1alpha1``) as a KubeRay RayJob + an Ingress.

How each field keeps its meaning (KubeDL's controller is the reference):

- ``Scheduler`` -> the head group (the mars_on_ray services run on the head); ``WebService`` ->
  the head's Ray dashboard, its resources added to the head's; ``Worker`` -> one worker group
  of the same size (min = max = replicas: a MarsJob does not autoscale). Containers keep image,
  env, resources and mounts; Mars' ``command`` is dropped (KubeRay generates ``ray start``).
- ``memoryTuningPolicy`` (the API field is ``workerMemoryTuningPolicy``; both are read):
  ``workerCacheSize``, else ``workerCachePercentage`` of the worker's memory limit -> object
  store memory; ``spillDirs`` -> emptyDir volumes at those paths (ephemeral-storage shared out
  as KubeDL does, mounted in the head too) and Ray's spilling config on the head (Ray hands it
  to every node). Both through the one tuning object.
- ``webHost`` -> an Ingress on that host routing ``/mars/<namespace>/<name>/...`` to the
  dashboard of the RayJob's head service (``<name>-head-svc``), with KubeDL's rewrite.
- ``cleanPodPolicy`` None (KubeDL's default) keeps the cluster after the job; All / Running
  delete it (``shutdownAfterJobFinishes``); ``ttlSecondsAfterFinished``,
  ``activeDeadlineSeconds`` and ``backoffLimit`` carry over.
- A MarsJob has no entrypoint: its cluster waits for users' sessions, which is a RayJob in
  ``InteractiveMode``; with ``entrypoint`` the RayJob runs that command (K8sJobMode).
"""
from __future__ import annotations

import copy

from ...storage.tuning import WorkerTuning
from . import manifests, rules

ROLES = ("scheduler", "webservice", "worker")
MARS_CONTAINER = "mars"  # KubeDL's default container name for a MarsJob
_DROPPED_CONTAINER_KEYS = ("command", "args", "ports", "readinessProbe", "livenessProbe")


def _quantity(value) -> float:
    from kubernetes.utils.quantity import parse_quantity
    return float(parse_quantity(value))


def _fmt_cpu(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{int(round(value * 1000))}m"


def _main_container(template: dict) -> tuple[dict, list[dict]]:
    containers = ((template.get("spec") or {}).get("containers")) or []
    if not containers:
        raise ValueError("a MarsJob replica template has no container")
    main = next((c for c in containers if c.get("name") == MARS_CONTAINER), containers[0])
    return main, [c for c in containers if c is not main]


def _ray_pod(template: dict, container_name: str, notices: list[str], role: str) -> tuple[dict, dict]:
    """The replica's pod template with its Mars container first (KubeRay's Ray container)."""
    template = copy.deepcopy(template or {})
    main, others = _main_container(template)
    dropped = [k for k in _DROPPED_CONTAINER_KEYS if k in main]
    if dropped:
        notices.append(f"{role}: container {', '.join(dropped)} dropped (KubeRay runs `ray start`)")
    container = {k: v for k, v in main.items() if k not in _DROPPED_CONTAINER_KEYS}
    container["name"] = container_name
    template.setdefault("spec", {})["containers"] = [container] + others
    template["spec"].pop("restartPolicy", None)
    return template, container


def _add_resources(container: dict, extra: dict) -> None:
    for kind in ("requests", "limits"):
        add = (extra.get("resources") or {}).get(kind) or {}
        have = container.setdefault("resources", {}).setdefault(kind, {})
        for name, value in add.items():
            total = _quantity(have.get(name, 0)) + _quantity(value)
            have[name] = _fmt_cpu(total) if name == "cpu" else manifests.quantity(int(total))


def _spill_volumes(container: dict, dirs: list[str]) -> manifests.Spill:
    """KubeDL's spill dirs: an emptyDir per path, ephemeral-storage request shared between them."""
    request = ((container.get("resources") or {}).get("requests") or {}).get("ephemeral-storage")
    volumes, mounts = [], []
    for idx, path in enumerate(dirs):
        name = f"mars-empty-dir-{idx}"
        volume: dict = {"name": name, "emptyDir": {}}
        if request:
            volume["emptyDir"]["sizeLimit"] = str(int(_quantity(request)) // len(dirs))
        volumes.append(volume)
        mounts.append({"name": name, "mountPath": path})
    return manifests.Spill(volumes, mounts, list(dirs))


def _mount(template: dict, container: dict, spill: manifests.Spill) -> None:
    template["spec"]["volumes"] = template["spec"].get("volumes", []) + spill.volumes
    container["volumeMounts"] = container.get("volumeMounts", []) + spill.mounts


def _memory_limit(container: dict) -> int | None:
    res = container.get("resources") or {}
    value = (res.get("limits") or {}).get("memory") or (res.get("requests") or {}).get("memory")
    return int(_quantity(value)) if value is not None else None


def _worker_group(spec: dict, policy: dict, notices: list[str]) -> tuple[dict, manifests.Spill]:
    template, container = _ray_pod(spec.get("template"), manifests.WORKER_CONTAINER, notices, "Worker")
    mem = _memory_limit(container)
    cache = None
    if policy.get("workerCacheSize") is not None:
        cache = int(_quantity(policy["workerCacheSize"]))
    elif policy.get("workerCachePercentage") is not None:
        if mem is None:
            raise ValueError("workerCachePercentage needs a memory limit on the Worker container")
        cache = f"{int(policy['workerCachePercentage'])}%"
    spill = _spill_volumes(container, list(policy.get("spillDirs") or []))
    _mount(template, container, spill)
    if policy.get("plasmaStore") not in (None, "/dev/shm"):
        notices.append(f"plasmaStore {policy['plasmaStore']!r} ignored: Ray's object store lives in "
                       "/dev/shm, which KubeRay mounts with the pod's memory as its size")
    if "lockFreeFileIO" in policy:
        notices.append("lockFreeFileIO ignored: Ray's spilling has no such switch")
    replicas = int(spec.get("replicas", 1))
    return {"groupName": manifests.WORKER_GROUP, "replicas": replicas, "minReplicas": replicas,
            "maxReplicas": replicas,
            "rayStartParams": WorkerTuning(cache_mem=cache).kuberay_start_params(mem),
            "template": template}, spill


def _head_group(specs: dict, spill: manifests.Spill, notices: list[str]) -> dict:
    source = specs.get("scheduler") or specs["worker"]
    template, container = _ray_pod(source.get("template"), manifests.HEAD_CONTAINER, notices, "Scheduler")
    if "scheduler" not in specs:
        container.pop("resources", None)
        notices.append("no Scheduler: the head uses the Worker image with no resource requests")
    if int((specs.get("scheduler") or {}).get("replicas", 1)) != 1:
        notices.append("Scheduler replicas > 1: a Ray cluster has one head")
    web = specs.get("webservice")
    if web:
        web_container, _ = _main_container(web.get("template") or {})
        _add_resources(container, web_container)
        notices.append("WebService: served by the head's Ray dashboard; its resources were added "
                       "to the head's")
    container["ports"] = [{"name": "gcs-server", "containerPort": manifests.GCS_PORT},
                          {"name": "dashboard", "containerPort": manifests.DASHBOARD_PORT},
                          {"name": "client", "containerPort": manifests.CLIENT_PORT}]
    container["lifecycle"] = {"postStart": {"exec": {"command": ["/bin/sh", "-c", manifests.SERVICES_HOOK]}}}
    env = WorkerTuning(spill_dirs=spill.dirs).kuberay_env(head=True)
    if env:
        container["env"] = container.get("env", []) + env
        _mount(template, container, manifests.Spill(
            [{"name": v["name"], "emptyDir": {}} for v in spill.volumes], spill.mounts, spill.dirs))
    return {"rayStartParams": {"num-cpus": "0", "dashboard-host": "0.0.0.0"}, "template": template}


def ingress(name: str, namespace: str | None, host: str) -> dict:
    """KubeDL's web-service Ingress, routed to the RayJob's head service dashboard."""
    ns = namespace or "default"
    metadata: dict = {"name": f"{name}-web", "labels": {"app.kubernetes.io/name": "mars-on-ray",
                                                       "mars-on-ray/job": name},
                      "annotations": {"nginx.ingress.kubernetes.io/rewrite-target": "/$1",
                                      "nginx.ingress.kubernetes.io/use-regex": "true"}}
    if namespace:
        metadata["namespace"] = namespace
    backend = {"service": {"name": f"{name}-head-svc", "port": {"number": manifests.DASHBOARD_PORT}}}
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": metadata,
            "spec": {"rules": [{"host": host, "http": {"paths": [
                {"path": f"/mars/{ns}/{name}/(.*)", "pathType": "ImplementationSpecific",
                 "backend": backend}]}}]}}


def convert_marsjob(marsjob: dict, entrypoint: str | None = None) -> tuple[list[dict], list[str]]:
    """``([RayJob, Ingress?], notices)`` for a MarsJob; notices say what has no Ray meaning."""
    if marsjob.get("kind") != "MarsJob" or not str(marsjob.get("apiVersion", "")).startswith("training.kubedl.io/"):
        raise ValueError(f"not a KubeDL MarsJob: {marsjob.get('apiVersion')}/{marsjob.get('kind')}")
    meta, spec = marsjob.get("metadata") or {}, marsjob.get("spec") or {}
    name, namespace = meta.get("name"), meta.get("namespace")
    specs = {str(role).lower(): value for role, value in (spec.get("marsReplicaSpecs") or {}).items()}
    unknown = set(specs) - set(ROLES)
    if unknown or "worker" not in specs:
        raise ValueError(f"marsReplicaSpecs must hold Worker (and Scheduler, WebService); got {sorted(specs)}")
    notices: list[str] = []
    policy = spec.get("workerMemoryTuningPolicy") or spec.get("memoryTuningPolicy") or {}
    workers, spill = _worker_group(specs["worker"], policy, notices)
    cluster = {"rayVersion": manifests.RAY_VERSION, "headGroupSpec": _head_group(specs, spill, notices),
               "workerGroupSpecs": [workers]}
    clean = spec.get("cleanPodPolicy") or "None"
    if clean not in ("None", "All", "Running"):
        raise ValueError(f"cleanPodPolicy {clean!r}: expected None, All or Running")
    job_spec: dict = {"shutdownAfterJobFinishes": clean != "None"}
    if spec.get("ttlSecondsAfterFinished") is not None:
        # KubeDL deletes the job and its pods that long after it finished
        job_spec.update(shutdownAfterJobFinishes=True, ttlSecondsAfterFinished=int(spec["ttlSecondsAfterFinished"]))
    if spec.get("activeDeadlineSeconds") is not None:
        job_spec["activeDeadlineSeconds"] = int(spec["activeDeadlineSeconds"])
    if entrypoint:
        job_spec.update(entrypoint=entrypoint, submissionMode="K8sJobMode")
        if spec.get("backoffLimit") is not None:
            job_spec["backoffLimit"] = int(spec["backoffLimit"])
    else:
        job_spec["submissionMode"] = "InteractiveMode"
        if spec.get("backoffLimit"):
            notices.append("backoffLimit ignored: an interactive RayJob is not retried")
    job_spec["rayClusterSpec"] = cluster
    labels = {"app.kubernetes.io/name": "mars-on-ray", "mars-on-ray/converted-from": "MarsJob"}
    job_meta: dict = {"name": name, "labels": labels}
    if namespace:
        job_meta["namespace"] = namespace
    out = [{"apiVersion": manifests.API_VERSION, "kind": "RayJob", "metadata": job_meta, "spec": job_spec}]
    if spec.get("webHost"):
        out.append(ingress(name, namespace, spec["webHost"]))
    for key in sorted(set(spec) - {"marsReplicaSpecs", "memoryTuningPolicy", "workerMemoryTuningPolicy",
                                   "webHost", "cleanPodPolicy", "ttlSecondsAfterFinished",
                                   "activeDeadlineSeconds", "backoffLimit"}):
        notices.append(f"spec.{key} has no RayJob meaning and was dropped")
    for obj in out:
        rules.check(obj)
    return out, notices
