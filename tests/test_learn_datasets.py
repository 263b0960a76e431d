"""learn.datasets: bitwise identical for any chunking, reproducible by random_state, with
scikit-learn's parameter checks, shapes, dtypes, class counts and recipes."""
import numpy as np
import pytest
from sklearn import datasets as skd
from sklearn.linear_model import LinearRegression

from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.learn.datasets import make_blobs, make_classification, make_low_rank_matrix, make_regression
from mars_on_ray.learn.datasets._streams import BLOCK, permuted_positions

N = BLOCK + 913  # more than one generation block, not a multiple of it


def compute(*ts):
    return LocalExecutor().compute(*(t.data for t in ts))


CASES = [
    (make_blobs, {"n_samples": N, "n_features": 3, "centers": 4}),
    (make_blobs, {"n_samples": [700, 2000, 1500], "n_features": 2, "shuffle": False, "cluster_std": [0.5, 1, 2]}),
    (make_classification, {"n_samples": N, "n_features": 9, "n_informative": 3, "n_redundant": 2,
                           "n_repeated": 2, "n_classes": 3}),
    (make_classification, {"n_samples": N, "n_features": 5, "shuffle": False, "hypercube": False,
                           "shift": None, "scale": None, "weights": [0.3]}),
    (make_regression, {"n_samples": N, "n_features": 7, "n_informative": 3, "noise": 1.5, "bias": 2.0}),
    (make_regression, {"n_samples": N, "n_features": 6, "n_targets": 2, "effective_rank": 3}),
    (make_low_rank_matrix, {"n_samples": N, "n_features": 12, "effective_rank": 4}),
]


@pytest.mark.parametrize("func,kwargs", CASES, ids=[f"{f.__name__}{i}" for i, (f, _) in enumerate(CASES)])
def test_same_values_for_any_chunking(func, kwargs):
    results = []
    for chunk in (N, 1000, (777, 2), 3001):
        out = func(**kwargs, random_state=7, chunk_size=chunk)
        out = out if isinstance(out, tuple) else (out,)
        results.append(compute(*out))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            np.testing.assert_array_equal(a, b)
    again = func(**kwargs, random_state=7, chunk_size=500)
    again = again if isinstance(again, tuple) else (again,)
    different = func(**kwargs, random_state=8)
    different = different if isinstance(different, tuple) else (different,)
    np.testing.assert_array_equal(compute(again[0])[0], results[0][0])
    assert not np.array_equal(compute(different[0])[0], results[0][0])


def test_shapes_and_dtypes_match_sklearn():
    for func, kwargs in CASES:
        ours = func(**kwargs, random_state=0)
        theirs = getattr(skd, func.__name__)(**kwargs, random_state=0)
        ours = ours if isinstance(ours, tuple) else (ours,)
        theirs = theirs if isinstance(theirs, tuple) else (theirs,)
        for o, t, v in zip(ours, theirs, compute(*ours)):
            assert o.shape == t.shape and o.dtype == t.dtype and v.shape == t.shape and v.dtype == t.dtype


def test_blobs_counts_centers_and_spread():
    X, y, centers = make_blobs(n_samples=N, n_features=3, centers=5, cluster_std=0.2, random_state=1,
                               return_centers=True, chunk_size=900)
    x, labels = compute(X, y)
    _, ref_y = skd.make_blobs(n_samples=N, n_features=3, centers=5, random_state=1)
    np.testing.assert_array_equal(np.bincount(labels), np.bincount(ref_y))  # scikit-learn's counts
    for k in range(5):
        np.testing.assert_allclose(x[labels == k].mean(axis=0), centers[k], atol=0.05)
        np.testing.assert_allclose(x[labels == k].std(axis=0), 0.2, rtol=0.15)
    assert np.all((centers >= -10) & (centers <= 10))
    assert len(set(labels[:50])) > 1  # shuffled: the labels are mixed along the rows
    _, y2 = make_blobs(n_samples=[3, 4], centers=[[0, 0], [5, 5]], shuffle=False, random_state=1)
    np.testing.assert_array_equal(compute(y2)[0], [0, 0, 0, 1, 1, 1, 1])


