"""mt.random distributions: NumPy RandomState's dtypes, shapes, parameter errors and moments."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

N = 20_000
pytestmark = pytest.mark.filterwarnings("ignore:This function is deprecated:DeprecationWarning")


def _value(t):
    return LocalExecutor().compute(t.data)[0]


def _g(a, s):  # gamma moments
    return a * s, a * s * s


# name, parameters, mean, variance, support (lo, hi) inclusive
TABLE = [
    ("beta", (2.0, 3.0), 0.4, 0.04, (0, 1)),
    ("binomial", (10, 0.3), 3.0, 2.1, (0, 10)),
    ("chisquare", (3,), 3.0, 6.0, (0, np.inf)),
    ("exponential", (2.0,), 2.0, 4.0, (0, np.inf)),
    ("f", (5, 10), 10 / 8, 2 * 100 * 13 / (5 * 64 * 6), (0, np.inf)),
    ("gamma", (2.0, 3.0), *_g(2.0, 3.0), (0, np.inf)),
    ("geometric", (0.25,), 4.0, 12.0, (1, np.inf)),
    ("gumbel", (1.0, 2.0), 1 + 2 * np.euler_gamma, np.pi ** 2 / 6 * 4, (-np.inf, np.inf)),
    ("hypergeometric", (10, 20, 6), 2.0, 6 * (1 / 3) * (2 / 3) * 24 / 29, (0, 6)),
    ("laplace", (1.0, 2.0), 1.0, 8.0, (-np.inf, np.inf)),
    ("logistic", (1.0, 2.0), 1.0, np.pi ** 2 / 3 * 4, (-np.inf, np.inf)),
    ("lognormal", (0.0, 0.5), np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25), (0, np.inf)),
    ("logseries", (0.5,), -0.5 / (0.5 * np.log(0.5)), -0.5 * (0.5 + np.log(0.5)) / (0.25 * np.log(0.5) ** 2), (1, np.inf)),
    ("negative_binomial", (3, 0.4), 4.5, 11.25, (0, np.inf)),
    ("noncentral_chisquare", (3, 2.0), 5.0, 14.0, (0, np.inf)),
    ("noncentral_f", (5, 10, 2.0), 10 * 7 / (5 * 8), None, (0, np.inf)),
    ("pareto", (5.0,), 0.25, 5 / (16 * 3), (0, np.inf)),
    ("poisson", (4.0,), 4.0, 4.0, (0, np.inf)),
    ("power", (3.0,), 0.75, 3 / 80, (0, 1)),
    ("rayleigh", (2.0,), 2 * np.sqrt(np.pi / 2), (4 - np.pi) / 2 * 4, (0, np.inf)),
    ("standard_cauchy", (), None, None, (-np.inf, np.inf)),
    ("standard_exponential", (), 1.0, 1.0, (0, np.inf)),
    ("standard_gamma", (3.0,), 3.0, 3.0, (0, np.inf)),
    ("standard_t", (5,), 0.0, 5 / 3, (-np.inf, np.inf)),
    ("triangular", (0.0, 1.0, 4.0), 5 / 3, (1 + 16 - 4) / 18, (0, 4)),
    ("vonmises", (0.0, 2.0), 0.0, None, (-np.pi, np.pi)),
    ("wald", (2.0, 3.0), 2.0, 8 / 3, (0, np.inf)),
    ("weibull", (2.0,), np.sqrt(np.pi) / 2, 1 - np.pi / 4, (0, np.inf)),
    ("zipf", (4.0,), 1.2020569 / (np.pi ** 4 / 90), None, (1, np.inf)),
    ("uniform", (-2.0, 5.0), 1.5, 49 / 12, (-2, 5)),
    ("normal", (3.0, 2.0), 3.0, 4.0, (-np.inf, np.inf)),
    ("random_integers", (3, 7), 5.0, 2.0, (3, 7)),
]


@pytest.mark.parametrize("name, params, mean, var, support", TABLE, ids=[t[0] for t in TABLE])
def test_distribution(name, params, mean, var, support):
    t = getattr(mt.random, name)(*params, size=N, chunk_size=3001, seed=7)
    ref = getattr(np.random.RandomState(0), name)(*params, size=N)
    assert t.shape == ref.shape and t.dtype == ref.dtype
    x = _value(t)
    assert x.shape == ref.shape and x.dtype == ref.dtype
    assert support[0] <= x.min() and x.max() <= support[1]
    if mean is not None:  # a 6-sigma band of the sample mean (and of the sample variance)
        assert abs(x.mean() - mean) < 6 * np.sqrt((var or x.var()) / N) + 1e-3 * abs(mean)
    if var is not None:
        assert abs(x.var() / var - 1) < 0.12
    blocks = [x[i:i + 3001] for i in range(0, N, 3001)]
    assert not np.array_equal(blocks[0][:100], blocks[1][:100])  # chunks draw differently


@pytest.mark.parametrize("name, params", [(t[0], t[1]) for t in TABLE], ids=[t[0] for t in TABLE])
def test_shapes_dtypes_reproducibility(name, params):
    f = getattr(mt.random, name)
    a = f(*params, size=(7, 5), chunk_size=(3, 4), seed=3)
    ref = getattr(np.random.RandomState(0), name)(*params, size=(7, 5))
    assert_eq(a, _value(a))
    assert a.shape == ref.shape and a.dtype == ref.dtype
    b = f(*params, size=(7, 5), chunk_size=(3, 4), seed=3)
    assert a.key == b.key
    np.testing.assert_array_equal(_value(a), _value(b))
    assert f(*params, size=(7, 5), chunk_size=(3, 4), seed=4).key != a.key
    s = f(*params)  # no size: NumPy's scalar draw, a 0-d tensor
    assert s.shape == () and _value(s).dtype == ref.dtype


def test_array_parameters_broadcast():
    loc = np.array([0.0, 100.0, 1000.0])
    t = mt.random.normal(loc, [[1.0], [0.01]], chunk_size=(1, 2), seed=1)
    assert t.shape == np.random.normal(loc, [[1.0], [0.01]]).shape == (2, 3)
    x = _value(t)
    assert np.all(np.abs(x - loc) < [[6], [0.06]])
    x = _value(mt.random.poisson([1.0, 1000.0], size=(4000, 2), chunk_size=(999, 1), seed=2))
    assert abs(x[:, 0].mean() - 1) < 0.1 and abs(x[:, 1].mean() - 1000) < 3
    x = _value(mt.random.binomial(np.arange(1, 6), 0.5, size=(3, 5), chunk_size=2, seed=2))
    assert np.all(x <= np.arange(1, 6))
    with pytest.raises(ValueError):
        mt.random.normal(np.zeros(3), 1, size=(2, 2))



@pytest.mark.parametrize("name, params", [("normal", (0, 1)), ("poisson", (3.0,)), ("binomial", (10, 0.5)),
                                          ("triangular", (0, 1, 2)), ("gamma", (2.0, 1.0))])
def test_lazy_tensor_parameters(name, params):
    """A lazy parameter: the same draw as its NumPy value (same seed, same chunking)."""
    first = np.array([[params[0]], [params[0] * 2]])
    lazy = mt.tensor(first, chunk_size=1) + 0
    t = getattr(mt.random, name)(lazy, *params[1:], size=(3, 2, 5), chunk_size=(2, 1, 3), seed=5)
    ref = getattr(mt.random, name)(first, *params[1:], size=(3, 2, 5), chunk_size=(2, 1, 3), seed=5)
    assert t.dtype == ref.dtype and t.shape == ref.shape
    assert_eq(t, _value(ref))
    m = mt.random.multinomial(mt.tensor([5, 50], chunk_size=1), [0.5, 0.5], size=(3, 2), chunk_size=2, seed=2)
    x = _value(m)
    assert_eq(m, x)
    assert m.dtype == np.int64 and np.all(x.sum(-1) == [5, 50])
    for make in [lambda: mt.random.multinomial(3, mt.tensor([0.5, 0.5])), lambda: mt.random.choice(mt.arange(3)),
                 lambda: mt.random.dirichlet(mt.ones(2))]:
        with pytest.raises(NotImplementedError):  # not fetched behind the user's back
            make()
    with pytest.raises(ValueError):  # a bad lazy value: NumPy's error when it is drawn
        _value(mt.random.normal(0, mt.tensor([1.0, -1.0]), seed=1))


BAD = [
    ("beta", (0, 1)), ("binomial", (-1, 0.5)), ("binomial", (3, 1.5)), ("chisquare", (0,)),
    ("exponential", (-1,)), ("f", (0, 1)), ("gamma", (-1,)), ("geometric", (0,)),
    ("gumbel", (0, -1)), ("hypergeometric", (2, 3, 6)), ("laplace", (0, -1)), ("logistic", (0, -1)),
    ("lognormal", (0, -1)), ("logseries", (1.5,)), ("negative_binomial", (0, 0.5)),
    ("noncentral_chisquare", (3, -1)), ("noncentral_f", (1, 1, -1)), ("pareto", (0,)),
    ("poisson", (-1,)), ("power", (0,)), ("rayleigh", (-1,)), ("standard_gamma", (-1,)),
    ("standard_t", (0,)), ("triangular", (2, 1, 0)), ("vonmises", (0, -1)), ("wald", (0, 1)),
    ("weibull", (-1,)), ("zipf", (1,)), ("normal", (0, [1, -1])), ("random_integers", (5, 1)),
]


@pytest.mark.parametrize("name, params", BAD, ids=[b[0] for b in BAD])
def test_bad_parameters_raise_like_numpy(name, params):
    with pytest.raises(ValueError):
        getattr(np.random.RandomState(0), name)(*params, size=3)
    with pytest.raises(ValueError):
        getattr(mt.random, name)(*params, size=3)


def test_multivariate_distributions():
    p = [0.2, 0.3, 0.5]
    m = mt.random.multinomial(20, p, size=(3000, 2), chunk_size=(700, 1, 2), seed=1)
    ref = np.random.multinomial(20, p, size=(3000, 2))
    assert m.shape == ref.shape and m.dtype == ref.dtype
    x = _value(m)
    assert_eq(m, x)
    assert np.all(x.sum(-1) == 20) and np.allclose(x.mean((0, 1)), np.multiply(20, p), atol=0.15)
    d = mt.random.dirichlet([1.0, 2.0, 3.0], size=4000, chunk_size=999, seed=1)
    x = _value(d)
    assert x.shape == (4000, 3) and np.allclose(x.sum(1), 1) and np.allclose(x.mean(0), [1 / 6, 1 / 3, 1 / 2], atol=0.02)
    cov = [[1.0, 0.5], [0.5, 2.0]]
    v = mt.random.multivariate_normal([1.0, -1.0], cov, size=(5000,), chunk_size=1234, seed=1)
    x = _value(v)
    assert x.shape == (5000, 2) and np.allclose(x.mean(0), [1, -1], atol=0.1)
    assert np.allclose(np.cov(x.T), cov, atol=0.15)
    assert mt.random.dirichlet([1, 1]).shape == (2,)
    for name, args in [("dirichlet", ([1.0, -1.0],)), ("multinomial", (5, [0.8, 0.8, 0.1])),
                       ("multinomial", (-1, [0.5, 0.5])), ("multivariate_normal", ([0.0] * 3, cov))]:
        with pytest.raises(ValueError):
            getattr(np.random.RandomState(0), name)(*args)
        with pytest.raises(ValueError):
            getattr(mt.random, name)(*args)


def test_choice():
    x = _value(mt.random.choice(5, size=(40, 30), chunk_size=7, seed=1))
    assert x.dtype == np.random.choice(5, 3).dtype and set(np.unique(x)) == set(range(5))
    pop = np.array([1.5, 2.5, 9.0])
    c = mt.random.choice(pop, size=3000, p=[0.1, 0.1, 0.8], chunk_size=700, seed=1)
    x = _value(c)
    assert c.dtype == x.dtype == np.float64 and set(np.unique(x)) <= set(pop)
    assert abs((x == 9.0).mean() - 0.8) < 0.04
    w = mt.random.choice(50, size=(6, 7), replace=False, chunk_size=4, seed=2)
    assert_eq(w, _value(w))
    assert len(np.unique(_value(w))) == 42 and _value(w).max() < 50
    for bad in [dict(a=3, size=5, replace=False), dict(a=[[1, 2]]), dict(a=3, p=[0.5, 0.6, 0.1]),
                dict(a=0, size=2)]:
        with pytest.raises(ValueError):
            np.random.choice(**bad)
        with pytest.raises(ValueError):
            mt.random.choice(**bad)


def test_aliases_bytes_and_state():
    for name in ["ranf", "sample", "random_sample"]:
        assert_eq(getattr(mt.random, name)(5, chunk_size=2, seed=1), _value(mt.random.random(5, chunk_size=2, seed=1)))
    b = mt.random.bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    assert mt.random.RandomState(3).bytes(8) == mt.random.RandomState(3).bytes(8)
    rs = mt.random.RandomState(0)
    assert rs.gamma(2.0, size=4).key == mt.random.RandomState(0).gamma(2.0, size=4).key
    x = _value(mt.random.random_integers(4, size=2000, seed=1))
    assert set(np.unique(x)) == {1, 2, 3, 4}


@pytest.mark.parametrize("make", [
    lambda cs, seed: mt.random.rand(301, 257, chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.randint(-5, 5, size=(70000,), chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.normal(np.arange(257.0), 2.0, size=(301, 257), chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.poisson(mt.tensor(np.arange(1.0, 258.0), chunk_size=100) * 2,
                                       size=(301, 257), chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.multinomial(10, [0.2, 0.3, 0.5], size=(301, 257), chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.choice(np.array([1.5, 2.5, 3.5]), size=(301, 257), chunk_size=cs, seed=seed),
    lambda cs, seed: mt.random.standard_normal(size=(9, 1000, 13), chunk_size=cs, seed=seed),
], ids=["rand", "randint-1d", "normal-array-param", "poisson-lazy-param", "multinomial-event",
        "choice-population", "3d"])
def test_random_values_are_the_same_for_any_chunking(make):
    """The issue's promise: a seed gives the same values whatever the chunk size."""
    whole = _value(make(None, 11))
    for chunk_size in (7, 100, 1000, 70000):  # 7: drawn on the block grid, then re-split
        assert_eq(make(chunk_size, 11), whole)
    assert not np.array_equal(_value(make(100, 12)), whole)  # another seed, other values


def test_random_generation_block_is_fixed_by_the_shape():
    from mars_on_ray.tensor.random_blocks import BLOCK_ELEMENTS, generation_block

    assert BLOCK_ELEMENTS == 65536  # part of the reproducibility contract
    assert generation_block((10**6,)) == (65536,)
    assert generation_block((12000, 12000)) == (256, 256)
    assert generation_block((10**6, 10)) == (6553, 10)
    assert generation_block((3, 4)) == (3, 4)
    assert generation_block(()) == ()
