"""mr.spawn on Ray: executes and fetches like a tensor, lazy arguments computed first,
several calls in one mr.execute, n_output as an ExecutableTuple, Mars' errors."""
from __future__ import annotations

import os
import sys
import uuid

import numpy as np
import pandas as pd
import pytest
import ray.cloudpickle

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt

ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


def make_counted(folder, func):
    """``func`` that leaves a file a call in ``folder`` (the test counts the calls)."""

    def counted(*args, **kwargs):
        os.makedirs(folder, exist_ok=True)
        open(os.path.join(folder, uuid.uuid4().hex), "w").close()
        return func(*args, **kwargs)

    return counted


def n_calls(folder) -> int:
    return len(os.listdir(folder)) if os.path.isdir(folder) else 0


def test_spawn_executes_and_fetches_like_a_tensor(session):
    obj = mr.spawn(divmod, (17, 5))
    assert obj.execute() is obj
    assert obj.fetch() == divmod(17, 5)
    assert mr.spawn(lambda x=0: x + 1, kwargs={"x": 4}).execute().fetch() == 5
    assert mr.spawn(len, "abc").fetch() == 3  # a single argument needs no tuple


def test_spawn_computes_lazy_arguments_first(session):
    data = np.arange(23.0).reshape(23, 1) * [1.0, 2.0]
    t = mt.tensor(data, chunk_size=(5, 1))  # chunks that do not divide the data
    df = pd.DataFrame({"a": np.arange(11), "b": list("abcdefghijk")})
    mdf = md.DataFrame(df, chunk_size=4)

    def describe(arr, frame, extra):
        return arr.sum(axis=0), frame.a.sum(), extra["n"] + len(extra["items"][0])

    obj = mr.spawn(describe, (t + 1, mdf[mdf.a > 3]), {"extra": {"n": 1, "items": [t]}})
    sums, total, n = obj.fetch()
    np.testing.assert_array_equal(sums, (data + 1).sum(axis=0))
    assert total == df[df.a > 3].a.sum() and n == 1 + len(data)


def test_spawn_calls_combine_in_one_execute_and_run_once(session, tmp_path):
    folder = str(tmp_path / "calls")
    first = mr.spawn(make_counted(folder, lambda a, b: a * b), (6, 7))
    second = mr.spawn(make_counted(folder, lambda x, y: x - y), (first, 2))
    t = mt.ones(10, chunk_size=3) * 2
    third = mr.spawn(make_counted(folder, lambda s, x: float(s.sum()) + x), (t, first))
    mr.execute(first, second, third, t)
    assert n_calls(folder) == 2 + 1  # `first` ran once though two calls use it
    assert (first.fetch(), second.fetch(), third.fetch()) == (42, 40, 62.0)
    np.testing.assert_array_equal(t.fetch(), np.full(10, 2.0))
    assert n_calls(folder) == 3  # fetching ran nothing again


def test_spawn_n_output_gives_an_executable_tuple(session, tmp_path):
    folder = str(tmp_path / "calls")
    parts = mr.spawn(make_counted(folder, lambda x: (x, [x] * 2, {"x": x})), (3,), n_output=3)
    assert isinstance(parts, mr.ExecutableTuple) and len(parts) == 3
    assert parts.execute() is parts
    assert parts.fetch() == [3, [3, 3], {"x": 3}]
    assert n_calls(folder) == 1
    total = mr.spawn(lambda a, b: a + len(b), (parts[0], parts[1]))
    assert total.fetch() == 5


def test_spawn_retry_when_fail(session, tmp_path):
    folder = str(tmp_path / "calls")

    def flaky():
        os.makedirs(folder, exist_ok=True)
        open(os.path.join(folder, uuid.uuid4().hex), "w").close()
        if n_calls(folder) < 2:
            raise ConnectionError("try again")
        return "ok"

    assert mr.spawn(flaky, retry_when_fail=True).fetch() == "ok"
    assert n_calls(folder) == 2


def test_spawn_errors_keep_the_function_exception_type(session):
    with pytest.raises(KeyError, match="missing"):
        mr.spawn(lambda d: d["missing"], ({},)).execute()
    with pytest.raises(ValueError, match="n_output=2"):
        a, b = mr.spawn(lambda: (1, 2, 3), n_output=2)
        mr.execute(a, b)
    with pytest.raises(TypeError, match="callable"):
        mr.spawn(5)
    with pytest.raises(TypeError, match="kwargs"):
        mr.spawn(print, (), kwargs=[1])
    with pytest.raises(ValueError, match="n_output"):
        mr.spawn(print, n_output=0)
