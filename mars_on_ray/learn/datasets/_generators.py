"""Row-block kernels of the sample generators: ``block(g, lo, hi)`` gives rows lo..hi of the
whole data (generation block g) as one float64 array [X | y]; every global parameter they use
is drawn once, when the dataset is built."""
from __future__ import annotations

import numpy as np

from ._streams import block_rng, permuted_positions


class Blobs:
    """Isotropic Gaussian blobs; row i belongs to the center owning position perm(i)."""

    def __init__(self, seed, n_samples, centers, stds, counts, shuffle):
        self.seed, self.n_samples, self.centers, self.stds = seed, n_samples, centers, stds
        self.bounds, self.shuffle = np.cumsum(counts), shuffle

    def __call__(self, g, lo, hi):
        rows = np.arange(lo, hi)
        pos = permuted_positions(rows, self.n_samples, self.seed) if self.shuffle else rows
        label = np.searchsorted(self.bounds, pos, side="right")
        z = block_rng(self.seed, 1, g).standard_normal((hi - lo, self.centers.shape[1]))
        x = self.centers[label] + self.stds[label][:, None] * z
        return np.column_stack([x, label.astype(np.float64)])

    def __mars_token__(self):
        return ("Blobs", self.seed, self.n_samples, self.centers, self.stds, self.bounds, self.shuffle)


class Classification:
    """scikit-learn's make_classification recipe, row by row: Gaussian clusters on hypercube
    vertices, linear mixes, redundant / repeated / useless features, label noise, shift,
    scale and a column permutation."""

    def __init__(self, seed, n_samples, n_classes, counts, centroids, mixes, redundant, repeated,
                 n_useless, flip_y, shift, scale, columns, shuffle):
        self.seed, self.n_samples, self.n_classes = seed, n_samples, n_classes
        self.bounds, self.centroids, self.mixes = np.cumsum(counts), centroids, mixes
        self.redundant, self.repeated, self.n_useless = redundant, repeated, n_useless
        self.flip_y, self.shift, self.scale, self.columns, self.shuffle = flip_y, shift, scale, columns, shuffle

    def __call__(self, g, lo, hi):
        m = hi - lo
        rows = np.arange(lo, hi)
        pos = permuted_positions(rows, self.n_samples, self.seed) if self.shuffle else rows
        cluster = np.searchsorted(self.bounds, pos, side="right")
        n_inf = self.centroids.shape[1]
        informative = block_rng(self.seed, 1, g).standard_normal((m, n_inf))
        for k in np.unique(cluster):
            sel = cluster == k
            informative[sel] = informative[sel] @ self.mixes[k] + self.centroids[k]
        parts = [informative, informative @ self.redundant]
        x = np.hstack(parts)
        x = np.hstack([x, x[:, self.repeated], block_rng(self.seed, 2, g).standard_normal((m, self.n_useless))])
        y = cluster % self.n_classes
        if self.flip_y > 0:
            flip = block_rng(self.seed, 3, g).random(m) < self.flip_y
            y = np.where(flip, block_rng(self.seed, 4, g).integers(0, self.n_classes, m), y)
        x = (x + self.shift) * self.scale
        return np.column_stack([x[:, self.columns], y.astype(np.float64)])

    def __mars_token__(self):
        return ("Classification", *(v for v in vars(self).values()))


def low_rank_profile(n: int, effective_rank: float, tail_strength: float) -> np.ndarray:
    """scikit-learn's singular values: a bell-shaped low-rank part plus a fat tail."""
    idx = np.arange(n, dtype=np.float64)
    low_rank = (1 - tail_strength) * np.exp(-1.0 * (idx / effective_rank) ** 2)
    tail = tail_strength * np.exp(-0.1 * idx / effective_rank)
    return low_rank + tail


class LowRank:
    """(U * s) @ V.T: U's orthonormal columns are DCT-II basis vectors at random frequencies
    with a random sign per row (each entry computable from its row alone), V from the QR of a
    small Gaussian matrix, s scikit-learn's singular value profile."""

    def __init__(self, seed, n_samples, freqs, v, s):
        self.seed, self.n_samples, self.freqs, self.v, self.s = seed, n_samples, freqs, v, s

    def rows(self, g, lo, hi):
        i = np.arange(lo, hi, dtype=np.float64)[:, None] + 0.5
        norm = np.where(self.freqs == 0, np.sqrt(1.0 / self.n_samples), np.sqrt(2.0 / self.n_samples))
        u = norm * np.cos(np.pi * i * self.freqs[None, :] / self.n_samples)
        sign = block_rng(self.seed, 5, g).integers(0, 2, hi - lo) * 2.0 - 1.0
        return ((u * sign[:, None]) * self.s) @ self.v.T

    def __call__(self, g, lo, hi):
        return self.rows(g, lo, hi)

    def __mars_token__(self):
        return ("LowRank", self.seed, self.n_samples, self.freqs, self.v, self.s)


class Regression:
    """X (Gaussian, or low rank) with y = X @ coef + bias + Gaussian noise; columns permuted."""

    def __init__(self, seed, n_features, low_rank, coef, bias, noise, columns):
        self.seed, self.n_features, self.low_rank = seed, n_features, low_rank
        self.coef, self.bias, self.noise, self.columns = coef, bias, noise, columns

    def __call__(self, g, lo, hi):
        if self.low_rank is None:
            x = block_rng(self.seed, 1, g).standard_normal((hi - lo, self.n_features))
        else:
            x = self.low_rank(g, lo, hi)
        y = x @ self.coef + self.bias
        if self.noise > 0:
            y = y + block_rng(self.seed, 2, g).normal(scale=self.noise, size=y.shape)
        return np.column_stack([x[:, self.columns], y])

    def __mars_token__(self):
        return ("Regression", self.seed, self.n_features, self.low_rank, self.coef, self.bias, self.noise,
                self.columns)
