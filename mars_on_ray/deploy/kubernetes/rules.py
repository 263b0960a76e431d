"""The rules the KubeRay operator (and Kubernetes' pod validation) apply beyond the CRD schema.

The API server only checks a RayCluster / RayJob against the CRD's OpenAPI schema; the operator
then rejects specs that break these rules (it logs an event and never creates the pods), so a
manifest that passes ``kubectl apply`` can still never start. ``problems(obj)`` lists them for
RayCluster, RayJob and Ingress objects; ``check(obj)`` raises ``ManifestError``. Rules marked
"ours" are stricter than the operator where it would silently change the meaning.
"""
from __future__ import annotations

import re

import yaml

MAX_RAYCLUSTER_NAME = 53
MAX_RAYJOB_NAME = MAX_RAYCLUSTER_NAME - 6  # the operator appends a suffix for the job's cluster
MIN_TOKEN_AUTH_RAY = (2, 52, 0)
MIN_K8S_TOKEN_AUTH_RAY = (2, 55, 0)
_DNS1035 = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_RESOURCE_PARAMS = ("num-cpus", "num-gpus", "memory", "resources")


class ManifestError(ValueError):
    """A manifest the KubeRay operator or Kubernetes would reject."""


def check(obj: dict) -> dict:
    """Return ``obj`` if it breaks no rule, else raise ``ManifestError`` listing every problem."""
    found = problems(obj)
    if found:
        name = (obj.get("metadata") or {}).get("name")
        raise ManifestError(f"{obj.get('kind')} {name!r} is invalid:\n  - " + "\n  - ".join(found))
    return obj


def problems(obj: dict) -> list[str]:
    kind = obj.get("kind")
    name = (obj.get("metadata") or {}).get("name") or ""
    if kind == "RayCluster":
        return _name(name, MAX_RAYCLUSTER_NAME, _DNS1035, "DNS-1035 label") + \
            cluster_spec_problems(obj.get("spec") or {}, obj.get("metadata") or {})
    if kind == "RayJob":
        return _name(name, MAX_RAYJOB_NAME, _DNS1035, "DNS-1035 label") + _rayjob(obj)
    if kind == "Ingress":
        return _name(name, 253, _DNS1123_SUBDOMAIN, "DNS-1123 subdomain") + _ingress(obj)
    if kind == "Namespace":
        return _name(name, 63, _DNS1123_LABEL, "DNS-1123 label")
    return [f"unknown kind {kind!r}"]


def _name(name: str, limit: int, pattern: re.Pattern, what: str) -> list[str]:
    if not name:
        return ["metadata.name is empty"]
    out = []
    if len(name) > limit:
        out.append(f"metadata.name {name!r} is longer than {limit} characters")
    if not pattern.fullmatch(name) or len(name) > 63 and what.endswith("label"):
        out.append(f"metadata.name {name!r} is not a valid {what}")
    return out


def _version(text: str) -> tuple[int, ...] | None:
    match = re.match(r"v?(\d+)\.(\d+)(?:\.(\d+))?", text or "")
    return tuple(int(g or 0) for g in match.groups()) if match else None


def _pod_problems(where: str, template: dict) -> list[str]:
    """Kubernetes' pod validation: containers exist, are named (DNS-1123, unique) and have images."""
    containers = ((template or {}).get("spec") or {}).get("containers") or []
    if not containers:
        return [f"{where} should have at least one container"]
    out, seen = [], set()
    for c in containers:
        cname = c.get("name") or ""
        if not _DNS1123_LABEL.fullmatch(cname) or len(cname) > 63:
            out.append(f"{where}: container name {cname!r} is not a DNS-1123 label")
        if cname in seen:
            out.append(f"{where}: container name {cname!r} is used twice")
        seen.add(cname)
        if not c.get("image"):
            out.append(f"{where}: container {cname!r} has no image")
    volumes = {v.get("name") for v in ((template or {}).get("spec") or {}).get("volumes") or []}
    for c in containers:
        for mount in c.get("volumeMounts") or []:
            if mount.get("name") not in volumes:
                out.append(f"{where}: container {c.get('name')!r} mounts undeclared volume "
                           f"{mount.get('name')!r}")
    return out


def _group_problems(where: str, group: dict) -> list[str]:
    params = group.get("rayStartParams") or {}
    out = []
    if any(params.get(key) for key in _RESOURCE_PARAMS) and group.get("resources"):
        out.append(f"{where}: resource fields set in both rayStartParams and resources")
    if "labels" in params:
        out.append(f"{where}: rayStartParams['labels'] is not supported, use labels")
    out += _ray_start_problems(where, params)
    return out


