"""Every KubeRay manifest of the repo, the ones ``new_cluster`` renders and the ones ``kube convert``
writes pass KubeRay's CRD schema (``shared/kuberay/crds``) and the operator's rules; broken
manifests fail them."""
from __future__ import annotations

import copy
import glob
import os

import pytest
import yaml

from kuberay_schema import schema_errors
from mars_on_ray.cli import main as cli_main
from mars_on_ray.deploy.kubernetes import build_manifest, rules
from mars_on_ray.deploy.kubernetes.convert import convert_marsjob
from mars_on_ray.storage.tuning import WorkerTuning

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARSJOB = os.path.join(REPO, "tests", "data", "kubedl_marsjob.yaml")


def _repo_manifests() -> list[tuple[str, dict]]:
    """Every KubeRay object (apiVersion ray.io/*) in a YAML file of the repo (test data aside)."""
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "**", "*.y*ml"), recursive=True)):
        rel = os.path.relpath(path, REPO)
        if rel.startswith(("tests" + os.sep + "data", ".")) or not path.endswith((".yaml", ".yml")):
            continue
        with open(path) as f:
            for i, doc in enumerate(yaml.safe_load_all(f)):
                if isinstance(doc, dict) and str(doc.get("apiVersion", "")).startswith("ray.io/"):
                    found.append((f"{rel}#{i}", doc))
    return found


def _rendered() -> list[tuple[str, dict]]:
    return [
        ("defaults", build_manifest(worker_cpu=2, worker_mem="8G")),
        ("everything", build_manifest(
            image="registry.local/mars:1", supervisor_cpu=2, supervisor_mem="6G",
            supervisor_extra_env={"MARS_LOG": "debug"}, worker_num=5, worker_cpu=4,
            worker_mem="16G", worker_spill_paths=["/data/spill", {"name": "fast", "emptyDir": {},
                                                                   "mountPath": "/fast"}],
            worker_cache_mem="8G", min_worker_num=2, worker_extra_env={"OMP_NUM_THREADS": 4},
            namespace="team-a", service_type="ClusterIP", token_auth=True)),
    ]


def _converted() -> list[tuple[str, dict]]:
    with open(MARSJOB) as f:
        marsjob = yaml.safe_load(f)
    out = []
    for entry in (None, "python /home/ray/examples/quickstart.py"):
        objs, _ = convert_marsjob(marsjob, entrypoint=entry)
        out += [(f"convert({entry})#{obj['kind']}", obj) for obj in objs]
    return out


ALL = _repo_manifests() + _rendered() + _converted()


def test_the_repo_ships_the_raycluster_and_rayjob():
    shipped = {name: obj["kind"] for name, obj in _repo_manifests()}
    assert shipped["deploy/kuberay/raycluster.yaml#0"] == "RayCluster"
    assert shipped["deploy/kuberay/rayjob.yaml#0"] == "RayJob"


@pytest.mark.parametrize("name, obj", ALL, ids=[n for n, _ in ALL])
def test_manifest_is_valid(name, obj):
    if obj["kind"] in ("RayCluster", "RayJob"):
        assert schema_errors(obj) == []
    assert rules.problems(obj) == []


def _cluster():
    return copy.deepcopy(dict(_repo_manifests())["deploy/kuberay/raycluster.yaml#0"])


def _job():
    return copy.deepcopy(dict(_repo_manifests())["deploy/kuberay/rayjob.yaml#0"])


def _workers(obj):
    spec = obj["spec"].get("rayClusterSpec", obj["spec"])
    return spec["workerGroupSpecs"][0]


def _set(path, value):
    def mutate(obj):
        *head, last = path
        target = obj
        for key in head:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return mutate


