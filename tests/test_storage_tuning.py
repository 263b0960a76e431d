"""Mars worker tuning parsed once and rendered for ray.init, `ray start` and KubeRay."""
from __future__ import annotations

import json
import os

import psutil
import pytest

from mars_on_ray.storage.tuning import (HARD_LIMIT, OOM_RETRIES, SEVERAL_DIRS_STORAGE_TYPE, SOFT_LIMIT, Size, WorkerTuning, parse_dirs,
                                        parse_k8s_quantity, parse_size, parse_size_spec)

GiB, MiB = 1024**3, 1024**2


@pytest.mark.parametrize("text, expected", [
    ("4g", 4 * GiB), ("4G", 4 * GiB), ("4gb", 4 * GiB), ("4GiB", 4 * GiB), ("512m", 512 * MiB),
    ("1.5k", 1536), ("100", 100), (" 2 t ", 2 * 1024**4), (1 << 20, 1 << 20), (3e9, 3_000_000_000),
])
def test_sizes_in_mars_forms(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text, share", [("80%", 0.8), ("0%", 0.0), ("100%", 1.0), (0.3, 0.3),
                                         ("0.25", 0.25), ("12.5%", 0.125)])
def test_shares_are_of_the_memory_of_the_node(text, share):
    assert parse_size_spec(text) == Size(share=share)
    assert parse_size(text, total=8 * GiB) == int(8 * GiB * share)


def test_a_share_defaults_to_this_machines_memory():
    assert parse_size("50%") == int(psutil.virtual_memory().total * 0.5)


@pytest.mark.parametrize("bad, message", [
    ("-1g", "negative"), (-5, "negative"), ("-10%", "negative"), ("101%", "over 100%"),
    ("4x", "unknown unit 'x'"), ("4gibibytes", "unknown unit"), ("lots", "cannot read a size"),
    ("", "cannot read a size"), (True, "not a size"),
])
def test_bad_sizes_raise_value_error_naming_the_problem(bad, message):
    with pytest.raises(ValueError, match=message):
        parse_size(bad)


@pytest.mark.parametrize("field", ["cache_mem", "phy_mem", "min_mem"])
def test_bad_tuning_values_raise_when_the_tuning_is_made(field):
    with pytest.raises(ValueError, match=f"{field}: .*over 100%"):
        WorkerTuning(**{field: "150%"})


def test_spill_dirs_from_lists_and_colon_separated_strings(tmp_path):
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    assert parse_dirs([a, b]) == [a, b]
    assert parse_dirs(f"{a}:{b}") == [a, b]
    assert parse_dirs(f"{a}:{b}:{a}") == [a, b]  # a directory named twice is used once
    assert parse_dirs(tmp_path / "a") == [a]
    assert parse_dirs(None) == []
    assert parse_dirs("~/spill") == [os.path.expanduser("~/spill")]
    with pytest.raises(ValueError, match="empty directory name"):
        parse_dirs(["", a])
    assert WorkerTuning(spill_dirs=f"{a}:{b}").spill_dirs == [a, b]


def test_spill_dir_that_cannot_be_created_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    tuning = WorkerTuning(spill_dirs=[str(tmp_path / "ok"), str(blocker / "spill")])
    with pytest.raises(ValueError, match="spill_dirs: .*file/spill.* cannot be created"):
        tuning.ray_init_kwargs()
    with pytest.raises(ValueError, match="cannot be created"):
        tuning.ray_start_args()


def test_spill_dir_on_a_read_only_filesystem_is_a_clear_error():
    if not os.path.isdir("/proc/sys"):
        pytest.skip("no read-only /proc here")
    with pytest.raises(ValueError, match="'/proc/sys/mars-spill' cannot be created or written"):
        WorkerTuning(spill_dirs=["/proc/sys/mars-spill"]).ray_init_kwargs()


def test_ray_init_kwargs(tmp_path):
    dirs = [str(tmp_path / "s1"), str(tmp_path / "s2")]
    kwargs = WorkerTuning(cache_mem="300m", spill_dirs=dirs, phy_mem="4g").ray_init_kwargs()
    assert kwargs["object_store_memory"] == 300 * MiB
    assert kwargs["_memory"] == int(4 * GiB * SOFT_LIMIT) - 300 * MiB
    spilling = json.loads(kwargs["_system_config"]["object_spilling_config"])
    assert spilling == {"type": SEVERAL_DIRS_STORAGE_TYPE, "params": {"directory_path": dirs}}
    one = WorkerTuning(spill_dirs=dirs[:1]).ray_init_kwargs()["_system_config"]
    assert json.loads(one["object_spilling_config"])["type"] == "filesystem"
    assert kwargs["_system_config"]["task_oom_retries"] == OOM_RETRIES  # never an endless loop
    threshold = kwargs["_system_config"]["memory_usage_threshold"]
    assert threshold == pytest.approx(min(0.99, 4 * GiB * HARD_LIMIT / psutil.virtual_memory().total),
                                      abs=1e-3)
    assert all(os.path.isdir(d) for d in dirs)  # created when rendered on the starting machine
    assert WorkerTuning().ray_init_kwargs() == {}


