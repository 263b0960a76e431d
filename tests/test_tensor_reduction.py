"""Tensor reductions against NumPy: axes, keepdims, dtypes, errors, tree shape, unknown extents."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.config import options
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(0)
X = RS.rand(7, 9, 5)

PLAIN = ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all",
         "nansum", "nanprod", "nanmin", "nanmax", "nanmean", "nanvar", "nanstd"]
ARG = ["argmin", "argmax", "nanargmin", "nanargmax"]


def compute(t, fusion=True):
    return LocalExecutor(fusion).compute(t.data)[0]


@pytest.mark.parametrize("name", PLAIN)
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), (1, 2), (0, 1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_matches_numpy(name, axis, keepdims):
    t = mt.tensor(X, chunk_size=(3, 4, 2))
    assert_eq(getattr(mt, name)(t, axis=axis, keepdims=keepdims),
              getattr(np, name)(X, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name", ARG)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_arg_reduction_matches_numpy(name, axis, keepdims):
    t = mt.tensor(X, chunk_size=(3, 4, 2))
    assert_eq(getattr(mt, name)(t, axis=axis, keepdims=keepdims),
              getattr(np, name)(X, axis=axis, keepdims=keepdims))


def test_tensor_methods():
    t = mt.tensor(X, chunk_size=3)
    assert_eq(t.sum(0), X.sum(0))
    assert_eq(t.std(axis=1, ddof=1), X.std(axis=1, ddof=1))
    assert_eq(t.var(ddof=2), X.var(ddof=2))
    assert_eq(t.argmax(), X.argmax())
    assert_eq(t.mean(axis=(0, 1), keepdims=True), X.mean(axis=(0, 1), keepdims=True))
    assert_eq((t > 0.5).any(axis=2), (X > 0.5).any(axis=2))
    assert_eq((t > 0.01).all(), (X > 0.01).all())
    assert_eq(mt.sum(X, axis=1), X.sum(axis=1))  # plain ndarray input


def test_numpy_functions_stay_lazy_through_tensor_methods():
    t = mt.tensor(X, chunk_size=3)
    assert_eq(np.sum(t, axis=1), np.sum(X, axis=1))
    assert_eq(np.std(t, ddof=1), np.std(X, ddof=1))
    assert_eq(np.argmax(t, axis=0), np.argmax(X, axis=0))
    assert_eq(np.mean(t, axis=(0, 2), keepdims=True), np.mean(X, axis=(0, 2), keepdims=True))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "bool", "float16", "float32", "complex128"])
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "min", "max", "any", "argmax"])
def test_result_dtype_is_numpys(name, dtype):
    x = (RS.rand(11, 6) * 4).astype(dtype)
    if name == "prod" and dtype in ("float16",):
        x = np.ones_like(x)
    if name in ("min", "max") and dtype == "complex128":
        return  # np.minimum on complex is lexicographic, covered by argmax
    t = mt.tensor(x, chunk_size=4)
    rtol = 1e-2 if dtype == "float16" else 1e-5 if dtype == "float32" else 1e-7
    for axis in (None, 0):
        assert_eq(getattr(mt, name)(t, axis=axis), getattr(np, name)(x, axis=axis), rtol=rtol)


def test_explicit_dtype():
    x = np.arange(40, dtype="int32").reshape(8, 5)
    t = mt.tensor(x, chunk_size=3)
    assert_eq(mt.sum(t, axis=0, dtype="float32"), x.sum(axis=0, dtype="float32"))
    assert_eq(mt.prod(t + 1, dtype="float64"), np.prod(x + 1, dtype="float64"))
    assert_eq(mt.mean(t, axis=1, dtype="float32"), x.mean(axis=1, dtype="float32"), rtol=1e-6)
    assert_eq(mt.mean(t, dtype="int64"), x.mean(dtype="int64"))
    assert_eq(mt.var(t, dtype="float32"), x.var(dtype="float32"), rtol=1e-5)


def test_full_reduction_fetches_numpy_scalar():
    t = mt.tensor(X, chunk_size=3)
    for name in ("sum", "mean", "max", "std", "argmin", "any"):
        value = compute(getattr(mt, name)(t))
        expected = getattr(np, name)(X)
        assert type(value) is type(expected), (name, type(value))
    assert isinstance(compute(mt.sum(t, keepdims=True)), np.ndarray)


def test_variance_is_numerically_sound():
    x = 1e9 + RS.rand(5000)  # naive E[x^2] - E[x]^2 loses every digit here
    t = mt.tensor(x, chunk_size=7)
    assert_eq(mt.var(t), np.var(x), rtol=1e-6)
    assert_eq(mt.std(t, ddof=1), np.std(x, ddof=1), rtol=1e-6)
    assert_eq(mt.mean(t), np.mean(x), rtol=1e-12)


def test_var_ddof_beyond_count_gives_inf_or_nan_like_numpy():
    x = RS.rand(3, 4)
    t = mt.tensor(x, chunk_size=2)
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        expected = np.var(x, axis=0, ddof=3)
    assert_eq(mt.var(t, axis=0, ddof=3), expected)
    with pytest.warns(RuntimeWarning):
        expected = np.var(x, axis=0, ddof=5)
    assert_eq(mt.var(t, axis=0, ddof=5), expected)


def test_argmin_ties_and_nan_follow_numpy():
    x = np.array([3.0, 1.0, 2.0, 1.0, 5.0, 1.0, 0.5, 0.5, 9.0])
    t = mt.tensor(x, chunk_size=2)
    assert_eq(mt.argmin(t), np.argmin(x))
    assert_eq(mt.argmax(t), np.argmax(x))
    y = x.copy()
    y[[4, 7]] = np.nan
    t = mt.tensor(y, chunk_size=2)
    for name in ARG + ["min", "max", "nanmin", "nanmax"]:
        assert_eq(getattr(mt, name)(t), getattr(np, name)(y))
    m = np.array([[1, 5, 5], [5, 1, 5], [0, 5, 5], [5, 5, 0]], dtype="int64")
    for axis in (None, 0, 1):
        assert_eq(mt.argmax(mt.tensor(m, chunk_size=1), axis=axis), m.argmax(axis=axis))
        assert_eq(mt.argmin(mt.tensor(m, chunk_size=1), axis=axis), m.argmin(axis=axis))


def test_nanargmin_all_nan_slice_raises_at_run_time():
    t = mt.tensor(np.array([[np.nan, 1.0], [np.nan, 2.0]]), chunk_size=1)
    assert_eq(mt.nanargmin(t, axis=1), np.nanargmin([[np.nan, 1.0], [np.nan, 2.0]], axis=1))
    with pytest.raises(ValueError, match="All-NaN"):
        compute(mt.nanargmin(t, axis=0))


def test_tree_reduction_groups_combine_size_chunks(monkeypatch):
    monkeypatch.setattr(options, "combine_size", 4)
    x = RS.rand(64)
    t = mt.tensor(x, chunk_size=4)  # 16 chunks -> 4 combines -> 1 aggregate
    r = mt.sum(t)
    ex = LocalExecutor()
    tiled = ex.tile(r.data)
    (final,) = tiled.flat
    assert len(final.inputs) == 4 and all(len(c.inputs) == 4 for c in final.inputs)
    ex = LocalExecutor()
    np.testing.assert_allclose(ex.compute(r.data)[0], x.sum())
    assert ex.subtask_count == 16 + 4 + 1  # source+partial fused per chunk, then the tree
    assert compute(r, fusion=False) == pytest.approx(x.sum())


def test_tree_reduction_with_combine_size_two_and_uneven_count(monkeypatch):
    monkeypatch.setattr(options, "combine_size", 2)
    x = RS.rand(13, 4)
    t = mt.tensor(x, chunk_size=(1, 3))
    for name in ("sum", "var", "argmax", "min", "mean"):
        assert_eq(getattr(mt, name)(t, axis=0), getattr(np, name)(x, axis=0))
        assert_eq(getattr(mt, name)(t), getattr(np, name)(x))


def test_reduction_over_multiple_axes_uses_one_tree_per_kept_block():
    x = RS.rand(6, 6, 6)
    t = mt.tensor(x, chunk_size=3)  # 2x2x2 grid
    tiled = LocalExecutor().tile(mt.sum(t, axis=(0, 2)).data)
    assert tiled.chunks.shape == (2,)
    assert all(len(c.inputs) == 4 for c in tiled.flat)


def test_fused_equals_unfused():
    t = mt.tensor(X, chunk_size=2)
    for name in ("var", "argmin", "mean"):
        np.testing.assert_allclose(compute(getattr(mt, name)(t, axis=1), fusion=False),
                                   getattr(np, name)(X, axis=1))


def test_unknown_shapes_from_boolean_indexing():
    x = RS.rand(30, 4)
    x[10:20, 0] = 0.0  # a whole chunk is filtered out: an empty chunk
    t = mt.tensor(x, chunk_size=(5, 3))
    f = t[t[:, 0] > 0.3]
    expected = x[x[:, 0] > 0.3]
    assert np.isnan(f.shape[0])
    for name in PLAIN + ARG:
        for axis in (None, 0, 1):
            assert_eq(getattr(mt, name)(f, axis=axis), getattr(np, name)(expected, axis=axis))


def test_max_of_filtered_to_nothing_raises_at_run_time():
    t = mt.tensor(RS.rand(10), chunk_size=3)
    r = mt.max(t[t > 2])
    with pytest.raises(ValueError, match="zero-size"):
        compute(r)
    with pytest.raises(ValueError, match="empty sequence"):
        compute(mt.argmax(t[t > 2]))
    assert_eq(mt.sum(t[t > 2]), np.float64(0.0))


def test_errors_at_build_time_match_numpy():
    t = mt.tensor(X, chunk_size=3)
    with pytest.raises(np.exceptions.AxisError):
        mt.sum(t, axis=3)
    with pytest.raises(np.exceptions.AxisError):
        t.mean(axis=-4)
    with pytest.raises(np.exceptions.AxisError):
        mt.argmax(t, axis=5)
    with pytest.raises(ValueError):
        mt.sum(t, axis=(0, 0))
    with pytest.raises(TypeError):
        mt.argmin(t, axis=(0, 1))
    with pytest.raises(TypeError):
        mt.sum(t, axis=1.5)
    with pytest.raises(ValueError, match="zero-size"):
        mt.max(mt.ones((0, 3), chunk_size=2), axis=0)
    with pytest.raises(ValueError):
        mt.argmin(mt.ones((0,)))
    with pytest.raises(TypeError):
        mt.sum(t, out=np.empty(()))


def test_empty_and_degenerate_shapes():
    e = np.ones((0, 3))
    t = mt.tensor(e, chunk_size=2)
    assert_eq(mt.sum(t, axis=0), e.sum(axis=0))
    assert_eq(mt.max(t, axis=1), e.max(axis=1))
    assert_eq(mt.prod(t), e.prod())
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        expected = e.mean(axis=0)
    assert_eq(mt.mean(t, axis=0), expected)
    s = mt.tensor(np.float64(2.5))
    assert_eq(mt.sum(s), np.sum(np.float64(2.5)))
    assert_eq(mt.argmax(s), np.argmax(np.float64(2.5)))
    assert_eq(mt.sum(mt.tensor(X, chunk_size=3), axis=()), X.sum(axis=()))


def test_seed_sized_sum_and_mean():
    a = mt.ones((2000, 2000), chunk_size=200)
    assert_eq(a.sum(), np.float64(4_000_000.0))
    assert_eq(a.mean(axis=0), np.ones(2000))
