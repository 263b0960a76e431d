"""Sort-like tensor operations on Ray (the tests/test_tensor_*.py files cover them locally)."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")

RS = np.random.RandomState(7)
X = RS.randint(0, 50, size=2000).astype(float)
X[[5, 700, 1999]] = np.nan


def test_sort_argsort_psrs_on_ray():
    t = mt.tensor(X, chunk_size=300)
    assert_eq(mt.sort(t), np.sort(X))
    assert_eq(mt.argsort(t), np.argsort(X, kind="stable"))
    x2 = X[:1800].reshape(60, 30)
    assert_eq(mt.sort(mt.tensor(x2, chunk_size=(25, 7)), axis=0), np.sort(x2, axis=0))
    few_lanes = X[:1800].reshape(3, 600)  # each lane sorted by its own PSRS
    assert_eq(mt.argsort(mt.tensor(few_lanes, chunk_size=(2, 150)), axis=1),
              np.argsort(few_lanes, axis=1, kind="stable"))


def test_order_statistics_on_ray():
    t = mt.tensor(X[~np.isnan(X)], chunk_size=300)
    clean = X[~np.isnan(X)]
    assert_eq(mt.percentile(t, [1, 50, 99]), np.percentile(clean, [1, 50, 99]))
    assert_eq(mt.median(mt.tensor(X, chunk_size=300)), np.median(X))
    assert_eq(mt.quantile(t, 0.3, method="hazen"), np.quantile(clean, 0.3, method="hazen"))
    w = np.arange(len(clean)) % 3
    assert_eq(mt.quantile(t, [0.2, 0.9], method="inverted_cdf", weights=mt.tensor(w, chunk_size=500)),
              np.quantile(clean, [0.2, 0.9], method="inverted_cdf", weights=w))
    v, i = mt.topk(t, 5, return_index=True)
    order = np.argsort(-clean, kind="stable")[:5]
    assert_eq(v, clean[order])
    assert_eq(i, order)


def test_unique_and_sets_on_ray():
    xi = RS.randint(0, 300, size=(40, 50))
    t = mt.tensor(xi, chunk_size=(15, 20))
    got = mt.unique(t, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(xi, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want):
        assert_eq(g, w)
    assert_eq(mt.isin(t, np.arange(0, 300, 7)), np.isin(xi, np.arange(0, 300, 7)))
    assert_eq(mt.union1d(t, [1000, 3]), np.union1d(xi, [1000, 3]))
    assert_eq(mt.setdiff1d(t, np.arange(100)), np.setdiff1d(xi, np.arange(100)))


def test_counting_on_ray():
    t = mt.tensor(X, chunk_size=300)
    clean = mt.tensor(np.nan_to_num(X), chunk_size=300)
    for got, want in zip(mt.histogram(clean, bins="auto"), np.histogram(np.nan_to_num(X), bins="auto")):
        assert_eq(got, want)
    a = np.sort(X)
    assert_eq(mt.searchsorted(mt.tensor(a, chunk_size=300), [3.5, 10, np.nan]),
              np.searchsorted(a, [3.5, 10, np.nan]))
    xi = RS.randint(0, 40, size=999)
    assert_eq(mt.bincount(mt.tensor(xi, chunk_size=100)), np.bincount(xi))
    assert_eq(mt.digitize(t, [10, 20, 30]), np.digitize(X, [10, 20, 30]))


def test_positions_and_scans_on_ray():
    x2 = X[:1800].reshape(60, 30)
    t = mt.tensor(x2, chunk_size=(25, 7))
    assert_eq(mt.argwhere(t > 40), np.argwhere(x2 > 40))
    assert_eq(mt.flatnonzero(t > 40), np.flatnonzero(x2 > 40))
    assert_eq(mt.compress(np.arange(30) % 3 == 0, t, axis=1), np.compress(np.arange(30) % 3 == 0, x2, axis=1))
    assert_eq(mt.nancumsum(t, axis=0), np.nancumsum(x2, axis=0))
    assert_eq(mt.diff(t, n=2, axis=1), np.diff(x2, n=2, axis=1))
