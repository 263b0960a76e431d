"""``mars-on-ray supervisor`` / ``worker``: Mars' options onto ``ray start``, bad values refused
before anything starts, and (slow) a real cluster of CLI processes on 127.0.0.1 used by
clients, by ``ray job submit`` and by a driver attaching to a job's session."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mars_on_ray.cli import main
from mars_on_ray.deploy import local
from mars_on_ray.deploy.local import DeployError, NodeOptions, plan_node


def _flags(plan) -> dict[str, str]:
    return dict(a.split("=", 1) for a in plan.command if a.startswith("--") and "=" in a)


def test_supervisor_options_map_onto_a_ray_head(tmp_path):
    spill = tmp_path / "a", tmp_path / "b"
    plan = plan_node(NodeOptions("supervisor", advertise="127.0.0.1", host="127.0.0.1", port=7103,
                                 nproc=2, cache_mem="256m", spill_dirs=[f"{spill[0]}:{spill[1]}"],
                                 log_level="DEBUG", dashboard_port=8300, client_port=10500))
    flags = _flags(plan)
    assert "--head" in plan.command and "--block" in plan.command
    assert flags["--node-ip-address"] == "127.0.0.1" and flags["--port"] == "7103"
    assert flags["--num-cpus"] == "2" and flags["--include-dashboard"] == "true"
    assert flags["--dashboard-port"] == "8300" and flags["--ray-client-server-port"] == "10500"
    assert flags["--object-store-memory"] == str(256 * 1024**2)
    assert flags["--logging-level"] == "debug" and plan.env["RAY_BACKEND_LOG_LEVEL"] == "debug"
    assert plan.tuning.spill_dirs == [str(spill[0]), str(spill[1])]
    assert all(p.is_dir() for p in spill)
    assert plan.gcs_address == "127.0.0.1:7103"
    # the supervisor runs services, not chunks, unless --nproc says otherwise
    assert _flags(plan_node(NodeOptions("supervisor")))["--num-cpus"] == "0"


def test_worker_options_map_onto_a_joining_node(tmp_path, monkeypatch):
    monkeypatch.setattr(local, "_check_reachable", lambda address: None)
    plan = plan_node(NodeOptions("worker", supervisors="10.0.0.1:7103,10.0.0.2:7103",
                                 advertise="127.0.0.1", port=7200, cpu_procs=3, net_procs=4,
                                 cuda_devices="0,2", cache_mem="1g", plasma_dir=str(tmp_path)))
    flags = _flags(plan)
    assert "--head" not in plan.command
    assert flags["--address"] == "10.0.0.1:7103" and flags["--node-manager-port"] == "7200"
    assert flags["--num-cpus"] == "3" and flags["--num-gpus"] == "2"
    assert plan.env["CUDA_VISIBLE_DEVICES"] == "0,2"
    assert flags["--object-store-memory"] == str(1024**3)
    assert flags["--plasma-directory"] == str(tmp_path)
    # options without a Ray meaning are accepted with a one-line notice each
    assert any(n.startswith("--net-procs") for n in plan.notices)
    assert any("10.0.0.2:7103" in n for n in plan.notices)
    assert all("\n" not in n for n in plan.notices)


@pytest.mark.parametrize("argv, message", [
    (["worker", "-s", "127.0.0.1:1", "--cache-mem", "120%"], "--cache-mem '120%'"),
    (["worker", "-s", "127.0.0.1:1", "--cache-mem", "lots"], "--cache-mem 'lots'"),
    (["supervisor", "--phy-mem=-5g"], "--phy-mem"),
    (["worker", "-s", "127.0.0.1:1"], "cannot be reached"),
    (["worker", "-s", "nohostport"], "host:port"),
    (["worker"], "needs the supervisor's address"),
    (["supervisor", "--log-level", "LOUD"], "--log-level"),
    (["supervisor", "--log-format", "%(nosuchfield)s"], "--log-format"),
    (["supervisor", "--log-conf", "/nonexistent/logging.ini"], "--log-conf"),
    (["worker", "-s", "127.0.0.1:1", "--cuda-device", "gpu0"], "--cuda-device"),
    (["supervisor", "-p", "70000"], "-p 70000"),
    (["supervisor", "--min-mem", "1000t"], "min_mem"),
])
def test_invalid_values_fail_before_any_node_starts(argv, message, monkeypatch, capsys):
    def no_start(*args, **kwargs):
        raise AssertionError("a node was started")

    monkeypatch.setattr("mars_on_ray.cli.nodes.RayNode", no_start)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_a_spill_dir_that_cannot_be_written_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("mars_on_ray.cli.nodes.RayNode", None)
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["supervisor", "--spill-dirs", f"{tmp_path / 'ok'}:{blocker / 'spill'}"]) == 2
    assert "cannot write there" in capsys.readouterr().err
    with pytest.raises(DeployError, match="--plasma-dir"):
        plan_node(NodeOptions("supervisor", plasma_dir=str(blocker / "plasma")))


def test_help_documents_the_mapping(capsys):
    for command, expected in (("supervisor", ["--node-ip-address", "--num-cpus", "--port"]),
                              ("scheduler", ["--node-ip-address", "--dashboard-port"]),
                              ("worker", ["--object-store-memory", "--num-gpus",
                                          "CUDA_VISIBLE_DEVICES", "--plasma-directory",
                                          "--node-manager-port"])):
        with pytest.raises(SystemExit) as exit_:
            main([command, "--help"])
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        assert all(flag in out for flag in expected), (command, out)


def test_console_entry_point_exits_non_zero_on_bad_value():
    out = subprocess.run([sys.executable, "-m", "mars_on_ray", "worker", "-s", "127.0.0.1:1",
                          "--cache-mem", "120%"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.returncode == 2
    assert "--cache-mem '120%'" in out.stderr and "Traceback" not in out.stderr
