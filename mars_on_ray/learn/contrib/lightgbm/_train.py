"""Distributed LightGBM training: one Ray task per shard, joined by LightGBM's own network.

Every member gets the list of all members' ``ip:port`` (``machines``), its own
``local_listen_port`` and ``num_machines``; LightGBM's data-parallel tree learner then
syncs bin boundaries, histograms and the initial score over its sockets, so every member
ends with the same model. Rank 0 returns its fitted estimator.
"""
from __future__ import annotations

import numpy as np

from .._shards import load_all

#: LightGBM's socket time-out, in minutes
TIME_OUT = 10
NETWORK_PARAMS = ("machines", "local_listen_port", "num_machines", "time_out", "machine_list_filename")


def _fit_kwargs(parts: dict, eval_parts: list[dict], group, eval_groups, fit_kwargs: dict) -> dict:
    kw = dict(fit_kwargs)
    kw["sample_weight"] = parts.get("weight")
    kw["init_score"] = parts.get("init_score")
    if group is not None:
        kw["group"] = group
    if eval_parts:
        kw["eval_set"] = [(e["data"], e["label"]) for e in eval_parts]
        if any("weight" in e for e in eval_parts):
            kw["eval_sample_weight"] = [e.get("weight") for e in eval_parts]
        if any("init_score" in e for e in eval_parts):
            kw["eval_init_score"] = [e.get("init_score") for e in eval_parts]
        if eval_groups is not None:
            kw["eval_group"] = eval_groups
    return kw


def fit_shard(local_cls: type, params: dict, network: dict, spec: dict, eval_specs: list,
              group, eval_groups, classes, fit_kwargs: dict, rank: int):
    """Inside a worker: fit ``local_cls(**params)`` on this shard as a member of the
    LightGBM network. Labels are encoded by the global ``classes`` when given."""
    parts = load_all(spec)
    eval_parts = [load_all(e) for e in eval_specs]
    if classes is not None:
        parts["label"] = np.searchsorted(classes, np.asarray(parts["label"]))
        for e in eval_parts:
            e["label"] = np.searchsorted(classes, np.asarray(e["label"]))
    model = local_cls(**params)
    model.set_params(**network)
    model.fit(parts["data"], parts["label"],
              **_fit_kwargs(parts, eval_parts, group, eval_groups, fit_kwargs))
    if rank != 0:
        return None
    for name in NETWORK_PARAMS:
        model._Booster.params.pop(name, None)
    return model