def _ray_start_problems(where: str, params: dict) -> list[str]:
    """Ours: every rayStartParams key is a ``ray start`` option (the operator passes them on)."""
    from ray.scripts.scripts import start

    options = {opt[2:] for p in start.params for opt in p.opts if opt.startswith("--")}
    return [f"{where}: rayStartParams[{key!r}] is not a `ray start` option"
            for key in params if key not in options]


def _env(container: dict, name: str) -> str | None:
    for env in container.get("env") or []:
        if env.get("name") == name:
            return env.get("value", "")
    return None


def cluster_spec_problems(spec: dict, metadata: dict | None = None) -> list[str]:
    """The operator's RayCluster spec rules (also applied to a RayJob's rayClusterSpec)."""
    out = []
    head = spec.get("headGroupSpec") or {}
    out += _pod_problems("headGroupSpec", head.get("template"))
    out += _group_problems("headGroupSpec", head)
    autoscaling = bool(spec.get("enableInTreeAutoscaling"))
    names = set()
    for i, group in enumerate(spec.get("workerGroupSpecs") or []):
        gname = group.get("groupName") or f"#{i}"
        where = f"worker group {gname}"
        if gname in names:  # ours: pods of two groups would share labels
            out.append(f"{where}: groupName is used twice")
        names.add(gname)
        out += _pod_problems(where, group.get("template"))
        lo, hi, replicas = (group.get(k) for k in ("minReplicas", "maxReplicas", "replicas"))
        if not all(v is None or isinstance(v, int) for v in (lo, hi, replicas)):
            out.append(f"{where}: minReplicas, maxReplicas and replicas must be integers")
            lo, hi, replicas = (v if isinstance(v, int) else None for v in (lo, hi, replicas))
        if not autoscaling and (lo is None or hi is None):
            out.append(f"{where} must set both minReplicas and maxReplicas when autoscaling is disabled")
        for field, value in (("minReplicas", lo), ("maxReplicas", hi), ("replicas", replicas)):
            if value is not None and value < 0:
                out.append(f"{where} has negative {field} {value}")
        if lo is not None and hi is not None and lo > hi:
            out.append(f"{where} has minReplicas {lo} greater than maxReplicas {hi}")
        # ours: the operator clamps replicas into [min, max], silently changing the size asked for
        if replicas is not None and ((lo is not None and replicas < lo) or (hi is not None and replicas > hi)):
            out.append(f"{where} has replicas {replicas} outside [minReplicas, maxReplicas] = [{lo}, {hi}]")
        if group.get("suspend"):
            out.append(f"{where} can be suspended only with the RayJobDeletionPolicy feature gate")
        if group.get("idleTimeoutSeconds") is not None and \
                (spec.get("autoscalerOptions") or {}).get("version") != "v2":
            out.append(f"{where}: idleTimeoutSeconds needs autoscaler v2")
        out += _group_problems(where, group)
    head_containers = ((head.get("template") or {}).get("spec") or {}).get("containers") or [{}]
    if (head.get("rayStartParams") or {}).get("redis-username") or \
            _env(head_containers[0], "REDIS_USERNAME") is not None:
        out.append("redis username must be set in gcsFaultToleranceOptions.redisUsername")
    if not autoscaling and _env(head_containers[0], "RAY_enable_autoscaler_v2") in ("1", "true"):
        out.append("RAY_enable_autoscaler_v2 needs enableInTreeAutoscaling: true")
    auth = spec.get("authOptions") or {}
    version = _version(spec.get("rayVersion", ""))
    if auth.get("mode") == "token":
        if version is None:
            out.append("authOptions.mode is 'token' but rayVersion is missing or invalid")
        elif version < MIN_TOKEN_AUTH_RAY:
            out.append(f"authOptions.mode is 'token' but rayVersion {spec['rayVersion']} < 2.52.0")
        elif auth.get("enableK8sTokenAuth") and version < MIN_K8S_TOKEN_AUTH_RAY:
            out.append("authOptions.enableK8sTokenAuth needs rayVersion >= 2.55.0")
        if auth.get("enableK8sTokenAuth") and auth.get("secretName"):
            out.append("authOptions.enableK8sTokenAuth and authOptions.secretName are both set")
    elif auth.get("enableK8sTokenAuth"):
        out.append("authOptions.enableK8sTokenAuth is set but authOptions.mode is not 'token'")
    if (metadata or {}).get("annotations", {}).get("ray.io/ft-enabled") and spec.get("gcsFaultToleranceOptions"):
        out.append("ray.io/ft-enabled annotation and gcsFaultToleranceOptions are both set")
    return out


