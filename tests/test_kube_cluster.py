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
        ["ray", "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
         f"--port={ports['gcs-server']}", f"--ray-client-server-port={ports['client']}",
         f"--dashboard-port={ports['dashboard']}", "--include-dashboard=false", "--num-cpus=2",
         f"--object-store-memory={200 * 1024**2}", "--disable-usage-stats"],
        ray_nodes.isolated_env(), str(log))
    try:
        ray_nodes.wait_port(ports["client"], proc=proc)
        yield ports
    finally:
        ray_nodes.stop([proc])


def _gone(kube, namespace, wait=3.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if namespace not in kube.live_namespaces():
            return True
        time.sleep(0.05)
    return False


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
