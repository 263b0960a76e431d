"""select, piecewise, apply_along_axis and vectorize vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(5)
X = RS.rand(13, 7)
X[2, 3] = np.nan
XI = RS.randint(-5, 5, (13, 7)).astype(np.int16)


def test_select_first_true_condition_wins():
    t = mt.tensor(X, chunk_size=4)
    assert_eq(mt.select([t < 0.3, t > 0.2], [t, t * 2], 5), np.select([X < 0.3, X > 0.2], [X, X * 2], 5))
    assert_eq(mt.select([X < 0.3], [1], default=np.float32(2)), np.select([X < 0.3], [1], default=np.float32(2)))
    ti = mt.tensor(XI, chunk_size=(4, 3))
    assert_eq(mt.select([ti > 0, ti < -2], [ti, np.int8(-1)], default=0),
              np.select([XI > 0, XI < -2], [XI, np.int8(-1)], default=0))
    assert_eq(mt.select([ti[0] > 0], [ti], default=XI[:, :1]),  # conditions and choices broadcast
              np.select([XI[0] > 0], [XI], default=XI[:, :1]))
    assert_eq(mt.select([mt.tensor(np.array(True))], [3.5]), np.select([np.array(True)], [3.5]))
    assert_eq(mt.select([t[t > 2] > 0], [1.0]), np.select([X[X > 2] > 0], [1.0]))  # empty


def test_select_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.select([t > 0], [t, t])
    with pytest.raises(ValueError):
        mt.select([], [])
    with pytest.raises(TypeError):
        mt.select([t], [t])
    with pytest.raises(TypeError):
        mt.select([t > 0], [np.array(["a"])])


def test_piecewise_applies_functions_to_their_pieces():
    t = mt.tensor(X, chunk_size=4)
    funcs = [lambda v: -v, lambda v: v * 10, 7.0]
    assert_eq(mt.piecewise(t, [t < 0.3, t > 0.8], funcs), np.piecewise(X, [X < 0.3, X > 0.8], funcs))
    assert_eq(mt.piecewise(t, [t < 0.5], [0, lambda v, k: v * k], 3),
              np.piecewise(X, [X < 0.5], [0, lambda v, k: v * k], 3))
    ti = mt.tensor(XI, chunk_size=(4, 3))
    assert_eq(mt.piecewise(ti, [ti > 0], [lambda v: v * 2.7]), np.piecewise(XI, [XI > 0], [lambda v: v * 2.7]))
    assert_eq(mt.piecewise(mt.tensor(np.float64(2.0)), [True], [lambda v: v + 1]),
              np.piecewise(np.float64(2.0), [True], [lambda v: v + 1]))
    assert_eq(mt.piecewise(t[t > 2], [t[t > 2] > 0], [1.0]), np.piecewise(X[X > 2], [X[X > 2] > 0], [1.0]))
    with pytest.raises(ValueError):
        mt.piecewise(t, [t < 0.5], [1, 2, 3])
    with pytest.raises(IndexError):
        mt.piecewise(t, [np.ones((2, 13, 7), bool)], [1])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis_on_whole_lanes(axis):
    t = mt.tensor(X, chunk_size=4)
    assert_eq(mt.apply_along_axis(np.nansum, axis, t), np.apply_along_axis(np.nansum, axis, X))
    head = lambda r: np.sort(r)[:3] * 2  # noqa: E731
    assert_eq(mt.apply_along_axis(head, axis, t), np.apply_along_axis(head, axis, X))
    outer = lambda r: np.outer(r[:2], r[:3])  # noqa: E731  (2-D results insert two axes)
    assert_eq(mt.apply_along_axis(outer, axis, t), np.apply_along_axis(outer, axis, X))
    ti = mt.tensor(XI, chunk_size=(4, 3))
    assert_eq(mt.apply_along_axis(lambda r, k: (r > k).sum(), axis, ti, 1),
              np.apply_along_axis(lambda r, k: (r > k).sum(), axis, XI, 1))


def test_apply_along_axis_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(np.exceptions.AxisError):
        mt.apply_along_axis(np.sum, 2, t)
    with pytest.raises(ValueError):
        mt.apply_along_axis(np.sum, 0, mt.tensor(np.zeros((3, 0))))


def test_vectorize_applies_a_scalar_function_blockwise():
    t = mt.tensor(X, chunk_size=4)
    func = lambda a, b: a if a > b else b * 2  # noqa: E731
    assert_eq(mt.vectorize(func)(t, 0.5), np.vectorize(func)(X, 0.5))
    assert_eq(mt.vectorize(func)(t, t[0]), np.vectorize(func)(X, X[0]))
    to_int = lambda a: int(a * 10) if a == a else -1  # noqa: E731
    assert_eq(mt.vectorize(to_int, otypes=[np.int32])(t), np.vectorize(to_int, otypes=[np.int32])(X))
    assert_eq(mt.vectorize(to_int, otypes="l")(t), np.vectorize(to_int, otypes="l")(X))
    two = mt.vectorize(lambda a: (a, a > 0.5), otypes=[float, bool])
    for got, want in zip(two(t), np.vectorize(lambda a: (a, a > 0.5), otypes=[float, bool])(X)):
        assert_eq(got, want)

    @mt.vectorize
    def clamp(a, hi=0.5):
        return min(a, hi)

    assert_eq(clamp(t, hi=0.3), np.vectorize(lambda a, hi: min(a, hi))(X, 0.3))
    assert_eq(clamp(mt.tensor(np.zeros(0))), np.zeros(0))
    boom = mt.vectorize(lambda a: 1 // 0, otypes=[float])(t)
    with pytest.raises(ZeroDivisionError):
        LocalExecutor().compute(boom.data)


SIGNATURE_CASES = [
    ("(n)->()", lambda a: a.sum(), [(13, 7)]),
    ("(n),(n)->()", lambda a, b: a @ b, [(13, 7), (7,)]),
    ("(n),(n)->()", lambda a, b: a @ b, [(3, 1, 7), (4, 7)]),
    ("(n)->(),()", lambda a: (a.min(), a.max()), [(13, 7)]),
    ("(n)->(n,n)", lambda a: np.outer(a, a), [(13, 7)]),
    ("(n)->(k)", lambda a: np.array([a.mean(), a.std(), a.max()]), [(13, 7)]),  # k from a call
    ("(n,n)->()", np.linalg.det, [(5, 3, 3)]),
    ("(n)->()", lambda a: a.sum(), [(7,)]),  # no loop axis: a 0-d result
    ("(),(n)->(n)", lambda s, a: s * a, [(13, 1), (13, 7)]),
]


@pytest.mark.parametrize("sig,func,shapes", SIGNATURE_CASES)
def test_vectorize_with_a_signature_equals_numpy(sig, func, shapes):
    rs = np.random.RandomState(2)
    arrays = [rs.rand(*s) for s in shapes]
    arrays[0][arrays[0] > 0.9] = np.nan
    got = mt.vectorize(func, signature=sig)(*(mt.tensor(a, chunk_size=2 if a.ndim > 2 else 4) for a in arrays))
    want = np.vectorize(func, signature=sig)(*arrays)
    for g, w in zip(got if isinstance(want, tuple) else [got], want if isinstance(want, tuple) else [want]):
        assert_eq(g, w, rtol=1e-12)


def test_vectorize_with_a_signature_makes_core_axes_whole_and_keeps_loop_blocks():
    t = mt.tensor(X, chunk_size=4)
    res = mt.vectorize(lambda a: a.sum(), signature="(n)->()")(t)
    tiled = LocalExecutor(small_data=False).tile(res.data)
    assert tiled.nsplits == ((4, 4, 4, 1),)
    assert_eq(res, np.vectorize(lambda a: a.sum(), signature="(n)->()")(X))


def test_vectorize_with_a_signature_otypes_empty_and_unknown_shapes():
    f = lambda a: a.sum()  # noqa: E731
    t = mt.tensor(X, chunk_size=4)
    assert_eq(mt.vectorize(f, signature="(n)->()", otypes=[np.float32])(t),
              np.vectorize(f, signature="(n)->()", otypes=[np.float32])(X))
    empty = np.zeros((0, 4))
    assert_eq(mt.vectorize(f, signature="(n)->()", otypes=[float])(mt.tensor(empty)),
              np.vectorize(f, signature="(n)->()", otypes=[float])(empty))
    keep = X[:, 0] > 0.5
    assert_eq(mt.vectorize(f, signature="(n)->()")(t[t[:, 0] > 0.5]), np.vectorize(f, signature="(n)->()")(X[keep]))


def test_vectorize_with_a_signature_errors_like_numpy():
    f = lambda a: a.sum()  # noqa: E731
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError, match="not a valid gufunc signature"):
        mt.vectorize(f, signature="(n)->(")
    with pytest.raises(ValueError, match="inconsistent size for core dimension"):
        mt.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")(t, np.ones(3))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        mt.vectorize(f, signature="(n,m)->()")(mt.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="size 0 inputs unless `otypes` is set"):
        mt.vectorize(f, signature="(n)->()")(mt.tensor(np.zeros((0, 3))))
    with pytest.raises(TypeError, match="wrong number of positional arguments"):
        mt.vectorize(f, signature="(n)->()")(t, t)


def test_vectorize_excluded_and_keyword_arguments():
    t = mt.tensor(X, chunk_size=4)
    y = np.random.RandomState(3).rand(7)
    poly = lambda x, c: np.polyval(c, x)  # noqa: E731
    assert_eq(mt.vectorize(poly, excluded={1})(t, [1, 2, 3]), np.vectorize(poly, excluded={1})(X, [1, 2, 3]))
    kw_poly = lambda x, c=None: np.polyval(c, x)  # noqa: E731
    assert_eq(mt.vectorize(kw_poly, excluded={"c"})(t, c=[1, 2, 3]),
              np.vectorize(kw_poly, excluded={"c"})(X, c=[1, 2, 3]))
    sub = lambda x, y=0: x - y  # noqa: E731
    assert_eq(mt.vectorize(sub)(t, y=mt.tensor(y, chunk_size=3)), np.vectorize(sub)(X, y=y))  # vectorized keyword
    lanes = lambda a, w: a @ w  # noqa: E731
    assert_eq(mt.vectorize(lanes, excluded={1}, signature="(n)->()")(t, y),
              np.vectorize(lanes, excluded={1}, signature="(n)->()")(X, y))


def test_vectorize_with_a_signature_calls_the_function_once_for_all_outputs():
    """The outputs of one block are one step (the executor runs it once for both tensors)."""
    from mars_on_ray.core.fusion import build_steps
    from mars_on_ray.tensor.functional import GufuncChunk

    def lo_hi(a):
        return a.min(), a.max()

    lo, hi = mt.vectorize(lo_hi, signature="(n)->(),()")(mt.tensor(X, chunk_size=4))
    executor = LocalExecutor(small_data=False)
    chunks = list(executor.tile(lo.data).flat) + list(executor.tile(hi.data).flat)
    steps = [s for s in build_steps(chunks, set()) if isinstance(s.op, GufuncChunk)]
    assert len(steps) == 4 and all(len(s.outputs) == 2 for s in steps)
    want = np.vectorize(lo_hi, signature="(n)->(),()")(X)
    assert_eq(lo, want[0])
    assert_eq(hi, want[1])
