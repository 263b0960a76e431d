"""learn.cluster KMeans / k_means against scikit-learn on uneven chunks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.cluster import KMeans as SKKMeans
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.cluster import KMeans, k_means
from learn_support import local_session  # noqa: F401

X, _ = make_blobs(600, 5, centers=6, cluster_std=2.0, random_state=0)
W = np.random.RandomState(1).rand(600) + 0.5


def _same_partition(a, b):
    return adjusted_rand_score(np.asarray(a), np.asarray(b)) == 1.0


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan"])
@pytest.mark.parametrize("data", [mt.tensor(X, chunk_size=(170, 3)), X, pd.DataFrame(X),
                                  md.DataFrame(pd.DataFrame(X), chunk_size=130)],
                         ids=["tensor", "numpy", "pandas", "mars-frame"])
def test_fixed_init_matches_sklearn(local_session, data, algorithm):  # one iteration a graph
    init = X[:6]
    ours = KMeans(6, init=init, max_iter=20, algorithm=algorithm).fit(data)
    ref = SKKMeans(6, init=init, n_init=1, max_iter=20, algorithm=algorithm).fit(X)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-10)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_, atol=1e-9)
    assert ours.n_iter_ == ref.n_iter_
    labels = ours.labels_.fetch()
    assert labels.dtype == ref.labels_.dtype and _same_partition(labels, ref.labels_)
    assert (ours.predict(X[:50]).fetch() == ref.predict(X[:50])).all()
    np.testing.assert_allclose(ours.transform(mt.tensor(X, chunk_size=77)).fetch(), ref.transform(X))
    np.testing.assert_allclose(ours.score(X), ref.score(X))


def test_sample_weight_and_random_init_match_sklearn(local_session):
    ours = KMeans(6, init="random", n_init=3, random_state=5).fit(mt.tensor(X, chunk_size=111),
                                                                   sample_weight=W)
    ref = SKKMeans(6, init="random", n_init=3, random_state=5).fit(X, sample_weight=W)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_, rtol=1e-10)
    assert _same_partition(ours.labels_.fetch(), ref.labels_)


@pytest.mark.parametrize("init", ["k-means++", "k-means||"])
def test_seeded_inits_reach_sklearn_quality(local_session, init):
    ours = KMeans(6, init=init, random_state=0).fit(mt.tensor(X, chunk_size=(130, 5)))
    ref = SKKMeans(6, random_state=0).fit(X)
    assert ours.inertia_ <= ref.inertia_ * 1.05
    again = KMeans(6, init=init, random_state=0).fit(mt.tensor(X, chunk_size=(130, 5)))
    np.testing.assert_array_equal(again.cluster_centers_, ours.cluster_centers_)  # reproducible


def test_k_means_function(local_session):
    centers, labels, inertia, n_iter = k_means(X, 6, init=X[:6], max_iter=5, return_n_iter=True)
    ref = SKKMeans(6, init=X[:6], n_init=1, max_iter=5).fit(X)
    np.testing.assert_allclose(inertia, ref.inertia_, rtol=1e-10)
    assert n_iter == ref.n_iter_ and _same_partition(labels.fetch(), ref.labels_)


def test_empty_cluster_is_relocated_like_sklearn(local_session):
    rs = np.random.RandomState(0)
    data = np.vstack([rs.rand(5, 2), rs.rand(6, 2) + 10])
    init = np.array([[0.0, 0.0], [10.0, 10.0], [100.0, 100.0]])
    ours = KMeans(3, init=init, max_iter=5).fit(mt.tensor(data, chunk_size=3))
    ref = SKKMeans(3, init=init, n_init=1, max_iter=5).fit(data)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_)
    assert _same_partition(ours.labels_.fetch(), ref.labels_)


def test_elkan_bounds_skip_distances_and_match_lloyd(local_session):
    from mars_on_ray.learn.cluster import _kernels as K

    centers = X[:6]
    state = K.elkan_start(X, C=centers)
    moved = centers + 1e-3
    stepped = K.elkan_step(X, state, C=moved, shift=np.full(6, np.sqrt(10) * 1e-3))
    np.testing.assert_array_equal(stepped[:, 0], K.labels_block(X, C=moved))
    exact = np.sqrt(K.sq_distances(X, moved))
    assert (stepped[:, 1] >= exact[np.arange(len(X)), stepped[:, 0].astype(int)] - 1e-9).all()  # upper bounds
    assert (stepped[:, 2:] <= exact + 1e-9).all()  # lower bounds
    elkan = KMeans(6, init=centers, algorithm="elkan", max_iter=30).fit(mt.tensor(X, chunk_size=99))
    lloyd = KMeans(6, init=centers, max_iter=30).fit(mt.tensor(X, chunk_size=99))
    np.testing.assert_allclose(elkan.cluster_centers_, lloyd.cluster_centers_, atol=1e-10)
    assert elkan.n_iter_ == lloyd.n_iter_


@pytest.mark.parametrize("max_iter, graphs", [(30, 1 + 2 + 1), (5, 1 + 1), (12, 1 + 2), (24, 1 + 2)])
def test_iterations_chained_in_few_graphs_data_computed_once(local_session, monkeypatch, max_iter, graphs):
    from mars_on_ray.learn.cluster import _kmeans

    monkeypatch.setattr(_kmeans, "FIRST_CHAIN", 8)
    monkeypatch.setattr(_kmeans, "LONGEST_CHAIN", 64)
    calls = []

    def counted(block):
        calls.append(len(block))
        return block

    data = mt.tensor(X, chunk_size=(170, 5)).map_chunk(counted)
    calls.clear()  # map_chunk ran on a one-row sample to learn the dtype
    init = X[100:106]  # 16 iterations to converge
    est = KMeans(6, init=init, max_iter=max_iter, tol=0).fit(data)
    ref = SKKMeans(6, init=init, n_init=1, max_iter=max_iter, tol=0).fit(X)
    assert sum(calls) == len(X)  # persisted once, never recomputed
    assert est.n_iter_ == ref.n_iter_ == min(16, max_iter)
    np.testing.assert_allclose(est.inertia_, ref.inertia_, rtol=1e-10)
    # persist; chains of 8 then up to 16 iterations; a chain reaching max_iter labels the rows
    # in the same graph, else (converged at 16 inside the 8..24 chain of max_iter=30) the
    # labels and inertia take a graph of their own
    assert local_session.graphs == graphs


@pytest.mark.parametrize("max_iter, graphs", [(30, 1 + 16 + 1), (12, 1 + 12)])
def test_one_graph_per_iteration_by_default_the_last_one_labels(local_session, max_iter, graphs):
    init = X[100:106]  # 16 iterations to converge
    est = KMeans(6, init=init, max_iter=max_iter, tol=0).fit(mt.tensor(X, chunk_size=(170, 5)).execute())
    assert est.n_iter_ == min(16, max_iter)
    assert local_session.graphs - 1 == graphs  # (the upload above is one more)


def test_empty_cluster_in_a_chain_is_relocated_like_sklearn_and_the_chain_goes_on(local_session, monkeypatch):
    from mars_on_ray.learn.cluster import _kmeans

    monkeypatch.setattr(_kmeans, "FIRST_CHAIN", 8)
    rs = np.random.RandomState(0)
    data = np.vstack([rs.rand(5, 2), rs.rand(6, 2) + 10, rs.rand(4, 2) + 20])
    init = np.array([[0.0, 0.0], [10.0, 10.0], [100.0, 100.0], [20.0, 20.0]])
    ours = KMeans(4, init=init, max_iter=12, tol=0).fit(mt.tensor(data, chunk_size=4))
    ref = SKKMeans(4, init=init, n_init=1, max_iter=12, tol=0).fit(data)
    np.testing.assert_allclose(ours.cluster_centers_, ref.cluster_centers_)
    np.testing.assert_allclose(ours.inertia_, ref.inertia_)
    assert _same_partition(ours.labels_.fetch(), ref.labels_)


def test_estimator_protocol(local_session):
    est = KMeans(4, random_state=3, init="k-means++")
    assert clone(est).get_params() == est.get_params()
    assert est.fit(X) is est and hasattr(est, "cluster_centers_")
    with pytest.raises(Exception):
        KMeans(3).predict(X)  # not fitted


def test_bad_input_errors_like_sklearn(local_session):
    for ours, ref in [(KMeans(700), SKKMeans(700)), (KMeans(0), SKKMeans(0)),
                      (KMeans(3, init=X[:2]), SKKMeans(3, init=X[:2])),
                      (KMeans(3, algorithm="x"), SKKMeans(3, algorithm="x"))]:
        with pytest.raises(ValueError):
            ref.fit(X)
        with pytest.raises(ValueError):
            ours.fit(X)
    with pytest.raises(ValueError):
        KMeans(2).fit(X[:, 0])
    bad = X.copy()
    bad[400, 1] = np.nan
    for data in (bad, mt.tensor(bad, chunk_size=170)):  # lazy input: found by the first pass
        with pytest.raises(ValueError):
            KMeans(2).fit(data)
    with pytest.raises(ValueError):
        SKKMeans(2).fit(bad)
    est = KMeans(6, init=X[:6]).fit(X)
    with pytest.raises(ValueError):
        est.predict(X[:, :3])


def test_nearest_center_breaks_ties_as_argmin_and_slices_add_up():
    from mars_on_ray.learn.cluster import _kernels as K

    C = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]])
    pts = np.array([[0.5, 0.5], [2.0, 0.0], [-3.0, 0.0], [0.0, 0.0]])
    labels, _ = K.nearest(pts, C)
    assert labels.tolist() == K.sq_distances(pts, C).argmin(1).tolist() == [0, 0, 3, 0]
    rows = np.random.RandomState(2).rand(40_000, 3)  # several of the kernel's row slices
    centers, w = rows[:5].copy(), np.random.RandomState(3).rand(40_000)
    sums, counts = K.lloyd_partial(rows, w, C=centers)
    labels = K.sq_distances(rows, centers).argmin(1)
    np.testing.assert_allclose(counts, np.bincount(labels, weights=w, minlength=5))
    np.testing.assert_allclose(sums, [(rows[labels == j] * w[labels == j, None]).sum(0) for j in range(5)])
    np.testing.assert_array_equal(K.labels_block(rows, C=centers), labels)


def test_lloyd_sums_give_a_tied_row_to_the_first_center_as_nearest_does():
    from mars_on_ray.learn.cluster._kernels import lloyd_partial, nearest

    X = np.random.RandomState(1).randint(0, 3, (5000, 2)).astype(float)  # many exact ties
    C = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]])
    w = np.random.RandomState(2).rand(len(X))
    labels, _ = nearest(X, C)
    sums, counts = lloyd_partial(X, w, C=C)
    for j in range(len(C)):
        np.testing.assert_allclose(counts[j], w[labels == j].sum())
        np.testing.assert_allclose(sums[j], (X[labels == j] * w[labels == j, None]).sum(0))
    assert counts[2] == 0  # the duplicate center never wins a tie
