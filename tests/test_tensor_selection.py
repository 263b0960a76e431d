"""topk / argtopk, quantile / percentile / median (every method) against NumPy."""
import warnings

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(1)
X1 = RS.randint(0, 20, size=41).astype(float)
XN = X1.copy()
XN[[4, 30]] = np.nan
X2 = RS.rand(7, 9)
X2N = X2.copy()
X2N[2, 3] = np.nan
METHODS = ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased"]


def _stable_top(x, k, axis, largest):
    """Best first, ties by index, NaN ranking as the largest value (NumPy's sort order)."""
    moved = np.moveaxis(x, axis, -1)
    order = np.argsort(moved, axis=-1, kind="stable")
    if largest:
        n = moved.shape[-1]
        order = n - 1 - np.flip(np.argsort(np.flip(moved, -1), axis=-1, kind="stable"), -1)
    order = order[..., :k]
    return (np.moveaxis(np.take_along_axis(moved, order, -1), -1, axis),
            np.moveaxis(order, -1, axis))


@pytest.mark.parametrize("k", [1, 3, 41])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("data", [X1, XN])
def test_topk_1d(k, largest, data):
    t = mt.tensor(data, chunk_size=4)
    values, index = _stable_top(data, k, 0, largest)
    assert_eq(mt.topk(t, k, largest=largest), values)
    v, i = mt.topk(t, k, largest=largest, return_index=True)
    assert_eq(v, values)
    assert_eq(i, index)
    assert_eq(mt.argtopk(t, k, largest=largest), index)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_topk_2d(axis):
    t = mt.tensor(X2N, chunk_size=(3, 2))
    values, index = _stable_top(X2N, 2, axis, True)
    assert_eq(mt.topk(t, 2, axis=axis), values)
    assert_eq(mt.argtopk(t, 2, axis=axis, largest=False), _stable_top(X2N, 2, axis, False)[1])
    flat_values, _ = _stable_top(X2N.ravel(), 5, 0, True)
    assert_eq(mt.topk(t, 5, axis=None), flat_values)


def test_topk_errors():
    t = mt.tensor(X1, chunk_size=4)
    with pytest.raises(ValueError):
        mt.topk(t, 42)
    with pytest.raises(ValueError):
        mt.topk(t, 0)
    with pytest.raises(np.exceptions.AxisError):
        mt.topk(t, 1, axis=1)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("data", [X1, XN, X1.astype(np.int32), X1.astype(np.float32)])
def test_quantile_methods_1d(method, data):
    t = mt.tensor(data, chunk_size=7)
    qs = [0, 0.1, 0.5, 0.77, 1]
    assert_eq(mt.quantile(t, qs, method=method), np.quantile(data, qs, method=method))
    assert_eq(mt.quantile(t, 0.3, method=method), np.quantile(data, 0.3, method=method))
    assert_eq(mt.percentile(t, [33, 99.5], method=method), np.percentile(data, [33, 99.5], method=method))


@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_quantile_axes(axis, keepdims):
    t = mt.tensor(X2N, chunk_size=(3, 4))
    assert_eq(mt.median(t, axis=axis, keepdims=keepdims), np.median(X2N, axis=axis, keepdims=keepdims))
    assert_eq(mt.quantile(t, [0.2, 0.9], axis=axis, keepdims=keepdims),
              np.quantile(X2N, [0.2, 0.9], axis=axis, keepdims=keepdims))
    assert_eq(mt.percentile(t, 20, axis=axis, keepdims=keepdims, method="nearest"),
              np.percentile(X2N, 20, axis=axis, keepdims=keepdims, method="nearest"))


@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "bool"])
def test_median_dtypes(dtype):
    x = RS.randint(0, 3, size=(6, 5)).astype(dtype)
    t = mt.tensor(x, chunk_size=4)
    for axis in (None, 0, 1):
        assert_eq(mt.median(t, axis=axis), np.median(x, axis=axis))


