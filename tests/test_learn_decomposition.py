"""learn.decomposition PCA / TruncatedSVD against scikit-learn on uneven chunks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import decomposition as skd
from sklearn.base import clone

import mars_on_ray.tensor as mt
from mars_on_ray.learn.decomposition import PCA, TruncatedSVD
from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(0)
X = RS.randn(230, 8) @ RS.randn(8, 8) + 3
WIDE = RS.randn(40, 60)


def _close(ours, ref, names, atol=1e-9):
    for name in names:
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), atol=atol, rtol=1e-9,
                                   err_msg=name)


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "randomized", "arpack", "auto"])
def test_pca_matches_sklearn(local_session, solver):
    data = mt.tensor(X, chunk_size=(70, 3))
    ours = PCA(3, svd_solver=solver, random_state=0).fit(data)
    ref = skd.PCA(3, svd_solver=solver, random_state=0).fit(X)
    _close(ours, ref, ["explained_variance_", "explained_variance_ratio_", "singular_values_",
                       "components_", "mean_", "noise_variance_"])
    assert ours.n_components_ == ref.n_components_
    np.testing.assert_allclose(ours.transform(data).fetch(), ref.transform(X), atol=1e-9)
    np.testing.assert_allclose(ours.fit_transform(X).fetch(), ref.transform(X), atol=1e-9)
    back = ours.inverse_transform(ours.transform(X)).fetch()
    np.testing.assert_allclose(back, ref.inverse_transform(ref.transform(X)), atol=1e-9)


@pytest.mark.parametrize("n_components", [None, 0.9, 8])
def test_pca_n_components_forms_and_whiten(local_session, n_components):
    ours = PCA(n_components, whiten=True, svd_solver="full").fit(pd.DataFrame(X))
    ref = skd.PCA(n_components, whiten=True, svd_solver="full").fit(X)
    _close(ours, ref, ["explained_variance_", "components_", "noise_variance_"])
    np.testing.assert_allclose(ours.transform(X).fetch(), ref.transform(X), atol=1e-9)


def test_pca_wide_data_by_tsqr(local_session):
    ours = PCA(5, svd_solver="full").fit(mt.tensor(WIDE, chunk_size=(13, 60)))
    ref = skd.PCA(5, svd_solver="full").fit(WIDE)
    _close(ours, ref, ["explained_variance_", "explained_variance_ratio_", "components_"])


@pytest.mark.parametrize("algorithm", ["randomized", "arpack"])
def test_truncated_svd_matches_sklearn(local_session, algorithm):
    data = mt.tensor(X, chunk_size=(70, 5))
    ours = TruncatedSVD(3, algorithm=algorithm, random_state=0).fit(data)
    ref = skd.TruncatedSVD(3, algorithm=algorithm, random_state=0).fit(X)
    _close(ours, ref, ["explained_variance_", "explained_variance_ratio_", "singular_values_",
                       "components_"])
    np.testing.assert_allclose(ours.transform(data).fetch(), ref.transform(X), atol=1e-8)


def test_protocol_and_errors(local_session):
    est = PCA(2, svd_solver="full")
    assert clone(est).get_params() == est.get_params() and est.fit(X) is est
    for ours, ref in [(PCA(9), skd.PCA(9)), (PCA(2, svd_solver="nope"), skd.PCA(2, svd_solver="nope")),
                      (TruncatedSVD(9), skd.TruncatedSVD(9)),
                      (TruncatedSVD(8, algorithm="arpack"), skd.TruncatedSVD(8, algorithm="arpack"))]:
        with pytest.raises(ValueError):
            ref.fit(X)
        with pytest.raises(ValueError):
            ours.fit(X)
    with pytest.raises(ValueError):
        est.transform(X[:, :3])
    with pytest.raises(ValueError):
        PCA(2).fit(X[:, 0])
    bad = X.copy()
    bad[100, 2] = np.inf
    for fit in (PCA(2).fit, TruncatedSVD(2).fit, skd.PCA(2).fit):
        with pytest.raises(ValueError):
            fit(mt.tensor(bad, chunk_size=70) if fit.__self__.__module__.startswith("mars") else bad)
