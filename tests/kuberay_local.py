"""A RayCluster's pods as local ``ray start`` commands, built the way the KubeRay operator builds
them (ray-operator/controllers/ray/common/pod.go: ``setMissingRayStartParams``,
``generateRayStartCommand``, ``convertParamMap``, ``setContainerEnvVars``, token auth env), so
the manifests' ``rayStartParams``, env and tuning are run for real on loopback.

What differs from a pod, and why: every node shares this machine's network, so the fixed
ports (GCS 6379, dashboard 8265, metrics 8080, agent 52365, client 10001) become free ports
and the dashboard binds 127.0.0.1 instead of 0.0.0.0; a volume mount is a temporary directory
(its path is rewritten in env values and params); ``overrides`` shrink sizes meant for a
16Gi pod, and only for flags the operator's command already has.
"""
from __future__ import annotations

import json
import math
import time

from kubernetes.utils.quantity import parse_quantity

import ray_nodes

DEFAULT_GCS_PORT, DEFAULT_METRICS_PORT, DEFAULT_AGENT_PORT = 6379, 8080, 52365
_EXPLICIT_BOOLEANS = ("log-color", "include-dashboard", "include-log-monitor")
_GPU_KEYS = ("nvidia.com/gpu", "amd.com/gpu")


def _resources_into_params(params: dict, resources: dict) -> None:
    """``updateRayStartParamsResources``: the group's top-level ``resources`` win."""
    custom = {}
    for name, quantity in (resources or {}).items():
        value = parse_quantity(quantity)
        if name.lower() == "cpu":
            params["num-cpus"] = str(int(value))
        elif name.lower() == "memory":
            params["memory"] = str(int(value))
        elif name.lower() in _GPU_KEYS:
            params["num-gpus"] = str(int(value))
        else:
            custom[name] = float(value)
    if custom:
        params["resources"] = f"'{json.dumps(custom)}'"


def complete_params(group: dict, head: bool, head_address: str | None = None) -> dict:
    """``setMissingRayStartParams`` + ``generateRayStartCommand``'s resource defaults."""
    params = dict(group.get("rayStartParams") or {})
    _resources_into_params(params, group.get("resources"))
    if head:
        params.setdefault("dashboard-host", "0.0.0.0")
    else:
        params.setdefault("address", head_address)
    params.setdefault("metrics-export-port", str(DEFAULT_METRICS_PORT))
    params["block"] = "true"
    params.setdefault("dashboard-agent-listen-port", str(DEFAULT_AGENT_PORT))
    container = group["template"]["spec"]["containers"][0]
    limits = (container.get("resources") or {}).get("limits") or {}
    requests = (container.get("resources") or {}).get("requests") or {}
    if "num-cpus" not in params:
        cpu = limits.get("cpu") or requests.get("cpu")
        if cpu is not None and parse_quantity(cpu) != 0:
            params["num-cpus"] = str(math.ceil(parse_quantity(cpu)))  # Quantity.Value() rounds up
    if "memory" not in params and limits.get("memory") is not None:
        params["memory"] = str(int(parse_quantity(limits["memory"])))
    for key in _GPU_KEYS:
        if "num-gpus" not in params and limits.get(key) is not None:
            params["num-gpus"] = str(int(parse_quantity(limits[key])))
    return params


def ray_start_command(params: dict, head: bool) -> list[str]:
    """``convertParamMap``: sorted flags; "true"/"false" are switches except a few options."""
    command = ["ray", "start"] + (["--head"] if head else [])
    for key in sorted(params):
        value = str(params[key])
        if value.lower() in ("true", "false") and key not in _EXPLICIT_BOOLEANS:
            if value.lower() == "true":
                command.append(f"--{key}")
        else:
            command.append(f"--{key}={value}")
    return command


def container_env(container: dict, secrets: dict[str, dict[str, str]], path_map: dict[str, str]) -> dict:
    """The container's env values (secret refs resolved from ``secrets``, paths rewritten)."""
    env = {}
    for item in container.get("env") or []:
        if "value" in item:
            env[item["name"]] = _rewrite(item["value"], path_map)
        else:
            ref = item["valueFrom"]["secretKeyRef"]
            env[item["name"]] = secrets[ref["name"]][ref["key"]]
    return env


