"""Fitting scikit-learn estimators on chunked data: on drawn rows (bagging) or on each row
block (blockwise voting). Each fit runs in a worker at the end of its own reduction, so the
fits of one graph run in parallel; only the fitted estimators come back."""
from __future__ import annotations

import functools

import numpy as np
from sklearn.base import clone

from ... import session as _session
from ...tensor.datasource import arange
from .._blocks import row_reduce


def take_rows(*blocks, wanted, with_y):
    """This block's rows at the sorted global positions ``wanted`` (repeats kept): (X[, y])."""
    X, *rest = blocks
    pos = rest[-1]
    lo, hi = np.searchsorted(wanted, [pos[0], pos[-1] + 1]) if len(pos) else (0, 0)
    local = wanted[lo:hi] - (pos[0] if len(pos) else 0)
    return (X[local], rest[0][local]) if with_y else (X[local],)


def concat_parts(parts):
    return tuple(np.concatenate(list(p)) for p in zip(*parts))


def fit_on(sample, *, estimator, features, order, fit_kwargs):
    """``estimator`` fitted on the gathered rows, put back in drawn order, on ``features``."""
    X = sample[0][order][:, features]
    est = clone(estimator)
    if len(sample) > 1:
        return est.fit(X, sample[1][order], **fit_kwargs)
    return est.fit(X, **fit_kwargs)


def fit_on_draws(X, y, draws, estimators, fit_kwargs=None):
    """One fitted clone per (features, rows) draw, each on ``X[rows][:, features]`` (and
    ``y[rows]``); all in one graph, each fit in its own task."""
    n = int(X.shape[0])
    rows = [X] + ([] if y is None else [y]) + [arange(n)]
    jobs = []
    for (features, samples), est in zip(draws, estimators):
        order = np.argsort(np.argsort(samples, kind="stable"), kind="stable")  # sorted -> drawn order
        finish = functools.partial(fit_on, estimator=est, features=features, order=order,
                                   fit_kwargs=dict(fit_kwargs or {}))
        jobs.append(row_reduce(take_rows, concat_parts, finish, rows, dtype=object,
                               kwargs={"wanted": np.sort(samples), "with_y": y is not None},
                               label="fit estimators"))
    _session.execute(*jobs)
    return [j.fetch() for j in jobs]


def fit_block(*blocks, estimator, with_y, fit_kwargs):
    est = clone(estimator)
    return [est.fit(*blocks[:2 if with_y else 1], **fit_kwargs)]


def concat_lists(parts):
    return [item for p in parts for item in p]


def fit_per_block(X, y, estimator, fit_kwargs=None):
    """A fitted clone of ``estimator`` per row block of X (and y), in block order."""
    rows = [X] + ([] if y is None else [y])
    return row_reduce(fit_block, concat_lists, None, rows, dtype=object,
                      kwargs={"estimator": estimator, "with_y": y is not None,
                              "fit_kwargs": dict(fit_kwargs or {})},
                      label="fit per block").fetch()
