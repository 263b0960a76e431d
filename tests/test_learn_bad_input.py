"""Bad input to the learn estimators raises scikit-learn's exception types and messages:
invalid parameters, wrong number of features, NaN, y / sample_weight of the wrong length."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils._param_validation import InvalidParameterError

import mars_on_ray.tensor as mt
from mars_on_ray.learn import cluster, decomposition, ensemble, linear_model as lm, neighbors, semi_supervised
from mars_on_ray.learn import preprocessing as lp
from learn_support import local_session  # noqa: F401
from test_learn_estimator_protocol import CASES, METHODS, X, YC, YLP, YR, _data

WITH_SK = [c for c in CASES if c[1] is not None]
NUMERIC = [c for c in CASES if not isinstance(c[2], str)]
# estimators whose scikit-learn counterpart takes NaN (trees) or ignores it (scalers)
ACCEPT_NAN = ("BaggingClassifier", "BaggingRegressor", "IsolationForest", "StandardScaler", "MinMaxScaler",
              "MaxAbsScaler", "RobustScaler", "BlockwiseVotingClassifier", "BlockwiseVotingRegressor")
XNAN = X.copy()
XNAN[7, 2] = np.nan


def _error(fit):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit()
    except Exception as exc:  # noqa: BLE001 - the exception itself is what is compared
        return exc
    return None


def _fit(est, Xk, y):
    return est.fit(Xk) if y is None else est.fit(Xk, y)


@pytest.mark.parametrize("ours, sk, y", WITH_SK, ids=[type(c[0]).__name__ for c in WITH_SK])
def test_invalid_parameters_raise_sklearns_invalid_parameter_error_at_fit(local_session, ours, sk, y):
    Xn, yn = _data(y, "numpy")
    Xt = _data(y, "tensor")[0] if not isinstance(y, str) else Xn
    checked = 0
    for name in sk._parameter_constraints:
        if name not in ours.get_params():
            continue
        for bad in ("bogus", -3, 2.5):
            want = _error(lambda: _fit(clone(sk).set_params(**{name: bad}), Xn, yn))
            if not isinstance(want, InvalidParameterError):
                continue
            got = _error(lambda: _fit(clone(ours).set_params(**{name: bad}), Xt, yn))
            assert isinstance(got, InvalidParameterError), (name, bad, got)
            if ours._parameter_constraints[name] is sk._parameter_constraints[name]:  # else: our options too
                assert str(got) == str(want)
            checked += 1
    assert checked


@pytest.mark.parametrize("ours, sk, y", NUMERIC, ids=[type(c[0]).__name__ for c in NUMERIC])
@pytest.mark.parametrize("kind", ["numpy", "tensor"])
def test_wrong_n_features_raises_sklearns_value_error_at_build_time(local_session, ours, sk, y, kind):
    est = _fit(clone(ours), *_data(y, "numpy"))
    narrow = X[:, :3] if kind == "numpy" else mt.tensor(X[:, :3], chunk_size=7)
    for method in [m for m in METHODS if hasattr(est, m)]:
        if type(ours).__name__ == "ParallelPostFit":  # scikit-learn's own estimator raises it
            continue
        with pytest.raises(ValueError, match=f"X has 3 features, but {type(ours).__name__} is expecting 4 "
                                             "features as input"):
            getattr(est, method)(narrow)


@pytest.mark.parametrize("ours, sk, y", NUMERIC, ids=[type(c[0]).__name__ for c in NUMERIC])
def test_nan_in_x_raises_sklearns_value_error(local_session, ours, sk, y):
    name = type(ours).__name__
    fitted = _fit(clone(ours), *_data(y, "numpy"))
    method = next(m for m in METHODS if hasattr(fitted, m))
    if name in ACCEPT_NAN:
        if sk is not None:
            assert _error(lambda: _fit(clone(sk), XNAN, y)) is None
        assert _error(lambda: _fit(clone(ours), XNAN, y)) is None
        return
    want = _error(lambda: _fit(clone(sk), XNAN, y)) if sk is not None else None
    got = _error(lambda: _fit(clone(ours), XNAN, y))
    assert isinstance(got, ValueError) and str(got).startswith("Input X contains NaN.")
    if want is not None:
        assert str(got) == str(want)
    with pytest.raises(ValueError, match="Input X contains NaN"):  # lazy input: when its blocks run
        out = getattr(fitted, method)(mt.tensor(XNAN, chunk_size=9))
        (out[0] if isinstance(out, tuple) else out).fetch()


def test_y_and_sample_weight_of_wrong_length_raise_sklearns_messages_at_build_time(local_session):
    t = mt.tensor(X, chunk_size=(10, 3))
    short = "Found input variables with inconsistent numbers of samples: [53, 50]"
    for est, y in [(lm.LinearRegression(), YR), (lm.Ridge(), YR), (lm.LogisticRegression(), YC),
                   (semi_supervised.LabelPropagation(), YLP), (ensemble.BaggingRegressor(), YR),
                   (ensemble.BlockwiseVotingRegressor(lm.Ridge()), YR)]:
        with pytest.raises(ValueError, match=short.replace("[", r"\[").replace("]", r"\]")):
            est.fit(t, mt.tensor(y[:50], chunk_size=7))
    for est, y in [(lm.LinearRegression(), YR), (lm.Ridge(), YR), (lm.LogisticRegression(), YC),
                   (cluster.KMeans(3), None), (lp.StandardScaler(), None)]:
        with pytest.raises(ValueError, match=r"sample_weight.shape == \(50,\), expected \(53,\)!"):
            est.fit(t, y, sample_weight=np.ones(50)) if y is not None else est.fit(t, sample_weight=np.ones(50))


def test_n_clusters_more_than_samples_also_for_rows_of_unknown_number(local_session):
    t = mt.tensor(X, chunk_size=(10, 3))
    with pytest.raises(ValueError, match="n_samples=53 should be >= n_clusters=60."):
        cluster.KMeans(60).fit(t[t[:, 0] > -100])
    with pytest.raises(ValueError, match="n_samples=5 should be >= n_clusters=8."):
        cluster.KMeans(8).fit(mt.tensor(X[:5], chunk_size=2))


def test_fit_on_rows_of_unknown_number_matches_the_known_rows(local_session):
    keep = X[:, 0] > -0.5
    t, mask = mt.tensor(X, chunk_size=(10, 3)), mt.tensor(keep, chunk_size=10)
    for est, y in [(lm.LinearRegression(), YR), (lm.Ridge(), YR), (semi_supervised.LabelPropagation(), YLP),
                   (decomposition.PCA(2), None), (cluster.KMeans(2, init=X[:2], n_init=1), None)]:
        ours = clone(est).fit(t[mask]) if y is None else clone(est).fit(t[mask], mt.tensor(y, chunk_size=10)[mask])
        ref = clone(est).fit(X[keep]) if y is None else clone(est).fit(X[keep], y[keep])
        method = "predict" if hasattr(ref, "predict") else "transform"
        np.testing.assert_allclose(getattr(ours, method)(X).fetch(), getattr(ref, method)(X).fetch(), atol=1e-10)


def test_array_of_three_dimensions_raises_sklearns_message():
    with pytest.raises(ValueError, match=r"Found array with dim 3, while dim <= 2 is required by KMeans\."):
        cluster.KMeans(2).fit(mt.tensor(np.zeros((4, 2, 2))))


def test_all_zero_sample_weights_raise_sklearns_value_error(local_session):
    t = mt.tensor(X, chunk_size=(10, 3))
    for est, y in [(lm.LinearRegression(), YR), (lm.Ridge(), YR), (lm.LogisticRegression(), YC),
                   (cluster.KMeans(3), None), (lp.StandardScaler(), None)]:
        with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number."):
            est.fit(t, y, sample_weight=np.zeros(53)) if y is not None else est.fit(t, sample_weight=np.zeros(53))


def test_supervised_fit_without_y_raises_sklearns_requires_y_message():
    for est in (lm.LinearRegression(), lm.Ridge(), lm.LogisticRegression(), semi_supervised.LabelPropagation(),
                ensemble.BaggingRegressor(), ensemble.BlockwiseVotingRegressor(lm.Ridge())):
        with pytest.raises(ValueError, match=f"{type(est).__name__} requires y to be passed, but the target y is None"):
            est.fit(X, None)


@pytest.mark.parametrize("est", [lp.StandardScaler(), lm.LinearRegression(), decomposition.PCA(),
                                 lm.Ridge(), lp.MinMaxScaler()], ids=lambda e: type(e).__name__)
def test_sklearn_check_estimator_passes(local_session, est):
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # scikit-learn's Ridge fails it too: n_iter_ is None for its direct solvers
        expected = {"check_non_transformer_estimators_n_iter": "n_iter_ is None"} if isinstance(est, lm.Ridge) else None
        results = check_estimator(est, on_fail=None, expected_failed_checks=expected)
        failed = [(r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"]
    assert not failed


def test_estimator_tags_as_sklearns():
    from sklearn.utils import get_tags
    import sklearn.ensemble as ske
    import sklearn.linear_model as sklm
    import sklearn.preprocessing as skp

    for ours, ref in [(lp.StandardScaler(), skp.StandardScaler()), (lp.MinMaxScaler(), skp.MinMaxScaler()),
                      (lp.RobustScaler(), skp.RobustScaler()), (lp.MaxAbsScaler(), skp.MaxAbsScaler()),
                      (ensemble.IsolationForest(), ske.IsolationForest()),
                      (ensemble.BaggingClassifier(), ske.BaggingClassifier()),
                      (lm.LinearRegression(), sklm.LinearRegression()), (lm.Ridge(), sklm.Ridge())]:
        a, b = get_tags(ours), get_tags(ref)
        assert a.input_tags.allow_nan == b.input_tags.allow_nan, type(ours).__name__
        assert a.target_tags.multi_output == b.target_tags.multi_output, type(ours).__name__


def test_column_vector_y_warns_and_is_raveled_as_sklearns(local_session):
    from sklearn.exceptions import DataConversionWarning

    t = mt.tensor(X, chunk_size=(10, 3))
    for est, y in [(lm.LogisticRegression(), YC), (semi_supervised.LabelPropagation(), YLP),
                   (ensemble.BaggingClassifier(n_estimators=2, random_state=0), YC),
                   (ensemble.BaggingRegressor(n_estimators=2, random_state=0), YR),
                   (ensemble.BlockwiseVotingRegressor(lm.Ridge()), YR)]:
        with pytest.warns(DataConversionWarning, match="A column-vector y was passed when a 1d array was expected"):
            column = clone(est).fit(t, y[:, None])
        flat = clone(est).fit(t, y)
        np.testing.assert_array_equal(column.predict(X).fetch(), flat.predict(X).fetch())


def test_bagging_classifier_continuous_target_raises_unknown_label_type():
    with pytest.raises(ValueError, match="Unknown label type"):
        ensemble.BaggingClassifier().fit(X, YR)


@pytest.mark.parametrize("est", [lp.OneHotEncoder(), lp.OrdinalEncoder(), semi_supervised.LabelPropagation(),
                                 ensemble.BlockwiseVotingRegressor(DecisionTreeRegressor()),
                                 decomposition.TruncatedSVD(), lp.RobustScaler(), lp.PolynomialFeatures(),
                                 lp.MaxAbsScaler(), lp.Binarizer(), neighbors.NearestNeighbors(),
                                 neighbors.KNeighborsClassifier(), neighbors.KNeighborsRegressor(),
                                 ensemble.BaggingRegressor(),
                                 ensemble.BlockwiseVotingClassifier(DecisionTreeClassifier())],
                         ids=lambda e: type(e).__name__)
def test_sklearn_check_estimator_passes_more(local_session, est):
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(est, on_fail=None)
    assert not [(r["check_name"], str(r["exception"])[:200]) for r in results if r["status"] == "failed"]


def test_parallel_post_fit_has_partial_fit_only_when_its_estimator_has():
    import sklearn.linear_model as sklm

    from mars_on_ray.learn.wrappers import ParallelPostFit

    assert not hasattr(ParallelPostFit(sklm.LogisticRegression()), "partial_fit")
    assert hasattr(ParallelPostFit(sklm.SGDClassifier()), "partial_fit")
