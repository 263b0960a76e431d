"""Running a user's training script on a group of Ray workers at once, with the environment
variables its framework reads (torch.distributed's MASTER_ADDR / RANK / WORLD_SIZE,
TensorFlow's TF_CONFIG). The script runs in the worker's process as ``__main__`` with the
``data`` names bound to :class:`RowBlocks` of the executed mars objects."""
from __future__ import annotations

import os
import sys

from ._blocks import RowBlocks
from ._workers import WorkerGroup


def read_script(script) -> tuple[str, str]:
    """(source, file name) of a path, a file-like object or the code itself (bytes)."""
    if hasattr(script, "read"):
        code = script.read()
        name = getattr(script, "name", "<script>")
    elif isinstance(script, bytes):
        code, name = script, "<script>"
    else:
        path = os.path.abspath(os.fspath(script))
        with open(path, "rb") as f:
            code, name = f.read(), path
    return (code.decode() if isinstance(code, bytes) else code), str(name)


def _run(code: str, name: str, env: dict, data: dict, argv: list):
    """Inside a worker: the script with ``env`` set, restored afterwards."""
    saved_env = {k: os.environ.get(k) for k in env}
    saved_argv = sys.argv
    os.environ.update({k: str(v) for k, v in env.items()})
    sys.argv = [name] + list(argv)
    scope = {"__name__": "__main__", "__file__": name, **data}
    try:
        exec(compile(code, name, "exec"), scope)  # the user's own script, as Mars ran it
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise RuntimeError(f"the script exited with status {exc.code}") from None
    finally:
        sys.argv = saved_argv
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        _finish_frameworks()
    return "ok"


def _finish_frameworks() -> None:
    """Leave a pooled worker clean: no torch.distributed group outlives the script."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.distributed.is_available() and torch.distributed.is_initialized():
        torch.distributed.destroy_process_group()


def run_script(script, n_members: int, make_envs, data=None, command_argv=None,
               retry_when_fail: bool = False, session=None) -> dict:
    """Run ``script`` on ``n_members`` workers at once; ``make_envs(addresses)`` gives each
    member's environment from the members' (ip, free port) pairs. Returns {"status": "ok"}."""
    if int(n_members) <= 0:
        raise ValueError("n_workers should be at least 1")
    code, name = read_script(script)
    compile(code, name, "exec")  # a syntax error is the caller's, raised here
    blocks = {k: RowBlocks.of(v, session) for k, v in (data or {}).items()}
    argv = [str(a) for a in (command_argv or [])]
    for attempt in range(2 if retry_when_fail else 1):
        try:
            with WorkerGroup(int(n_members)) as group:
                envs = make_envs(group.addresses())
                group.run(_run, [(code, name, env, blocks, argv) for env in envs])
            return {"status": "ok"}
        except Exception:
            if attempt == (1 if retry_when_fail else 0):
                raise
    raise AssertionError("unreachable")
