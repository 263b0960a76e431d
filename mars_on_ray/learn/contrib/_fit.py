"""Driving a distributed fit: execute the inputs, cut them into shards, reserve one worker
per shard, run the library's training on every worker at once (each reads its own shard's
blocks from the object store)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ._shards import Layout, even_cuts, layouts, plan_cuts, shard_specs
from ._workers import WorkerGroup


@dataclass
class Sharded:
    """The training inputs' shards (rows ``cuts[i]:cuts[i+1]`` for worker i) and, per
    evaluation set, its shards over the same workers."""

    train: list[dict]
    cuts: list[int]
    evals: list[list[dict]] = field(default_factory=list)
    eval_cuts: list[list[int]] = field(default_factory=list)

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
          allowed_cuts=None, eval_allowed=None, data_key: str = "data") -> Sharded:
    """Execute every input and plan the shards. Eval sets are split evenly over the same
    workers (a worker may get no eval rows); ``allowed_cuts`` / ``eval_allowed[i]`` list the
    only row offsets a shard may start at (query-group starts), when given."""
    session = get_session(session)
    lays = layouts(session, train)
    data = lays[data_key]
    n = default_workers(data) if n_workers is None else int(n_workers)
    if n < 1:
        raise ValueError(f"n_workers must be at least 1, got {n_workers}")
    cuts = plan_cuts(data.nrows, n, data.boundaries(), allowed_cuts)
    sharded = Sharded(shard_specs(lays, cuts), cuts)
    for i, ev in enumerate(evals):
        ev_lays = lays if ev is train else layouts(session, ev)
        allowed = eval_allowed[i] if eval_allowed else None
        ev_cuts = even_cuts(ev_lays[data_key].nrows, sharded.n, allowed)
        sharded.evals.append(shard_specs(ev_lays, ev_cuts))
        sharded.eval_cuts.append(ev_cuts)
    return sharded


def run_on_shards(sharded: Sharded, func, make_args, num_cpus: float = 1) -> list:
    """Reserve one worker per shard and run ``func`` on all of them at once;
    ``make_args(group)`` gives each worker's positional arguments (it may ask the group for
    its members' addresses first)."""
    with WorkerGroup(sharded.n, num_cpus=num_cpus) as group:
        return group.run(func, make_args(group))