def test_classification_recipe():
    kwargs = {"n_samples": N, "n_features": 8, "n_informative": 3, "n_redundant": 2, "n_repeated": 1,
              "n_classes": 3, "weights": [0.5, 0.3], "flip_y": 0.0, "shuffle": False}
    x, y = compute(*make_classification(**kwargs, random_state=2, chunk_size=1500))
    _, ref_y = skd.make_classification(**kwargs, random_state=2)
    np.testing.assert_array_equal(np.bincount(y), np.bincount(ref_y))
    informative = x[:, :3]
    # redundant features are linear combinations of the informative ones; repeated copy a column
    coef, res, *_ = np.linalg.lstsq(informative, x[:, 3:5], rcond=None)
    np.testing.assert_allclose(informative @ coef, x[:, 3:5], atol=1e-8)
    assert any(np.array_equal(x[:, 5], x[:, j]) for j in range(5))
    flipped = compute(make_classification(**dict(kwargs, flip_y=0.5), random_state=2)[1])[0]
    assert 0.2 < np.mean(flipped != y) < 0.5  # half are relabelled at random (a third keep theirs)


def test_regression_coef_and_noise():
    X, y, coef = make_regression(n_samples=N, n_features=6, n_informative=2, bias=3.0, coef=True,
                                 random_state=4, chunk_size=1234)
    x, yv = compute(X, y)
    _, _, ref_coef = skd.make_regression(n_samples=10, n_features=6, n_informative=2, coef=True, random_state=4)
    assert coef.shape == ref_coef.shape and np.count_nonzero(coef) == 2
    np.testing.assert_allclose(x @ coef + 3.0, yv, rtol=1e-12)
    x, yv = compute(*make_regression(n_samples=N, n_features=4, noise=2.0, random_state=4))
    fit = LinearRegression().fit(x, yv)
    assert abs(np.std(yv - fit.predict(x)) - 2.0) < 0.1


def test_low_rank_matrix_has_sklearn_singular_values():
    ours = compute(make_low_rank_matrix(n_samples=600, n_features=40, effective_rank=5, tail_strength=0.2,
                                        random_state=0, chunk_size=111))[0]
    theirs = skd.make_low_rank_matrix(n_samples=600, n_features=40, effective_rank=5, tail_strength=0.2,
                                      random_state=0)
    np.testing.assert_allclose(np.linalg.svd(ours, compute_uv=False), np.linalg.svd(theirs, compute_uv=False),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("func,kwargs", [
    (make_blobs, {"n_samples": [10, 20], "centers": 3}),
    (make_blobs, {"n_samples": 10, "centers": 2, "cluster_std": [1, 2, 3]}),
    (make_classification, {"n_features": 3, "n_informative": 2, "n_redundant": 2}),
    (make_classification, {"n_informative": 1, "n_classes": 3}),
    (make_classification, {"weights": [0.1, 0.2, 0.3]}),
    (make_regression, {"n_samples": -1}),
    (make_low_rank_matrix, {"n_features": 0}),
])
def test_bad_parameters_raise_like_sklearn(func, kwargs):
    with pytest.raises(ValueError):
        getattr(skd, func.__name__)(**kwargs)
    with pytest.raises(ValueError):
        func(**kwargs)


def test_random_state_kinds():
    a = compute(make_blobs(n_samples=50, random_state=np.random.RandomState(3))[0])[0]
    b = compute(make_blobs(n_samples=50, random_state=np.random.RandomState(3))[0])[0]
    np.testing.assert_array_equal(a, b)
    rs = np.random.RandomState(3)
    first, second = make_blobs(n_samples=50, random_state=rs)[0], make_blobs(n_samples=50, random_state=rs)[0]
    assert not np.array_equal(*compute(first, second))  # the instance advances, as in scikit-learn


def test_permutation_is_a_bijection():
    for n in (1, 2, 5, 1000, 4097):
        np.testing.assert_array_equal(np.sort(permuted_positions(np.arange(n), n, 9)), np.arange(n))
