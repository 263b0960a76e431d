"""deploy/kuberay run for real on loopback: raycluster.yaml's pods as the operator's ``ray start``
commands (token auth, spill config, postStart services hook), and rayjob.yaml's entrypoint
submitted to them as the operator's submitter does."""
from __future__ import annotations

import os
import secrets
import subprocess
import time

import pytest
import yaml

import ray_nodes
from kuberay_local import LocalRayCluster, complete_params, ray_start_command

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGE_EXAMPLES = "/home/ray/examples"  # where deploy/kuberay/Dockerfile puts examples/


def _load(name):
    with open(os.path.join(REPO, "deploy", "kuberay", name)) as f:
        return yaml.safe_load(f)


def test_operator_commands_for_the_manifest():
    spec = _load("raycluster.yaml")["spec"]
    head = ray_start_command(complete_params(spec["headGroupSpec"], head=True), head=True)
    assert head == ["ray", "start", "--head", "--block", "--dashboard-agent-listen-port=52365",
                    "--dashboard-host=0.0.0.0", f"--memory={4 * 1024**3}",
                    "--metrics-export-port=8080", "--num-cpus=0"]
    group = spec["workerGroupSpecs"][0]
    worker = ray_start_command(complete_params(group, False, "mars-head-svc.default.svc.cluster.local:6379"),
                               head=False)
    assert worker == ["ray", "start", "--address=mars-head-svc.default.svc.cluster.local:6379", "--block",
                      "--dashboard-agent-listen-port=52365", f"--memory={16 * 1024**3}",
                      "--metrics-export-port=8080", "--num-cpus=4",
                      f"--object-store-memory={group['rayStartParams']['object-store-memory']}"]
    from ray.scripts.scripts import start  # every flag is one `ray start` knows
    options = {opt for p in start.params for opt in p.opts}
    assert all(arg.split("=")[0] in options for arg in head[2:] + worker[2:])


def _wait_services(cluster, timeout=240):
    """The head's postStart hook starts the mars_on_ray services once Ray answers."""
    log = cluster.workdir / "mars-services.log"
    deadline = time.monotonic() + timeout
    while "services running" not in (log.read_text() if log.exists() else ""):
        if not cluster.head_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"services not started (head alive: {cluster.head_alive()})")
        time.sleep(1)


def _ray(args, env, timeout=300):
    return subprocess.run(["ray", *args], env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow  # three `ray start` nodes and a job: 3-5 minutes on this loaded 2-core machine
@pytest.mark.timeout(1800)  # up to three cluster starts when raylets miss Ray's start-up wait
def test_rayjob_entrypoint_runs_on_the_raycluster_pods(tmp_path):
    cluster_obj, job = _load("raycluster.yaml"), _load("rayjob.yaml")
    assert job["spec"]["rayClusterSpec"] == cluster_obj["spec"]
    token = secrets.token_hex(16)  # the operator puts a generated one in Secret <cluster name>
    # pods sized for 4 CPUs / 16Gi shrunk to this 2-core machine; only flags the operator sets
    small = {"object-store-memory": str(150 * 1024**2), "num-cpus": "1", "memory": str(1024**3)}
    overrides = {"workers": small, "head": {"memory": str(1024**3)}}
    for attempt in range(3):  # a head pod that exits is restarted with its cluster, here too
        cluster = LocalRayCluster(cluster_obj["metadata"]["name"], cluster_obj["spec"],
                                  tmp_path / f"attempt{attempt}", token, overrides=overrides)
        try:
            cluster.start()
            _wait_services(cluster)
            break
        except BaseException as exc:  # a pytest timeout too: never leave a node running
            cluster.stop()
            if attempt == 2 or not isinstance(exc, (RuntimeError, TimeoutError)):
                raise
    try:
        assert sum(c[:3] == ["ray", "start", "--address=127.0.0.1:%d" % cluster.ports["gcs"]]
                   for c in cluster.commands) == 2  # two workers joined the head
        client_env = ray_nodes.isolated_env(cluster.auth_env())
        # token auth is really on: without the token the dashboard refuses
        refused = _ray(["job", "list", "--address", cluster.dashboard_url],
                       ray_nodes.isolated_env({"RAY_AUTH_MODE": "token"}), timeout=120)
        assert refused.returncode != 0

        # the operator's K8sJobMode submitter: submit --no-wait with an id, then follow the logs
        entrypoint = job["spec"]["entrypoint"].replace(IMAGE_EXAMPLES, os.path.join(REPO, "examples"))
        job_id = f"{job['metadata']['name']}-{secrets.token_hex(3)}"
        submit = _ray(["job", "submit", "--address", cluster.dashboard_url, "--no-wait",
                       "--submission-id", job_id, "--", *entrypoint.split()], client_env)
        assert submit.returncode == 0, submit.stdout + submit.stderr
        logs = _ray(["job", "logs", "--address", cluster.dashboard_url, "--follow", job_id],
                    client_env, timeout=400)
        status = _ray(["job", "status", "--address", cluster.dashboard_url, job_id], client_env)
        assert "succeeded" in status.stdout.lower(), status.stdout + logs.stdout + logs.stderr
        assert "quickstart OK" in logs.stdout
    finally:
        cluster.stop()
    assert all(proc.poll() is not None for proc in cluster.procs)
