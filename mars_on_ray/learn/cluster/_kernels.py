"""Per-row-block k-means kernels (pure NumPy); ``w`` is the block's sample weights or None."""
from __future__ import annotations

import numpy as np


def sq_distances(X, C):
    """Squared euclidean distances of rows of X to rows of C, clipped at 0 (as scikit-learn)."""
    d = (X * X).sum(1)[:, None] - 2.0 * (X @ C.T) + (C * C).sum(1)[None, :]
    return np.maximum(d, 0, out=d)


def _split(blocks):
    """(X, w, centers) from a kernel's positional arguments: X[, w], centers."""
    if len(blocks) == 3:
        return blocks
    return blocks[0], None, blocks[1]


def lloyd_partial(*blocks):
    """Sums and weights per cluster, inertia, and the block's points farthest from their
    centers (for relocating empty clusters) under the given centers."""
    X, w, C = _split(blocks)
    k = C.shape[0]
    d = sq_distances(X, C)
    labels = d.argmin(1)
    mind = d[np.arange(len(X)), labels]
    wt = np.ones(len(X)) if w is None else w
    sums = np.zeros_like(C)
    np.add.at(sums, labels, X * wt[:, None])
    counts = np.bincount(labels, weights=wt, minlength=k).astype(C.dtype)
    far = np.argsort(-mind, kind="stable")[:k]
    return sums, counts, float((mind * wt).sum()), (mind[far], X[far], labels[far], wt[far])


def merge_lloyd(a, b):
    far = tuple(np.concatenate([x, y]) for x, y in zip(a[3], b[3]))
    keep = np.argsort(-far[0], kind="stable")[:len(a[1])]
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], tuple(f[keep] for f in far)


def labels_block(X, C):
    return sq_distances(X, C).argmin(1).astype(np.int32)


def distances_block(X, C):
    return np.sqrt(sq_distances(X, C))


def inertia_block(*blocks):
    X, w, C = _split(blocks)
    mind = sq_distances(X, C).min(1)
    return float((mind if w is None else mind * w).sum())


def moments_block(X):
    """(count, column means, column sums of squared deviations) of a block."""
    mean = X.mean(0)
    return len(X), mean, ((X - mean) ** 2).sum(0)


def merge_moments(a, b):
    (na, ma, sa), (nb, mb, sb) = a, b
    n = na + nb
    delta = mb - ma
    return n, ma + delta * nb / n, sa + sb + delta ** 2 * na * nb / n


def gather_rows(X, offset, wanted):
    """The rows of X whose global positions are in ``wanted``: (positions, rows)."""
    wanted = np.asarray(wanted)
    hit = wanted[(wanted >= offset) & (wanted < offset + len(X))]
    return hit, X[hit - offset]


def concat_pairs(a, b):
    return tuple(np.concatenate([x, y]) for x, y in zip(a, b))


def _min_pot(X, w, C):
    pot = sq_distances(X, C).min(1) if len(C) else np.ones(len(X))
    return pot if w is None else pot * w


def plusplus_step(*blocks):
    """One greedy k-means++ step on a block: for each candidate (or none) its potential
    ``sum w * min(d2 to chosen + candidate)`` and ``n_trials`` block points drawn by it."""
    *data, offset, chosen, cands, n_trials, seed = blocks
    X, w = data if len(data) == 2 else (data[0], None)
    base = _min_pot(X, w, chosen)
    options = [base] if len(cands) == 0 else \
        [np.minimum(base, sq_distances(X, cands[j:j + 1])[:, 0] * (1 if w is None else w))
         for j in range(len(cands))]
    rng = np.random.default_rng([seed, offset])
    pots, samples = [], []
    for pot in options:
        total = float(pot.sum())
        pots.append(total)
        p = pot / total if total > 0 else None
        samples.append(X[rng.choice(len(X), size=n_trials, p=p)] if n_trials else X[:0])
    return [(np.array(pots), np.array(samples))]


def potential_block(*blocks):
    X, w, C = _split(blocks)
    return float(_min_pot(X, w, C).sum())


def parallel_sample(*blocks):
    """k-means|| oversampling: each point kept with probability min(1, l * w * d2 / phi)."""
    *data, phi, offset, chosen, l, seed = blocks
    X, w = data if len(data) == 2 else (data[0], None)
    pot = _min_pot(X, w, chosen)
    rng = np.random.default_rng([seed, offset])
    keep = rng.random(len(X)) < (l * pot / phi if phi > 0 else 0)
    return X[keep]


def closest_counts(*blocks):
    X, w, C = _split(blocks)
    labels = sq_distances(X, C).argmin(1)
    return np.bincount(labels, weights=w, minlength=len(C)).astype(float)
