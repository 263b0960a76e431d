"""Launch a PyTorch script on Ray workers with torch.distributed's environment."""
from __future__ import annotations

from .._extras import require
from .._script import run_script


def run_pytorch_script(script, n_workers: int, data: dict | None = None, gpu: bool | None = None,
                       command_argv: list | None = None, retry_when_fail: bool = False,
                       session=None, run_kwargs=None, port: int | None = None) -> dict:
    """Run ``script`` (a path, file-like object or code) on ``n_workers`` Ray workers at once.

    Each gets ``MASTER_ADDR`` / ``MASTER_PORT`` (worker 0's address; ``port`` or a free
    one), ``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK`` and ``LOCAL_WORLD_SIZE``, so
    ``torch.distributed.init_process_group("gloo")`` works unchanged. ``data`` names become
    variables of the script, bound to the executed mars objects' row blocks (usable with
    :class:`MarsDataset`). Returns ``{"status": "ok"}``; a failing script raises its error.
    """
    require("torch", "pytorch")
    if gpu:
        raise NotImplementedError("mars_on_ray runs scripts on CPUs only; gpu=True is not supported")

    def envs(addresses):
        master_ip, free = addresses[0]
        per_node: dict[str, int] = {}
        local = []
        for ip, _ in addresses:
            local.append(per_node.get(ip, 0))
            per_node[ip] = local[-1] + 1
        return [{"MASTER_ADDR": master_ip, "MASTER_PORT": port or free, "RANK": i,
                 "WORLD_SIZE": len(addresses), "LOCAL_RANK": local[i],
                 "LOCAL_WORLD_SIZE": per_node[ip]}
                for i, (ip, _) in enumerate(addresses)]

    return run_script(script, n_workers, envs, data=data, command_argv=command_argv,
                      retry_when_fail=retry_when_fail, session=session)
