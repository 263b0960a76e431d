"""StandardScaler, MaxAbsScaler, RobustScaler, Binarizer and their functions against
scikit-learn: fitted attributes and outputs, errors of the same types; every input kind and
chunk sizes that do not divide the 37 rows."""
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import preprocessing as skp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn import preprocessing as lp
from mars_on_ray.testing import assert_eq

from learn_support import local_session  # noqa: F401
from learn_support import compute, inputs

RS = np.random.RandomState(5)
X = RS.randn(37, 4) * [1, 10, 100, 1000] + [0, 5, -50, 1e4]
X[5, 2] = np.nan
X[11, 0] = np.nan
X[:, 3] = np.round(X[:, 3], -2)  # ties for the quantiles
DF = pd.DataFrame(X, columns=["a", "b", "c", "d"])
W = RS.rand(37)
TIGHT = 1e-12  # chunked sums: equal to scikit-learn's up to the order of additions


def check_attrs(ours, ref, names, rtol=0.0):
    for name in names:
        theirs = getattr(ref, name)
        if theirs is None:
            assert getattr(ours, name) is None, name
            continue
        got = np.asarray(getattr(ours, name))
        assert got.shape == np.shape(theirs) and got.dtype == np.asarray(theirs).dtype, name
        np.testing.assert_allclose(got, theirs, rtol=rtol, equal_nan=True, err_msg=name)


SS_ATTRS = ["mean_", "var_", "scale_", "n_samples_seen_", "n_features_in_"]


@pytest.mark.parametrize("kwargs", [{}, {"with_mean": False}, {"with_std": False},
                                    {"with_mean": False, "with_std": False}])
def test_standard_scaler_matches_sklearn(local_session, kwargs):
    ref = skp.StandardScaler(**kwargs).fit(X)
    for x in inputs(X, DF):
        ours = lp.StandardScaler(**kwargs)
        assert ours.fit(x) is ours
        check_attrs(ours, ref, SS_ATTRS, TIGHT)
        other = X[::-1] * 0.5
        assert_eq(ours.transform(mt.tensor(other, chunk_size=(9, 4))), ref.transform(other), rtol=TIGHT)
        assert_eq(ours.inverse_transform(mt.tensor(other, chunk_size=5)), ref.inverse_transform(other), rtol=TIGHT)
    assert list(lp.StandardScaler().fit(md.DataFrame(DF, chunk_size=10)).feature_names_in_) == list("abcd")
    assert list(lp.StandardScaler().fit(DF).get_feature_names_out()) == list("abcd")


def test_standard_scaler_one_block_is_bit_exact(local_session):
    x = np.nan_to_num(X)
    ours, ref = lp.StandardScaler().fit(mt.tensor(x, chunk_size=40)), skp.StandardScaler().fit(x)
    check_attrs(ours, ref, SS_ATTRS)


def test_standard_scaler_sample_weight_and_partial_fit(local_session):
    ref = skp.StandardScaler().fit(X, sample_weight=W)
    ours = lp.StandardScaler().fit(mt.tensor(X, chunk_size=7), sample_weight=mt.tensor(W, chunk_size=6))
    check_attrs(ours, ref, SS_ATTRS, TIGHT)
    ref, ours = skp.StandardScaler(), lp.StandardScaler()
    for lo, hi in [(0, 10), (10, 25), (25, 37)]:
        ref.partial_fit(X[lo:hi])
        assert ours.partial_fit(mt.tensor(X[lo:hi], chunk_size=4)) is ours
        check_attrs(ours, ref, SS_ATTRS, TIGHT)


def test_standard_scaler_constant_feature_scale_one(local_session):
    x = np.column_stack([np.full(37, 3.3), RS.rand(37)])
    ref = skp.StandardScaler().fit(x)
    ours = lp.StandardScaler().fit(mt.tensor(x, chunk_size=8))
    check_attrs(ours, ref, ["scale_"], TIGHT)
    assert ours.scale_[0] == 1.0


