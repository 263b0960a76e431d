"""``mars-on-ray supervisor`` / ``worker``: Mars' options onto ``ray start``, bad values refused
before anything starts, and (slow) a real cluster of CLI processes on 127.0.0.1 used by
clients, by ``ray job submit`` and by a driver attaching to a job's session."""
from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

import psutil
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
    (["supervisor", "--cache-mem", "2g", "--phy-mem", "1g"], "larger than phy_mem"),
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


# -- a real cluster of CLI processes (slow) ------------------------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")

CLIENT = textwrap.dedent("""
    import json, sys, numpy as np, pandas as pd, ray
    import mars_on_ray as mr, mars_on_ray.dataframe as md, mars_on_ray.tensor as mt
    from mars_on_ray.config import using
    how, where = sys.argv[1], sys.argv[2]
    if how == "ray.init":
        ray.init(address=where)
        session = mr.new_session()
    else:
        session = mr.new_session(where)
    # the seed example, with the small-data path off so its chunks spread over the workers
    with using({"small_data_bytes": 0}):
        a = mt.ones((2000, 2000), chunk_size=200)
        b = mt.inner(a, a)
        np.testing.assert_array_equal(b.fetch(), np.full((2000, 2000), 2000.0))
        nodes = dict(session.last_task["nodes"])
        df = md.DataFrame(a).sum()
        pd.testing.assert_series_equal(df.fetch(), pd.DataFrame(np.ones((2000, 2000))).sum())
    print("NODES", json.dumps(nodes))
    session.close()
""")


def _free_port() -> int:
    # an OS-chosen port lies above Ray's worker port range (10002-19999)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CliNode:
    """``python -m mars_on_ray <args>`` as a child; waits for its line starting with ``ready``."""

    def __init__(self, args: list[str], env: dict, ready: str = "MARS_ON_RAY_READY"):
        self.lines: list[str] = []
        self.ready_prefix = ready
        self.proc = subprocess.Popen([sys.executable, "-m", "mars_on_ray", *args], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())
            if line.startswith(self.ready_prefix):
                self.ready.set()

    def wait_ready(self, timeout=420) -> dict:
        deadline = time.monotonic() + timeout
        while not self.ready.wait(1):
            assert self.proc.poll() is None, "\n".join(self.lines[-40:])
            assert time.monotonic() < deadline, "\n".join(self.lines[-40:])
        line = next(x for x in self.lines if x.startswith(self.ready_prefix))
        return dict(p.split("=", 1) for p in line.split() if "=" in p)

    def tree(self) -> list[psutil.Process]:
        root = psutil.Process(self.proc.pid)
        return [root, *root.children(recursive=True)]

    def stop(self, timeout=120, sig=signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)  # SIGTERM as a service manager, SIGINT as Ctrl-C
        return self.proc.wait(timeout)


def _alive(procs) -> list[psutil.Process]:
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.fixture(scope="module")
def cli_cluster(tmp_path_factory):
    """A supervisor and two workers started by the CLI, HOME and Ray's temp dirs isolated."""
    home = tmp_path_factory.mktemp("home")
    # short paths: Ray's unix sockets live under the temp dir (a 107-byte limit)
    temps = [tempfile.mkdtemp(prefix="mr-cli-", dir="/tmp") for _ in range(3)]
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "disabled",
           "PYTHONPATH": os.pathsep.join([ROOT, *sys.path])}
    env.pop("RAY_ADDRESS", None)
    port, dash, client = _free_port(), _free_port(), _free_port()
    nodes = []
    try:
        sup = CliNode(["supervisor", "-H", "127.0.0.1", "-p", str(port), "--dashboard-port",
                       str(dash), "--ray-client-port", str(client), "--temp-dir", temps[0],
                       "--quiet"], env)
        nodes.append(sup)
        info = sup.wait_ready()
        for temp in temps[1:]:  # one after the other: two raylets starting at once on a
            # loaded 2-core host miss Ray's fixed 30 s registration wait more often
            nodes.append(CliNode(["worker", "-s", f"127.0.0.1:{port}", "-a", "127.0.0.1",
                                  "--cpu-procs", "1", "--cache-mem", "300m", "--temp-dir", temp,
                                  "--quiet"], env))
            nodes[-1].wait_ready()
        web_port = _free_port()
        nodes.append(CliNode(["web", "-s", f"127.0.0.1:{port}", "-H", "127.0.0.1", "-p",
                              str(web_port)], env, ready="Dashboard: "))
        nodes[-1].wait_ready()
        yield {"env": env, "nodes": nodes, "temps": temps, "gcs": f"127.0.0.1:{port}",
               "dashboard": info["dashboard"], "client": f"ray://127.0.0.1:{client}",
               "web": f"http://127.0.0.1:{web_port}"}
    finally:
        for node in reversed(nodes):
            node.stop()
        for temp in temps:  # Ray's session logs, sockets and spilled objects
            shutil.rmtree(temp, ignore_errors=True)


def _driver(code_or_path: str, args: list[str], env: dict, timeout=420, logs=None) -> str:
    """Run a driver script; on failure show its output and the tails of ``logs`` (a Ray
    temp dir: the head's Ray client server logs say why a ``ray://`` connection failed)."""
    argv = [code_or_path] if code_or_path.endswith(".py") else ["-c", code_or_path]
    out = subprocess.run([sys.executable, *argv, *args], env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:] + _client_logs(logs)
    return out.stdout


def _client_logs(temp: str | None) -> str:
    if temp is None:
        return ""
    tails = []
    for path in sorted(glob.glob(os.path.join(temp, "session_*", "logs", "ray_client_server*"))):
        with open(path, errors="replace") as f:
            tails.append(f"\n--- {path}\n" + f.read()[-1500:])
    return "".join(tails)


