"""A group of Ray tasks that run at the same time, one per shard, for trainers that talk
among themselves.

Distributed trainers (XGBoost's collective, LightGBM's sockets, torch.distributed, TF's
gRPC) block until every member has joined. So the group first reserves one placement-group
bundle per member and fails with a clear error, instead of hanging, when the cluster cannot
host them all in time; then each member runs as a plain Ray task in its bundle (tasks reuse
Ray's pooled worker processes: no interpreter start per fit, as an actor would cost). A
member that fails cancels the others and its error is raised.
"""
from __future__ import annotations

import os
import socket

#: seconds to wait for the cluster to reserve every member's CPUs before giving up
START_TIMEOUT = float(os.environ.get("MARS_ON_RAY_WORKER_START_TIMEOUT", "300"))


def free_port(host: str = "") -> int:
    """A TCP port free on this host now (the OS picks it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _address() -> tuple[str, int]:
    import ray

    return ray.util.get_node_ip_address(), free_port()


def _call(func, args, kwargs):
    return func(*args, **kwargs)


class WorkerGroup:
    """``n`` members of ``num_cpus`` CPUs each, reserved together (bundles spread over nodes
    when the cluster has several). Use as a context manager: the reservation ends on exit."""

    def __init__(self, n: int, num_cpus: float = 1, start_timeout: float | None = None):
        import ray
        from ray.util.placement_group import placement_group

        if n < 1:
            raise ValueError(f"a worker group needs at least one worker, got {n}")
        total = ray.cluster_resources().get("CPU", 0)
        if n * num_cpus > total:
            raise ValueError(f"{n} workers of {num_cpus:g} CPU need {n * num_cpus:g} CPUs; the "
                             f"Ray cluster has {total:g}: use fewer workers")
        self.n, self.num_cpus = n, num_cpus
        self.pg = placement_group([{"CPU": num_cpus}] * n, strategy="SPREAD")
        timeout = START_TIMEOUT if start_timeout is None else start_timeout
        ready, _ = ray.wait([self.pg.ready()], timeout=timeout)
        if not ready:
            self.close()
            raise RuntimeError(f"the cluster could not reserve {n} workers of {num_cpus:g} CPU "
                               f"within {timeout:g} s; its CPUs may be busy")

    def _options(self, i: int) -> dict:
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        strategy = PlacementGroupSchedulingStrategy(self.pg, placement_group_bundle_index=i)
        return {"num_cpus": self.num_cpus, "scheduling_strategy": strategy, "max_retries": 0}

    def addresses(self) -> list[tuple[str, int]]:
        """Per member, the IP of its node and a port free there now."""
        import ray

        probe = ray.remote(_address)
        return ray.get([probe.options(**dict(self._options(i), num_cpus=0)).remote()
                        for i in range(self.n)])

    def run(self, func, per_member_args: list[tuple], **kwargs) -> list:
        """``func(*args, **kwargs)`` on every member at once (member i gets args i); the
        results in member order. The first failure cancels the others and is raised."""
        import ray

        task = ray.remote(_call)
        refs = [task.options(**self._options(i)).remote(func, args, kwargs)
                for i, args in enumerate(per_member_args)]
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                ray.get(done[0])
            except BaseException:
                for ref in pending:
                    ray.cancel(ref, force=True)
                raise
        return ray.get(refs)

    def close(self) -> None:
        from ray.util.placement_group import remove_placement_group

        if self.pg is not None:
            remove_placement_group(self.pg)
            self.pg = None

    def __enter__(self) -> "WorkerGroup":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
