import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.tensor.datasource import TensorData
from mars_on_ray.testing import assert_eq


@pytest.mark.parametrize("data", [
    np.arange(60).reshape(6, 10),
    np.arange(7, dtype=np.float32),
    np.array([True, False, True]),
    np.array(["a", "bc", "def"]),
    np.zeros((0, 3)),
])
@pytest.mark.parametrize("chunk_size", [None, 2, 4])
def test_tensor_from_ndarray(data, chunk_size):
    assert_eq(mt.tensor(data, chunk_size=chunk_size), data)


def test_tensor_from_list_scalar_and_dtype():
    assert_eq(mt.tensor([1, 2.5, 3]), np.array([1, 2.5, 3]))
    assert_eq(mt.tensor([[1, 2], [3, 4]], dtype="f4", chunk_size=1), np.array([[1, 2], [3, 4]], "f4"))
    assert_eq(mt.tensor(5), np.asarray(5))
    assert_eq(mt.array([True, False]), np.array([True, False]))
    assert_eq(mt.asarray(range(5), chunk_size=2), np.arange(5))


def test_tensor_of_tensor():
    t = mt.tensor(np.arange(10), chunk_size=3)
    assert mt.tensor(t) is t
    assert_eq(mt.tensor(t, chunk_size=4), np.arange(10))


def test_tensor_data_chunks_carry_pieces_not_params():
    a = np.arange(10)
    t = mt.tensor(a, chunk_size=4)
    tiled = LocalExecutor().tile(t.data)
    pieces = [c.op.data for c in tiled.flat]
    np.testing.assert_array_equal(np.concatenate(pieces), a)
    assert all(isinstance(c.op, TensorData) and "data" not in c.op.params for c in tiled.flat)
    import pickle
    assert pickle.loads(pickle.dumps(tiled.flat[0].op)).data is None


def test_tensor_key_depends_on_content():
    a = np.arange(10)
    assert mt.tensor(a).key == mt.tensor(a.copy()).key
    assert mt.tensor(a).key != mt.tensor(a + 1).key
    assert mt.tensor(a).key != mt.tensor(a.astype("f8")).key


@pytest.mark.parametrize("func", ["ones", "zeros"])
@pytest.mark.parametrize("dtype", [None, "i4", bool, "f4"])
def test_ones_zeros(func, dtype):
    assert_eq(getattr(mt, func)((5, 7), dtype=dtype, chunk_size=3), getattr(np, func)((5, 7), dtype=dtype))
    assert_eq(getattr(mt, func)(4, dtype=dtype), getattr(np, func)(4, dtype=dtype))


def test_full_and_empty():
    assert_eq(mt.full((5, 3), 2, chunk_size=2), np.full((5, 3), 2))
    assert_eq(mt.full((5, 3), 2.5, chunk_size=2), np.full((5, 3), 2.5))
    assert_eq(mt.full(4, True), np.full(4, True))
    assert_eq(mt.full((2, 2), 7, dtype="u1"), np.full((2, 2), 7, dtype="u1"))
    e = mt.empty((4, 5), chunk_size=3)
    assert e.shape == (4, 5) and e.dtype == np.float64
    assert LocalExecutor().compute(e.data)[0].shape == (4, 5)
    assert mt.empty(3, dtype=int).dtype == np.int64
    assert_eq(mt.zeros(()), np.zeros(()))


def test_creation_errors_at_build_time():
    with pytest.raises(ValueError):
        mt.ones((-1, 3))
    with pytest.raises(TypeError):
        mt.ones((2.5, 3))
    with pytest.raises(TypeError):
        mt.zeros(3, dtype="no-such-dtype")
    with pytest.raises(OverflowError):
        mt.full(3, 300, dtype="u1")
    with pytest.raises(ValueError):
        mt.ones((4, 4), chunk_size=(2, 2, 2))


def test_like():
    t = mt.tensor(np.arange(12).reshape(3, 4), chunk_size=2)
    assert_eq(mt.ones_like(t), np.ones((3, 4), dtype=int))
    assert_eq(mt.zeros_like(t, dtype="f4"), np.zeros((3, 4), "f4"))
    assert_eq(mt.full_like(t, 7), np.full((3, 4), 7))
    assert_eq(mt.ones_like(np.arange(3.0)), np.ones(3))
    assert mt.empty_like(t).shape == (3, 4)


