"""scikit-learn's Pipeline / ColumnTransformer and this package's model_selection feeding
them, with our estimators, against scikit-learn's on the same data."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.cluster as skc
import sklearn.compose as sk_compose
import sklearn.decomposition as skd
import sklearn.linear_model as sklm
import sklearn.model_selection as skms
import sklearn.preprocessing as skp
from sklearn.pipeline import make_pipeline

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn import cluster as lc
from mars_on_ray.learn import decomposition as ld
from mars_on_ray.learn import linear_model as lm
from mars_on_ray.learn import preprocessing as lp
from mars_on_ray.learn.compose import ColumnTransformer, make_column_transformer
from mars_on_ray.learn.model_selection import KFold, cross_val_score, cross_validate, train_test_split
from learn_support import local_session  # noqa: F401

rs = np.random.RandomState(0)
X = rs.randn(103, 5)
Y = (X[:, 0] + X[:, 1] * 0.5 + rs.randn(103) * 0.3 > 0).astype(int)
DF = pd.DataFrame(X, columns=list("abcde"))
MIXED = DF.assign(f=rs.choice(["x", "y", "z"], 103), g=rs.randint(0, 3, 103))
KINDS = ["tensor", "numpy", "pandas", "mars"]


def _data(kind):
    if kind == "tensor":
        return mt.tensor(X, chunk_size=(10, 3)), mt.tensor(Y, chunk_size=9)
    if kind == "numpy":
        return X, Y
    if kind == "pandas":
        return DF, pd.Series(Y)
    return md.DataFrame(DF, chunk_size=10), md.Series(pd.Series(Y), chunk_size=11)


def _v(out):
    return np.asarray(out.fetch() if hasattr(out, "fetch") else out)


@pytest.mark.parametrize("kind", KINDS)
def test_pipeline_scaler_pca_logistic_regression_matches_sklearn(local_session, kind):
    Xk, yk = _data(kind)
    ours = make_pipeline(lp.StandardScaler(), ld.PCA(3), lm.LogisticRegression()).fit(Xk, yk)
    ref = make_pipeline(skp.StandardScaler(), skd.PCA(3), sklm.LogisticRegression()).fit(X, Y)
    np.testing.assert_array_equal(_v(ours.predict(Xk)), ref.predict(X))
    np.testing.assert_allclose(_v(ours.predict_proba(Xk)), ref.predict_proba(X), rtol=1e-5)
    np.testing.assert_allclose(_v(ours.decision_function(Xk)), ref.decision_function(X), rtol=1e-4)
    assert ours.score(Xk, yk) == pytest.approx(ref.score(X, Y), abs=1e-12)
    np.testing.assert_allclose(_v(ours[:-1].transform(Xk)), ref[:-1].transform(X), atol=1e-10)
    back = ours[:-1].inverse_transform(ours[:-1].transform(Xk))
    np.testing.assert_allclose(_v(back), ref[:-1].inverse_transform(ref[:-1].transform(X)), atol=1e-10)
    assert list(ours[:-1].get_feature_names_out()) == list(ref[:-1].get_feature_names_out())


@pytest.mark.parametrize("kind", KINDS)
def test_pipeline_scaler_pca_kmeans_matches_sklearn(local_session, kind):
    Xk, _ = _data(kind)
    init = np.eye(3)
    ours = make_pipeline(lp.StandardScaler(), ld.PCA(3), lc.KMeans(3, init=init, n_init=1)).fit(Xk)
    ref = make_pipeline(skp.StandardScaler(), skd.PCA(3), skc.KMeans(3, init=init, n_init=1)).fit(X)
    np.testing.assert_array_equal(_v(ours.predict(Xk)), ref.predict(X))
    np.testing.assert_allclose(_v(ours.transform(Xk)), ref.transform(X), atol=1e-8)
    np.testing.assert_allclose(ours.score(Xk), ref.score(X))
    np.testing.assert_array_equal(_v(ours.fit_predict(Xk)), ref.fit_predict(X))
    np.testing.assert_allclose(_v(ours.fit_transform(Xk)), ref.fit_transform(X), atol=1e-8)
    assert list(ours.get_feature_names_out()) == list(ref.get_feature_names_out()) == ["kmeans0", "kmeans1",
                                                                                        "kmeans2"]


@pytest.mark.parametrize("kind", KINDS)
def test_train_test_split_feeds_a_pipeline(local_session, kind):
    a, b, c, d = train_test_split(*_data(kind), test_size=0.3, random_state=0)
    ra, rb, rc, rd = skms.train_test_split(X, Y, test_size=0.3, random_state=0)
    ours = make_pipeline(lp.StandardScaler(), lm.LogisticRegression()).fit(a, c)
    ref = make_pipeline(skp.StandardScaler(), sklm.LogisticRegression()).fit(ra, rc)
    assert ours.score(b, d) == pytest.approx(ref.score(rb, rd), abs=1e-12)
    np.testing.assert_allclose(_v(ours.predict_proba(b)), ref.predict_proba(rb), rtol=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_cross_validate_a_pipeline_matches_sklearn(local_session, kind):
    Xk, yk = _data(kind)
    ours = make_pipeline(lp.StandardScaler(), ld.PCA(3), lm.LogisticRegression())
    ref = make_pipeline(skp.StandardScaler(), skd.PCA(3), sklm.LogisticRegression())
    scoring = ["accuracy", "neg_log_loss"]
    got = cross_validate(ours, Xk, yk, cv=KFold(3), scoring=scoring, return_train_score=True)
    want = skms.cross_validate(ref, X, Y, cv=skms.KFold(3), scoring=scoring, return_train_score=True)
    for key in ("test_accuracy", "train_accuracy", "test_neg_log_loss", "train_neg_log_loss"):
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6, err_msg=key)
    np.testing.assert_allclose(cross_val_score(ours, Xk, yk, cv=3), skms.cross_val_score(ref, X, Y, cv=3))


def test_sklearn_cross_val_score_runs_our_pipeline(local_session):
    ours = make_pipeline(lp.StandardScaler(), lm.LogisticRegression())
    ref = make_pipeline(skp.StandardScaler(), sklm.LogisticRegression())
    np.testing.assert_allclose(skms.cross_val_score(ours, X, Y, cv=3), skms.cross_val_score(ref, X, Y, cv=3))


@pytest.mark.parametrize("remainder", ["drop", "passthrough"])
@pytest.mark.parametrize("frame", ["pandas", "mars"])
def test_column_transformer_on_mars_frames_matches_sklearn(local_session, remainder, frame):
    data = MIXED if frame == "pandas" else md.DataFrame(MIXED, chunk_size=10)
    ours = ColumnTransformer([("num", lp.StandardScaler(), ["a", "b"]), ("cat", lp.OneHotEncoder(), ["f"])],
                             remainder=remainder)
    ref = sk_compose.ColumnTransformer([("num", skp.StandardScaler(), ["a", "b"]),
                                        ("cat", skp.OneHotEncoder(sparse_output=False), ["f"])], remainder=remainder)
    want = ref.fit_transform(MIXED)
    got = ours.fit_transform(data)
    assert isinstance(got, mt.Tensor) and got.dtype == want.dtype
    np.testing.assert_allclose(_v(got), want)
    np.testing.assert_allclose(_v(ours.transform(data)), want)
    assert list(ours.feature_names_in_) == list(MIXED.columns) and ours.n_features_in_ == 7
    assert list(ours.get_feature_names_out()) == list(ref.get_feature_names_out())
    if remainder == "drop":  # fitted on a frame: columns taken by name (extra ones ignored, any order)
        other = MIXED[["g", "f", "e", "d", "c", "b", "a"]].assign(extra=1.0)
        other = other if frame == "pandas" else md.DataFrame(other, chunk_size=13)
        np.testing.assert_allclose(_v(ours.transform(other)), want)
    with pytest.raises(ValueError, match="columns are missing"):
        ours.transform(md.DataFrame(MIXED.drop(columns="a"), chunk_size=10))


def test_column_transformer_column_selectors_on_a_mars_frame(local_session):
    def build(scaler, encoder):
        return sk_compose.make_column_transformer(
            (scaler, sk_compose.make_column_selector(dtype_include="number")),
            (encoder, sk_compose.make_column_selector(dtype_include=object)))

    ours = make_column_transformer((lp.StandardScaler(), sk_compose.make_column_selector(dtype_include="number")),
                                   (lp.OrdinalEncoder(), sk_compose.make_column_selector(dtype_include=object)))
    same = build(lp.StandardScaler(), lp.OrdinalEncoder())
    assert [(n, repr(t)) for n, t, _ in ours.transformers] == [(n, repr(t)) for n, t, _ in same.transformers]
    ref = build(skp.StandardScaler(), skp.OrdinalEncoder())
    np.testing.assert_allclose(_v(ours.fit_transform(md.DataFrame(MIXED, chunk_size=10))), ref.fit_transform(MIXED))
    assert list(ours.get_feature_names_out()) == list(ref.get_feature_names_out())


def test_column_transformer_in_a_pipeline_with_logistic_regression(local_session):
    ct = [("num", lp.StandardScaler(), list("abcde")), ("cat", lp.OneHotEncoder(), ["f"])]
    ours = make_pipeline(ColumnTransformer(ct), lm.LogisticRegression())
    ref = make_pipeline(sk_compose.ColumnTransformer([ct[0][:1] + (skp.StandardScaler(),) + ct[0][2:],
                                                      ("cat", skp.OneHotEncoder(sparse_output=False), ["f"])]),
                        sklm.LogisticRegression())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no feature-name warnings along the pipeline
        ours.fit(md.DataFrame(MIXED, chunk_size=10), md.Series(pd.Series(Y), chunk_size=10))
        got = ours.predict_proba(md.DataFrame(MIXED, chunk_size=17))
    np.testing.assert_allclose(_v(got), ref.fit(MIXED, Y).predict_proba(MIXED), rtol=1e-5)


def test_pca_truncated_svd_kmeans_feature_names_out_as_sklearns(local_session):
    for ours, ref in [(ld.PCA(2), skd.PCA(2)), (ld.TruncatedSVD(2, random_state=0), skd.TruncatedSVD(2)),
                      (lc.KMeans(2, n_init=1, random_state=0), skc.KMeans(2, n_init=1))]:
        assert list(ours.fit(DF).get_feature_names_out()) == list(ref.fit(DF).get_feature_names_out())


@pytest.mark.parametrize("kind", ["numpy", "tensor"])
def test_sklearn_grid_search_over_our_pipeline_matches_sklearn(local_session, kind):
    Xk, yk = _data(kind)
    grid = {"pca__n_components": [2, 3], "logisticregression__C": [0.1, 1.0]}
    ours = skms.GridSearchCV(make_pipeline(lp.StandardScaler(), ld.PCA(), lm.LogisticRegression()), grid, cv=3)
    ref = skms.GridSearchCV(make_pipeline(skp.StandardScaler(), skd.PCA(), sklm.LogisticRegression()), grid, cv=3)
    ours.fit(Xk, yk)
    ref.fit(X, Y)
    assert ours.best_params_ == ref.best_params_
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"])
    np.testing.assert_array_equal(_v(ours.predict(Xk)), ref.predict(X))


def test_set_output_pandas_raises_not_implemented_instead_of_a_pandas_error(local_session):
    import sklearn

    for est in (lp.StandardScaler(), lp.MinMaxScaler(), lp.OneHotEncoder(), lp.PolynomialFeatures(), ld.PCA(2),
                lc.KMeans(2)):
        assert est.set_output(transform="default") is est
        with pytest.raises(NotImplementedError, match="set_output"):
            est.set_output(transform="pandas")
    with pytest.raises(NotImplementedError, match="StandardScaler.set_output"):
        make_pipeline(lp.StandardScaler(), lm.LogisticRegression()).set_output(transform="pandas")
    with sklearn.config_context(transform_output="pandas"):  # the global option: lazy tensors still
        out = lp.StandardScaler().fit(DF).transform(DF)
    assert isinstance(out, mt.Tensor)
    np.testing.assert_allclose(out.fetch(), skp.StandardScaler().fit_transform(X))


@pytest.mark.parametrize("scoring", ["roc_auc", "average_precision"])
def test_cross_validate_ranking_scorers_match_sklearn(local_session, scoring):
    Xk, yk = _data("tensor")
    for ours, ref in [(lm.LogisticRegression(), sklm.LogisticRegression()),  # decision_function
                      (make_pipeline(lp.StandardScaler(), lc.KMeans(2, n_init=1, random_state=0)), None)]:
        if ref is None:  # no decision_function nor predict_proba: scikit-learn's error kind
            with pytest.raises(AttributeError):
                cross_validate(ours, Xk, yk, cv=KFold(3), scoring=scoring, error_score="raise")
            continue
        got = cross_validate(ours, Xk, yk, cv=KFold(3), scoring=scoring)["test_score"]
        want = skms.cross_validate(ref, X, Y, cv=skms.KFold(3), scoring=scoring)["test_score"]
        np.testing.assert_allclose(got, want, rtol=1e-6)
    from mars_on_ray.learn.neighbors import KNeighborsClassifier
    from sklearn.neighbors import KNeighborsClassifier as SKKNN

    got = cross_validate(KNeighborsClassifier(7), Xk, yk, cv=KFold(3), scoring=scoring)["test_score"]  # predict_proba
    want = skms.cross_validate(SKKNN(7), X, Y, cv=skms.KFold(3), scoring=scoring)["test_score"]
    np.testing.assert_allclose(got, want)
