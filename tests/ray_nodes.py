"""Ray nodes as ``ray start --block`` children of the test, stopped by the test (never ``ray stop``,
which would stop every Ray on the machine)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 120, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{proc.args} exited with {proc.returncode} before port {port} opened")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def isolated_env(extra: dict | None = None) -> dict:
    """The environment for a node: own HOME, this worktree on PYTHONPATH, no inherited RAY_ADDRESS."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    # a node's SIGTERM drain waits for its detached actors (the services) up to 30 s by default
    env.update(RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S="3",
               HOME=tempfile.mkdtemp(prefix="mars-kube-home-"),
               PYTHONPATH=os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH")) if p))
    env.update(extra or {})
    return env


def start(command: list[str], env: dict, log_path: str) -> subprocess.Popen:
    """Start ``command`` (a ``ray start ... --block``) in its own process group."""
    log = open(log_path, "ab")
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def stop(procs: list[subprocess.Popen], grace: float = 45) -> None:
    """SIGTERM each ``ray start --block`` (it drains its node and stops its own processes), in
    reverse start order (workers before the head), then SIGKILL whatever is left of their groups."""
    for proc in reversed(procs):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if proc.poll() is None:
            proc.wait(10)
