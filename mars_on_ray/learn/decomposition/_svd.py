"""Right singular vectors and singular values of (centered) row blocks, three ways:
TSQR (R of the stacked blocks, then a small SVD), the scatter matrix's eigenvectors, and
randomized subspace iteration (one graph per power iteration)."""
from __future__ import annotations

import functools
import operator

import numpy as np

from ...tensor.decompositions import qr
from .._blocks import row_map, row_reduce


def _centered_times(x, *, mean, M):
    return (x - mean) @ M


def _t_times(x, q, *, mean):
    return (x - mean).T @ q


def _sum(parts):
    return functools.reduce(operator.add, parts)


def _centered_product(X, mean, M, label):
    return row_map(_centered_times, [X], shape=(X.shape[0], M.shape[1]), dtype=X.dtype,
                   kwargs={"mean": mean, "M": M}, label=label)


def _t_product(X, Q, mean, label):
    return row_reduce(_t_times, _sum, None, [X, Q], dtype=object, kwargs={"mean": mean}, label=label).fetch()


def flip_by_rows(Vt):
    """scikit-learn's ``svd_flip(u_based_decision=False)``: each row's largest entry positive."""
    signs = np.sign(Vt[np.arange(len(Vt)), np.abs(Vt).argmax(1)])
    signs[signs == 0] = 1
    return Vt * signs[:, None], signs


def tsqr_svd(X, mean):
    """(S, Vt) of X - mean by TSQR: only R (d x d) is ever in one place."""
    d = X.shape[1]
    centered = _centered_product(X, mean, np.eye(d, dtype=X.dtype), "svd")
    R = np.asarray(qr(centered, mode="r").fetch())
    _, S, Vt = np.linalg.svd(R, full_matrices=False)
    return S, Vt


def eigh_svd(scatter):
    """(S, Vt) from the scatter matrix X_c^T X_c (the covariance_eigh solver)."""
    evals, evecs = np.linalg.eigh(scatter)
    order = np.argsort(evals)[::-1]
    evals = np.clip(evals[order], 0, None)
    return np.sqrt(evals), evecs[:, order].T


def randomized_svd(X, mean, k, n_oversamples, n_iter, rs):
    """(S, Vt) of the top ``k`` by a randomized range finder with QR-normalised power
    iterations (Halko et al., as scikit-learn's ``randomized_svd``)."""
    d = X.shape[1]
    size = min(k + n_oversamples, d)
    Om = rs.normal(size=(d, size)).astype(X.dtype, copy=False)
    for _ in range(n_iter):
        Q, _ = qr(_centered_product(X, mean, Om, "randomized_svd"))
        Z = _t_product(X, Q, mean, "randomized_svd")
        Om, _ = np.linalg.qr(Z)
    Q, _ = qr(_centered_product(X, mean, Om, "randomized_svd"))
    B = _t_product(X, Q, mean, "randomized_svd").T
    _, S, Vt = np.linalg.svd(B, full_matrices=False)
    return S[:k], Vt[:k]
