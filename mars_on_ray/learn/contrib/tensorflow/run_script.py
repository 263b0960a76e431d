"""Launch a TensorFlow script on Ray workers with TF_CONFIG set."""
from __future__ import annotations

import json

from .._extras import require
from .._script import run_script


def run_tensorflow_script(script, n_workers: int, n_ps: int = 0, data: dict | None = None,
                          gpu: bool | None = None, command_argv: list | None = None,
                          retry_when_fail: bool = False, session=None, run_kwargs=None,
                          port: int | None = None) -> dict:
    """Run ``script`` on ``n_workers`` workers (and ``n_ps`` parameter servers) at once.

    Each member gets ``TF_CONFIG`` = ``{"cluster": {"worker": [...], "ps": [...]},
    "task": {"type": ..., "index": i}}`` with every member's ``ip:port`` (a port free on its
    node), as ``tf.distribute.MultiWorkerMirroredStrategy`` and ``ParameterServerStrategy``
    read it. ``data`` names become variables of the script bound to the executed mars
    objects' row blocks. Returns ``{"status": "ok"}``; a failing script raises its error.
    """
    require("tensorflow", "tensorflow")
    if gpu:
        raise NotImplementedError("mars_on_ray runs scripts on CPUs only; gpu=True is not supported")
    if int(n_ps) < 0:
        raise ValueError("n_ps should be at least 0")
    n_workers = int(n_workers)
    if n_workers <= 0:
        raise ValueError("n_workers should be at least 1")

    def envs(addresses):
        hosts = [f"{ip}:{p if port is None else port + i}" for i, (ip, p) in enumerate(addresses)]
        cluster = {"worker": hosts[:n_workers]}
        if n_ps:
            cluster["ps"] = hosts[n_workers:]
        roles = [("worker", i) for i in range(n_workers)] + [("ps", i) for i in range(n_ps)]
        return [{"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": t, "index": i}})}
                for t, i in roles]

    return run_script(script, n_workers + int(n_ps), envs, data=data, command_argv=command_argv,
                      retry_when_fail=retry_when_fail, session=session)
