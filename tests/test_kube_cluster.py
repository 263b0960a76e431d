"""``new_cluster`` / ``KubernetesClusterClient`` against a Kubernetes API on loopback (fake_kube.py)
whose "operator" points the RayCluster's endpoints at a real local Ray head started here."""
from __future__ import annotations

import time

import numpy as np
import pytest
from kubernetes.client.rest import ApiException

import ray_nodes
from fake_kube import FakeKube
from kuberay_schema import schema_errors
from mars_on_ray.deploy.kubernetes import KubernetesClusterClient, build_manifest, new_cluster
from mars_on_ray.deploy.kubernetes.cluster import GROUP, PLURAL, VERSION

SMALL = dict(worker_cpu=1, worker_mem="2G", poll_interval=0.05)


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    """A Ray head (``ray start --block`` child) whose Ray Client port the fake operator reports."""
    ports = {"gcs-server": ray_nodes.free_port(), "client": ray_nodes.free_port(),
             "dashboard": ray_nodes.free_port()}
    log = tmp_path_factory.mktemp("ray") / "head.log"
    proc = ray_nodes.start(
        ["ray", "start", "--head", "--block",
         f"--port={ports['gcs-server']}", f"--ray-client-server-port={ports['client']}",
         f"--dashboard-port={ports['dashboard']}", "--include-dashboard=false", "--num-cpus=2",
         f"--object-store-memory={200 * 1024**2}", "--disable-usage-stats"],
        ray_nodes.isolated_env(), str(log))
    try:
        ray_nodes.wait_port(ports["client"], proc=proc)
        yield ports
    finally:
        ray_nodes.stop([proc])


def _cluster_namespace(kube) -> str:
    (namespace,) = {path.split("/")[5] for method, path, code in kube.requests
                    if method == "POST" and path.endswith("/rayclusters")}
    return namespace


def _gone(kube, namespace, wait=3.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if namespace not in kube.live_namespaces():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow  # a `ray start` head and two Ray Client connections: ~1-2 min on a loaded machine
@pytest.mark.timeout(900)
def test_new_cluster_session_attach_and_stop(ray_head):
    import mars_on_ray as mr
    import mars_on_ray.tensor as mt
    import ray

    with FakeKube(ports=ray_head, tick=0.1) as kube:
        api = kube.api_client()
        cluster = new_cluster(api, worker_num=2, timeout=60, **SMALL)
        try:
            assert cluster.namespace.startswith("mars-ns-")
            assert cluster.endpoint == f"ray://127.0.0.1:{ray_head['client']}"  # the head's NodePort
            assert mr.get_default_session() is cluster.session
            data = np.arange(1200.0).reshape(40, 30)
            result = mt.tensor(data, chunk_size=7).sum(axis=0).execute().fetch()
            np.testing.assert_allclose(result, data.sum(axis=0))
            status = cluster.status()
            assert status["state"] == "ready" and status["readyWorkerReplicas"] == 2
            created = kube.objects[(PLURAL, cluster.namespace, "mars")]
            assert schema_errors(created) == []  # the fake's status follows the CRD too

            # a second driver attaches by namespace alone (endpoint read from the status)
            cluster.session.close()
            ray.shutdown()
            attached = KubernetesClusterClient(api, cluster.namespace)
            assert attached.endpoint == cluster.endpoint
            assert mt.ones((10, 10), chunk_size=3).sum().execute().fetch() == 100
            attached.close()  # disconnects, the cluster keeps running
            assert not ray.is_initialized() and cluster.status()["state"] == "ready"
        finally:
            cluster.stop(wait=True, timeout=10)
        assert not ray.is_initialized()
        assert cluster.namespace not in kube.live_namespaces()
        assert ("POST", "/api/v1/namespaces", 201) in kube.requests
        assert ("POST", f"/apis/ray.io/v1/namespaces/{cluster.namespace}/rayclusters", 201) in kube.requests


def test_new_cluster_timeout_leaves_nothing_behind():
    import ray

    with FakeKube(tick=0.05, worker_cap=1) as kube:  # the second worker never becomes ready
        with pytest.raises(TimeoutError, match=r"not ready after 0.5 s.*ready workers=1/2"):
            new_cluster(kube.api_client(), worker_num=2, timeout=0.5, **SMALL)
        namespace = _cluster_namespace(kube)
        assert ("DELETE", f"/api/v1/namespaces/{namespace}", 200) in kube.requests
        assert _gone(kube, namespace) and not kube.objects
        assert not ray.is_initialized()


def test_new_cluster_min_worker_num_is_enough(monkeypatch):
    connected = []
    monkeypatch.setattr(KubernetesClusterClient, "_connect", lambda self: connected.append(self.endpoint))
    with FakeKube(tick=0.05, worker_cap=1) as kube:  # one of the two workers ever gets ready
        cluster = new_cluster(kube.api_client(), worker_num=2, min_worker_num=1, timeout=20, **SMALL)
        assert connected == [cluster.endpoint]
        status = cluster.status()
        assert status["readyWorkerReplicas"] == 1 and status["desiredWorkerReplicas"] == 2
        cluster.stop(wait=True, timeout=5)
        assert not kube.live_namespaces()


def test_new_cluster_connection_failure_deletes_namespace(monkeypatch):
    def refuse(self):
        raise ConnectionError("Ray Client refused")

    monkeypatch.setattr(KubernetesClusterClient, "_connect", refuse)
    with FakeKube(tick=0.02) as kube:
        with pytest.raises(ConnectionError, match="refused"):
            new_cluster(kube.api_client(), timeout=20, **SMALL)
        assert _gone(kube, _cluster_namespace(kube))


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(worker_mem="2G"), TypeError, "worker_cpu"),
    (dict(worker_cpu=1, worker_mem="2G", supervisor_num=2), ValueError, "one head"),
    (dict(worker_cpu=1, worker_mem="2G", worker_num=2, min_worker_num=3), ValueError, "min_worker_num"),
    (dict(worker_cpu=1, worker_mem="2G", worker_cache_mem="lots"), ValueError, "size"),
    (dict(worker_cpu=1, worker_mem="2G", worker_spill_paths=[3]), TypeError, "worker_spill_paths"),
    (dict(worker_cpu=1, worker_mem="2G", service_type="Ingress"), ValueError, "service_type"),
])
def test_new_cluster_bad_arguments_fail_before_any_request(kwargs, error, match):
    with FakeKube() as kube:
        with pytest.raises(error, match=match):
            new_cluster(kube.api_client(), timeout=5, **kwargs)
        assert kube.requests == []


