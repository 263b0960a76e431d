"""Driving a distributed fit: execute the inputs, cut them into shards, reserve one worker
per shard, run the library's training on every worker at once (each reads its own shard's
blocks from the object store)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ._shards import Layout, layouts, plan_cuts, shard_specs
from ._workers import WorkerGroup


@dataclass
class Sharded:
    """The training inputs' shards and, per evaluation set, its shards (one per worker)."""

    train: list[dict]
    evals: list[list[dict]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.train)

    def for_worker(self, i: int) -> tuple[dict, list[dict]]:
        return self.train[i], [ev[i] for ev in self.evals]


def default_workers(lay: Layout) -> int:
    """One worker per row block of the features, at most one per CPU of the cluster."""
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(len(lay.splits), cpus))


def get_session(session):
    from ... import session as session_mod

    return session or session_mod.get_default_session(create=True)


def shard(session, train: dict, evals: list[dict], n_workers: int | None,
          allowed_cuts=None, data_key: str = "data") -> Sharded:
    """Execute every input and plan the shards; eval sets are split evenly over the same
    workers (a worker may get no eval rows)."""
    session = get_session(session)
    lays = layouts(session, train)
    data = lays[data_key]
    n = default_workers(data) if n_workers is None else int(n_workers)
    if n < 1:
        raise ValueError(f"n_workers must be at least 1, got {n_workers}")
    allowed = allowed_cuts(lays) if callable(allowed_cuts) else allowed_cuts
    cuts = plan_cuts(data.nrows, n, data.boundaries(), allowed)
    sharded = Sharded(shard_specs(lays, cuts))
    for ev in evals:
        ev_lays = layouts(session, ev)
        rows = ev_lays[data_key].nrows
        ev_cuts = [round(i * rows / sharded.n) for i in range(sharded.n + 1)]
        sharded.evals.append(shard_specs(ev_lays, ev_cuts))
    return sharded


def run_on_shards(sharded: Sharded, func, make_args, num_cpus: float = 1) -> list:
    """Reserve one worker per shard and run ``func`` on all of them at once;
    ``make_args(group)`` gives each worker's positional arguments (it may ask the group for
    its members' addresses first)."""
    with WorkerGroup(sharded.n, num_cpus=num_cpus) as group:
        return group.run(func, make_args(group))
