"""``mars-on-ray map`` end to end: a subprocess joins the module's Ray and writes a CSV."""
from __future__ import annotations

import os
import subprocess
import sys

import pandas as pd
import pytest

from mars_on_ray.cli import build_parser
from test_cli_nodes import _ray_cli, cli_cluster  # noqa: F401  (the deploy slice's CLI cluster)


def _env(home) -> dict:
    env = {**os.environ, "HOME": str(home)}
    token = os.path.expanduser("~/.ray/auth_token")  # the module's Ray may require its token
    if os.path.exists(token) and "RAY_AUTH_TOKEN_PATH" not in env:
        env["RAY_AUTH_TOKEN_PATH"] = token
    return env


def _run(args, tmp_path, address):
    return subprocess.run([sys.executable, "-m", "mars_on_ray", "map", *args, "--address", address,
                           "--no-progress"], capture_output=True, text=True, timeout=300,
                          env=_env(tmp_path), cwd=tmp_path)


def test_cli_map_writes_the_csv_and_resumes_from_its_checkpoint(ray_cluster, tmp_path):
    address = ray_cluster.get_runtime_context().gcs_address
    out = tmp_path / "result.csv"
    args = ["--expression", "value**2", "--generator-expression", "range(10)",
            "--max-simultaneous", "10", "--out-csv", str(out), "--checkpoint",
            str(tmp_path / "ckpt"), "--job-name", "squares", "--num-cpus", "1", "--memory", "50m"]
    done = _run(args, tmp_path, address)
    assert done.returncode == 0, done.stderr[-3000:]
    expected = pd.DataFrame({"value": range(10), "result": [v**2 for v in range(10)]})
    pd.testing.assert_frame_equal(pd.read_csv(out), expected)
    assert (tmp_path / "ckpt" / "squares" / "status.json").exists()
    out.unlink()
    again = _run(args[:3] + ["range(12)"] + args[4:], tmp_path, address)  # two more inputs
    assert again.returncode == 0, again.stderr[-3000:]
    expected = pd.DataFrame({"value": range(12), "result": [v**2 for v in range(12)]})
    pd.testing.assert_frame_equal(pd.read_csv(out), expected)
    status = pd.read_json(tmp_path / "ckpt" / "squares" / "status.json", typ="series")
    assert status["from_checkpoint"] == 10 and status["done"] == 12


def test_cli_map_reports_a_failing_expression(ray_cluster, tmp_path):
    address = ray_cluster.get_runtime_context().gcs_address
    failed = _run(["--expression", "10 // (value - 2)", "--generator-expression", "range(4)",
                   "--retries", "0"], tmp_path, address)
    assert failed.returncode == 1
    assert "ZeroDivisionError" in failed.stderr and "input 2 (2)" in failed.stderr
    bad = _run(["--expression", "value +", "--generator-expression", "range(3)"], tmp_path, address)
    assert bad.returncode == 2 and "SyntaxError" in bad.stderr


def test_cli_map_is_registered():
    args = build_parser().parse_args(["map", "--expression", "value", "--generator-expression",
                                      "[1]", "--import", "math"])
    assert args.command == "map" and args.imports == ["math"] and callable(args.func)


@pytest.mark.slow
def test_cli_map_through_ray_job_submit(cli_cluster, tmp_path):  # noqa: F811
    """``ray job submit -- python -m mars_on_ray map ...`` on a supervisor and two workers
    started by the CLI; the job writes its CSV on the shared disk."""
    out = tmp_path / "result.csv"
    done = subprocess.run(
        [*_ray_cli(), "job", "submit", "--address", cli_cluster["dashboard"], "--",
         "python", "-m", "mars_on_ray", "map", "--expression", "value * 3",
         "--generator-expression", "range(25)", "--out-csv", str(out), "--no-progress"],
        env=cli_cluster["env"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    expected = pd.DataFrame({"value": range(25), "result": [3 * v for v in range(25)]})
    pd.testing.assert_frame_equal(pd.read_csv(out), expected)
