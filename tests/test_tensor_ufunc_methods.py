"""Reductions with where=/initial= and the ufunc methods reduce/accumulate/outer vs NumPy."""
import pickle

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(7)
XF = RS.rand(13, 7)
XF[2, 3] = np.nan
XI = RS.randint(0, 50, size=(13, 7)).astype(np.uint8)
MASK = RS.rand(13, 7) > 0.4


@pytest.mark.parametrize("name", ["sum", "prod", "any", "all", "mean"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("data", [XF, XI, XI > 20])
def test_reduction_where_masks_elements(name, axis, data):
    t = mt.tensor(data, chunk_size=4)
    expected = getattr(np, name)(data, axis=axis, where=MASK)
    assert_eq(getattr(mt, name)(t, axis=axis, where=MASK), expected, rtol=1e-6)
    assert_eq(getattr(mt, name)(t, axis=axis, where=mt.tensor(MASK, chunk_size=3)), expected,
              rtol=1e-6)


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reduction_initial_starts_the_fold(name, axis):
    t = mt.tensor(XF, chunk_size=4)
    for kw in ({"initial": 0.5}, {"initial": 0.5, "where": MASK}, {"initial": 2, "keepdims": True}):
        assert_eq(getattr(mt, name)(t, axis=axis, **kw), getattr(np, name)(XF, axis=axis, **kw))
    ti = mt.tensor(XI, chunk_size=(4, 3))
    assert_eq(getattr(mt, name)(ti, axis=axis, initial=3), getattr(np, name)(XI, axis=axis, initial=3))
    # NumPy casts initial to the result type: 0.5 is 0 for integers
    assert_eq(getattr(mt, name)(ti, axis=axis, initial=0.5), getattr(np, name)(XI, axis=axis, initial=0.5))


def test_reduction_initial_on_empty_and_unknown_shapes():
    e = np.zeros((0, 3))
    for name in ("min", "max", "sum", "prod"):
        assert_eq(getattr(mt, name)(mt.tensor(e), axis=0, initial=2), getattr(np, name)(e, axis=0, initial=2))
        assert_eq(getattr(mt, name)(mt.tensor(e), initial=2), getattr(np, name)(e, initial=2))
    assert_eq(mt.max(mt.tensor(np.float64(3)), initial=5), np.max(np.float64(3), initial=5))
    t = mt.tensor(XF, chunk_size=4)
    sel = XF[XF > 0.95]
    assert_eq(mt.min(t[t > 0.95], initial=0.97), np.min(sel, initial=0.97))
    assert_eq(t.sum(axis=0, where=MASK), XF.sum(axis=0, where=MASK))


def test_reduction_where_of_unknown_shape():
    t = mt.tensor(XF, chunk_size=4)
    f, sel = t[t > 0.3], XF[XF > 0.3]
    assert_eq(mt.sum(f, where=f > 0.5), np.sum(sel, where=sel > 0.5))
    assert_eq(mt.mean(f, where=f > 0.5), np.mean(sel, where=sel > 0.5))
    assert_eq(mt.max(f, where=f < 0.5, initial=0), np.max(sel, where=sel < 0.5, initial=0))
    assert_eq(mt.mean(t, axis=0, where=MASK[0]), np.mean(XF, axis=0, where=MASK[0]))  # broadcast


def test_reduction_where_errors_like_numpy():
    t = mt.tensor(XF, chunk_size=4)
    with pytest.raises(ValueError, match="identity"):
        mt.min(t, where=MASK)
    with pytest.raises(ValueError):
        mt.sum(t, where=np.ones((2, 13, 7), bool))
    with pytest.raises(ValueError):
        mt.sum(t, where=np.ones((3, 7), bool))
    with pytest.raises(OverflowError):
        mt.min(mt.tensor(XI), initial=np.inf)
    with pytest.raises(TypeError):
        mt.sum(t, where=XF)


UFUNCS = ["add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
          "logical_xor"]


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1)])
def test_ufunc_reduce(name, axis):
    t = mt.tensor(XF, chunk_size=4)
    assert_eq(getattr(mt, name).reduce(t, axis=axis), getattr(np, name).reduce(XF, axis=axis))
    assert_eq(getattr(mt, name).reduce(t, axis=axis, keepdims=True),
              getattr(np, name).reduce(XF, axis=axis, keepdims=True))


@pytest.mark.parametrize("name", UFUNCS + ["bitwise_and", "bitwise_or", "bitwise_xor", "gcd"])
@pytest.mark.parametrize("axis", [0, 1])
def test_ufunc_accumulate_carries_across_chunks(name, axis):
    data = XI if name.startswith(("bitwise", "gcd")) else XF
    t = mt.tensor(data, chunk_size=(4, 3))
    assert_eq(getattr(mt, name).accumulate(t, axis=axis), getattr(np, name).accumulate(data, axis=axis))


