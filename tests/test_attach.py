"""new_session() with ray.init() first, and drivers attaching to a `ray start` head."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import pytest

DRIVER = textwrap.dedent("""
    import sys, numpy as np, ray
    import mars_on_ray as mr, mars_on_ray.tensor as mt
    {init}
    session = mr.new_session()
    a = mt.ones((300, 300), chunk_size=70)
    np.testing.assert_array_equal(mt.inner(a, a).fetch(), np.full((300, 300), 300.0))
    print("ADDRESS", ray.get_runtime_context().gcs_address)
    print("SESSION", session.session_id)
""")


def _run_driver(init: str, env: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", DRIVER.format(init=init)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return dict(line.split(" ", 1) for line in out.stdout.splitlines() if line[:7] in ("ADDRESS", "SESSION"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_new_session_uses_the_ray_a_user_started(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    init = "ray.init(address='local', num_cpus=2, include_dashboard=False); addr = ray.get_runtime_context().gcs_address"
    info = _run_driver(init + "\nimport atexit", env)
    assert info["ADDRESS"] and info["SESSION"]


@pytest.mark.slow
def test_drivers_attach_to_a_ray_start_head(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "RAY_AUTH_MODE": "disabled"}
    port = _free_port()
    from mars_on_ray.deploy.process import RayNode

    head = [sys.executable, "-m", "ray.scripts.scripts", "start", "--block", "--head",
            "--node-ip-address=127.0.0.1", f"--port={port}", "--num-cpus=2",
            "--include-dashboard=false", "--disable-usage-stats"]
    node = RayNode(head, {"HOME": str(tmp_path), "RAY_AUTH_MODE": "disabled"})
    node.start()
    try:
        address = f"127.0.0.1:{port}"
        first = _run_driver(f"ray.init(address={address!r})", env)
        second = _run_driver(f"ray.init(address={address!r})", env)
        # Ray reports the GCS under the host's own interface address, on our port
        assert first["ADDRESS"] == second["ADDRESS"]
        assert first["ADDRESS"].endswith(f":{port}")
        assert first["SESSION"] != second["SESSION"]  # each new_session() is its own session
    finally:
        # only this head: `ray stop` would stop every Ray node on the machine (other tests')
        node.stop()
