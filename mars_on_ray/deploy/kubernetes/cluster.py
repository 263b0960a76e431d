"""``new_cluster``: Mars' Kubernetes deployment, as a KubeRay RayCluster.

Mars created a namespace, supervisor and worker Deployments and a NodePort service, waited for
the pods and returned a client with ``endpoint`` / ``session`` / ``stop()``. Here the namespace
holds one RayCluster (``ray.io/v1``, through ``CustomObjectsApi``) that the KubeRay operator
turns into a head pod (the supervisor) and a worker group; readiness is read from the
RayCluster's status as the operator reports it.
"""
from __future__ import annotations

import logging
import time
import uuid

from . import manifests, rules

logger = logging.getLogger(__name__)

GROUP, VERSION, PLURAL = "ray.io", "v1", "rayclusters"
CLUSTER_NAME = "mars"


def _api_exception():
    from kubernetes.client.rest import ApiException
    return ApiException


def _status_summary(status: dict) -> str:
    conditions = ", ".join(f"{c.get('type')}={c.get('status')}"
                           + (f" ({c['message']})" if c.get("message") else "")
                           for c in status.get("conditions") or [])
    return (f"state={status.get('state')!r}, ready workers={status.get('readyWorkerReplicas', 0)}"
            f"/{status.get('desiredWorkerReplicas', '?')}, conditions: {conditions or 'none'}")


def head_ready(status: dict) -> bool:
    """The head pod is running and ready (the operator's HeadPodReady condition, or state=ready)."""
    if status.get("state") == "ready":
        return True
    return any(c.get("type") == "HeadPodReady" and c.get("status") == "True"
               for c in status.get("conditions") or [])


class KubernetesClusterClient:
    """A mars_on_ray cluster running as a RayCluster: ``namespace``, ``endpoint``, ``session``.

    ``KubernetesClusterClient(api_client, namespace, endpoint)`` attaches to a running one (its
    endpoint is read from the RayCluster's status when not given); ``close()`` only disconnects;
    ``stop()`` also deletes the RayCluster, and the namespace when ``new_cluster`` created it.
    """

    def __init__(self, api_client, namespace: str, endpoint: str | None = None, *,
                 name: str = CLUSTER_NAME, service_type: str = "NodePort",
                 owns_namespace: bool = False, connect: bool = True):
        from kubernetes import client as kube_client

        self._api_client = api_client
        self._core = kube_client.CoreV1Api(api_client)
        self._custom = kube_client.CustomObjectsApi(api_client)
        self._namespace, self._name = namespace, name
        self._service_type = service_type
        self._owns_namespace = owns_namespace
        self._endpoint = endpoint or self._endpoint_from_status(self.status())
        self._session = None
        self._connected_ray = False
        if connect:
            self._connect()

    @property
    def namespace(self) -> str:
        return self._namespace

    @property
    def name(self) -> str:
        return self._name

    @property
    def endpoint(self) -> str:
        """``ray://host:port``: the Ray Client address of the head (what ``new_session`` takes)."""
        return self._endpoint

    @property
    def session(self):
        return self._session

    def status(self) -> dict:
        obj = self._custom.get_namespaced_custom_object(GROUP, VERSION, self._namespace, PLURAL, self._name)
        return obj.get("status") or {}

    def _endpoint_from_status(self, status: dict) -> str:
        head = status.get("head") or {}
        ports = status.get("endpoints") or {}
        if "client" not in ports:
            raise RuntimeError(f"RayCluster {self._namespace}/{self._name} reports no client "
                               f"endpoint yet ({_status_summary(status)})")
        if self._service_type == "NodePort":
            service = self._core.read_namespaced_service(head["serviceName"], self._namespace)
            (port,) = [p.node_port for p in service.spec.ports if p.name == "client"]
            pod = self._core.read_namespaced_pod(head["podName"], self._namespace)
            return f"ray://{pod.status.host_ip}:{port}"
        host = head.get("serviceIP") or head.get("podIP")
        return f"ray://{host}:{ports['client']}"

    def _connect(self) -> None:
        import ray

        from ...session import new_session

        if ray.is_initialized():
            raise RuntimeError("this process is already connected to Ray; call ray.shutdown() "
                               f"before attaching to {self._endpoint}")
        self._connected_ray = True
        self._session = new_session(self._endpoint)  # the default session from now on

    def close(self) -> None:
        """Close the session and disconnect from the cluster, leaving it running."""
        try:
            if self._session is not None:
                self._session.close()
        finally:
            self._session = None
            if self._connected_ray:
                import ray
                ray.shutdown()
                self._connected_ray = False

    def stop(self, wait: bool = False, timeout: float = 0) -> None:
        """Close the session, delete the RayCluster (and the namespace ``new_cluster`` made).

        ``wait``: block until Kubernetes reports them gone (``timeout`` seconds, 0 = no limit).
        """
        ApiException = _api_exception()
        self.close()
        if self._owns_namespace:
            read = lambda: self._core.read_namespace(self._namespace)  # noqa: E731
            delete = lambda: self._core.delete_namespace(self._namespace)  # noqa: E731
        else:
            read = lambda: self._custom.get_namespaced_custom_object(  # noqa: E731
                GROUP, VERSION, self._namespace, PLURAL, self._name)
            delete = lambda: self._custom.delete_namespaced_custom_object(  # noqa: E731
                GROUP, VERSION, self._namespace, PLURAL, self._name)
        try:
            delete()
        except ApiException as exc:
            if exc.status != 404:
                raise
        start = time.monotonic()
        while wait:
            try:
                read()
            except ApiException as exc:
                if exc.status != 404:
                    raise
                return
            if timeout and time.monotonic() - start > timeout:
                raise TimeoutError(f"{self._namespace} still exists {timeout} s after stop()")
            time.sleep(0.5)


