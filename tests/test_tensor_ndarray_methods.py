"""ndarray methods and attributes users call on tensors: item / tolist / float() / fill,
nbytes / itemsize / mT, diagonal / trace, divmod, clip(min=, max=) vs NumPy."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local_session import LocalSession
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(5)
X1, X2, X3 = RS.rand(7), RS.rand(7, 5), RS.rand(4, 5, 6)


@pytest.fixture
def local_session():
    """An in-process default session: item / tolist / float() fetch values."""
    import mars_on_ray.session as session_mod

    old, session_mod._default_session = session_mod._default_session, LocalSession()
    yield
    session_mod._default_session = old


@pytest.mark.parametrize("x", [X1, X2, X3, np.arange(35).reshape(7, 5), np.array(2.5)])
def test_item_and_tolist_are_numpys_python_values(local_session, x):
    t = mt.tensor(x, chunk_size=3)
    assert t.tolist() == x.tolist()
    if x.size > 1:
        for i in (0, 4, -1):
            assert t.item(i) == x.item(i) and type(t.item(i)) is type(x.item(i))
        idx = tuple(s - 1 for s in x.shape)
        assert t.item(*idx) == x.item(*idx) and t.item(idx) == x.item(idx)
        with pytest.raises(ValueError, match="size 1"):
            t.item()
        with pytest.raises(IndexError):
            t.item(x.size)
        with pytest.raises(ValueError, match="incorrect number of indices"):
            t.item(0, 0, 0, 0)
    else:
        assert t.item() == x.item() and float(t) == float(x) and int(t) == int(x) and complex(t) == complex(x)


@pytest.mark.parametrize("order", ["C", "F"])
def test_tobytes_and_flatten_follow_the_order(local_session, order):
    """flatten('F') used to ignore the order."""
    t = mt.tensor(X3, chunk_size=3)
    assert t.tobytes(order) == X3.tobytes(order)
    assert_eq(t.flatten(order), X3.flatten(order))


def test_in_tests_any_element(local_session):
    t = mt.tensor(X2, chunk_size=3)
    assert X2[3, 4] in t and 7.0 not in t
    assert (X2[3, 4] in t) is True


def test_item_of_an_unknown_size_one_tensor(local_session):
    t = mt.tensor(X1, chunk_size=3)
    assert t[t == X1[4]].item() == X1[4]


def test_scalar_conversions_need_a_0d_tensor_like_numpy(local_session):
    t = mt.tensor(X2, chunk_size=3)
    for convert in (float, int, complex):
        with pytest.raises(TypeError, match="0-dimensional"):
            convert(t)
    assert float(t[2, 3]) == float(X2[2, 3])


def test_fill_sets_every_element_in_place_cast_to_the_dtype():
    t = mt.tensor(np.arange(35).reshape(7, 5), chunk_size=3)
    alias = t
    t.fill(2.7)
    want = np.arange(35).reshape(7, 5)
    want.fill(2.7)
    assert_eq(alias, want)
    with pytest.raises(OverflowError):
        mt.tensor(np.zeros(3, np.int8)).fill(1000)


@pytest.mark.parametrize("x", [X1, X2, X3.astype("f4"), np.zeros((0, 3), "i2")])
def test_nbytes_itemsize_and_matrix_transpose(x):
    t = mt.tensor(x, chunk_size=3)
    assert t.nbytes == x.nbytes and type(t.nbytes) is int and t.itemsize == x.itemsize
    if x.ndim < 2:
        with pytest.raises(ValueError, match="ndim < 2"):
            t.mT
    else:
        assert_eq(t.mT, x.mT)
    sel = t[t > 0.5] if x.dtype.kind == "f" else t.ravel()
    assert x.dtype.kind != "f" or sel.nbytes != sel.nbytes  # unknown size: nan


@pytest.mark.parametrize("x,args", [(X2, ()), (X2, (1,)), (X2, (-2,)), (X2, (9,)), (X3, (1, 0, 2)),
                                    (X3, (-1, 2, 1)), (np.zeros((3, 0)), ()), (np.arange(35).reshape(7, 5), (0, 1, 0))])
def test_diagonal_and_trace_like_numpy(x, args):
    t = mt.tensor(x, chunk_size=3)
    assert_eq(mt.diagonal(t, *args), np.diagonal(x, *args))
    assert_eq(t.diagonal(*args), x.diagonal(*args))
    assert_eq(t.trace(*args), x.trace(*args))


def test_diagonal_errors_like_numpy():
    with pytest.raises(ValueError):
        mt.tensor(X1).diagonal()
    with pytest.raises(ValueError, match="cannot be the same"):
        mt.tensor(X2).diagonal(0, 1, 1)


def test_divmod_of_tensors():
    t = mt.tensor(X2, chunk_size=3)
    for got, want in zip(divmod(t, 0.3), divmod(X2, 0.3)):
        assert_eq(got, want)
    for got, want in zip(divmod(2.0, t), divmod(2.0, X2)):
        assert_eq(got, want)


def test_clip_takes_numpy_2_min_and_max_keywords():
    t = mt.tensor(X2, chunk_size=3)
    assert_eq(t.clip(min=0.2), X2.clip(min=0.2))
    assert_eq(mt.clip(t, max=0.6), np.clip(X2, max=0.6))
    assert_eq(mt.clip(t, min=0.1, max=0.6), np.clip(X2, min=0.1, max=0.6))
    assert_eq(mt.clip(t), np.clip(X2))
    with pytest.raises(TypeError, match="a_max"):
        mt.clip(t, 0.1, max=0.6)
    with pytest.raises(ValueError, match="forbidden"):
        mt.clip(t, 0.1, 0.5, min=0.2)


@pytest.mark.parametrize("x,axis", [(X1, None), (X2, 0), (X3, (0, 2)), (np.where(X2 > 0.8, np.nan, X2), 1)])
def test_average_returned_gives_the_count_of_each_mean(x, axis):
    """It gave zeros (the mean times zero times the count)."""
    got = mt.average(mt.tensor(x, chunk_size=3), axis=axis, returned=True)
    want = np.average(x, axis=axis, returned=True)
    assert_eq(got[0], want[0])
    assert_eq(got[1], want[1])