def _worker_node_ids(cluster) -> set[str]:
    code = ("import json, ray; ray.init(address=%r); print('IDS', json.dumps("
            "[n['NodeID'] for n in ray.nodes() if n['Alive'] and n['Resources'].get('CPU')]))")
    out = _driver(code % cluster["gcs"], [], cluster["env"])
    return set(json.loads(out.split("IDS ", 1)[1].splitlines()[0]))


@pytest.mark.slow
def test_clients_run_the_seed_example_on_both_workers(cli_cluster):
    workers = _worker_node_ids(cli_cluster)
    assert len(workers) == 2  # the head offers no CPUs: the chunks run on the workers
    env = cli_cluster["env"]
    for how, where in (("address", cli_cluster["web"]), ("address", cli_cluster["client"]),
                       ("ray.init", cli_cluster["gcs"])):
        out = _driver(CLIENT, [how, where], env, logs=cli_cluster["temps"][0])
        nodes = json.loads(out.split("NODES ", 1)[1].splitlines()[0])
        assert set(nodes) == workers, (how, nodes)
        assert sum(nodes.values()) >= 10
    # the seed example itself, unchanged: RAY_ADDRESS points its new_session() at the cluster
    out = _driver(os.path.join(EXAMPLES, "quickstart.py"), [],
                  {**env, "RAY_ADDRESS": cli_cluster["gcs"]})
    assert "quickstart OK" in out


def _ray_cli() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "ray")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "ray.scripts.scripts"]


@pytest.mark.slow
def test_ray_job_submit_runs_the_quickstart_unchanged(cli_cluster):
    out = subprocess.run(
        [*_ray_cli(), "job", "submit", "--address", cli_cluster["dashboard"],
         "--working-dir", "examples", "--", "python", "quickstart.py"],
        cwd=ROOT, env=cli_cluster["env"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "inner:" in out.stdout and "quickstart OK" in out.stdout
    assert "succeeded" in out.stdout.lower()


JOB = textwrap.dedent("""
    import os, sys, time
    import mars_on_ray as mr, mars_on_ray.tensor as mt
    session = mr.new_session()
    t = mt.arange(1000, chunk_size=300).execute()
    print("SESSION", session.session_id, flush=True)
    deadline = time.time() + 600
    while not os.path.exists(sys.argv[1]) and time.time() < deadline:
        time.sleep(0.5)
    print("SUM", int(t.sum().fetch()), flush=True)
    session.close()
""")

ATTACH = textwrap.dedent("""
    import sys, ray
    import mars_on_ray as mr, mars_on_ray.tensor as mt
    from mars_on_ray.services import get_service
    ray.init(address=sys.argv[1])
    session = mr.new_session(session_id=sys.argv[2])
    assert session.session_id == sys.argv[2]
    stats = ray.get(get_service("meta").stats.remote())
    print("NBYTES", stats[sys.argv[2]]["nbytes"])
    print("RESULT", (mt.ones(10, chunk_size=3) * 2).sum().fetch())
""")


@pytest.mark.slow
def test_a_driver_attaches_to_a_jobs_session_by_id(cli_cluster, tmp_path):
    from ray.job_submission import JobStatus, JobSubmissionClient

    (tmp_path / "job.py").write_text(JOB)
    flag = tmp_path / "attached"
    jobs = JobSubmissionClient(cli_cluster["dashboard"])
    job = jobs.submit_job(entrypoint=f"python job.py {flag}",
                          runtime_env={"working_dir": str(tmp_path)})
    try:
        deadline = time.monotonic() + 420
        while "SESSION " not in jobs.get_job_logs(job):
            assert jobs.get_job_status(job) in (JobStatus.PENDING, JobStatus.RUNNING), \
                jobs.get_job_logs(job)
            assert time.monotonic() < deadline
            time.sleep(1)
        session_id = jobs.get_job_logs(job).split("SESSION ", 1)[1].split()[0]
        out = _driver(ATTACH, [cli_cluster["gcs"], session_id], cli_cluster["env"])
        # the job's data is in the attached session: arange(1000) of int64
        assert int(out.split("NBYTES ", 1)[1].split()[0]) >= 8000
        assert "RESULT 20.0" in out
    finally:
        flag.write_text("done")
    deadline = time.monotonic() + 300
    while jobs.get_job_status(job) not in (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.STOPPED):
        assert time.monotonic() < deadline
        time.sleep(1)
    assert jobs.get_job_status(job) == JobStatus.SUCCEEDED, jobs.get_job_logs(job)
    assert "SUM 499500" in jobs.get_job_logs(job)


@pytest.mark.slow
def test_nodes_stop_cleanly_on_sigterm_or_ctrl_c(cli_cluster):
    """Runs last in this module: stops the cluster and checks nothing of it is left."""
    nodes = cli_cluster["nodes"]
    procs = [p for node in nodes for p in node.tree()]
    assert len(procs) > 3 * 4  # each node: our command, ray start, raylet, agents, ...
    for node in reversed(nodes):  # the web service, the workers, then the supervisor
        ctrl_c = node is nodes[1]  # one worker is stopped as by Ctrl-C at its terminal
        assert node.stop(sig=signal.SIGINT if ctrl_c else signal.SIGTERM) == 0, \
            "\n".join(node.lines[-30:])
        assert node is nodes[-1] or node.lines[-1].endswith(": stopped")
    deadline = time.monotonic() + 60
    while _alive(procs) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _alive(procs), [p.cmdline()[:3] for p in _alive(procs)]
    leftovers = []
    for p in psutil.process_iter(["cmdline"]):
        cmdline = " ".join(p.info["cmdline"] or [])
        if any(temp in cmdline for temp in cli_cluster["temps"]):
            leftovers.append(cmdline[:200])
    assert not leftovers
