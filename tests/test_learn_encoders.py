"""OneHotEncoder and OrdinalEncoder against scikit-learn: categories, drop indices, outputs,
feature names and errors; NumPy, tensors, pandas and mars frames with mixed column dtypes."""
import numpy as np
import pandas as pd
import pytest
from sklearn import preprocessing as skp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.learn.preprocessing import OneHotEncoder, OrdinalEncoder
from mars_on_ray.testing import assert_eq

from learn_support import local_session  # noqa: F401
from learn_support import compute

RS = np.random.RandomState(3)
N = 37
XI = np.column_stack([RS.randint(0, 3, N), RS.randint(5, 7, N), RS.randint(-2, 4, N)])
FRAME = pd.DataFrame({"city": np.array(["rome", "oslo", "lima", "kiev"])[RS.randint(0, 4, N)],
                      "size": RS.randint(0, 3, N), "flag": np.array(["y", "n"])[RS.randint(0, 2, N)]})


def int_inputs():
    yield mt.tensor(XI, chunk_size=(8, 2))
    yield XI


def frame_inputs():
    yield FRAME
    yield md.DataFrame(FRAME, chunk_size=8)


def check_fitted(ours, ref):
    assert len(ours.categories_) == len(ref.categories_)
    for a, b in zip(ours.categories_, ref.categories_):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    if getattr(ref, "drop_idx_", None) is None:
        assert getattr(ours, "drop_idx_", None) is None
    else:
        np.testing.assert_array_equal(ours.drop_idx_, ref.drop_idx_)
    assert ours.n_features_in_ == ref.n_features_in_
    np.testing.assert_array_equal(ours.get_feature_names_out(), ref.get_feature_names_out())


@pytest.mark.parametrize("drop", [None, "first", "if_binary"])
def test_one_hot_encoder_matches_sklearn(local_session, drop):
    for data, kinds in ((XI, int_inputs), (FRAME, frame_inputs)):
        ref = skp.OneHotEncoder(drop=drop, sparse_output=False).fit(data)
        for x in kinds():
            ours = OneHotEncoder(drop=drop)
            assert ours.fit(x) is ours
            check_fitted(ours, ref)
            assert_eq(ours.transform(x), ref.transform(data), rtol=0)
            codes = ref.transform(data)
            assert_eq(ours.inverse_transform(mt.tensor(codes, chunk_size=9)), ref.inverse_transform(codes))
    assert list(OneHotEncoder().fit(md.DataFrame(FRAME, chunk_size=8)).feature_names_in_) == list(FRAME.columns)


def test_one_hot_encoder_handle_unknown_and_categories(local_session):
    other = XI.copy()
    other[3, 0] = 9
    ref = skp.OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(XI)
    ours = OneHotEncoder(handle_unknown="ignore").fit(mt.tensor(XI, chunk_size=8))
    assert_eq(ours.transform(mt.tensor(other, chunk_size=10)), ref.transform(other), rtol=0)
    strict = OneHotEncoder().fit(mt.tensor(XI, chunk_size=8))
    with pytest.raises(ValueError):
        skp.OneHotEncoder().fit(XI).transform(other)
    with pytest.raises(ValueError, match="unknown categor"):
        compute(strict.transform(mt.tensor(other, chunk_size=10)))
    cats = [[0, 1, 2, 3], [5, 6], [-2, -1, 0, 1, 2, 3]]
    ref = skp.OneHotEncoder(categories=cats, sparse_output=False).fit(XI)
    ours = OneHotEncoder(categories=cats).fit(mt.tensor(XI, chunk_size=8))
    check_fitted(ours, ref)
    with pytest.raises(ValueError):
        skp.OneHotEncoder(categories=[[0, 1], [5, 6], [0]]).fit(XI)
    with pytest.raises(ValueError, match="Found unknown categories"):
        OneHotEncoder(categories=[[0, 1], [5, 6], [0]]).fit(mt.tensor(XI, chunk_size=8))


def test_one_hot_encoder_api_and_unsupported(local_session):
    enc = OneHotEncoder(drop="first")
    assert clone(enc).drop == "first"
    assert set(enc.get_params()) == set(skp.OneHotEncoder().get_params())
    with pytest.raises(NotFittedError):
        enc.transform(XI)
    with pytest.raises(NotImplementedError, match="sparse_output"):
        OneHotEncoder(sparse_output=True).fit(XI)
    with pytest.raises(NotImplementedError, match="min_frequency"):
        OneHotEncoder(min_frequency=3).fit(XI)
    with pytest.raises(ValueError, match="features"):
        OneHotEncoder().fit(XI).transform(XI[:, :2])


def test_ordinal_encoder_matches_sklearn(local_session):
    for data, kinds in ((XI, int_inputs), (FRAME, frame_inputs)):
        ref = skp.OrdinalEncoder().fit(data)
        for x in kinds():
            ours = OrdinalEncoder().fit(x)
            check_fitted(ours, ref)
            assert_eq(ours.transform(x), ref.transform(data), rtol=0)
            codes = ref.transform(data)
            assert_eq(ours.inverse_transform(mt.tensor(codes, chunk_size=9)), ref.inverse_transform(codes))


def test_ordinal_encoder_unknown_and_missing(local_session):
    x = np.array([["a", "x"], ["b", None], ["c", "y"], ["a", "x"]] * 9 + [["b", "y"]], dtype=object)
    ref = skp.OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1,
                             encoded_missing_value=-2).fit(x)
    ours = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1,
                          encoded_missing_value=-2).fit(mt.tensor(x, chunk_size=8))
    check_fitted(ours, ref)
    other = x.copy()
    other[0, 0] = "zzz"
    assert_eq(ours.transform(mt.tensor(other, chunk_size=8)), ref.transform(other), rtol=0)
    with pytest.raises(TypeError):
        skp.OrdinalEncoder(handle_unknown="use_encoded_value").fit(x)
    with pytest.raises(TypeError):
        OrdinalEncoder(handle_unknown="use_encoded_value").fit(mt.tensor(x, chunk_size=8))
