"""learn.utils validation helpers against scikit-learn's: values, dtypes, exception types."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import DataConversionWarning, NotFittedError
from sklearn.utils import validation as skv

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn._convert import to_tensor
from mars_on_ray.learn.utils import (assert_all_finite, check_array, check_consistent_length,
                                     check_X_y, column_or_1d)
from mars_on_ray.learn.utils.validation import check_is_fitted
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(0)
X = RS.rand(11, 4)
DF = pd.DataFrame(X, columns=list("abcd"))


@pytest.mark.parametrize("make", [
    lambda: X, lambda: DF, lambda: mt.tensor(X, chunk_size=(3, 3)),
    lambda: md.DataFrame(DF, chunk_size=4), lambda: X.tolist()])
def test_to_tensor_every_input_kind(make):
    assert_eq(to_tensor(make()), X)


def test_to_tensor_series_and_dtype():
    s = pd.Series(np.arange(7), name="s")
    assert_eq(to_tensor(md.Series(s, chunk_size=3)), s.to_numpy())
    assert_eq(to_tensor(md.Series(s, chunk_size=3), dtype=np.float32), s.to_numpy(np.float32))


@pytest.mark.parametrize("make", [lambda a: a, lambda a: mt.tensor(a, chunk_size=3),
                                  lambda a: md.DataFrame(pd.DataFrame(a), chunk_size=4)])
def test_check_array_matches_sklearn(make):
    assert_eq(check_array(make(X)), skv.check_array(X))
    ints = (X * 10).astype(np.int64)
    assert_eq(check_array(make(ints), dtype=np.float64), skv.check_array(ints, dtype=np.float64))
    assert_eq(check_array(make(ints), dtype=[np.int64, np.float64]), ints)


@pytest.mark.parametrize("lazy", [False, True])
def test_check_array_errors_match_sklearn(lazy):
    wrap = (lambda a: mt.tensor(a, chunk_size=3)) if lazy else (lambda a: a)
    for bad, kwargs in [(np.arange(5.0), {}), (np.float64(1.0) * np.ones(()), {}),
                        (np.ones((2, 2, 2)), {}), (np.ones((1, 3)), {"ensure_min_samples": 2}),
                        (np.ones((3, 1)), {"ensure_min_features": 2}),
                        (np.ones((3, 2), complex), {})]:
        with pytest.raises(ValueError):
            skv.check_array(bad, **kwargs)
        with pytest.raises(ValueError):
            r = check_array(wrap(bad), **kwargs)
            compute(r)
    assert check_array(wrap(np.ones((2, 2, 2))), allow_nd=True).shape == (2, 2, 2)


@pytest.mark.parametrize("value,message", [(np.nan, "Input contains NaN"), (np.inf, "infinity")])
def test_check_array_non_finite_raises_on_execution(value, message):
    bad = X.copy()
    bad[7, 2] = value
    lazy = check_array(mt.tensor(bad, chunk_size=(4, 3)))  # build time: values unknown
    with pytest.raises(ValueError, match=message):
        compute(lazy)
    with pytest.raises(ValueError, match=message):
        skv.check_array(bad)
    if value != value:
        assert_eq(check_array(mt.tensor(bad, chunk_size=4), ensure_all_finite="allow-nan"),
                  skv.check_array(bad, ensure_all_finite="allow-nan"))


def test_assert_all_finite():
    bad = X.copy()
    bad[3, 0] = np.nan
    assert bool(compute(assert_all_finite(mt.tensor(X, chunk_size=4))))
    with pytest.raises(ValueError, match="NaN"):
        compute(assert_all_finite(mt.tensor(bad, chunk_size=4)))
    assert bool(compute(assert_all_finite(mt.tensor(bad, chunk_size=4), allow_nan=True)))
    with pytest.raises(ValueError, match="NaN"):
        assert_all_finite(bad)  # in-memory input: checked now, like scikit-learn
    assert_eq(assert_all_finite(mt.tensor(X, chunk_size=4), check_only=False), X)


def test_check_consistent_length():
    check_consistent_length(X, mt.tensor(np.arange(11), chunk_size=4), None)
    for other in (np.arange(10), mt.tensor(np.arange(10), chunk_size=3)):
        with pytest.raises(ValueError, match="inconsistent numbers of samples"):
            check_consistent_length(mt.tensor(X, chunk_size=5), other)
    with pytest.raises(ValueError):
        skv.check_consistent_length(X, np.arange(10))


@pytest.mark.parametrize("lazy", [False, True])
def test_column_or_1d(lazy):
    wrap = (lambda a: mt.tensor(a, chunk_size=4)) if lazy else (lambda a: a)
    y = np.arange(9)
    assert_eq(column_or_1d(wrap(y)), skv.column_or_1d(y))
    with pytest.warns(DataConversionWarning):
        got = column_or_1d(wrap(y.reshape(-1, 1)), warn=True)
    assert_eq(got, y)
    with pytest.raises(ValueError, match="1d array"):
        column_or_1d(wrap(np.ones((3, 2))))


def test_check_X_y():
    y = RS.randint(0, 3, 11)
    Xt, yt = check_X_y(mt.tensor(X, chunk_size=4), md.Series(pd.Series(y), chunk_size=5))
    eX, ey = skv.check_X_y(X, y)
    assert_eq(Xt, eX)
    assert_eq(yt, ey)
    with pytest.raises(ValueError, match="inconsistent"):
        check_X_y(mt.tensor(X, chunk_size=4), y[:-1])
    with pytest.raises(ValueError, match="requires y"):
        check_X_y(X, None)
    yn = y.astype(float)
    yn[2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        compute(check_X_y(mt.tensor(X, chunk_size=4), mt.tensor(yn, chunk_size=4))[1])
    Xt, Yt = check_X_y(X, np.c_[y, y], multi_output=True)
    assert_eq(Yt, np.c_[y, y])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_X_y(X, mt.tensor(y, chunk_size=3))


def test_check_is_fitted():
    from sklearn.linear_model import LinearRegression

    with pytest.raises(NotFittedError):
        check_is_fitted(LinearRegression())
    check_is_fitted(LinearRegression().fit(X, np.arange(11)))


# --- multiclass ------------------------------------------------------------------------

from sklearn import utils as sku  # noqa: E402
from sklearn.utils import multiclass as skmc  # noqa: E402

from mars_on_ray.learn.utils import shuffle  # noqa: E402
from mars_on_ray.learn.utils.multiclass import is_multilabel, type_of_target, unique_labels  # noqa: E402
from learn_support import compute

TARGETS = [np.array([0, 1, 1, 0, 1]), np.arange(23) % 5, np.array([0.0, 1.0, 2.5, 3.0]),
           np.array(["a", "b", "a"]), np.array([[0, 1], [1, 1], [0, 0]]),
           np.array([[0, 1, 2], [1, 1, 0]]), np.array([[0.5, 1.0], [1.0, 1.0]]),
           np.array([1.0, 2.0, 3.0, 2.0]), np.array([[1, 2], [2, 1]]), np.array([[1], [0], [1]]),
           np.array([3.0, 3.0, 3.0, 7.25]), np.array([True, False, True])]


@pytest.mark.parametrize("y", TARGETS, ids=range(len(TARGETS)))
@pytest.mark.parametrize("chunk", [1, 2, 3])
def test_type_of_target_matches_sklearn(y, chunk):
    t = mt.tensor(y, chunk_size=chunk)
    assert compute(type_of_target(t)) == skmc.type_of_target(y)
    assert bool(compute(is_multilabel(t))) == skmc.is_multilabel(y)
    assert type_of_target(y) == skmc.type_of_target(y)  # in-memory: scikit-learn's answer now


def test_type_of_target_frames_and_non_finite():
    s = pd.Series(np.arange(10) % 3)
    assert compute(type_of_target(md.Series(s, chunk_size=4))) == "multiclass"
    y = np.array([0.0, 1.0, np.nan, 1.5])
    with pytest.raises(ValueError, match="NaN"):
        skmc.type_of_target(y)
    with pytest.raises(ValueError, match="NaN"):
        compute(type_of_target(mt.tensor(y, chunk_size=1)))


def test_unique_labels():
    a, b = np.array([3, 1, 1]), np.array([2, 3, 5, 5])
    assert_eq(unique_labels(mt.tensor(a, chunk_size=2), b), skmc.unique_labels(a, b))


@pytest.mark.parametrize("chunk", [3, 7])
def test_shuffle_equals_sklearn_for_any_chunking(chunk):
    y = np.arange(11) * 10
    got = shuffle(mt.tensor(X, chunk_size=(chunk, 2)), md.Series(pd.Series(y), chunk_size=chunk), DF,
                  random_state=4)
    want = sku.shuffle(X, pd.Series(y), DF, random_state=4)
    for g, w in zip(got, want):
        assert_eq(g, w)
    assert_eq(shuffle(mt.tensor(X, chunk_size=chunk), random_state=1, n_samples=5),
              sku.shuffle(X, random_state=1, n_samples=5))
    with pytest.raises(ValueError):
        shuffle(X, np.arange(10))
    with pytest.raises(ValueError):
        sku.shuffle(X, random_state=1, n_samples=50)
    with pytest.raises(ValueError):
        shuffle(mt.tensor(X, chunk_size=chunk), random_state=1, n_samples=50)


def test_shuffle_unknown_length():
    t = mt.tensor(X, chunk_size=4)
    kept = t[t[:, 0] > 0.3]  # a length known only after running
    want = X[X[:, 0] > 0.3]
    assert_eq(shuffle(kept, random_state=0), sku.shuffle(want, random_state=0))
