"""KNeighborsClassifier / KNeighborsRegressor against scikit-learn: predictions,
probabilities and scores on uneven chunks; tensors, frames, NumPy and pandas inputs."""
import numpy as np
import pandas as pd
import pytest
from sklearn import neighbors as skn
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.model_selection import cross_val_score
from mars_on_ray.learn.neighbors import KNeighborsClassifier, KNeighborsRegressor

from learn_support import local_session  # noqa: F401

RS = np.random.RandomState(4)
X = RS.rand(97, 3)
Q = RS.rand(37, 3)
Y = (X[:, 0] + 0.3 * RS.rand(97) > 0.7).astype(int) + (X[:, 1] > 0.6)
YS = np.array(["low", "mid", "top"])[Y]
YR = X @ [1.0, 2.0, -1.0] + 0.05 * RS.randn(97)
DF = pd.DataFrame(X, columns=["a", "b", "c"])


def fitted_inputs():
    yield mt.tensor(X, chunk_size=(30, 2))
    yield md.DataFrame(DF, chunk_size=40)
    yield DF
    yield X


@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("labels", [Y, YS], ids=["int", "str"])
def test_kneighbors_classifier_matches_sklearn(local_session, weights, labels):
    ref = skn.KNeighborsClassifier(n_neighbors=5, weights=weights).fit(X, labels)
    for x in fitted_inputs():
        ours = KNeighborsClassifier(n_neighbors=5, weights=weights)
        assert ours.fit(x, mt.tensor(labels, chunk_size=25)) is ours
        np.testing.assert_array_equal(ours.classes_, ref.classes_)
        q = mt.tensor(Q, chunk_size=10)
        np.testing.assert_array_equal(ours.predict(q).fetch(), ref.predict(Q))
        np.testing.assert_allclose(ours.predict_proba(q).fetch(), ref.predict_proba(Q), rtol=1e-12)
        assert ours.score(q, ref.predict(Q)) == 1.0
    assert ours.n_samples_fit_ == 97 and ours.n_features_in_ == 3 and ours.outputs_2d_ is False


def test_kneighbors_classifier_multioutput_and_self_query(local_session):
    y2 = np.column_stack([Y, (X[:, 2] > 0.5).astype(int)])
    ref = skn.KNeighborsClassifier(n_neighbors=4).fit(X, y2)
    ours = KNeighborsClassifier(n_neighbors=4).fit(mt.tensor(X, chunk_size=30), y2)
    np.testing.assert_array_equal(ours.predict(mt.tensor(Q, chunk_size=9)).fetch(), ref.predict(Q))
    for a, b in zip(ours.predict_proba(Q), ref.predict_proba(Q)):
        np.testing.assert_allclose(a.fetch(), b, rtol=1e-12)
    single = KNeighborsClassifier(n_neighbors=3).fit(mt.tensor(X, chunk_size=30), Y)
    np.testing.assert_array_equal(single.predict(None).fetch(), skn.KNeighborsClassifier(3).fit(X, Y).predict(None))


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_kneighbors_regressor_matches_sklearn(local_session, weights):
    ref = skn.KNeighborsRegressor(n_neighbors=6, weights=weights).fit(X, YR)
    for x in fitted_inputs():
        ours = KNeighborsRegressor(n_neighbors=6, weights=weights).fit(x, md.Series(pd.Series(YR), chunk_size=33))
        np.testing.assert_allclose(ours.predict(mt.tensor(Q, chunk_size=10)).fetch(), ref.predict(Q), rtol=1e-12)
        assert ours.score(Q, YR[:37]) == pytest.approx(ref.score(Q, YR[:37]), rel=1e-12)
    y2 = np.column_stack([YR, -YR])
    ref2 = skn.KNeighborsRegressor(n_neighbors=3, weights=weights).fit(X, y2)
    ours2 = KNeighborsRegressor(n_neighbors=3, weights=weights).fit(mt.tensor(X, chunk_size=30), y2)
    np.testing.assert_allclose(ours2.predict(Q).fetch(), ref2.predict(Q), rtol=1e-12)


def _inverse_square(dist):
    return 1.0 / (dist ** 2 + 1e-3)


def test_callable_weights_and_feature_names(local_session):
    ref = skn.KNeighborsClassifier(n_neighbors=5, weights=_inverse_square).fit(X, Y)
    ours = KNeighborsClassifier(n_neighbors=5, weights=_inverse_square).fit(mt.tensor(X, chunk_size=30), Y)
    np.testing.assert_allclose(ours.predict_proba(Q).fetch(), ref.predict_proba(Q), rtol=1e-12)
    assert list(KNeighborsRegressor().fit(md.DataFrame(DF, chunk_size=40), YR).feature_names_in_) == ["a", "b", "c"]
    assert not hasattr(KNeighborsRegressor().fit(X, YR), "feature_names_in_")


def test_distance_weights_exact_match_counts_alone(local_session):
    q = X[:5]  # each query is a fitted row: distance 0 -> only it counts
    ours = KNeighborsRegressor(n_neighbors=4, weights="distance").fit(mt.tensor(X, chunk_size=30), YR)
    ref = skn.KNeighborsRegressor(n_neighbors=4, weights="distance").fit(X, YR)
    np.testing.assert_allclose(ours.predict(q).fetch(), ref.predict(q), rtol=1e-12)


def test_kneighbors_api_and_errors(local_session):
    est = KNeighborsClassifier(n_neighbors=3, weights="distance")
    assert est.get_params() == skn.KNeighborsClassifier(n_neighbors=3, weights="distance").get_params()
    assert KNeighborsRegressor().get_params() == skn.KNeighborsRegressor().get_params()
    assert clone(est).weights == "distance"
    with pytest.raises(NotFittedError):
        est.predict(Q)
    with pytest.raises(ValueError):
        skn.KNeighborsClassifier().fit(X, YR)
    with pytest.raises(ValueError, match="Unknown label type"):
        KNeighborsClassifier().fit(mt.tensor(X, chunk_size=30), mt.tensor(YR, chunk_size=30))
    with pytest.raises(ValueError):
        KNeighborsClassifier(weights="bogus").fit(X, Y)
    with pytest.raises(ValueError, match="inconsistent"):
        KNeighborsClassifier().fit(X, Y[:-1])
    with pytest.raises(ValueError, match="features"):
        KNeighborsClassifier().fit(X, Y).predict(Q[:, :2])
    with pytest.raises(ValueError, match="n_neighbors"):
        KNeighborsRegressor(n_neighbors=200).fit(X, YR).predict(Q)


def test_cross_val_score_kneighbors_classifier(local_session):
    from sklearn import model_selection as skms

    want = skms.cross_val_score(skn.KNeighborsClassifier(4), X, Y, cv=3)
    got = cross_val_score(KNeighborsClassifier(4), mt.tensor(X, chunk_size=30), mt.tensor(Y, chunk_size=30), cv=3)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    want = skms.cross_val_score(skn.KNeighborsClassifier(4), X, Y, cv=3, scoring="f1_macro")
    got = cross_val_score(KNeighborsClassifier(4), X, Y, cv=3, scoring="f1_macro")
    np.testing.assert_allclose(got, want, rtol=1e-12)
