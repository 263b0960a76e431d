"""Initial centers: k-means|| (Mars' default), greedy k-means++ and random rows.

Each round is one graph over the persisted data; only the chosen centers and candidates (a
few rows) travel with it. Draws inside a block use a generator seeded by (round seed, the
block's first row), so a run is reproducible for a chunking.
"""
from __future__ import annotations

import numpy as np

from ..rowblocks import row_reduce
from . import _kernels as K


def _rows(data):
    return [data.X] if data.w is None else [data.X, data.w]


def gather(data, positions) -> np.ndarray:
    """Rows of X at ``positions`` (in that order), in one graph."""
    positions = np.asarray(positions, dtype=np.int64)
    found, rows = row_reduce([data.X], K.gather_rows, (np.unique(positions),), combine=K.concat_pairs,
                             with_offset=True, label="KMeans.init").fetch()
    lookup = {int(p): r for p, r in zip(found, rows)}
    return np.array([lookup[int(p)] for p in positions])


def _first_center(data, rs):
    n = data.n_samples
    p = None if data.w_value is None else data.w_value / data.w_value.sum()
    return gather(data, [rs.choice(n, p=p)])


def random_rows(data, k, rs):
    """scikit-learn's ``init='random'``: k distinct rows drawn by weight."""
    p = None if data.w_value is None else data.w_value / data.w_value.sum()
    return gather(data, rs.choice(data.n_samples, size=k, replace=False, p=p))


def kmeans_plusplus(data, k, rs, n_local_trials=None):
    """Greedy k-means++: per step, ``2 + log(k)`` candidates drawn by squared distance and the
    one lowering the potential most kept; one graph per center."""
    trials = n_local_trials or 2 + int(np.log(k))
    chosen = _first_center(data, rs)
    cands = np.empty((0, chosen.shape[1]))
    while True:
        last = len(chosen) + (len(cands) > 0) == k
        parts = row_reduce(_rows(data), K.plusplus_step,
                           (chosen, cands, 0 if last else trials, int(rs.randint(2**31))),
                           with_offset=True, label="KMeans.init").fetch()
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
    ``l * d2 / phi`` (one graph each: the potential and the draws), then the weighted
    candidates are clustered to k centers with scikit-learn's k-means++ in this process."""
    from sklearn.cluster import KMeans as SKKMeans

    chosen = _first_center(data, rs)
    l = oversampling_factor * k
    for _ in range(rounds):
        phi = row_reduce(_rows(data), K.potential_block, (chosen,), label="KMeans.init")
        drawn = row_reduce(_rows(data), K.parallel_sample, (chosen, l, int(rs.randint(2**31))),
                           small=[phi], with_offset=True, combine=_vstack, label="KMeans.init").fetch()
        chosen = np.vstack([chosen, drawn])
    if len(chosen) <= k:  # tiny data: top up with random rows
        extra = random_rows(data, k, rs)
        return np.vstack([chosen, extra])[:k] if len(chosen) < k else chosen
    weights = row_reduce(_rows(data), K.closest_counts, (chosen,), label="KMeans.init").fetch()
    local = SKKMeans(k, init="k-means++", n_init=1, random_state=rs)
    return local.fit(chosen, sample_weight=weights + 1e-12).cluster_centers_


def _vstack(a, b):
    return np.vstack([a, b])
