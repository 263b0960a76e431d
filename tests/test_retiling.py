"""Re-tiling: operations after a boolean filter (unknown extents) resume with real shapes."""
import math

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

X = np.random.default_rng(42).random((30, 20))


class StageCounter(LocalExecutor):
    """Counts the stages run: one per shape request of tiling, plus the final one."""

    def __init__(self, fusion=True):
        super().__init__(fusion)
        self.stages = 0

    def _run(self, chunks):
        self.stages += 1
        super()._run(chunks)


def _compute(r, fusion=True):
    ex = StageCounter(fusion)
    value = ex.compute(r.data)[0]
    assert not any(isinstance(s, float) for s in np.shape(value)), np.shape(value)
    return value, ex.stages


def _source():
    return mt.tensor(X, chunk_size=(7, 6))


def test_filter_alone_needs_one_stage():
    t = _source()
    r = t[t > 0.5]
    assert math.isnan(r.shape[0])
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, X[X > 0.5])
    assert stages == 1


@pytest.mark.parametrize("index", [slice(3), slice(-4, None), slice(None, None, -7), 0, -1, [2, 0, 5], [-1, 3, -2]],
                         ids=repr)
def test_index_after_filter(index):
    t = _source()
    r = t[t > 0.5][index]
    expected = X[X > 0.5][index]
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, expected)
    assert stages == 2
    assert_eq(r, expected)


def test_full_slice_after_filter_needs_no_extra_stage():
    t = _source()
    r = t[X[:, 0] > 0.5][:, 3:5]  # rows unknown, columns sliced: no real extent needed
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, X[X[:, 0] > 0.5][:, 3:5])
    assert stages == 1


@pytest.mark.parametrize("index", [10_000, -10_000, [0, 10_000]], ids=repr)
def test_index_error_after_filter_raises_at_tile_time(index):
    t = _source()
    r = t[t > 0.5][index]
    with pytest.raises(IndexError):
        _compute(r)


def test_reshape_after_filter():
    t = _source()
    rows = t[X[:, 0] > 0.3]  # (nan, 20)
    expected = X[X[:, 0] > 0.3]
    r = rows.reshape(-1, 10)
    assert math.isnan(r.shape[0]) and r.shape[1] == 10
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, expected.reshape(-1, 10))
    assert stages == 2
    assert_eq(rows.reshape(-1), expected.reshape(-1))
    assert_eq(rows.T.reshape(5, -1), expected.T.reshape(5, -1))


def test_reshape_of_wrong_size_after_filter_raises_value_error():
    t = _source()
    n = int((X > 0.5).sum())
    r = t[t > 0.5].reshape(n + 1)
    with pytest.raises(ValueError):
        _compute(r)


def test_rechunk_after_filter():
    t = _source()
    r = mt.rechunk(t[t > 0.5], 25)
    expected = X[X > 0.5]
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, expected)
    assert stages == 2
    tiled = LocalExecutor().tile(r.data)
    assert all(s == 25 for s in tiled.nsplits[0][:-1])
    assert_eq(r, expected)


def test_arithmetic_and_sum_after_filter():
    t = _source()
    r = (t[t > 0.5] + 1).sum()
    value, _ = _compute(r)
    np.testing.assert_allclose(value, (X[X > 0.5] + 1).sum())
    assert_eq(r, (X[X > 0.5] + 1).sum())


def test_filter_of_filtered():
    t = _source()
    f = t[t > 0.5]
    r = f[f > 0.8][1:4]
    expected = X[X > 0.5]
    expected = expected[expected > 0.8][1:4]
    value, stages = _compute(r)
    np.testing.assert_array_equal(value, expected)
    assert stages >= 2
    assert_eq(r, expected)


def test_retiling_fused_equals_unfused():
    t = _source()
    f = t[t > 0.25]
    r = (f[::3].reshape(-1, 1).T + f[:1]).sum(axis=0)
    fused, _ = _compute(r)
    unfused, _ = _compute(r, fusion=False)
    e = X[X > 0.25]
    np.testing.assert_allclose(fused, (e[::3].reshape(-1, 1).T + e[:1]).sum(axis=0))
    np.testing.assert_array_equal(fused, unfused)


def test_transpose_and_squeeze_keep_unknown_extent():
    t = _source()
    rows = t[X[:, 1] > 0.5]
    expected = X[X[:, 1] > 0.5]
    assert math.isnan(rows.T.shape[1])
    assert_eq(rows.T, expected.T)
    assert_eq(mt.expand_dims(rows, 1), np.expand_dims(expected, 1))