def _rewrite(text: str, path_map: dict[str, str]) -> str:
    for old, new in sorted(path_map.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(old, new)
    return text


class LocalRayCluster:
    """Start a RayCluster spec's head and worker pods as ``ray start --block`` children."""

    def __init__(self, name: str, spec: dict, workdir, token: str | None = None,
                 overrides: dict[str, dict[str, str]] | None = None):
        self.name, self.spec, self.workdir = name, spec, workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.token, self.overrides = token, overrides or {}
        self.procs: list = []
        self.ports = {k: ray_nodes.free_port() for k in ("gcs", "dashboard", "client")}
        self.commands: list[list[str]] = []
        self._started: dict = {}
        self.head_proc = None

    @property
    def dashboard_url(self) -> str:
        return f"http://127.0.0.1:{self.ports['dashboard']}"

    def auth_env(self) -> dict:
        """What the operator's ``SetContainerTokenAuthEnvVars`` gives every Ray container."""
        if (self.spec.get("authOptions") or {}).get("mode") != "token":
            return {}
        return {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": self.token}

    def _pod(self, group: dict, head: bool, index: int):
        pod = group["template"]["spec"]
        container = pod["containers"][0]
        path_map = {}
        for mount in container.get("volumeMounts") or []:
            local = self.workdir / f"{'head' if head else f'worker{index}'}-{mount['name']}"
            local.mkdir(parents=True, exist_ok=True)
            path_map[mount["mountPath"]] = str(local)
        params = complete_params(group, head, f"127.0.0.1:{self.ports['gcs']}")
        local = {"metrics-export-port": str(ray_nodes.free_port()),
                 "dashboard-agent-listen-port": str(ray_nodes.free_port())}
        if head:
            local.update({"port": str(self.ports["gcs"]), "dashboard-port": str(self.ports["dashboard"]),
                          "dashboard-host": "127.0.0.1",
                          "ray-client-server-port": str(self.ports["client"])})
        params.update(local)
        role = "head" if head else group["groupName"]
        for key, value in self.overrides.get(role, {}).items():
            assert key in params, f"override {key!r} is not in the operator's command for {role}"
            params[key] = value
        params = {k: _rewrite(v, path_map) for k, v in params.items()}
        env = container_env(container, {self.name: {"auth_token": self.token or ""}}, path_map)
        env.update(self.auth_env())
        env.setdefault("RAY_ADDRESS", f"127.0.0.1:{self.ports['gcs']}")
        return ray_start_command(params, head), env, container, path_map

    def start(self) -> None:
        head = self.spec["headGroupSpec"]
        command, env, container, path_map = self._pod(head, True, 0)
        node_env = ray_nodes.isolated_env(env)
        self.commands.append(command)
        self._start_restarting(command, node_env, self.workdir / "head.log")
        self.head_proc = self.procs[-1]
        hook = ((container.get("lifecycle") or {}).get("postStart") or {}).get("exec", {}).get("command")
        if hook:  # the kubelet runs it in the container right after the container starts
            hook = [_rewrite(part, {"/tmp/": f"{self.workdir}/", **path_map}) for part in hook]
            self.procs.append(ray_nodes.start(hook, node_env, str(self.workdir / "poststart.log")))
        for group in self.spec.get("workerGroupSpecs") or []:
            replicas = min(max(group.get("replicas", 0), group.get("minReplicas", 0)),
                           group.get("maxReplicas", 0))
            for index in range(replicas):
                command, env, _, _ = self._pod(group, False, index)
                self.commands.append(command)
                self._start_restarting(command, ray_nodes.isolated_env(env),
                                       self.workdir / f"worker{index}.log")
        ray_nodes.wait_port(self.ports["dashboard"])

    def _start_restarting(self, command, env, log, attempts: int = 3, timeout: float = 150) -> None:
        """Start a node and wait until it runs; restart it when it exits, as the kubelet restarts
        a pod's container (on an overloaded machine a raylet can miss Ray's 30 s start-up wait)."""
        for _ in range(attempts):
            proc = ray_nodes.start(command, env, str(log))
            self.procs.append(proc)
            deadline = time.monotonic() + timeout
            while proc.poll() is None and time.monotonic() < deadline:
                if self.head_proc is not None and not self.head_alive():
                    raise RuntimeError(f"the head exited while {log.name} was starting")
                if log.read_text(errors="replace").count("Ray runtime started") > self._started.get(log, 0):
                    self._started[log] = self._started.get(log, 0) + 1
                    return
                time.sleep(0.5)
            ray_nodes.stop([proc], grace=10)
        raise RuntimeError(f"{' '.join(command)} did not start after {attempts} attempts; see {log}")

    def head_alive(self) -> bool:
        """``ray start --block`` ends its node when any Ray process of it dies (under heavy load
        the client server can time out at start), as a head container would exit."""
        return self.head_proc is not None and self.head_proc.poll() is None

    def stop(self) -> None:
        ray_nodes.stop(self.procs)
