"""learn.contrib.statsmodels: per-partition fits on Ray joined on the driver equal
statsmodels' own ``DistributedModel.fit`` on the same partitions (the same floating-point
operations on the same rows: rtol 1e-12)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

sm = pytest.importorskip("statsmodels.api")

import mars_on_ray.tensor as mt  # noqa: E402
from mars_on_ray.learn.contrib.statsmodels import MarsDistributedModel, MarsResults  # noqa: E402
from mars_on_ray.testing import assert_eq  # noqa: E402
from statsmodels.base.distributed_estimation import DistributedModel  # noqa: E402

pytestmark = pytest.mark.usefixtures("session")


def _data(n=203, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, k))
    y = X @ np.array([1.5, -2.0, 0.5]) + rng.normal(scale=0.1, size=n)
    return X, y


def _reference(X, y, partitions, fit_kwds, **kw):
    bounds = [round(i * len(X) / partitions) for i in range(partitions + 1)]
    parts = ((y[a:b], X[a:b]) for a, b in zip(bounds[:-1], bounds[1:]))
    return DistributedModel(partitions, **kw).fit(parts, fit_kwds=fit_kwds)


def test_default_debiased_ols_equals_statsmodels(session):
    X, y = _data()
    model = MarsDistributedModel(num_partitions=3)
    result = model.fit(mt.tensor(y, chunk_size=50), mt.tensor(X, chunk_size=(60, 2)), alpha=0.1)
    expected = _reference(X, y, 3, {"alpha": 0.1})
    assert isinstance(result, MarsResults)
    np.testing.assert_allclose(result.params, expected.params, rtol=1e-12)
    assert_eq(result.predict(mt.tensor(X, chunk_size=(70, 3))), expected.predict(X), rtol=1e-12)


def test_naive_glm_with_fit_kwds(session):
    from statsmodels.base.distributed_estimation import _est_unregularized_naive, _join_naive

    X, y = _data(n=157)
    counts = np.random.default_rng(1).poisson(np.exp(0.3 * X[:, 0]))
    kw = {"model_class": sm.GLM, "init_kwds": {"family": sm.families.Poisson()},
          "estimation_method": _est_unregularized_naive, "join_method": _join_naive}
    result = MarsDistributedModel(num_partitions=2, **kw).fit(counts, X, maxiter=50)
    bounds = [0, 78, 157]  # round(157 / 2) = 78
    parts = ((counts[a:b], X[a:b]) for a, b in zip(bounds[:-1], bounds[1:]))
    expected = DistributedModel(2, **kw).fit(parts, fit_kwds={"maxiter": 50})
    np.testing.assert_allclose(result.params, expected.params, rtol=1e-12)


def test_a_partition_fit_error_keeps_its_type(session):
    X, y = _data(n=40)
    with pytest.raises(KeyError, match="alpha"):  # statsmodels' debiased fit needs alpha
        MarsDistributedModel(num_partitions=2).fit(y, X)


def test_more_partitions_than_rows_is_refused():
    X, y = _data(n=5)
    with pytest.raises(ValueError, match="partitions"):
        MarsDistributedModel(num_partitions=8).fit(y, X)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        MarsDistributedModel(num_partitions=2).fit(y[:3], X)


def test_missing_statsmodels_names_the_extra():
    code = ("import sys; sys.modules['statsmodels'] = None\n"
            "from mars_on_ray.learn.contrib.statsmodels import MarsDistributedModel\n"
            "try:\n    MarsDistributedModel()\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), timeout=120)
    assert "pip install 'mars_on_ray[statsmodels]'" in out.stdout, out.stderr