def _free_namespace(core) -> str:
    ApiException = _api_exception()
    while True:
        namespace = "mars-ns-" + uuid.uuid4().hex
        try:
            core.read_namespace(namespace)
        except ApiException as exc:
            if exc.status != 404:
                raise
            return namespace


def build_manifest(image=None, supervisor_num=1, supervisor_cpu=1, supervisor_mem="4G",
                   supervisor_extra_env=None, worker_num=1, worker_cpu=None, worker_mem=None,
                   worker_spill_paths=None, worker_cache_mem=None, min_worker_num=None,
                   worker_extra_env=None, namespace=None, service_type="NodePort",
                   name=CLUSTER_NAME, token_auth=False) -> dict:
    """The RayCluster ``new_cluster`` creates, checked against the operator's rules."""
    if worker_cpu is None or worker_mem is None:
        raise TypeError("`worker_cpu` and `worker_mem` must be specified")
    if supervisor_num != 1:
        raise ValueError(f"supervisor_num={supervisor_num}: a Ray cluster has one head, which runs "
                         "every mars_on_ray service (use supervisor_cpu / supervisor_mem to size it)")
    if min_worker_num is not None and not 0 <= min_worker_num <= worker_num:
        raise ValueError(f"min_worker_num={min_worker_num} must be between 0 and worker_num={worker_num}")
    if service_type not in ("NodePort", "ClusterIP", "LoadBalancer"):
        raise ValueError(f"service_type {service_type!r}: use 'NodePort', 'ClusterIP' or 'LoadBalancer'")
    image = image or manifests.DEFAULT_IMAGE
    spill = manifests.spill_volumes(worker_spill_paths)
    head = manifests.head_group(image, supervisor_cpu, supervisor_mem, supervisor_extra_env,
                                service_type, spill)
    workers = manifests.worker_group(
        image, worker_num, worker_cpu, worker_mem,
        cache_mem=worker_cache_mem or manifests.DEFAULT_WORKER_CACHE_MEM,
        spill=spill, extra_env=worker_extra_env)
    return rules.check(manifests.raycluster(name, namespace, head, [workers], token_auth=token_auth))