def test_standard_scaler_api_and_errors(local_session):
    s = lp.StandardScaler(with_mean=False)
    assert s.get_params() == skp.StandardScaler(with_mean=False).get_params()
    assert clone(s).with_mean is False
    with pytest.raises(NotFittedError):
        s.transform(X)
    fitted = lp.StandardScaler().fit(mt.tensor(X, chunk_size=5))
    with pytest.raises(ValueError, match="features"):
        fitted.transform(X[:, :3])
    with pytest.raises(ValueError):
        lp.StandardScaler().fit(mt.tensor(X[:, 0], chunk_size=5))
    with pytest.raises(ValueError):
        skp.StandardScaler().fit(np.array([[np.inf, 1.0]]))
    with pytest.raises(ValueError):
        lp.StandardScaler().fit(np.array([[np.inf, 1.0]]))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("kwargs", [{}, {"with_mean": False}])
def test_scale(local_session, axis, kwargs):
    x = np.nan_to_num(X)
    assert_eq(lp.scale(mt.tensor(x, chunk_size=(6, 3)), axis=axis, **kwargs), skp.scale(x, axis=axis, **kwargs),
              rtol=1e-10)
    assert_eq(lp.scale(mt.tensor(x[:, 1], chunk_size=6)), skp.scale(x[:, 1]), rtol=1e-10)


def test_max_abs_scaler_exact(local_session):
    for kwargs in ({}, {"clip": True}):
        ref = skp.MaxAbsScaler(**kwargs).fit(X)
        for x in inputs(X, DF):
            ours = lp.MaxAbsScaler(**kwargs).fit(x)
            check_attrs(ours, ref, ["max_abs_", "scale_", "n_samples_seen_", "n_features_in_"])
            other = X * 1.5
            assert_eq(ours.transform(mt.tensor(other, chunk_size=(9, 4))), ref.transform(other), rtol=0)
            assert_eq(ours.inverse_transform(mt.tensor(other, chunk_size=5)), ref.inverse_transform(other), rtol=0)
    ref, ours = skp.MaxAbsScaler(), lp.MaxAbsScaler()
    for lo, hi in [(0, 20), (20, 37)]:
        ref.partial_fit(X[lo:hi])
        ours.partial_fit(mt.tensor(X[lo:hi], chunk_size=6))
    check_attrs(ours, ref, ["max_abs_", "scale_", "n_samples_seen_"])
    assert lp.MaxAbsScaler().get_params() == skp.MaxAbsScaler().get_params()
    with pytest.raises(NotFittedError):
        lp.MaxAbsScaler().transform(X)


@pytest.mark.parametrize("axis", [0, 1])
def test_maxabs_scale(local_session, axis):
    assert_eq(lp.maxabs_scale(mt.tensor(X, chunk_size=(6, 3)), axis=axis), skp.maxabs_scale(X, axis=axis), rtol=0)


@pytest.mark.parametrize("kwargs", [{}, {"quantile_range": (10.0, 95.0)}, {"with_centering": False},
                                    {"with_scaling": False}, {"unit_variance": True}])
def test_robust_scaler_exact_quantiles(local_session, kwargs):
    ref = skp.RobustScaler(**kwargs).fit(X)
    for x in inputs(X, DF):
        ours = lp.RobustScaler(**kwargs).fit(x)
        check_attrs(ours, ref, ["center_", "scale_", "n_features_in_"])
        other = X[::-1]
        assert_eq(ours.transform(mt.tensor(other, chunk_size=(9, 4))), ref.transform(other), rtol=0)
        assert_eq(ours.inverse_transform(mt.tensor(other, chunk_size=5)), ref.inverse_transform(other), rtol=0)


def test_robust_scaler_errors_and_function(local_session):
    with pytest.raises(ValueError):
        skp.RobustScaler(quantile_range=(80, 20)).fit(X)
    with pytest.raises(ValueError, match="quantile range"):
        lp.RobustScaler(quantile_range=(80, 20)).fit(mt.tensor(X, chunk_size=8))
    with pytest.raises(NotFittedError):
        lp.RobustScaler().transform(X)
    assert clone(lp.RobustScaler(unit_variance=True)).unit_variance is True
    for axis in (0, 1):
        x = np.nan_to_num(X)
        assert_eq(lp.robust_scale(mt.tensor(x, chunk_size=(8, 3)), axis=axis), skp.robust_scale(x, axis=axis),
                  rtol=0)


