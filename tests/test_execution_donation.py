"""A step may write its result into an input array nothing else holds (no fresh allocation),
never into one still read later, viewed, aliased or stored."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core import execution
from mars_on_ray.core.fusion import Step
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.tensor import arithmetic
from mars_on_ray.testing import assert_eq


@pytest.fixture
def donations(monkeypatch):
    seen = []
    fits = arithmetic._fits

    def spy(kernel, args, buffer, kwargs):
        ok = fits(kernel, args, buffer, kwargs)
        seen.append((kernel.__name__, ok))
        return ok

    monkeypatch.setattr(arithmetic, "_fits", spy)
    return seen


def test_elementwise_chain_reuses_its_intermediates(donations):
    data = np.random.RandomState(0).rand(13, 7)
    x = mt.tensor(data, chunk_size=(5, 4))
    got = LocalExecutor().compute(((x * 2 + 1) ** 2 - x).data)[0]
    np.testing.assert_array_equal(got, (data * 2 + 1) ** 2 - data)
    assert [name for name, ok in donations if ok] == ["add", "power", "subtract"] * 6  # 6 chunks
    np.testing.assert_array_equal(data, np.random.RandomState(0).rand(13, 7))  # the input untouched


def test_results_whose_dtype_or_shape_differ_are_not_written_into_the_input(donations):
    data = np.arange(35, dtype=np.int64).reshape(5, 7)
    x = mt.tensor(data, chunk_size=3)
    assert_eq(((x + 1) / 2) + 1, ((data + 1) / 2) + 1)  # int -> float: a fresh array
    assert ("true_divide", False) in donations or ("divide", False) in donations
    row = mt.tensor(np.arange(7.0), chunk_size=7)
    assert_eq((row + 1) + mt.tensor(np.ones((5, 7)), chunk_size=(5, 7)),
              (np.arange(7.0) + 1) + np.ones((5, 7)))  # broadcast to a larger shape


def test_an_array_viewed_or_aliased_elsewhere_is_never_overwritten():
    a = np.arange(12.0)
    view = a[2:5]
    env = {"a": a, "v": view, "b": np.ones(3), "s": np.zeros(3)}
    step = Step(arithmetic.Elementwise(func="add", consts=(), kwargs={}, secondary=()),
                ["a", "b"], ["c"])
    assert execution._donatable(step, ["a", "b"], env, []) == 1  # "a" is viewed: only "b"
    env["alias"] = env["b"]
    assert execution._donatable(step, ["a", "b"], env, []) is None
    step_s = Step(step.op, ["s", "s"], ["c"])
    assert execution._donatable(step_s, ["s"], env, []) is None  # read twice by the step
    assert execution._donatable(Step(step.op, ["b"], ["c"]), ["b"], {"b": np.ones(3)}, ["b"]) is None


def test_view_of_an_intermediate_read_after_the_reuse_keeps_its_values():
    data = np.random.RandomState(2).rand(9, 6)
    x = mt.tensor(data, chunk_size=(9, 6))
    a = x + 1
    head = a[:3]  # a view of a's chunk, read after a's last elementwise use
    expr = (a * 2).sum() + head.sum()
    assert_eq(expr, (data + 1).__mul__(2).sum() + (data + 1)[:3].sum())