def _rayjob(obj: dict) -> list[str]:
    spec = obj.get("spec") or {}
    out = []
    shutdown = bool(spec.get("shutdownAfterJobFinishes"))
    ttl = spec.get("ttlSecondsAfterFinished", 0)
    mode = spec.get("submissionMode", "K8sJobMode")
    if spec.get("suspend") and not shutdown:
        out.append("a RayJob with shutdownAfterJobFinishes false cannot be suspended")
    if ttl < 0:
        out.append("ttlSecondsAfterFinished must be non-negative")
    if not shutdown and ttl > 0:
        out.append("ttlSecondsAfterFinished is set but shutdownAfterJobFinishes is false")
    selector = spec.get("clusterSelector") or {}
    if not spec.get("rayClusterSpec") and not selector:
        out.append("one of rayClusterSpec or clusterSelector must be set")
    backoff = spec.get("backoffLimit")
    if selector:
        if spec.get("suspend"):
            out.append("clusterSelector mode does not support suspend")
        if not selector.get("ray.io/cluster"):
            out.append("clusterSelector needs a non-empty 'ray.io/cluster'")
        if mode == "SidecarMode":
            out.append("clusterSelector is not supported in SidecarMode")
        if backoff:
            out.append("backoffLimit is incompatible with clusterSelector mode")
    if mode == "InteractiveMode" and backoff:
        out.append("backoffLimit is incompatible with InteractiveMode")
    cluster = spec.get("rayClusterSpec")
    if mode == "SidecarMode":
        if spec.get("submitterPodTemplate") or spec.get("submitterConfig"):
            out.append("SidecarMode supports neither submitterPodTemplate nor submitterConfig")
        restart = (((cluster or {}).get("headGroupSpec") or {}).get("template") or {}) \
            .get("spec", {}).get("restartPolicy")
        if restart not in (None, "", "Never"):
            out.append("SidecarMode needs the head restartPolicy Never or unset")
    if cluster:
        if (cluster.get("authOptions") or {}).get("enableK8sTokenAuth"):
            out.append("K8s token auth is not supported for RayJob")
        out += ["rayClusterSpec: " + p for p in cluster_spec_problems(cluster, obj.get("metadata"))]
    try:
        yaml.safe_load(spec.get("runtimeEnvYAML") or "")
    except yaml.YAMLError as exc:
        out.append(f"runtimeEnvYAML is not valid YAML: {exc}")
    for field in ("activeDeadlineSeconds", "preRunningDeadlineSeconds"):
        if spec.get(field) is not None and spec[field] <= 0:
            out.append(f"{field} must be a positive integer")
    if backoff is not None and backoff < 0:
        out.append("backoffLimit must be non-negative")
    if mode != "InteractiveMode" and not spec.get("entrypoint"):  # ours: nothing would run
        out.append("entrypoint is empty")
    return out


def _ingress(obj: dict) -> list[str]:
    """Kubernetes' networking.k8s.io/v1 Ingress validation (the parts our manifests use)."""
    out = []
    if obj.get("apiVersion") != "networking.k8s.io/v1":
        out.append(f"Ingress apiVersion {obj.get('apiVersion')!r} is not networking.k8s.io/v1")
    spec = obj.get("spec") or {}
    if not spec.get("rules") and not spec.get("defaultBackend"):
        out.append("Ingress has neither rules nor defaultBackend")
    for rule in spec.get("rules") or []:
        host = rule.get("host")
        if host is not None and not _DNS1123_SUBDOMAIN.fullmatch(host.removeprefix("*.")):
            out.append(f"Ingress host {host!r} is not a DNS-1123 subdomain")
        for path in (rule.get("http") or {}).get("paths") or []:
            if path.get("pathType") not in ("Exact", "Prefix", "ImplementationSpecific"):
                out.append(f"Ingress path {path.get('path')!r} has pathType {path.get('pathType')!r}")
            if not str(path.get("path", "")).startswith("/"):
                out.append(f"Ingress path {path.get('path')!r} must be absolute")
            service = (path.get("backend") or {}).get("service") or {}
            port = service.get("port") or {}
            if not service.get("name") or not (port.get("number") or port.get("name")):
                out.append("Ingress backend needs service.name and service.port")
    return out