@pytest.mark.parametrize("args, kw", [
    ((10,), {}), ((3, 20, 2), {}), ((0, 1, 0.1), {}), ((5, -4, -1.5), {}), ((7,), {"dtype": "f4"}),
    ((2, 2), {}), ((1, 10, 3), {"dtype": "u1"}), ((0, 5, 0.5), {"dtype": int}), ((10, 1, -3), {"dtype": "u1"}),
    ((0.5, 9.3, 0.7), {"dtype": "f4"}), ((3, 11), {"dtype": float}),
    ((12.0,), {}), ((0, np.float32(5)), {}), ((np.int16(2), 9, np.int8(2)), {}),  # stop's type counts
])
def test_arange(args, kw):
    assert_eq(mt.arange(*args, chunk_size=3, **kw), np.arange(*args, **kw))


def test_arange_errors():
    with pytest.raises(ZeroDivisionError):
        mt.arange(0, 5, 0)


@pytest.mark.parametrize("args, kw", [
    ((0, 1), {}), ((3, 20, 17), {}), ((0, 10, 7), {"endpoint": False}), ((0, 10, 11), {"dtype": int}),
    ((-5, 5, 1), {}), ((2, 3, 0), {}), ((1, -3.5, 23), {"dtype": "f4"}), ((0, -9, 10), {"dtype": int}),
])
def test_linspace(args, kw):
    assert_eq(mt.linspace(*args, chunk_size=4, **kw), np.linspace(*args, **kw), rtol=1e-6)


def test_linspace_retstep_and_errors():
    t, step = mt.linspace(0, 1, 5, retstep=True)
    assert step == np.linspace(0, 1, 5, retstep=True)[1]
    assert_eq(t, np.linspace(0, 1, 5))
    with pytest.raises(ValueError):
        mt.linspace(0, 1, -1)


@pytest.mark.parametrize("args, kw", [((5,), {}), ((5, 7), {"k": 1}), ((6, 4), {"k": -2}), ((4,), {"dtype": int}),
                                      ((3, 3), {"k": 5})])
def test_eye(args, kw):
    assert_eq(mt.eye(*args, chunk_size=(2, 3), **kw), np.eye(*args, **kw))
    assert_eq(mt.identity(4, chunk_size=3), np.identity(4))


def test_chunk_sizes_not_dividing_shape():
    t = mt.ones((10, 7), chunk_size=(3, 4))
    assert LocalExecutor().tile(t.data).nsplits == ((3, 3, 3, 1), (4, 3))
    assert_eq(t, np.ones((10, 7)))


# random

