"""Block kernels of the brute-force neighbour search (pure NumPy / scikit-learn)."""
from __future__ import annotations

import numpy as np
from sklearn.metrics import pairwise_distances


def distances(q, f, metric, metric_params):
    if metric == "euclidean":  # scikit-learn's brute force: the dot-product form
        d = (q * q).sum(1)[:, None] - 2.0 * (q @ f.T) + (f * f).sum(1)[None, :]
        return np.sqrt(np.maximum(d, 0, out=d), out=d)
    return pairwise_distances(q, f, metric=metric, **(metric_params or {}))


def knn_pair(q, f, *, offset, k, metric, metric_params):
    """The k nearest of fit block f for each query row: ``[distances | global indices]``."""
    d = distances(q, f, metric, metric_params)
    idx = np.broadcast_to(np.arange(offset, offset + f.shape[0], dtype=float), d.shape)
    return _top(d, idx, k)


def _top(d, idx, k):
    order = np.lexsort((idx, d), axis=1)[:, :k] if d.shape[1] else np.zeros((len(d), 0), int)
    d = np.take_along_axis(d, order, 1)
    idx = np.take_along_axis(idx, order, 1)
    pad = k - d.shape[1]
    if pad > 0:
        d = np.hstack([d, np.full((len(d), pad), np.inf)])
        idx = np.hstack([idx, np.full((len(d), pad), np.iinfo(np.int32).max, dtype=float)])
    return np.hstack([d, idx])


def knn_merge(parts, *, k, metric, metric_params):
    d = np.hstack([p[:, :k] for p in parts])
    idx = np.hstack([p[:, k:] for p in parts])
    return _top(d, idx, k)


def radius_pair(q, f, *, offset, radius, metric, metric_params):
    """Per query row, [distances, global indices] of fit rows within ``radius``."""
    d = distances(q, f, metric, metric_params)
    out = np.empty((len(q), 2), dtype=object)
    for r, row in enumerate(d):
        hit = np.flatnonzero(row <= radius)
        out[r, 0], out[r, 1] = row[hit], hit + offset
    return out


def radius_merge(parts, *, radius, metric, metric_params):
    out = np.empty((len(parts[0]), 2), dtype=object)
    for r in range(len(out)):
        out[r, 0] = np.concatenate([p[r, 0] for p in parts])
        out[r, 1] = np.concatenate([p[r, 1] for p in parts]).astype(np.intp)
    return out


def split_knn(block, *, k, which):
    return block[:, :k] if which == 0 else block[:, k:].astype(np.intp)


def drop_self(block, pos, *, k):
    """Query = fit: remove each row's own index (else its farthest) from k + 1 neighbours."""
    d, idx = block[:, :k + 1], block[:, k + 1:]
    own = idx == pos[:, None]
    own[~own.any(1), -1] = True
    keep = ~own
    return np.hstack([d[keep].reshape(len(d), k), idx[keep].reshape(len(d), k)])


def pick_column(block, *, column, sort):
    out = np.empty(len(block), dtype=object)
    for r in range(len(block)):
        out[r] = block[r, column]
    if sort:
        for r in range(len(block)):
            order = np.argsort(block[r, 0], kind="stable")
            out[r] = block[r, column][order]
    return out


def drop_own(block, pos):
    """Query = fit: each row's own index left out of its radius neighbours."""
    out = np.empty_like(block)
    for r in range(len(block)):
        keep = block[r, 1] != pos[r]
        out[r, 0], out[r, 1] = block[r, 0][keep], block[r, 1][keep]
    return out
