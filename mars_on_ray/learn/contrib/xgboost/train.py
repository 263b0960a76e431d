"""Distributed XGBoost training: one Ray actor per shard, joined by XGBoost's collective.

The driver starts XGBoost's ``RabitTracker``; each actor reads its shard's blocks from the
object store, builds a local ``DMatrix`` and runs ``xgboost.train`` inside a
``collective.CommunicatorContext``. XGBoost itself merges the quantile sketches and
all-reduces the gradient histograms (and evaluation metrics), so every worker ends with the
same model; rank 0's is returned.
"""
from __future__ import annotations

from .._extras import require
from .._fit import shard
from .._workers import WorkerGroup
from .._shards import load_all
from .dmatrix import MarsDMatrix, to_dmatrix

#: seconds the tracker waits for workers to connect (0: XGBoost's default, no limit)
TRACKER_TIMEOUT = 600


def _dmatrix(xgb, parts: dict, kwargs: dict):
    return xgb.DMatrix(parts["data"], label=parts.get("label"), weight=parts.get("weight"),
                       base_margin=parts.get("base_margin"), **kwargs)


def _train_shard(tracker_args: dict, task: str, params: dict, spec: dict, eval_specs: list,
                 eval_names: list, dm_kwargs: dict, eval_dm_kwargs: list, num_boost_round: int,
                 kwargs: dict):
    """Inside a worker: XGBoost training on this shard as one member of the collective."""
    import xgboost as xgb
    from xgboost import collective

    dtrain = _dmatrix(xgb, load_all(spec), dm_kwargs)
    evals = []
    for ev_spec, name, ev_kwargs in zip(eval_specs, eval_names, eval_dm_kwargs):
        evals.append((dtrain if ev_spec is None else _dmatrix(xgb, load_all(ev_spec), ev_kwargs), name))
    history: dict = {}
    with collective.CommunicatorContext(**tracker_args, dmlc_task_id=task):
        booster = xgb.train(params, dtrain, num_boost_round, evals=evals, evals_result=history,
                            **kwargs)
        rank = collective.get_rank()
    return (bytes(booster.save_raw("ubj")), history) if rank == 0 else None


def train(params: dict, dtrain, num_boost_round: int = 10, *, evals=(), evals_result=None,
          n_workers: int | None = None, num_cpus_per_worker: float = 1, session=None, **kwargs):
    """Train an XGBoost model on a :class:`MarsDMatrix`, one Ray worker per data shard.

    ``params``, ``num_boost_round`` and the other keyword arguments (``obj``,
    ``custom_metric``, ``early_stopping_rounds``, ``verbose_eval``, ``xgb_model``,
    ``callbacks``, ...) are ``xgboost.train``'s. ``evals`` are ``(MarsDMatrix, name)``
    pairs, split over the same workers; ``evals_result`` (a dict) receives the metrics.
    ``n_workers`` defaults to one per row block of the data, at most one per CPU.
    Returns an ``xgboost.Booster``.
    """
    xgb = require("xgboost", "xgboost")
    from xgboost.tracker import RabitTracker

    kwargs.pop("run_kwargs", None)  # Mars' execution options: nothing to pass on here
    dtrain = to_dmatrix(dtrain)
    if dtrain.label is None and not callable(kwargs.get("obj")):
        raise ValueError("dtrain needs a label to train on")
    eval_pairs = []
    for pair in evals or ():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[1], str):
            raise TypeError("evals must be a list of (MarsDMatrix, name) pairs")
        eval_pairs.append((pair[0] if pair[0] is dtrain else to_dmatrix(pair[0]), pair[1]))
    separate = [dm for dm, _ in eval_pairs if dm is not dtrain]
    sharded = shard(session, dtrain.fields(), [dm.fields() for dm in separate], n_workers)
    params = dict(params or {})
    params.setdefault("nthread", max(1, int(num_cpus_per_worker)))

    import ray

    width = len(str(sharded.n))

    def worker_args(tracker_args):
        out = []
        for i in range(sharded.n):
            train_spec, ev_specs = sharded.for_worker(i)
            it = iter(ev_specs)
            specs = [None if dm is dtrain else next(it) for dm, _ in eval_pairs]
            out.append((tracker_args, str(i).zfill(width), params, train_spec, specs,
                        [name for _, name in eval_pairs], dtrain.dmatrix_kwargs(),
                        [dm.dmatrix_kwargs() for dm, _ in eval_pairs], num_boost_round, kwargs))
        return out

    # reserve the workers first: the tracker starts only when all of them can join
    with WorkerGroup(sharded.n, num_cpus=num_cpus_per_worker) as group:
        tracker = RabitTracker(n_workers=sharded.n, host_ip=ray.util.get_node_ip_address(),
                               sortby="task", timeout=TRACKER_TIMEOUT)
        tracker.start()
        try:
            results = group.run(_train_shard, worker_args(tracker.worker_args()))
            tracker.wait_for()
        except BaseException:
            try:
                tracker.free()
            except Exception:  # the tracker's own complaint would hide the worker's error
                pass
            raise
        tracker.free()
    raw, history = next(r for r in results if r is not None)
    booster = xgb.Booster(model_file=bytearray(raw))
    if evals_result is not None:
        evals_result.clear()
        evals_result.update(history)
    return booster


__all__ = ["train", "MarsDMatrix"]