def _value(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("make, shape, dtype", [
    (lambda **kw: mt.random.rand(30, 20, **kw), (30, 20), np.float64),
    (lambda **kw: mt.random.randn(30, 20, **kw), (30, 20), np.float64),
    (lambda **kw: mt.random.random((30, 20), **kw), (30, 20), np.float64),
    (lambda **kw: mt.random.random_sample(600, **kw), (600,), np.float64),
    (lambda **kw: mt.random.randint(5, size=(30, 20), **kw), (30, 20), np.int64),
    (lambda **kw: mt.random.randint(-3, 3, size=600, dtype="i2", **kw), (600,), np.int16),
    (lambda **kw: mt.random.uniform(2, 5, size=(30, 20), **kw), (30, 20), np.float64),
    (lambda **kw: mt.random.normal(3, 2, size=(30, 20), **kw), (30, 20), np.float64),
    (lambda **kw: mt.random.rand(600, dtype="f4", **kw), (600,), np.float32),
])
def test_random_shapes_dtypes_and_reproducibility(make, shape, dtype):
    a = make(seed=5, chunk_size=7)
    assert a.shape == shape and a.dtype == dtype
    value = _value(a)
    assert value.shape == shape and value.dtype == dtype
    assert_eq(a, value)  # checks chunk shapes/dtypes and key derivation
    b = make(seed=5, chunk_size=7)
    assert a.key == b.key
    np.testing.assert_array_equal(_value(b), value)
    assert make(seed=6, chunk_size=7).key != a.key
    assert make(chunk_size=7).key != make(chunk_size=7).key
    assert not np.array_equal(_value(make(seed=6, chunk_size=7)), value)
    assert len(np.unique(value)) > 1


def test_random_chunks_differ_and_statistics():
    x = _value(mt.random.rand(10_000, chunk_size=1000, seed=1))
    blocks = x.reshape(10, 1000)
    assert all(not np.array_equal(blocks[0], b) for b in blocks[1:])
    assert 0 <= x.min() and x.max() < 1 and abs(x.mean() - 0.5) < 0.02
    n = _value(mt.random.normal(3, 2, size=10_000, chunk_size=999, seed=2))
    assert abs(n.mean() - 3) < 0.1 and abs(n.std() - 2) < 0.1
    u = _value(mt.random.uniform(-2, 5, size=10_000, chunk_size=999, seed=3))
    assert -2 <= u.min() and u.max() < 5
    r = _value(mt.random.randint(3, 7, size=10_000, chunk_size=999, seed=4))
    assert set(np.unique(r)) == {3, 4, 5, 6}


def test_random_scalar_and_global_seed():
    s = mt.random.rand()
    assert s.shape == () and _value(s).shape == ()
    mt.random.seed(42)
    k1 = mt.random.rand(5).key
    mt.random.seed(42)
    assert mt.random.rand(5).key == k1
    rs = mt.random.RandomState(0)
    assert rs.randn(4).key == mt.random.RandomState(0).randn(4).key


def test_random_errors_like_numpy():
    with pytest.raises(ValueError):
        mt.random.randint(5, 1, size=3)
    with pytest.raises(ValueError):
        mt.random.normal(0, -1, size=3)
    with pytest.raises(ValueError):
        mt.random.rand(-2)
    with pytest.raises(TypeError):
        mt.random.rand((2, 3))
    with pytest.raises(ValueError):
        mt.random.rand(4, 4, chunk_size=(2, 2, 2))


def test_like_with_unknown_shape():
    from test_rechunk import positive_only

    a = np.array([1.0, -2.0, 3.0, 4.0, -5.0])
    x = positive_only(mt.tensor(a, chunk_size=2))
    assert_eq(mt.ones_like(x), np.ones(3))
    assert_eq(mt.full_like(x, 2, dtype="i4"), np.full(3, 2, dtype="i4"))


def test_full_with_an_array_fill_value_broadcasts_as_numpy():
    assert_eq(mt.full((4, 3), [1, 2, 3]), np.full((4, 3), [1, 2, 3]))
    assert_eq(mt.full((5, 2, 3), [[1.5], [2.5]], dtype="i4", chunk_size=2),
              np.full((5, 2, 3), [[1.5], [2.5]], dtype="i4"))
    with pytest.raises(ValueError):
        np.full((4, 3), [1, 2])
    with pytest.raises(ValueError):
        mt.full((4, 3), [1, 2])


@pytest.mark.parametrize("args, kw", [(([0, 1], [10, 5], 7), {}), ((np.array([[0.0], [2.0]]), [1, 3, 5], 4), dict(endpoint=False)),
                                     (([0, 1], 9, 5), dict(axis=1)), (([0, 1], [10, 20], 6), dict(dtype=int)),
                                     ((0, [1, 2], 1), {}), ((0, [1, 2], 0), {}), (([3, 1], [3, 2], 4), {}),
                                     ((np.float32([0, 1]), np.float32(2), 3), dict(axis=-1))], ids=repr)
def test_linspace_of_arrays_is_numpy_bit_for_bit(args, kw):
    assert_eq(mt.linspace(*args, chunk_size=3, **kw), np.linspace(*args, **kw), rtol=0)
    _, step = mt.linspace(*args, retstep=True, **kw)
    np.testing.assert_array_equal(step, np.linspace(*args, retstep=True, **kw)[1])


def test_linspace_of_lazy_starts_and_stops():
    assert_eq(mt.linspace(mt.tensor([0.0, 1.0]), mt.tensor([4.0, 9.0]), 5), np.linspace([0.0, 1.0], [4.0, 9.0], 5))


def test_unsupported_array_arguments_and_bad_seeds():
    with pytest.raises(ValueError):
        mt.random.rand(3, seed=-1)
    with pytest.raises(TypeError):
        mt.random.rand(3, seed=1.5)


def test_sources_of_different_shapes_have_different_keys_regression():
    """arange(5) and arange(7) (and eye(3) / eye(3, 4)) once shared a key: one graph using both
    computed one of them twice."""
    assert mt.arange(5).key != mt.arange(7).key
    assert mt.eye(3).key != mt.eye(3, 4).key
    assert_eq(mt.reshape(mt.arange(7), (1, 7)) >= mt.reshape(mt.arange(5), (5, 1)),
              np.arange(7).reshape(1, 7) >= np.arange(5).reshape(5, 1))
