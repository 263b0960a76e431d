"""Per-row-block k-means kernels (pure NumPy): ``w`` is the block's sample weights (None
without), ``pos`` the block's global row positions; small state comes as keywords."""
from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, replace

import numpy as np


def sq_distances(X, C):
    """Squared euclidean distances of rows of X to rows of C, clipped at 0 (as scikit-learn)."""
    d = (X * X).sum(1)[:, None] - 2.0 * (X @ C.T) + (C * C).sum(1)[None, :]
    return np.maximum(d, 0, out=d)


def nearest(X, C):
    """Each row's nearest center and ``|x - c|^2 - |x|^2`` to it (scikit-learn's criterion:
    the same argmin as the distance, without the row norms). Ties go to the first center."""
    t = (-2.0 * C) @ X.T  # (k, n): NumPy's min over the first axis is vectorised, argmin is not
    t += (C * C).sum(1)[:, None]
    best = t.min(0) if len(C) else np.zeros(len(X))
    labels = np.zeros(len(X), dtype=np.intp)
    for j in range(len(C) - 1, -1, -1):  # descending: the first of equal minima is kept
        labels[t[j] == best] = j
    return labels, best


def _slices(X, C):
    """Row slices whose (k x rows) temporaries stay in cache: a 250,000-row block in one piece
    takes 1.5x the time of the same rows in slices of ~10,000."""
    step = min(1 << 15, max(1024, (1 << 17) // max(len(C), X.shape[1], 1)))
    return [slice(lo, lo + step) for lo in range(0, len(X), step)] or [slice(0, 0)]


def lloyd_partial(X, w=None, *, C):
    """Sums and weights per cluster of the block's rows under the centers C. The one-hot
    matrix is the comparison with each row's minimum (no label array): a row equally near
    several centers keeps only the first, as ``nearest`` does."""
    sums, counts = np.zeros(C.shape, dtype=np.result_type(X, C)), np.zeros(len(C))
    if not len(C):
        return sums, counts
    minus2c, c2 = -2.0 * C, (C * C).sum(1)[:, None]
    for rows in _slices(X, C):
        block = X[rows]
        t = minus2c @ block.T
        t += c2
        hits = t == t.min(0)
        if np.count_nonzero(hits) > block.shape[0]:  # ties (rare): the first center wins
            tied = np.flatnonzero(hits.sum(0) > 1)
            first = hits[:, tied].argmax(0)
            hits[:, tied] = False
            hits[first, tied] = True
        onehot = hits.astype(X.dtype)
        if w is not None:
            onehot *= w[rows]
        sums += onehot @ block
        counts += onehot.sum(1)
    return sums, counts


def farthest_partial(X, w=None, *, C):
    """The block's k points farthest from their nearest centers (for relocating empty
    clusters as scikit-learn does): (squared distances, rows, labels, weights)."""
    labels, best = nearest(X, C)
    mind = np.maximum(np.einsum("ij,ij->i", X, X) + best, 0)
    far = _farthest(mind, len(C))
    wt = np.ones(len(far)) if w is None else w[far]
    return mind[far], X[far], labels[far], wt


def _farthest(mind, k):
    """Positions of the k largest values, largest first."""
    if len(mind) > k:
        top = np.argpartition(-mind, k - 1)[:k]
    else:
        top = np.arange(len(mind))
    return top[np.argsort(-mind[top], kind="stable")]


def merge_farthest(parts, *, k):
    far = tuple(np.concatenate(items) for items in zip(*parts))
    keep = np.argsort(-far[0], kind="stable")[:k]
    return tuple(f[keep] for f in far)


def labels_block(X, *, C):
    return np.concatenate([nearest(X[rows], C)[0] for rows in _slices(X, C)]).astype(np.int32)


def distances_block(X, *, C):
    return np.sqrt(sq_distances(X, C))


def inertia_block(X, w=None, *, C):
    """Sum of (weighted) squared distances to the nearest centers, computed exactly."""
    return labelled_inertia(X, labels_block(X, C=C), w, C=C)


def labelled_inertia(X, labels, w=None, *, C):
    """Sum of (weighted) squared distances of rows to their centers ``C[labels]``."""
    total = 0.0
    for rows in _slices(X, C):
        d = ((X[rows] - C[labels[rows]]) ** 2).sum(1)
        total += float(d.sum() if w is None else d @ w[rows])
    return total


def add_all(parts):
    return functools.reduce(operator.add, parts)


def gather_rows(X, pos, *, wanted):
    """The rows of X whose global positions are in ``wanted``: (positions, rows)."""
    hit = np.isin(pos, wanted)
    return pos[hit], X[hit]


def concat_pairs(parts):
    return tuple(np.concatenate(list(p)) for p in zip(*parts))


def concat_rows(parts):
    return np.concatenate(parts)


def concat_lists(parts):
    return [item for p in parts for item in p]


def _min_pot(X, w, C):
    pot = sq_distances(X, C).min(1) if len(C) else np.ones(len(X))
    return pot if w is None else pot * w


def plusplus_step(X, pos, w=None, *, chosen, cands, n_trials, seed):
    """One greedy k-means++ step on a block: for each candidate (or none) its potential
    ``sum w * min(d2 to chosen + candidate)`` and ``n_trials`` block points drawn by it."""
    base = _min_pot(X, w, chosen)
    options = [base] if len(cands) == 0 else \
        [np.minimum(base, sq_distances(X, cands[j:j + 1])[:, 0] * (1 if w is None else w))
         for j in range(len(cands))]
    rng = np.random.default_rng([seed, int(pos[0]) if len(pos) else 0])
    pots, samples = [], []
    for pot in options:
        total = float(pot.sum())
        pots.append(total)
        p = pot / total if total > 0 else None
        samples.append(X[rng.choice(len(X), size=n_trials, p=p)] if n_trials and len(X) else
                       np.zeros((n_trials, X.shape[1])))
    return [(np.array(pots), np.array(samples))]


def potential_block(X, w=None, *, C):
    return float(_min_pot(X, w, C).sum())


def parallel_sample(X, pos, *rest, chosen, l, seed):
    """k-means|| oversampling: each point kept with probability min(1, l * w * d2 / phi);
    ``rest`` is ``[w,] phi``."""
    w, phi = (rest[0], rest[1]) if len(rest) == 2 else (None, rest[0])
    phi = float(phi)
    pot = _min_pot(X, w, chosen)
    rng = np.random.default_rng([seed, int(pos[0]) if len(pos) else 0])
    keep = rng.random(len(X)) < (l * pot / phi if phi > 0 else 0)
    return X[keep]


def closest_counts(X, w=None, *, C):
    labels = sq_distances(X, C).argmin(1)
    return np.bincount(labels, weights=w, minlength=len(C)).astype(float)


# --- Elkan: per-point bounds kept as a state tensor [label, upper, lower_0..lower_k-1] -------

def elkan_start(X, *, C):
    """Exact distances to every center: the first state."""
    D = np.sqrt(sq_distances(X, C))
    labels = D.argmin(1)
    return np.column_stack([labels, D[np.arange(len(X)), labels], D])


def elkan_step(X, state, *, C, shift):
    """Bounds moved by the centers' shifts; exact distances only for points whose upper bound
    could exceed the distance to another center (Elkan's triangle-inequality tests)."""
    labels = state[:, 0].astype(np.intp)
    upper = state[:, 1] + shift[labels]
    lower = np.maximum(state[:, 2:] - shift, 0)
    cc = np.sqrt(sq_distances(C, C))
    np.fill_diagonal(cc, np.inf)
    half_nearest = 0.5 * cc.min(1)
    maybe = (upper[:, None] > lower) & (upper[:, None] > 0.5 * cc[labels])
    maybe[np.arange(len(X)), labels] = False
    need = (upper > half_nearest[labels]) & maybe.any(1)
    if need.any():
        D = np.sqrt(sq_distances(X[need], C))
        lab = D.argmin(1)
        labels[need], upper[need], lower[need] = lab, D[np.arange(len(D)), lab], D
    return np.column_stack([labels, upper, lower])


def elkan_sums(X, state, w=None, *, k):
    """Sums and weights per cluster of the state's labels."""
    labels = state[:, 0].astype(np.intp)
    onehot = np.zeros((len(X), k), dtype=X.dtype)
    onehot[np.arange(len(X)), labels] = 1 if w is None else w
    return onehot.T @ X, onehot.sum(0)


def add_pairs(parts):
    """Elementwise sums of (sums, counts) partials."""
    return tuple(functools.reduce(operator.add, items) for items in zip(*parts))


# --- Lloyd iterations chained in one graph: the state travels from one iteration to the next --

@dataclass(frozen=True)
class LloydState:
    """Centers after ``n_iter`` iterations; ``done`` once converged or at ``max_iter``.
    ``empty`` holds the (sums, counts) of an iteration that left a cluster empty: the driver
    relocates (scikit-learn's rule needs a second pass) and the later iterations wait."""
    centers: np.ndarray
    n_iter: int = 0
    done: bool = False
    empty: tuple | None = None

    @property
    def waiting(self) -> bool:
        return self.done or self.empty is not None


def chain_partial(X, *rest, weighted, state=None):
    """``lloyd_partial`` under the state's centers (``rest``: ``[w,]`` and, after the first
    iteration of a chain, the previous state); nothing once the state is waiting."""
    w = rest[0] if weighted else None
    state = rest[-1] if state is None else state
    if state.waiting:
        return None, None, state
    return (*lloyd_partial(X, w, C=state.centers), state)


def add_chain(parts):
    sums, counts, state = parts[0]
    if sums is None:
        return parts[0]
    return sums + sum(p[0] for p in parts[1:]), counts + sum(p[1] for p in parts[1:]), state


def chain_finish(merged, *, tol, max_iter):
    """The next state: new centers, or the sums kept for relocation when a cluster is empty."""
    sums, counts, state = merged
    if sums is None:
        return state
    if (counts == 0).any():
        return replace(state, empty=(sums, counts))
    return next_state(state, sums / counts[:, None], tol, max_iter)


def next_state(state, centers, tol, max_iter):
    n_iter = state.n_iter + 1
    shift = float(((centers - state.centers) ** 2).sum())
    return LloydState(centers, n_iter, shift <= tol or n_iter >= max_iter)


def state_labels(X, state):
    return labels_block(X, C=state.centers)


def state_inertia(X, labels, *rest):
    """``labelled_inertia`` under the state's centers (``rest``: ``[w,] state``)."""
    return labelled_inertia(X, labels, rest[0] if len(rest) == 2 else None, C=rest[-1].centers)
