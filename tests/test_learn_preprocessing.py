"""learn.preprocessing against scikit-learn: fitted attributes and outputs exactly equal,
errors of the same types; tensors, mars frames, NumPy and pandas inputs."""
import numpy as np
import pandas as pd
import pytest
from sklearn import preprocessing as skp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.preprocessing import (LabelBinarizer, LabelEncoder, MinMaxScaler, label_binarize,
                                             minmax_scale, normalize)
from mars_on_ray.testing import assert_eq
from learn_support import compute, inputs

RS = np.random.RandomState(11)
X = RS.rand(37, 4) * [1, 10, 100, 1000] - 3
X[5, 2] = np.nan
DF = pd.DataFrame(X, columns=["a", "b", "c", "d"])
MM_ATTRS = ["data_min_", "data_max_", "data_range_", "scale_", "min_", "n_samples_seen_", "n_features_in_"]


@pytest.mark.parametrize("kwargs", [{}, {"feature_range": (-2, 5)}, {"clip": True}])
def test_min_max_scaler_exact(kwargs):
    ref = skp.MinMaxScaler(**kwargs).fit(X)
    for x in inputs(X, DF):
        ours = MinMaxScaler(**kwargs).fit(x)
        assert ours.fit(x) is ours
        for name in MM_ATTRS:
            np.testing.assert_array_equal(getattr(ours, name), getattr(ref, name))
        other = X * 1.5
        assert_eq(ours.transform(mt.tensor(other, chunk_size=(9, 4))), ref.transform(other), rtol=0)
        assert_eq(ours.inverse_transform(mt.tensor(other, chunk_size=5)), ref.inverse_transform(other), rtol=0)
    assert list(MinMaxScaler().fit(md.DataFrame(DF, chunk_size=10)).feature_names_in_) == list("abcd")


def test_min_max_scaler_float32_and_ints():
    x32 = X.astype(np.float32)
    assert_eq(MinMaxScaler().fit_transform(mt.tensor(x32, chunk_size=7)), skp.MinMaxScaler().fit_transform(x32),
              rtol=0)
    xi = (np.arange(40).reshape(10, 4) * 3) % 7
    assert_eq(MinMaxScaler().fit_transform(mt.tensor(xi, chunk_size=3)), skp.MinMaxScaler().fit_transform(xi),
              rtol=0)


def test_min_max_scaler_api_and_errors():
    s = MinMaxScaler(feature_range=(0, 3))
    assert s.get_params() == skp.MinMaxScaler(feature_range=(0, 3)).get_params()
    c = clone(s.set_params(clip=True))
    assert c.clip is True and c.feature_range == (0, 3)
    with pytest.raises(NotFittedError):
        s.transform(X)
    with pytest.raises(ValueError):
        skp.MinMaxScaler(feature_range=(2, 1)).fit(X)
    with pytest.raises(ValueError):
        MinMaxScaler(feature_range=(2, 1)).fit(mt.tensor(X, chunk_size=5))
    fitted = MinMaxScaler().fit(mt.tensor(X, chunk_size=5))
    with pytest.raises(ValueError, match="features"):
        fitted.transform(X[:, :3])
    with pytest.raises(ValueError):
        MinMaxScaler().fit(mt.tensor(X[:, 0], chunk_size=5))  # 1-D


@pytest.mark.parametrize("axis", [0, 1])
def test_minmax_scale(axis):
    x = np.nan_to_num(X)
    assert_eq(minmax_scale(mt.tensor(x, chunk_size=(6, 3)), axis=axis), skp.minmax_scale(x, axis=axis), rtol=0)
    assert_eq(minmax_scale(mt.tensor(x[:, 1], chunk_size=6), feature_range=(1, 2)),
              skp.minmax_scale(x[:, 1], feature_range=(1, 2)), rtol=0)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("axis", [0, 1])
def test_normalize(norm, axis):
    x = np.nan_to_num(X)
    x[3] = 0.0  # a zero row: divided by 1, as scikit-learn does
    x[:, 1] = 0.0 if axis == 0 else x[:, 1]
    for inp in (mt.tensor(x, chunk_size=(6, 3)), md.DataFrame(pd.DataFrame(x), chunk_size=9)):
        assert_eq(normalize(inp, norm=norm, axis=axis), skp.normalize(x, norm=norm, axis=axis))
        out, norms = normalize(inp, norm=norm, axis=axis, return_norm=True)
        want, want_norms = skp.normalize(x, norm=norm, axis=axis, return_norm=True)
        assert_eq(out, want)
        assert_eq(norms, want_norms)


def test_normalize_errors():
    for kwargs in [{"norm": "l3"}, {"axis": 2}]:
        with pytest.raises(ValueError):
            skp.normalize(X, **kwargs)
        with pytest.raises(ValueError):
            normalize(mt.tensor(X, chunk_size=5), **kwargs)
    with pytest.raises(ValueError, match="NaN"):
        compute(normalize(mt.tensor(X, chunk_size=5)))