DELETE = object()
W = ["spec", "workerGroupSpecs", 0]
BROKEN = [
    # (what, base, mutation, "schema" or "rules", message fragment)
    ("typo-field", _cluster, _set(W + ["replica"], 2), "schema", "replica"),
    ("replicas-string", _cluster, _set(W + ["replicas"], "2"), "schema", "is not of type"),
    ("minReplicas-missing", _cluster, _set(W + ["minReplicas"], DELETE), "rules", "must set both"),
    ("min-above-max", _cluster, _set(W + ["minReplicas"], 5), "rules", "greater than maxReplicas"),
    ("replicas-above-max", _cluster, _set(W + ["replicas"], 9), "rules", "outside [minReplicas"),
    ("negative-max", _cluster, _set(W + ["maxReplicas"], -1), "rules", "negative maxReplicas"),
    ("no-head-container", _cluster,
     _set(["spec", "headGroupSpec", "template", "spec", "containers"], []), "rules", "at least one container"),
    ("no-worker-image", _cluster,
     _set(W + ["template", "spec", "containers", 0, "image"], DELETE), "rules", "no image"),
    ("name-not-dns1035", _cluster, _set(["metadata", "name"], "Mars_Cluster"), "rules", "DNS-1035"),
    ("name-starts-with-digit", _cluster, _set(["metadata", "name"], "1mars"), "rules", "DNS-1035"),
    ("name-too-long", _cluster, _set(["metadata", "name"], "m" * 54), "rules", "longer than 53"),
    ("param-not-string", _cluster, _set(W + ["rayStartParams", "object-store-memory"], 10**9),
     "schema", "is not of type 'string'"),
    ("param-not-ray-start-option", _cluster, _set(W + ["rayStartParams", "cache-mem"], "4g"),
     "rules", "not a `ray start` option"),
    ("labels-param", _cluster, _set(W + ["rayStartParams", "labels"], "a=b"), "rules", "labels"),
    ("resources-twice", _cluster, lambda o: (_set(W + ["resources"], {"CPU": "2"})(o),
                                             _set(W + ["rayStartParams", "num-cpus"], "2")(o)),
     "rules", "both rayStartParams"),
    ("token-auth-old-ray", _cluster, _set(["spec", "rayVersion"], "2.40.0"), "rules", "2.52.0"),
    ("auth-mode-unknown", _cluster, _set(["spec", "authOptions", "mode"], "password"), "schema", "password"),
    ("mount-without-volume", _cluster, _set(W + ["template", "spec", "volumes"], DELETE),
     "rules", "undeclared volume"),
    ("duplicate-group", _cluster,
     lambda o: o["spec"]["workerGroupSpecs"].append(copy.deepcopy(o["spec"]["workerGroupSpecs"][0])),
     "rules", "used twice"),
    ("job-ttl-without-shutdown", _job, _set(["spec", "shutdownAfterJobFinishes"], False), "rules",
     "shutdownAfterJobFinishes is false"),
    ("job-negative-ttl", _job, _set(["spec", "ttlSecondsAfterFinished"], -5), "rules", "non-negative"),
    ("job-zero-deadline", _job, _set(["spec", "activeDeadlineSeconds"], 0), "rules", "positive"),
    ("job-no-cluster", _job, _set(["spec", "rayClusterSpec"], DELETE), "rules", "rayClusterSpec or clusterSelector"),
    ("job-no-entrypoint", _job, _set(["spec", "entrypoint"], DELETE), "rules", "entrypoint"),
    ("job-bad-runtime-env", _job, _set(["spec", "runtimeEnvYAML"], "pip: [a\n b: ]"), "rules", "runtimeEnvYAML"),
    ("job-name-too-long", _job, _set(["metadata", "name"], "j" * 48), "rules", "longer than 47"),
    ("job-cluster-min-above-max", _job,
     _set(["spec", "rayClusterSpec", "workerGroupSpecs", 0, "minReplicas"], 7), "rules", "rayClusterSpec: worker group"),
    ("job-unknown-mode-field", _job, _set(["spec", "shutdownAfterJobFinish"], True), "schema", "shutdownAfterJobFinish"),
]