def test_phy_mem_alone_sizes_the_object_store_as_ray_would():
    tuning = WorkerTuning(phy_mem="10g")
    assert tuning.object_store_bytes() == 3 * GiB
    assert tuning.limits() == {"phy": 10 * GiB, "soft": int(7.5 * GiB), "hard": 9 * GiB}


def test_inconsistent_sizes_are_rejected():
    with pytest.raises(ValueError, match="larger than phy_mem"):
        WorkerTuning(cache_mem="8g", phy_mem="4g").ray_start_args()
    with pytest.raises(ValueError, match="min_mem .* larger than phy_mem"):
        WorkerTuning(phy_mem="4g", min_mem="5g").ray_start_args()
    with pytest.raises(ValueError, match="at least"):
        WorkerTuning(cache_mem="10m").ray_init_kwargs()


def test_min_mem_more_than_available_refuses_to_start():
    huge = psutil.virtual_memory().total * 4
    with pytest.raises(MemoryError, match="min_mem"):
        WorkerTuning(min_mem=huge).ray_init_kwargs()
    with pytest.raises(MemoryError, match="min_mem"):
        WorkerTuning(min_mem=huge).ray_start_args()


def test_ray_start_args_and_env(tmp_path):
    dirs = [str(tmp_path / "x"), str(tmp_path / "y")]
    tuning = WorkerTuning(cache_mem="1g", spill_dirs=":".join(dirs), phy_mem="6g")
    assert tuning.ray_start_args() == [f"--object-store-memory={GiB}",
                                       f"--memory={int(6 * GiB * SOFT_LIMIT) - GiB}"]
    head, worker = tuning.ray_start_env(head=True), tuning.ray_start_env(head=False)
    assert json.loads(head["RAY_object_spilling_config"])["params"]["directory_path"] == dirs
    assert "RAY_object_spilling_config" not in worker  # workers take the head's directories
    assert head["RAY_memory_usage_threshold"] == worker["RAY_memory_usage_threshold"]
    assert head["RAY_task_oom_retries"] == worker["RAY_task_oom_retries"] == str(OOM_RETRIES)
    assert all(isinstance(v, str) for v in head.values())
    assert WorkerTuning().ray_start_args() == [] and WorkerTuning().ray_start_env() == {}


def test_kuberay_rendering_resolves_shares_against_the_container_limit():
    tuning = WorkerTuning(cache_mem="25%", spill_dirs=["/spill/a", "/spill/b"], phy_mem="100%",
                          min_mem="2Gi")
    params = tuning.kuberay_start_params(memory_limit="8Gi")
    assert params == {"object-store-memory": str(2 * GiB),
                      "memory": str(int(8 * GiB * SOFT_LIMIT) - 2 * GiB)}
    env = {e["name"]: e["value"] for e in tuning.kuberay_env(memory_limit="8Gi")}
    assert env["RAY_memory_usage_threshold"] == str(HARD_LIMIT)
    assert env["RAY_task_oom_retries"] == str(OOM_RETRIES)
    assert json.loads(env["RAY_object_spilling_config"])["params"]["directory_path"] == [
        "/spill/a", "/spill/b"]
    assert "RAY_object_spilling_config" not in {
        e["name"] for e in tuning.kuberay_env(memory_limit="8Gi", head=False)}
    assert tuning.kuberay_resources(memory_limit="8Gi") == {
        "requests": {"memory": str(2 * GiB)}, "limits": {"memory": str(8 * GiB)}}
    vols = tuning.kuberay_volumes(size_limit="20Gi")
    assert vols["volumes"] == [{"name": "mars-spill-0", "emptyDir": {"sizeLimit": "20Gi"}},
                               {"name": "mars-spill-1", "emptyDir": {"sizeLimit": "20Gi"}}]
    assert vols["volumeMounts"] == [{"name": "mars-spill-0", "mountPath": "/spill/a"},
                                    {"name": "mars-spill-1", "mountPath": "/spill/b"}]


def test_kuberay_needs_the_container_limit_for_shares_and_absolute_dirs():
    with pytest.raises(ValueError, match="memory_limit"):
        WorkerTuning(cache_mem="30%").kuberay_start_params()
    assert WorkerTuning(cache_mem="1g").kuberay_start_params() == {"object-store-memory": str(GiB)}
    with pytest.raises(ValueError, match="absolute"):
        WorkerTuning(spill_dirs=["spill"]).kuberay_volumes()


@pytest.mark.parametrize("quantity, expected", [("8Gi", 8 * GiB), ("8G", 8 * 10**9),
                                                ("512Mi", 512 * MiB), (1000, 1000), ("1.5Gi", int(1.5 * GiB))])
def test_kubernetes_quantities(quantity, expected):
    assert parse_k8s_quantity(quantity) == expected
    with pytest.raises(ValueError, match="Kubernetes memory quantity"):
        parse_k8s_quantity("8 gigs")


def test_new_session_rejects_bad_tuning_before_touching_ray():
    import mars_on_ray as mr

    with pytest.raises(ValueError, match="cache_mem: unknown unit 'q'"):
        mr.new_session(cache_mem="3q")