def test_binarizer(local_session):
    x = np.nan_to_num(X)
    for threshold in (0.0, 5.0):
        ref = skp.Binarizer(threshold=threshold).fit(x)
        for a in inputs(x, DF.fillna(0)):
            ours = lp.Binarizer(threshold=threshold).fit(a)
            assert ours.n_features_in_ == ref.n_features_in_
            assert_eq(ours.transform(mt.tensor(x, chunk_size=(8, 3))), ref.transform(x), rtol=0)
        assert_eq(lp.binarize(mt.tensor(x, chunk_size=8), threshold=threshold),
                  skp.binarize(x, threshold=threshold), rtol=0)
    assert list(lp.Binarizer().fit(DF.fillna(0)).get_feature_names_out()) == list("abcd")
    with pytest.raises(NotFittedError):
        lp.Binarizer().transform(x)


@pytest.mark.parametrize("kwargs", [{}, {"degree": 3}, {"interaction_only": True}, {"include_bias": False},
                                    {"degree": (2, 3)}])
def test_polynomial_features_matches_sklearn(kwargs):
    x = np.nan_to_num(X) / 100
    ref = skp.PolynomialFeatures(**kwargs).fit(x)
    for a in inputs(x, DF.fillna(0) / 100):
        ours = lp.PolynomialFeatures(**kwargs)
        assert ours.fit(a) is ours
        assert ours.n_output_features_ == ref.n_output_features_ and ours.n_features_in_ == 4
        np.testing.assert_array_equal(ours.powers_, ref.powers_)
        assert_eq(ours.transform(mt.tensor(x, chunk_size=(8, 3))), ref.transform(x), rtol=0)
    named = lp.PolynomialFeatures(**kwargs).fit(DF.fillna(0))
    np.testing.assert_array_equal(named.get_feature_names_out(),
                                  skp.PolynomialFeatures(**kwargs).fit(DF.fillna(0)).get_feature_names_out())


def test_polynomial_features_errors():
    with pytest.raises(ValueError):
        skp.PolynomialFeatures(degree=(3, 2)).fit(X)
    with pytest.raises(ValueError):
        lp.PolynomialFeatures(degree=(3, 2)).fit(mt.tensor(X, chunk_size=8))
    with pytest.raises(NotFittedError):
        lp.PolynomialFeatures().transform(X)
    with pytest.raises(ValueError, match="features"):
        lp.PolynomialFeatures().fit(np.nan_to_num(X)).transform(np.nan_to_num(X)[:, :2])
    assert lp.PolynomialFeatures(degree=4).get_params() == skp.PolynomialFeatures(degree=4).get_params()
    assert clone(lp.PolynomialFeatures(degree=4)).degree == 4


def test_polynomial_features_rejects_nan_like_sklearn():
    with pytest.raises(ValueError, match="NaN"):
        lp.PolynomialFeatures().fit(X)
    fitted = lp.PolynomialFeatures().fit(mt.tensor(np.nan_to_num(X), chunk_size=8))
    with pytest.raises(ValueError, match="NaN"):
        compute(fitted.transform(mt.tensor(X, chunk_size=8)))


def test_all_nan_column_gives_nan_statistics(local_session):
    x = np.nan_to_num(X)
    x[:, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for cls, names in (("RobustScaler", ["center_", "scale_"]), ("MaxAbsScaler", ["max_abs_", "scale_"]),
                           ("StandardScaler", ["mean_", "var_", "scale_", "n_samples_seen_"])):
            ref = getattr(skp, cls)().fit(x)
            check_attrs(getattr(lp, cls)().fit(mt.tensor(x, chunk_size=8)), ref, names, TIGHT)