def test_quantile_edge_cases():
    z = np.array(3.0)
    assert_eq(mt.quantile(mt.tensor(z), 0.5), np.quantile(z, 0.5))
    assert_eq(mt.median(mt.tensor(np.array(4))), np.median(np.array(4)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_eq(mt.median(mt.tensor(np.array([]))), np.median(np.array([])))
    with pytest.raises(IndexError):
        mt.quantile(mt.tensor(np.array([])), 0.5)
    t = mt.tensor(X1, chunk_size=7)
    with pytest.raises(ValueError):
        mt.quantile(t, 1.5)
    with pytest.raises(ValueError):
        mt.percentile(t, -1)
    with pytest.raises(ValueError):
        mt.quantile(t, 0.5, method="bogus")
    with pytest.raises(TypeError):
        mt.quantile(mt.tensor(X1.astype(complex)), 0.5)
    filtered = t[t > 5]  # unknown length until executed
    assert_eq(mt.median(filtered), np.median(X1[X1 > 5]))
    assert_eq(mt.quantile(filtered, [0.25, 0.75]), np.quantile(X1[X1 > 5], [0.25, 0.75]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's own, on inf - inf
@pytest.mark.parametrize("data", [np.repeat([3.0, 1.0, 2.0], 20), np.full(40, 7), RS.randn(600),
                                  np.r_[RS.randn(200), [np.inf, -np.inf, np.nan]]])
@pytest.mark.parametrize("chunk", [3, 41, 700])
def test_quantile_selection_without_sorting(data, chunk):
    t = mt.tensor(data, chunk_size=chunk)
    qs = [0, 0.001, 0.25, 0.5, 0.999, 1]
    for method in ("linear", "nearest", "midpoint", "inverted_cdf"):
        assert_eq(mt.quantile(t, qs, method=method), np.quantile(data, qs, method=method))
    assert_eq(mt.median(t), np.median(data))
    tiled = LocalExecutor().tile(mt.percentile(t, [1, 50, 99]).data)
    ops = {type(n.op).__name__ for n in topo_order(tiled.flat)}
    assert ops & {"GatherRanks", "GatherBracketed"} and not ops & {"MergeRuns", "SortChunk"}


@pytest.mark.parametrize("k", [1, 5, 50, 299])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "int16", "bool"])
def test_topk_many_ties_and_nan(k, largest, dtype):
    x = RS.randint(0, 5, size=300).astype(float)
    x[[3, 100, 101]] = np.nan
    x = x.astype(dtype) if dtype == "float64" else np.nan_to_num(x).astype(dtype)
    t = mt.tensor(x, chunk_size=37)
    values, index = _stable_top(x, k, 0, largest)
    assert_eq(mt.topk(t, k, largest=largest), values)
    assert_eq(mt.argtopk(t, k, largest=largest), index)


@pytest.mark.parametrize("data", [RS.randn(300), RS.randint(0, 5, size=300).astype(float),
                                  RS.randint(0, 50, size=300)])
@pytest.mark.parametrize("kind", ["float", "int", "ones"])
def test_weighted_quantiles(data, kind):
    w = {"float": RS.rand(300), "int": RS.randint(0, 3, size=300).astype(float),
         "ones": np.ones(300)}[kind]
    t, tw = mt.tensor(data, chunk_size=37), mt.tensor(w, chunk_size=50)
    qs = [0, 0.1, 0.25, 0.5, 0.77, 1]
    assert_eq(mt.quantile(t, qs, method="inverted_cdf", weights=tw),
              np.quantile(data, qs, method="inverted_cdf", weights=w))
    assert_eq(mt.percentile(t, 50, method="inverted_cdf", weights=w),
              np.percentile(data, 50, method="inverted_cdf", weights=w))


def test_weighted_quantile_edges_and_errors():
    d = RS.randn(100)
    d[5] = np.nan
    w = np.ones(100)
    assert_eq(mt.quantile(mt.tensor(d, chunk_size=9), [0.3], method="inverted_cdf", weights=w),
              np.quantile(d, [0.3], method="inverted_cdf", weights=w))
    x2, w2 = RS.rand(6, 7), RS.rand(6, 7)
    assert_eq(mt.quantile(mt.tensor(x2, chunk_size=4), 0.4, method="inverted_cdf", weights=w2,
                          keepdims=True),
              np.quantile(x2, 0.4, method="inverted_cdf", weights=w2, keepdims=True))
    with pytest.raises(ValueError):
        mt.quantile(mt.tensor(x2), 0.4, weights=w2)  # only inverted_cdf takes weights
    with pytest.raises(NotImplementedError):
        mt.quantile(mt.tensor(x2), 0.4, method="inverted_cdf", weights=w2, axis=0)
    with pytest.raises(ValueError):
        LocalExecutor().compute(mt.quantile(mt.tensor(d), 0.5, method="inverted_cdf",
                                            weights=-w).data)
    with pytest.raises(ValueError):
        LocalExecutor().compute(mt.quantile(mt.tensor(d, chunk_size=30), 0.5,
                                            method="inverted_cdf", weights=0 * w).data)


def _ops(obj):
    return {type(n.op).__name__ for n in topo_order(LocalExecutor().tile(obj.data).flat)}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("data", [RS.randn(5000), RS.randint(-50, 50, 4001),
                                  np.r_[RS.randn(300), [np.inf, -np.inf] * 3, [np.nan] * 40],
                                  np.r_[[np.nan] * 90, RS.randn(10)], np.full(500, np.nan)])
def test_percentiles_select_in_brackets_of_unsorted_chunks(data):
    t = mt.tensor(data, chunk_size=333)
    qs = [0, 1, 37.5, 50, 99, 100]
    for method in ("linear", "nearest", "lower", "higher"):
        assert_eq(mt.percentile(t, qs, method=method), np.percentile(data, qs, method=method))
    assert "SortedSample" not in _ops(mt.percentile(t, qs))  # no chunk was sorted


def test_brackets_that_miss_or_hold_too_much_fall_back_to_sorting(monkeypatch):
    from mars_on_ray.tensor import bracket_select

    monkeypatch.setattr(bracket_select, "SAMPLE", 4)
    monkeypatch.setattr(bracket_select, "MARGIN", 0.0)
    data = np.tile(np.r_[np.zeros(99), RS.rand(1)], 40)  # a sample of 4 a chunk sees no zeros
    t = mt.tensor(data, chunk_size=1000)
    assert_eq(mt.percentile(t, [10, 50, 99.5]), np.percentile(data, [10, 50, 99.5]))
    monkeypatch.setattr(bracket_select, "SAMPLE", 16_384)
    monkeypatch.setattr(bracket_select, "MAX_GATHERED", 0)  # any bracket is too full: sorted
    data = RS.randn(3000)
    t = mt.tensor(data, chunk_size=700)
    assert_eq(mt.median(t), np.median(data))
    assert "SortedSample" in _ops(mt.median(t))


@pytest.mark.parametrize("data", [np.r_[RS.randn(300), [np.nan] * 7, [np.inf, -np.inf], [0.5] * 9],
                                  RS.randint(-20, 20, 301)])
def test_bracket_pass_counts_and_keeps_each_bracket_in_one_pass_of_blocks(monkeypatch, data):
    from mars_on_ray.tensor import bracket_select

    monkeypatch.setattr(bracket_select, "BLOCK", 7)  # blocks that do not divide the chunk
    bounds = ((None, 0.5), (0.5, 1.5), (-1, None), (None, None), (3, 2))
    counts, kept = bracket_select.BracketPass(bounds=bounds, cap=10**9).execute(data)
    real = data[~np.isnan(data)] if data.dtype.kind == "f" else data
    for (lo, hi), c, k in zip(bounds, counts, kept):
        keep = np.ones(len(real), dtype=bool)
        keep &= (real >= lo) if lo is not None else keep
        keep &= (real <= hi) if hi is not None else keep
        inside = real[keep]
        np.testing.assert_array_equal(np.sort(k), np.sort(inside))
        assert tuple(c) == (0 if lo is None else np.sum(real < lo), 0 if lo is None else np.sum(inside == lo),
                            len(inside) if hi is None else np.sum(inside < hi), len(inside))
    counts_only, dropped = bracket_select.BracketPass(bounds=bounds, cap=5).execute(data)
    assert dropped is None
    np.testing.assert_array_equal(counts_only, counts)  # counting goes on once kept ones pass cap


def test_overlapping_brackets_of_neighbouring_ranks_merge_into_one_pass():
    from mars_on_ray.tensor.bracket_select import _covers, _merged

    brackets = [(1.0, 3.0), (2.0, 4.0), (None, 0.5), (0.2, 0.4), (5.0, None), (9.0, 10.0), (2.0, 4.0)]
    merged = _merged(brackets)
    assert merged == [(None, 0.5), (1.0, 4.0), (5.0, None)]
    assert all(sum(_covers(m, b) for m in merged) == 1 for b in brackets)