LABELS = np.array(["paris", "tokyo", "amsterdam", "paris", "tokyo", "oslo"] * 4)


@pytest.mark.parametrize("y", [LABELS, np.array([3, 1, 7, 1, 3, 3, 9] * 3), np.array([2.5, 1.0, 2.5, 0.5] * 3)])
def test_label_encoder(y):
    for inp, same in ((mt.tensor(y, chunk_size=5), y), (md.Series(pd.Series(y), chunk_size=4), pd.Series(y)),
                      (y, y), (pd.Series(y), pd.Series(y))):
        ref = skp.LabelEncoder().fit(same)
        ours = LabelEncoder().fit(inp)
        np.testing.assert_array_equal(ours.classes_, ref.classes_)
        assert ours.classes_.dtype == ref.classes_.dtype
        assert_eq(ours.transform(mt.tensor(y, chunk_size=7)), ref.transform(y))
        assert_eq(LabelEncoder().fit_transform(inp), ref.transform(y))
    codes = np.array([0, 2, 1, 0])
    assert_eq(ours.inverse_transform(mt.tensor(codes, chunk_size=3)), ref.inverse_transform(codes))


def test_label_encoder_unseen_label_raises():
    le = LabelEncoder().fit(mt.tensor(LABELS, chunk_size=5))
    with pytest.raises(ValueError):
        skp.LabelEncoder().fit(LABELS).transform(["rome"])
    with pytest.raises(ValueError, match="previously unseen"):
        compute(le.transform(mt.tensor(np.array(["paris", "rome"]), chunk_size=1)))
    with pytest.raises(NotFittedError):
        LabelEncoder().transform(LABELS)


@pytest.mark.parametrize("y", [LABELS, np.array([0, 1, 1, 0, 1] * 3), np.array([4, 2, 4, 4, 9] * 3),
                               np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0]])])
@pytest.mark.parametrize("kwargs", [{}, {"neg_label": -1, "pos_label": 2}])
def test_label_binarizer(y, kwargs):
    ref = skp.LabelBinarizer(**kwargs).fit(y)
    ours = LabelBinarizer(**kwargs).fit(mt.tensor(y, chunk_size=3))
    assert ours.y_type_ == ref.y_type_
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    Y = ref.transform(y)
    assert_eq(ours.transform(mt.tensor(y, chunk_size=4)), Y)
    assert_eq(ours.inverse_transform(mt.tensor(Y, chunk_size=2)), ref.inverse_transform(Y))
    assert_eq(LabelBinarizer(**kwargs).fit_transform(y), Y)


def test_label_binarizer_errors():
    with pytest.raises(ValueError):
        skp.LabelBinarizer(neg_label=1, pos_label=1).fit(LABELS)
    with pytest.raises(ValueError):
        LabelBinarizer(neg_label=1, pos_label=1).fit(LABELS)
    multi = np.array([[1, 2], [3, 1], [2, 2]])
    with pytest.raises(ValueError, match="Multioutput"):
        skp.LabelBinarizer().fit(multi)
    with pytest.raises(ValueError, match="Multioutput"):
        LabelBinarizer().fit(mt.tensor(multi, chunk_size=2))
    assert clone(LabelBinarizer(pos_label=3)).pos_label == 3


@pytest.mark.parametrize("classes", [["amsterdam", "oslo", "paris", "tokyo"], ["paris", "tokyo"], ["tokyo", "paris", "x"]])
def test_label_binarize(classes):
    assert_eq(label_binarize(mt.tensor(LABELS, chunk_size=5), classes=classes),
              skp.label_binarize(LABELS, classes=classes))
    assert_eq(label_binarize(md.Series(pd.Series(LABELS), chunk_size=7), classes=classes, neg_label=-1),
              skp.label_binarize(LABELS, classes=classes, neg_label=-1))


def test_min_max_scaler_partial_fit_equals_sklearn():
    x = np.nan_to_num(X)
    ours, ref = MinMaxScaler(feature_range=(-1, 1)), skp.MinMaxScaler(feature_range=(-1, 1))
    for start in range(0, 37, 15):
        part = x[start:start + 15]
        assert ours.partial_fit(mt.tensor(part, chunk_size=4)) is ours
        ref.partial_fit(part)
        for name in MM_ATTRS:
            np.testing.assert_array_equal(getattr(ours, name), getattr(ref, name))
    assert_eq(ours.transform(mt.tensor(x, chunk_size=9)), ref.transform(x), rtol=0)
    ours.fit(x[:5])  # fit starts over
    assert ours.n_samples_seen_ == 5
    with pytest.raises(ValueError, match="features"):
        ours.partial_fit(x[:, :2])
