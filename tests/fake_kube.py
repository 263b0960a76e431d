"""A Kubernetes API server on loopback with a simulated KubeRay operator, for ``new_cluster`` tests.

No container engine or API server can run on the test machine, and no maintained Python package
serves the Kubernetes REST API, so this one follows the real one where ``new_cluster`` touches it:
the REST paths of core/v1 namespaces, services, pods and ray.io/v1 RayClusters; ``Status``
error bodies with their codes (404 NotFound, 409 AlreadyExists, 422 Invalid against the CRD
schema, 403 in a terminating namespace); namespaces going through ``Terminating`` before they
disappear with everything in them; and a RayCluster's status filled in as the operator does
(``calculateStatus``): conditions HeadPodReady / RayClusterProvisioned, ``head``,
``endpoints``, ``readyWorkerReplicas`` counting up, ``state: ready``. ``worker_cap`` stops the
workers short to provoke timeouts.
"""
from __future__ import annotations

import json
import re
import threading
import time
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from kuberay_schema import schema_errors


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _status(code: int, reason: str, message: str, name: str = "", kind: str = "") -> dict:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "details": {"name": name, "kind": kind},
            "code": code}


class FakeKube:
    """``with FakeKube(...) as kube:`` serves on ``kube.host``; ``kube.api_client()`` talks to it."""

    def __init__(self, ports: dict[str, int] | None = None, node_ip: str = "127.0.0.1",
                 tick: float = 0.2, worker_cap: int | None = None, terminate_after: float = 0.3):
        self.ports = ports or {"client": 10001, "dashboard": 8265, "gcs-server": 6379}
        self.node_ip, self.tick, self.worker_cap = node_ip, tick, worker_cap
        self.terminate_after = terminate_after
        self.namespaces: dict[str, dict] = {}
        self.objects: dict[tuple[str, str, str], dict] = {}  # (plural, namespace, name) -> object
        self.created_at: dict[tuple[str, str], float] = {}
        self.requests: list[tuple[str, str, int]] = []
        self.lock = threading.RLock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.host = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self):
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self._server.shutdown()
        self._server.server_close()

    def api_client(self):
        from kubernetes import client

        config = client.Configuration(host=self.host)
        return client.ApiClient(config)

    # -- state ---------------------------------------------------------------------------------
    def live_namespaces(self) -> set[str]:
        with self.lock:
            self._expire()
            return set(self.namespaces)

    def _expire(self) -> None:
        for name, ns in list(self.namespaces.items()):
            gone_at = ns.get("_gone_at")
            if gone_at is not None and time.monotonic() >= gone_at:
                del self.namespaces[name]
                for key in [k for k in self.objects if k[1] == name]:
                    del self.objects[key]
                    self.created_at.pop(key[1:], None)

    def _meta(self, body: dict, namespace: str | None) -> dict:
        meta = body.setdefault("metadata", {})
        meta.update(uid=str(uuid.uuid4()), creationTimestamp=_now(), resourceVersion="1", generation=1)
        if namespace:
            meta["namespace"] = namespace
        return body

    def _raycluster_status(self, obj: dict) -> None:
        """What the operator reports ``elapsed`` seconds after the RayCluster was created."""
        ns, name = obj["metadata"]["namespace"], obj["metadata"]["name"]
        stage = int((time.monotonic() - self.created_at[(ns, name)]) / self.tick)
        groups = obj["spec"].get("workerGroupSpecs") or []
        desired = sum(max(g.get("minReplicas", 0), min(g.get("replicas", 0), g.get("maxReplicas", 0)))
                      for g in groups)
        if stage < 1:
            obj.pop("status", None)
            return
        head_pod, head_svc = f"{name}-head-x7k2p", f"{name}-head-svc"
        ready = max(0, min(stage - 3, desired, desired if self.worker_cap is None else self.worker_cap))
        head_state = "missing" if stage < 2 else "starting" if stage < 3 else "ready"
        conditions = [
            {"type": "HeadPodReady", "status": "True" if head_state == "ready" else "False",
             "reason": {"missing": "HeadPodNotFound", "starting": "ContainersNotReady",
                        "ready": "HeadPodRunningAndReady"}[head_state],
             "message": "Head Pod not found" if head_state == "missing" else "",
             "lastTransitionTime": _now()},
            {"type": "RayClusterProvisioned",
             "status": "True" if head_state == "ready" and ready == desired else "False",
             "reason": "AllPodRunningAndReadyFirstTime" if head_state == "ready" and ready == desired
             else "RayClusterPodsProvisioning", "message": "", "lastTransitionTime": _now()},
            {"type": "RayClusterSuspended", "status": "False", "reason": "RayClusterSuspended",
             "message": "", "lastTransitionTime": _now()},
        ]
        status = {"observedGeneration": 1, "desiredWorkerReplicas": desired,
                  "minWorkerReplicas": sum(g.get("minReplicas", 0) for g in groups),
                  "maxWorkerReplicas": sum(g.get("maxReplicas", 0) for g in groups),
                  "readyWorkerReplicas": ready, "availableWorkerReplicas": ready,
                  "conditions": conditions, "lastUpdateTime": _now()}
        if head_state != "missing":
            status["head"] = {"podName": head_pod, "podIP": self.node_ip}
            self._ensure_head_objects(obj, head_pod, head_svc)
        if head_state == "ready":
            status["head"].update(serviceName=head_svc, serviceIP=self.node_ip)
            status["endpoints"] = {k: str(v) for k, v in self.ports.items()}
        if head_state == "ready" and ready == desired:
            status["state"] = "ready"
        obj["status"] = status

    def _ensure_head_objects(self, cluster: dict, pod: str, svc: str) -> None:
        ns = cluster["metadata"]["namespace"]
        service_type = cluster["spec"]["headGroupSpec"].get("serviceType", "ClusterIP")
        ports = [{"name": k, "port": v, "targetPort": v, "protocol": "TCP",
                  **({"nodePort": v} if service_type == "NodePort" else {})}
                 for k, v in self.ports.items()]
        self.objects.setdefault(("services", ns, svc), {
            "apiVersion": "v1", "kind": "Service",
            "metadata": {"name": svc, "namespace": ns, "uid": str(uuid.uuid4())},
            "spec": {"type": service_type, "clusterIP": self.node_ip, "ports": ports}})
        self.objects.setdefault(("pods", ns, pod), {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": pod, "namespace": ns, "uid": str(uuid.uuid4())},
            "spec": {"containers": cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"]},
            "status": {"phase": "Running", "hostIP": self.node_ip, "podIP": self.node_ip}})

    # -- REST ----------------------------------------------------------------------------------
    def handle(self, method: str, path: str, body: dict | None) -> tuple[int, dict]:
        with self.lock:
            self._expire()
            if m := re.fullmatch(r"/api/v1/namespaces", path):
                if method == "POST":
                    name = body["metadata"]["name"]
                    if name in self.namespaces:
                        return 409, _status(409, "AlreadyExists", f'namespaces "{name}" already exists',
                                            name, "namespaces")
                    obj = self._meta(body, None)
                    obj["status"] = {"phase": "Active"}
                    self.namespaces[name] = obj
                    return 201, obj
            elif m := re.fullmatch(r"/api/v1/namespaces/([^/]+)", path):
                name = m.group(1)
                if name not in self.namespaces:
                    return 404, _status(404, "NotFound", f'namespaces "{name}" not found', name, "namespaces")
                obj = self.namespaces[name]
                if method == "DELETE" and obj["status"]["phase"] != "Terminating":
                    obj["status"]["phase"] = "Terminating"
                    obj["metadata"]["deletionTimestamp"] = _now()
                    obj["_gone_at"] = time.monotonic() + self.terminate_after
                if method in ("GET", "DELETE"):
                    return 200, {k: v for k, v in obj.items() if not k.startswith("_")}
            elif m := re.fullmatch(r"/(?:api/v1|apis/ray\.io/v1)/namespaces/([^/]+)/"
                                   r"(rayclusters|services|pods)(?:/([^/]+))?", path):
                ns, plural, name = m.groups()
                if (plural == "rayclusters") != path.startswith("/apis/"):
                    return 404, _status(404, "NotFound", "the server could not find the requested resource")
                return self._namespaced(method, ns, plural, name, body)
            return 404, _status(404, "NotFound", "the server could not find the requested resource")

    def _namespaced(self, method, ns, plural, name, body) -> tuple[int, dict]:
        if method == "POST" and name is None:
            if ns not in self.namespaces:
                return 404, _status(404, "NotFound", f'namespaces "{ns}" not found', ns, "namespaces")
            if self.namespaces[ns]["status"]["phase"] == "Terminating":
                return 403, _status(403, "Forbidden", f"{plural} is forbidden: unable to create new "
                                    f"content in namespace {ns} because it is being terminated")
            name = (body.get("metadata") or {}).get("name")
            if (plural, ns, name) in self.objects:
                return 409, _status(409, "AlreadyExists", f'{plural}.ray.io "{name}" already exists',
                                    name, plural)
            errors = schema_errors(body) if plural == "rayclusters" else []
            if errors:
                return 422, _status(422, "Invalid", f'RayCluster.ray.io "{name}" is invalid: '
                                    + "; ".join(errors), name, plural)
            obj = self._meta(body, ns)
            self.objects[(plural, ns, name)] = obj
            self.created_at[(ns, name)] = time.monotonic()
            return 201, obj
        key = (plural, ns, name)
        if key not in self.objects:
            return 404, _status(404, "NotFound", f'{plural} "{name}" not found', name, plural)
        obj = self.objects[key]
        if plural == "rayclusters":
            self._raycluster_status(obj)
        if method == "GET":
            return 200, obj
        if method == "DELETE":
            del self.objects[key]
            for other in [k for k in self.objects if k[1] == ns and k[0] != "rayclusters"]:
                del self.objects[other]  # the operator's pods and services go with their cluster
            return 200, obj
        return 405, _status(405, "MethodNotAllowed", f"{method} is not supported")

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    code, out = 400, _status(400, "BadRequest", "request body is not JSON")
                else:
                    code, out = fake.handle(self.command, self.path.split("?")[0], body)
                fake.requests.append((self.command, self.path, code))
                data = json.dumps(out).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = _serve

            def log_message(self, *args):  # keep pytest output clean
                pass

        return Handler
