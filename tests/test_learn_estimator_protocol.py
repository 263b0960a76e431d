"""scikit-learn's estimator protocol on every learn estimator: clone / get_params / set_params /
repr, pickling, fit returning self, NotFittedError, n_features_in_ / feature_names_in_."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.cluster as skc
import sklearn.decomposition as skd
import sklearn.ensemble as ske
import sklearn.linear_model as sklm
import sklearn.neighbors as skn
import sklearn.preprocessing as skp
import sklearn.semi_supervised as sks
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn import cluster, decomposition, ensemble, neighbors, semi_supervised, wrappers
from mars_on_ray.learn import linear_model as lm
from mars_on_ray.learn import preprocessing as lp
from learn_support import local_session  # noqa: F401

rs = np.random.RandomState(0)
X = rs.randn(53, 4)
YC = (X[:, 0] + rs.randn(53) * 0.3 > 0).astype(int)
YR = X @ [1.0, 2, -1, 0.5] + rs.randn(53) * 0.1
YLP = np.where(np.arange(53) % 3 == 0, -1, YC)
DF = pd.DataFrame(X, columns=list("abcd"))
CAT = pd.DataFrame({"a": rs.choice(["x", "y", "z"], 53), "b": rs.choice(["p", "q"], 53)})

# (ours, scikit-learn's counterpart or None, y: None / array / "cat" for categorical X)
CASES = [
    (cluster.KMeans(3, random_state=0, n_init=1), skc.KMeans(3, random_state=0, n_init=1), None),
    (decomposition.PCA(2), skd.PCA(2), None),
    (decomposition.TruncatedSVD(2, random_state=0), skd.TruncatedSVD(2, random_state=0), None),
    (lm.LinearRegression(), sklm.LinearRegression(), YR),
    (lm.Ridge(), sklm.Ridge(), YR),
    (lm.LogisticRegression(), sklm.LogisticRegression(), YC),
    (neighbors.NearestNeighbors(), skn.NearestNeighbors(), None),
    (neighbors.KNeighborsClassifier(), skn.KNeighborsClassifier(), YC),
    (neighbors.KNeighborsRegressor(), skn.KNeighborsRegressor(), YR),
    (lp.StandardScaler(), skp.StandardScaler(), None),
    (lp.MinMaxScaler(), skp.MinMaxScaler(), None),
    (lp.MaxAbsScaler(), skp.MaxAbsScaler(), None),
    (lp.RobustScaler(), skp.RobustScaler(), None),
    (lp.Binarizer(), skp.Binarizer(), None),
    (lp.PolynomialFeatures(), skp.PolynomialFeatures(), None),
    (lp.OneHotEncoder(), skp.OneHotEncoder(sparse_output=False), "cat"),
    (lp.OrdinalEncoder(), skp.OrdinalEncoder(), "cat"),
    (semi_supervised.LabelPropagation(), sks.LabelPropagation(), YLP),
    (ensemble.BaggingClassifier(n_estimators=3, random_state=0), ske.BaggingClassifier(n_estimators=3, random_state=0),
     YC),
    (ensemble.BaggingRegressor(n_estimators=3, random_state=0), ske.BaggingRegressor(n_estimators=3, random_state=0),
     YR),
    (ensemble.BlockwiseVotingClassifier(DecisionTreeClassifier()), None, YC),
    (ensemble.BlockwiseVotingRegressor(DecisionTreeRegressor()), None, YR),
    (ensemble.IsolationForest(n_estimators=5, random_state=0), ske.IsolationForest(n_estimators=5, random_state=0),
     None),
    (wrappers.ParallelPostFit(sklm.LogisticRegression()), None, YC),
]
IDS = [type(c[0]).__name__ for c in CASES]
# our extra parameters (Mars' options), on top of scikit-learn's
EXTRA_PARAMS = {"KMeans": {"oversampling_factor", "init_iter"}, "IsolationForest": {"n_groups"}}
EXTRA_ATTRS = {}  # fitted attributes scikit-learn does not have
METHODS = ("predict", "transform", "kneighbors", "predict_proba", "decision_function", "score_samples")


def _data(y, kind):
    """(X, y) of the case as ``kind``: numpy, tensor, pandas or mars (frames, Series)."""
    if isinstance(y, str):
        frame = CAT
        y = None
    else:
        frame = DF
    if kind == "numpy":
        return frame.to_numpy(), y
    if kind == "tensor":
        return mt.tensor(frame.to_numpy(), chunk_size=(10, 3)), None if y is None else mt.tensor(y, chunk_size=10)
    if kind == "pandas":
        return frame, y
    return md.DataFrame(frame, chunk_size=10), None if y is None else md.Series(pd.Series(y), chunk_size=10)


def _fit(est, y, kind):
    Xk, yk = _data(y, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence warnings of the tiny data
        return est.fit(Xk) if yk is None else est.fit(Xk, yk)


def _fitted_attrs(est):
    return {k for k in vars(est) if k.endswith("_") and not k.startswith("_")}


def _value(out):
    out = out[0] if isinstance(out, tuple) else out
    return np.asarray(out.fetch() if hasattr(out, "fetch") else out)


@pytest.mark.parametrize("ours, sk, y", CASES, ids=IDS)
def test_params_clone_repr_and_pickle_unfitted(ours, sk, y):
    params = ours.get_params(deep=True)
    copy = clone(ours)
    assert copy is not ours and copy.get_params(deep=True).keys() == params.keys()
    assert ours.set_params(**ours.get_params(deep=False)) is ours
    assert repr(pickle.loads(pickle.dumps(ours))) == repr(ours)
    if sk is not None:
        name = type(ours).__name__
        assert set(ours.get_params(deep=False)) == set(sk.get_params(deep=False)) | EXTRA_PARAMS.get(name, set())
        assert repr(ours) == repr(sk).replace("(sparse_output=False)", "()")


@pytest.mark.parametrize("ours, sk, y", CASES, ids=IDS)
def test_not_fitted_error_before_fit_and_fitted_attributes_only_after(local_session, ours, sk, y):
    ours = clone(ours)
    for method in [m for m in METHODS if hasattr(ours, m)][:2]:
        with pytest.raises(NotFittedError):
            getattr(ours, method)(_data(y, "numpy")[0])
    assert not _fitted_attrs(ours)
    assert _fit(ours, y, "numpy") is ours
    if sk is not None:
        ref = _fit(clone(sk), y, "numpy")
        attrs = _fitted_attrs(ours) - EXTRA_ATTRS.get(type(ours).__name__, set())
        assert _fitted_attrs(ref) <= attrs and all(hasattr(ref, a) for a in attrs)  # some are properties there


@pytest.mark.parametrize("ours, sk, y", CASES, ids=IDS)
@pytest.mark.parametrize("kind", ["numpy", "tensor", "pandas", "mars"])
def test_feature_names_in_and_n_features_in_after_fit(local_session, ours, sk, y, kind):
    if kind == "tensor" and isinstance(y, str):
        pytest.skip("string tensors: the encoders take them as arrays, checked with numpy")
    est = _fit(clone(ours), y, kind)
    frame = CAT if isinstance(y, str) else DF
    assert est.n_features_in_ == frame.shape[1]
    if kind in ("pandas", "mars"):
        assert list(est.feature_names_in_) == list(frame.columns)
        assert est.feature_names_in_.dtype == object
        _fit(est, y, "numpy")  # refitted without names: scikit-learn deletes them
    assert not hasattr(est, "feature_names_in_")


@pytest.mark.parametrize("ours, sk, y", CASES, ids=IDS)
def test_pickled_fitted_estimator_gives_the_same_results(local_session, ours, sk, y):
    est = _fit(clone(ours), y, "tensor" if not isinstance(y, str) else "numpy")
    again = pickle.loads(pickle.dumps(est))
    assert repr(again) == repr(est) and _fitted_attrs(again) == _fitted_attrs(est)
    method = next(m for m in METHODS if hasattr(est, m))
    Xn = _data(y, "numpy")[0]
    np.testing.assert_array_equal(_value(getattr(again, method)(Xn)), _value(getattr(est, method)(Xn)))
    assert repr(clone(est)) == repr(est)


def test_linear_regression_singular_has_sklearns_name(local_session):
    ours, ref = lm.LinearRegression().fit(mt.tensor(X, chunk_size=(10, 3)), YR), sklm.LinearRegression().fit(X, YR)
    np.testing.assert_allclose(ours.singular_, ref.singular_, rtol=1e-10)
    assert ours.rank_ == ref.rank_


def test_bagging_sets_estimator_(local_session):
    ours = ensemble.BaggingClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=2).fit(X, YC)
    assert repr(ours.estimator_) == repr(DecisionTreeClassifier(max_depth=2))
    assert repr(ensemble.BaggingRegressor(n_estimators=2).fit(X, YR).estimator_) == repr(DecisionTreeRegressor())


def test_isolation_forest_estimators_are_its_trees_as_sklearns(local_session):
    ours = ensemble.IsolationForest(n_estimators=7, random_state=0, n_groups=3).fit(mt.tensor(X, chunk_size=10))
    ref = ske.IsolationForest(n_estimators=7, random_state=0).fit(X)
    assert len(ours.estimators_) == len(ours.estimators_features_) == 7
    assert {type(t) for t in ours.estimators_} == {type(t) for t in ref.estimators_}
    assert type(ours.estimator_) is type(ref.estimator_)
    assert all(len(f) == 4 for f in ours.estimators_features_)


def test_isolation_forest_predict_before_fit_raises_not_fitted_error():
    for method in ("predict", "decision_function", "score_samples"):
        with pytest.raises(NotFittedError):
            getattr(ensemble.IsolationForest(), method)(X)


def test_meta_estimators_have_only_the_methods_they_can_run():
    assert not hasattr(wrappers.ParallelPostFit(sklm.LinearRegression()), "predict_proba")
    assert not hasattr(wrappers.ParallelPostFit(sklm.LinearRegression()), "transform")
    assert hasattr(wrappers.ParallelPostFit(sklm.LogisticRegression()), "predict_proba")
    assert not hasattr(ensemble.BlockwiseVotingClassifier(DecisionTreeClassifier()), "predict_proba")
    assert hasattr(ensemble.BlockwiseVotingClassifier(DecisionTreeClassifier(), voting="soft"), "predict_proba")


def test_fit_on_a_frame_then_predict_on_other_names_raises_sklearns_value_error(local_session):
    for est in (lp.StandardScaler(), lm.LinearRegression(), cluster.KMeans(2, n_init=1, random_state=0),
                decomposition.PCA(2), neighbors.NearestNeighbors()):
        Xk, yk = _data(YR if isinstance(est, lm.LinearRegression) else None, "mars")
        est.fit(Xk) if yk is None else est.fit(Xk, yk)
        method = next(m for m in METHODS if hasattr(est, m))
        renamed = DF.rename(columns={"a": "z"})
        with pytest.raises(ValueError, match="The feature names should match those that were passed during fit"):
            getattr(est, method)(md.DataFrame(renamed, chunk_size=10))
        with pytest.warns(UserWarning, match="X does not have valid feature names"):
            getattr(est, method)(mt.tensor(X, chunk_size=10))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            getattr(est, method)(DF)


@pytest.mark.parametrize("ours, sk", [(lp.LabelEncoder(), skp.LabelEncoder()),
                                      (lp.LabelBinarizer(neg_label=-1), skp.LabelBinarizer(neg_label=-1))],
                         ids=["LabelEncoder", "LabelBinarizer"])
def test_label_transformers_follow_the_protocol_as_sklearns(local_session, ours, sk):
    y = np.array(list("abcabcaabcad"))
    assert repr(ours) == repr(sk) and repr(pickle.loads(pickle.dumps(clone(ours)))) == repr(sk)
    with pytest.raises(NotFittedError):
        clone(ours).transform(y)
    est = clone(ours)
    assert est.fit(mt.tensor(y, chunk_size=5)) is est
    ref = clone(sk).fit(y)
    assert _fitted_attrs(est) == _fitted_attrs(ref)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.transform(mt.tensor(y, chunk_size=4)).fetch(), ref.transform(y))
    codes = ref.transform(y)
    np.testing.assert_array_equal(est.inverse_transform(mt.tensor(codes, chunk_size=3)).fetch(), y)