@pytest.mark.parametrize("what, base, mutate, checker, fragment", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_manifest_fails(what, base, mutate, checker, fragment):
    obj = base()
    mutate(obj)
    found = schema_errors(obj) if checker == "schema" else rules.problems(obj)
    assert any(fragment in problem for problem in found), found
    if checker == "rules":
        with pytest.raises(rules.ManifestError, match="invalid"):
            rules.check(obj)
    else:
        assert isinstance(rules.problems(obj), list)  # the rules never crash on ill-typed fields


def test_rayjob_runs_the_raycluster_spec():
    assert _job()["spec"]["rayClusterSpec"] == _cluster()["spec"]


def test_tuning_is_the_tuning_objects_for_the_annotated_tuning():
    spec = _cluster()["spec"]
    group, head = spec["workerGroupSpecs"][0], spec["headGroupSpec"]
    annotations = group["template"]["metadata"]["annotations"]
    tuning = WorkerTuning(cache_mem=annotations["mars-on-ray/cache-mem"],
                          spill_dirs=annotations["mars-on-ray/spill-dirs"])
    worker = group["template"]["spec"]["containers"][0]
    assert group["rayStartParams"] == tuning.kuberay_start_params(worker["resources"]["limits"]["memory"])
    head_container = head["template"]["spec"]["containers"][0]
    assert tuning.kuberay_env(worker["resources"]["limits"]["memory"], head=True)[0] in head_container["env"]
    for pod, container in ((group["template"]["spec"], worker), (head["template"]["spec"], head_container)):
        mounts = {m["mountPath"] for m in container["volumeMounts"]}
        assert set(tuning.spill_dirs) <= mounts  # the spill volume is in every pod


def test_rendered_cluster_has_mars_meaning():
    m = dict(_rendered())["everything"]
    head, group = m["spec"]["headGroupSpec"], m["spec"]["workerGroupSpecs"][0]
    assert m["metadata"]["namespace"] == "team-a" and m["spec"]["authOptions"] == {"mode": "token"}
    assert head["rayStartParams"]["num-cpus"] == "0"
    head_container = head["template"]["spec"]["containers"][0]
    assert head_container["resources"]["limits"] == {"cpu": "2", "memory": "6Gi"}
    assert {"name": "MARS_LOG", "value": "debug"} in head_container["env"]
    assert (group["replicas"], group["minReplicas"], group["maxReplicas"]) == (5, 5, 5)
    worker = group["template"]["spec"]["containers"][0]
    assert worker["resources"]["requests"] == {"cpu": "4", "memory": "16Gi"}
    assert {"name": "OMP_NUM_THREADS", "value": "4"} in worker["env"]
    assert group["rayStartParams"]["object-store-memory"] == str(8 * 1024**3)
    for pod in (group["template"]["spec"], head["template"]["spec"]):  # spill volumes in every pod
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert volumes["mars-spill-0"]["hostPath"]["path"] == "/data/spill" and "emptyDir" in volumes["fast"]
    assert WorkerTuning(spill_dirs=["/mnt/mars-spill-0", "/fast"]).kuberay_env(head=True)[0] in head_container["env"]
    # Mars' default cache: 40% of the worker's memory
    default = dict(_rendered())["defaults"]["spec"]["workerGroupSpecs"][0]
    assert default["rayStartParams"]["object-store-memory"] == str(int(8 * 1024**3 * 0.4))


def _marsjob(**spec):
    with open(MARSJOB) as f:
        job = yaml.safe_load(f)
    job["spec"].update(spec)
    return job


def test_convert_kubedl_example_keeps_its_meaning():
    (job, ing), notices = convert_marsjob(_marsjob())
    cluster = job["spec"]["rayClusterSpec"]
    assert job["metadata"] == {"name": "mars-test-demo", "namespace": "default",
                               "labels": job["metadata"]["labels"]}
    assert job["spec"]["submissionMode"] == "InteractiveMode"  # a MarsJob waits for sessions
    assert job["spec"]["shutdownAfterJobFinishes"] is False  # cleanPodPolicy: None
    head = cluster["headGroupSpec"]["template"]["spec"]
    # Scheduler (2 CPU, 2Gi) + WebService (2 CPU, 2Gi) on the head
    assert head["containers"][0]["resources"]["limits"] == {"cpu": "4", "memory": "4Gi"}
    assert head["containers"][0]["image"] == "mars-image" and "command" not in head["containers"][0]
    assert head["serviceAccountName"] == "kubedl-sa"
    group = cluster["workerGroupSpecs"][0]
    assert (group["replicas"], group["minReplicas"], group["maxReplicas"]) == (2, 2, 2)
    assert group["template"]["spec"]["containers"][0]["resources"]["limits"] == {"cpu": 2, "memory": "2Gi"}
    rule = ing["spec"]["rules"][0]
    assert rule["host"] == "mars.domain.com"
    path = rule["http"]["paths"][0]
    assert path["path"] == "/mars/default/mars-test-demo/(.*)"
    assert path["backend"]["service"] == {"name": "mars-test-demo-head-svc", "port": {"number": 8265}}
    assert any("WebService" in n for n in notices)


@pytest.mark.parametrize("policy_key", ["memoryTuningPolicy", "workerMemoryTuningPolicy"])
def test_convert_memory_tuning(policy_key):
    job = _marsjob(**{policy_key: {"spillDirs": ["/mnt/spill-a", "/mnt/spill-b"],
                                   "workerCachePercentage": 80, "plasmaStore": "/etc/pstore",
                                   "lockFreeFileIO": False}})
    job["spec"]["marsReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["resources"][
        "requests"]["ephemeral-storage"] = "10Gi"
    (rayjob, _), notices = convert_marsjob(job)
    group = rayjob["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]
    assert group["rayStartParams"] == WorkerTuning(cache_mem="80%").kuberay_start_params("2Gi")
    assert int(group["rayStartParams"]["object-store-memory"]) == int(2 * 1024**3 * 0.8)
    head = rayjob["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]
    spilling = WorkerTuning(spill_dirs=["/mnt/spill-a", "/mnt/spill-b"]).kuberay_env(head=True)[0]
    assert spilling in head["containers"][0]["env"]
    assert [m["mountPath"] for m in head["containers"][0]["volumeMounts"]] == ["/mnt/spill-a", "/mnt/spill-b"]
    volumes = group["template"]["spec"]["volumes"]
    assert [v["emptyDir"]["sizeLimit"] for v in volumes] == [str(5 * 1024**3)] * 2
    mounts = [m["mountPath"] for m in group["template"]["spec"]["containers"][0]["volumeMounts"]]
    assert mounts == ["/mnt/spill-a", "/mnt/spill-b"]
    assert any("plasmaStore" in n for n in notices) and any("lockFreeFileIO" in n for n in notices)
    # workerCacheSize wins over the percentage
    job["spec"][policy_key]["workerCacheSize"] = "1Gi"
    (rayjob, _), _ = convert_marsjob(job)
    assert rayjob["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]["rayStartParams"][
        "object-store-memory"] == str(1024**3)


@pytest.mark.parametrize("policy, ttl, shutdown", [("None", None, False), ("All", None, True),
                                                    ("Running", None, True), ("None", 300, True)])
def test_convert_clean_pod_policy(policy, ttl, shutdown):
    extra = {"cleanPodPolicy": policy} | ({"ttlSecondsAfterFinished": ttl} if ttl else {})
    (job, _), _ = convert_marsjob(_marsjob(**extra), entrypoint="python run.py")
    assert job["spec"]["shutdownAfterJobFinishes"] is shutdown
    assert job["spec"].get("ttlSecondsAfterFinished") == ttl
    assert job["spec"]["entrypoint"] == "python run.py" and job["spec"]["submissionMode"] == "K8sJobMode"


@pytest.mark.parametrize("mutate, match", [
    (lambda j: j.update(kind="TFJob"), "not a KubeDL MarsJob"),
    (lambda j: j["spec"]["marsReplicaSpecs"].pop("Worker"), "Worker"),
    (lambda j: j["spec"].update(cleanPodPolicy="Sometimes"), "cleanPodPolicy"),
    (lambda j: j["metadata"].update(name="Mars_Demo"), "DNS-1035"),
])
def test_convert_rejects_what_has_no_meaning(mutate, match):
    job = _marsjob()
    mutate(job)
    with pytest.raises(ValueError, match=match):
        convert_marsjob(job)


def test_cli_convert(tmp_path, capsys):
    out = tmp_path / "rayjob.yaml"
    assert cli_main(["kube", "convert", MARSJOB, "-o", str(out)]) == 0
    docs = list(yaml.safe_load_all(out.read_text()))
    assert [d["kind"] for d in docs] == ["RayJob", "Ingress"]
    assert schema_errors(docs[0]) == [] and rules.problems(docs[1]) == []
    assert "notice: WebService" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: Deployment\n")
    assert cli_main(["kube", "convert", str(bad)]) == 2
    assert "not a KubeDL MarsJob" in capsys.readouterr().err