def test_new_cluster_in_users_namespace_keeps_it():
    with FakeKube(tick=0.05, worker_cap=0) as kube:
        api = kube.api_client()
        from kubernetes import client
        client.CoreV1Api(api).create_namespace({"metadata": {"name": "team-a"}})
        with pytest.raises(TimeoutError):
            new_cluster(api, namespace="team-a", timeout=0.3, **SMALL)
        assert "team-a" in kube.live_namespaces()
        assert ("DELETE", "/apis/ray.io/v1/namespaces/team-a/rayclusters/mars", 200) in kube.requests
        assert not kube.objects


def _create(api, namespace, manifest):
    from kubernetes import client
    client.CoreV1Api(api).create_namespace({"metadata": {"name": namespace}})
    manifest["metadata"]["namespace"] = namespace
    return client.CustomObjectsApi(api).create_namespaced_custom_object(
        GROUP, VERSION, namespace, PLURAL, manifest)


def test_attach_reads_endpoint_from_status_and_stop_deletes_only_the_raycluster():
    ports = {"client": 31001, "dashboard": 31265, "gcs-server": 31379}
    with FakeKube(ports=ports, tick=0.02) as kube:
        api = kube.api_client()
        _create(api, "ns-a", build_manifest(worker_cpu=1, worker_mem="1G", service_type="ClusterIP"))
        with pytest.raises(RuntimeError, match="no client endpoint"):  # head not up yet
            KubernetesClusterClient(api, "ns-a", service_type="ClusterIP", connect=False)
        time.sleep(0.2)
        client = KubernetesClusterClient(api, "ns-a", service_type="ClusterIP", connect=False)
        assert client.endpoint == "ray://127.0.0.1:31001"
        client.stop(wait=True, timeout=5)
        assert "ns-a" in kube.live_namespaces() and not kube.objects
        client.stop()  # stopping twice is harmless (404 ignored)


def test_api_server_rejects_schema_violations_with_422():
    with FakeKube() as kube:
        manifest = build_manifest(worker_cpu=1, worker_mem="1G")
        manifest["spec"]["workerGroupSpecs"][0]["replicas"] = "two"
        with pytest.raises(ApiException) as info:
            _create(kube.api_client(), "ns-b", manifest)
        assert info.value.status == 422 and "replicas" in info.value.body
