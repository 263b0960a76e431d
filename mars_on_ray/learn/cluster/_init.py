"""Initial centers: k-means|| (Mars' default), greedy k-means++ and random rows.

Each round is one graph over the persisted data; only the chosen centers and candidates (a
few rows) travel with it. Draws inside a block use a generator seeded by (round seed, the
block's first row position), so a run is reproducible for a chunking.
"""
from __future__ import annotations

import numpy as np

from .._blocks import row_reduce
from . import _kernels as K


def _reduce(data, partial, combine, rows, wholes=(), **kwargs):
    return row_reduce(partial, combine, None, rows, wholes, dtype=object, kwargs=kwargs,
                      label="KMeans.init").fetch()


def _weighted(data, *rows):
    return list(rows) + ([] if data.w is None else [data.w])


def gather(data, positions) -> np.ndarray:
    """Rows of X at ``positions`` (in that order), in one graph."""
    positions = np.asarray(positions, dtype=np.int64)
    found, rows = _reduce(data, K.gather_rows, K.concat_pairs, [data.X, data.pos],
                          wanted=np.unique(positions))
    lookup = {int(p): r for p, r in zip(found, rows)}
    return np.array([lookup[int(p)] for p in positions])


def _probabilities(data):
    return None if data.w_value is None else data.w_value / data.w_value.sum()


def random_rows(data, k, rs):
    """scikit-learn's ``init='random'``: k distinct rows drawn by weight."""
    return gather(data, rs.choice(data.n_samples, size=k, replace=False, p=_probabilities(data)))


def kmeans_plusplus(data, k, rs, n_local_trials=None):
    """Greedy k-means++: per step, ``2 + log(k)`` candidates drawn by squared distance and the
    one lowering the potential most kept; one graph per center."""
    trials = n_local_trials or 2 + int(np.log(k))
    chosen = gather(data, [rs.choice(data.n_samples, p=_probabilities(data))])
    cands = np.empty((0, chosen.shape[1]))
    while True:
        last = len(chosen) + (len(cands) > 0) == k
        parts = _reduce(data, K.plusplus_step, K.concat_lists, _weighted(data, data.X, data.pos),
                        chosen=chosen, cands=cands, n_trials=0 if last else trials,
                        seed=int(rs.randint(2**31)))
        pots = np.stack([p for p, _ in parts])  # blocks x options
        best = int(pots.sum(0).argmin())
        if len(cands):
            chosen = np.vstack([chosen, cands[best]])
        if len(chosen) == k:
            return chosen
        totals = pots[:, best]
        p = totals / totals.sum() if totals.sum() > 0 else None
        picks = rs.choice(len(parts), size=trials, p=p)
        cands = np.array([parts[b][1][best][j] for j, b in enumerate(picks)])


def kmeans_parallel(data, k, rs, oversampling_factor=2, rounds=5):
    """k-means|| (Bahmani et al.): ``rounds`` of independent sampling with probability
    ``l * d2 / phi`` (one graph each: the potential, then the draws), then the weighted
    candidates are clustered to k centers with scikit-learn's k-means++ in this process."""
    from sklearn.cluster import KMeans as SKKMeans

    chosen = gather(data, [rs.choice(data.n_samples, p=_probabilities(data))])
    l = oversampling_factor * k
    for _ in range(rounds):
        phi = row_reduce(K.potential_block, K.add_all, None, _weighted(data, data.X), dtype=float,
                         kwargs={"C": chosen}, label="KMeans.init")
        drawn = _reduce(data, K.parallel_sample, K.concat_rows, _weighted(data, data.X, data.pos), [phi],
                        chosen=chosen, l=l, seed=int(rs.randint(2**31)))
        chosen = np.vstack([chosen, drawn])
    if len(chosen) <= k:  # tiny data: top up with random rows
        return np.vstack([chosen, random_rows(data, k, rs)])[:k] if len(chosen) < k else chosen
    weights = _reduce(data, K.closest_counts, K.add_all, _weighted(data, data.X), C=chosen)
    local = SKKMeans(k, init="k-means++", n_init=1, random_state=rs)
    return local.fit(chosen, sample_weight=weights + 1e-12).cluster_centers_