def new_cluster(api_client=None, image=None, supervisor_num=1, supervisor_cpu=1, supervisor_mem="4G",
                supervisor_extra_env=None, worker_num=1, worker_cpu=None, worker_mem=None,
                worker_spill_paths=None, worker_cache_mem=None, min_worker_num=None,
                worker_extra_env=None, namespace=None, timeout=None, *, service_type="NodePort",
                poll_interval: float = 1.0) -> KubernetesClusterClient:
    """Start a mars_on_ray cluster on Kubernetes through KubeRay and open a session on it.

    :param api_client: Kubernetes API client (``kubernetes.config.new_client_from_config()``)
    :param image: image with Ray and mars_on_ray (``deploy/kuberay/Dockerfile``)
    :param supervisor_num: must be 1: the Ray head is the one supervisor
    :param supervisor_cpu: CPUs of the head pod
    :param supervisor_mem: memory of the head pod (``"4G"``, bytes)
    :param supervisor_extra_env: extra environment variables of the head
    :param worker_num: number of worker pods
    :param worker_cpu: CPUs of every worker pod (required)
    :param worker_mem: memory of every worker pod (required)
    :param worker_spill_paths: spill directories: host paths (``hostPath`` volumes), or volume
        dicts with ``name`` and ``mountPath``
    :param worker_cache_mem: object store size per worker, bytes or a share of ``worker_mem``
        (``"40%"``, Mars' default)
    :param min_worker_num: ready workers to wait for (``worker_num`` by default)
    :param worker_extra_env: extra environment variables of the workers
    :param namespace: namespace to use (created if missing); a fresh ``mars-ns-*`` by default
    :param timeout: seconds to wait for the cluster (None: no limit); on timeout a
        ``TimeoutError`` is raised and everything created is deleted
    :param service_type: ``NodePort`` (Mars' default: reach the head through a node's port),
        ``ClusterIP`` (the driver runs inside the cluster) or ``LoadBalancer``
    """
    from kubernetes import client as kube_client

    ApiException = _api_exception()
    manifest = build_manifest(
        image, supervisor_num, supervisor_cpu, supervisor_mem, supervisor_extra_env, worker_num,
        worker_cpu, worker_mem, worker_spill_paths, worker_cache_mem, min_worker_num,
        worker_extra_env, service_type=service_type)
    core = kube_client.CoreV1Api(api_client)
    custom = kube_client.CustomObjectsApi(api_client)
    owns_namespace = namespace is None
    namespace = namespace or _free_namespace(core)
    manifest["metadata"]["namespace"] = namespace
    name = manifest["metadata"]["name"]
    created_cluster = False
    try:
        try:
            core.create_namespace(manifests.namespace_manifest(namespace))
            owns_namespace = True
        except ApiException as exc:
            if exc.status != 409:  # 409: the user's namespace exists; use it, never delete it
                raise
        custom.create_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, manifest)
        created_cluster = True
        status = _wait_ready(custom, namespace, name,
                             worker_num if min_worker_num is None else min_worker_num,
                             timeout, poll_interval)
        attach = KubernetesClusterClient(api_client, namespace, name=name, service_type=service_type,
                                         owns_namespace=owns_namespace, connect=False)
        attach._endpoint = attach._endpoint_from_status(status)
        attach._connect()
        return attach
    except BaseException:
        _clean_up(core, custom, namespace, name, owns_namespace, created_cluster)
        raise


def _wait_ready(custom, namespace, name, min_workers, timeout, poll_interval) -> dict:
    start = time.monotonic()
    while True:
        obj = custom.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
        status = obj.get("status") or {}
        if head_ready(status) and (status.get("readyWorkerReplicas") or 0) >= min_workers \
                and "client" in (status.get("endpoints") or {}):
            logger.info("RayCluster %s/%s ready: %s", namespace, name, _status_summary(status))
            return status
        if timeout is not None and time.monotonic() - start > timeout:
            raise TimeoutError(
                f"RayCluster {namespace}/{name} not ready after {timeout} s (waiting for the head "
                f"and {min_workers} ready workers): {_status_summary(status)}. Everything "
                "new_cluster created was deleted.")
        time.sleep(poll_interval)


def _clean_up(core, custom, namespace, name, owns_namespace, created_cluster) -> None:
    """Delete what ``new_cluster`` created; never mask the error that brought us here."""
    try:
        if owns_namespace:
            core.delete_namespace(namespace)
        elif created_cluster:
            custom.delete_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
    except Exception:  # the original error matters more; say what may be left
        logger.exception("could not delete %s after a failed new_cluster", namespace)