def test_ufunc_methods_options():
    ti = mt.tensor(XI, chunk_size=4)
    assert_eq(mt.add.reduce(ti), np.add.reduce(XI))
    assert_eq(mt.add.reduce(ti, axis=1, dtype=np.uint8), np.add.reduce(XI, axis=1, dtype=np.uint8))
    assert_eq(mt.bitwise_or.reduce(ti, axis=1, where=XI > 3), np.bitwise_or.reduce(XI, axis=1, where=XI > 3))
    assert_eq(mt.maximum.reduce(ti, axis=0, initial=40, where=XI > 3),
              np.maximum.reduce(XI, axis=0, initial=40, where=XI > 3))
    assert_eq(mt.add.accumulate(ti, axis=1, dtype=np.float32), np.add.accumulate(XI, axis=1, dtype=np.float32))
    assert_eq(mt.add.reduce(mt.tensor(np.zeros(0))), np.add.reduce(np.zeros(0)))
    assert_eq(mt.add.accumulate(mt.tensor(np.zeros(0))), np.add.accumulate(np.zeros(0)))
    t = mt.tensor(XF, chunk_size=4)
    assert_eq(mt.maximum.accumulate(t[t > 0.3]), np.maximum.accumulate(XF[XF > 0.3]))
    # NumPy's own ufunc methods on a tensor stay lazy
    assert_eq(np.add.reduce(t, axis=1), np.add.reduce(XF, axis=1))
    assert_eq(np.maximum.accumulate(t), np.maximum.accumulate(XF))
    assert_eq(np.multiply.outer(t[:3, 0], t[0]), np.multiply.outer(XF[:3, 0], XF[0]))


def test_ufunc_outer():
    a, b = XF[:5, 0], XI[:3, :2]
    assert_eq(mt.add.outer(mt.tensor(a, chunk_size=2), mt.tensor(b, chunk_size=2)), np.add.outer(a, b))
    assert_eq(mt.subtract.outer(mt.tensor(a, chunk_size=2), b), np.subtract.outer(a, b))
    assert_eq(mt.maximum.outer(mt.tensor(a), 0.5), np.maximum.outer(a, 0.5))
    assert_eq(mt.multiply.outer(mt.tensor(np.float64(2)), 3), np.multiply.outer(np.float64(2), 3))
    assert_eq(mt.less.outer(mt.tensor(a, chunk_size=3), a), np.less.outer(a, a))
    with pytest.raises(ValueError):
        mt.negative.outer(a, a)


def test_ufunc_methods_errors_like_numpy():
    t = mt.tensor(XF, chunk_size=4)
    with pytest.raises(ValueError, match="zero-size"):
        mt.maximum.reduce(mt.tensor(np.zeros((2, 0))), axis=1)  # at build time, like NumPy
    with pytest.raises(ValueError):
        mt.negative.reduce(t)
    with pytest.raises(ValueError):
        mt.add.accumulate(t, axis=None)
    with pytest.raises(np.exceptions.AxisError):
        mt.add.reduce(t, axis=2)
    with pytest.raises(ValueError, match="identity"):
        mt.minimum.reduce(t, where=MASK)
    with pytest.raises(NotImplementedError, match="subtract.reduce"):
        mt.subtract.reduce(t)


def test_ufunc_objects_keep_working_as_functions():
    t = mt.tensor(XF, chunk_size=4)
    assert_eq(mt.add(t, 1), XF + 1)
    out = mt.tensor(np.zeros((13, 7)), chunk_size=4)
    mt.multiply(t, 2, out=out, where=MASK)
    expected = np.zeros((13, 7))
    np.multiply(XF, 2, out=expected, where=MASK)
    assert_eq(out, expected)
    assert_eq(t.conj(), XF.conj())
    assert pickle.loads(pickle.dumps(mt.add)) is mt.add
    assert mt.add.__name__ == "add" and mt.add.nin == 2 and mt.add.identity == 0
    assert mt.true_divide is mt.divide


@pytest.mark.parametrize("name,a,idx,b", [
    ("add", np.random.RandomState(0).rand(7), [0, 0, 2, 6, -1, -1], 1.0),
    ("add", np.random.RandomState(1).rand(7, 5), [1, 1, 3], np.random.RandomState(2).rand(3, 5)),
    ("add", np.random.RandomState(1).rand(7, 5), [1, 1, 3], np.random.RandomState(2).rand(5)),
    ("maximum", np.random.RandomState(3).rand(7, 5), ([1, 1, 3], [0, 0, -1]), [5.0, 6.0, 7.0]),
    ("subtract", np.random.RandomState(4).rand(4, 5, 6), [2, 2], 0.5),
    ("multiply", np.arange(10), [3, 3, 3], 2), ("add", np.arange(10), [3, 5], 1.5),
    ("add", np.arange(10.0), np.array([], int), 1.0), ("bitwise_or", np.arange(10), [1, 1], [4, 8]),
])
def test_ufunc_at_accumulates_repeated_indices_like_numpy(name, a, idx, b):
    t = mt.tensor(a, chunk_size=3)
    getattr(mt, name).at(t, idx, b)
    want = a.copy()
    getattr(np, name).at(want, idx, b)
    assert_eq(t, want)


def test_ufunc_at_errors():
    t = mt.tensor(np.zeros(7), chunk_size=3)
    with pytest.raises(IndexError, match="out of bounds"):
        mt.add.at(t, [7], 1.0)
    with pytest.raises(ValueError):
        mt.add.at(t, [0, 1], [1.0, 2.0, 3.0])
    with pytest.raises(NotImplementedError, match="power"):
        mt.power.at(t, [0], 2.0)
    with pytest.raises(NotImplementedError, match="lazy"):
        mt.add.at(t, mt.tensor([0]), 1.0)
    with pytest.raises(TypeError):
        mt.add.at(np.zeros(3), [0], 1.0)
