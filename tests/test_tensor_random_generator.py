"""mt.random.default_rng: NumPy Generator's methods, dtypes and parameter errors; permutation
and shuffle (also on RandomState)."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


def _value(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("call", [
    lambda g: g.random((30, 4)), lambda g: g.random(50, dtype=np.float32), lambda g: g.random(),
    lambda g: g.integers(10, size=40), lambda g: g.integers(-3, 3, size=(5, 6), endpoint=True),
    lambda g: g.integers(0, 200, size=30, dtype=np.uint8), lambda g: g.standard_normal(20, dtype=np.float32),
    lambda g: g.normal(1.0, 2.0, size=(3, 4)), lambda g: g.uniform(-1, 1, 9), lambda g: g.exponential(2.0, 8),
    lambda g: g.poisson(3.0, 10), lambda g: g.choice(7, 5), lambda g: g.choice([1.5, 2.5], 4, p=[0.2, 0.8]),
    lambda g: g.permutation(9), lambda g: g.standard_exponential(4),
], ids=["random", "random-f4", "random-0d", "integers-high", "integers-endpoint", "integers-u1", "stdnormal-f4",
        "normal", "uniform", "exponential", "poisson", "choice", "choice-p", "permutation", "std-exp"])
def test_generator_methods_have_numpys_shapes_and_dtypes(call):
    want = np.asarray(call(np.random.default_rng(0)))
    t = call(mt.random.default_rng(0))
    got = _value(t)
    assert t.shape == want.shape and t.dtype == want.dtype and got.shape == want.shape and got.dtype == want.dtype
    assert_eq(call(mt.random.default_rng(0)), got)  # the seed decides the values


def test_generator_ranges_and_seeds():
    g = _value(mt.random.default_rng(1).integers(-3, 3, size=5000, endpoint=True, chunk_size=700))
    assert set(np.unique(g)) == set(range(-3, 4))
    r = _value(mt.random.default_rng(1).random(5000, dtype=np.float32, chunk_size=700))
    assert r.min() >= 0 and r.max() < 1 and abs(r.mean() - 0.5) < 0.02
    a, b = mt.random.default_rng(5), mt.random.default_rng(5)
    assert_eq(a.random(10, chunk_size=3), _value(b.random(10, chunk_size=7)))  # any chunking
    assert not np.array_equal(_value(a.random(10)), _value(mt.random.default_rng(6).random(10)))
    assert mt.random.default_rng(a) is a
    with pytest.raises(ValueError):
        mt.random.default_rng(0).integers(5, 2, size=3)
    with pytest.raises(NotImplementedError):
        mt.random.default_rng(0).choice(5, 2, axis=1)


@pytest.mark.parametrize("make", [lambda: mt.random.default_rng(3), lambda: mt.random.RandomState(3)])
def test_permutation_and_shuffle_keep_the_elements(make):
    p = _value(make().permutation(50))
    assert p.dtype == np.int64 and sorted(p) == list(range(50)) and not np.array_equal(p, np.arange(50))
    x = np.arange(40).reshape(20, 2)
    got = _value(make().permutation(mt.tensor(x, chunk_size=3)))
    assert sorted(got[:, 0]) == list(x[:, 0]) and np.array_equal(got[:, 1] - got[:, 0], np.ones(20, int))
    t = mt.tensor(x, chunk_size=3)
    make().shuffle(t)
    assert np.array_equal(_value(t), got)  # the same seed: the same order
    with pytest.raises(IndexError):
        make().permutation(mt.tensor(np.array(5.0)))
    with pytest.raises(TypeError):
        make().shuffle(x)
