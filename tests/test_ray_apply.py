"""User functions on Ray: closures and user classes pickled into workers, errors coming back
with the user's exception type, ExecutableTuple running several results as one task."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


@pytest.fixture
def df():
    rs = np.random.RandomState(1)
    return pd.DataFrame({"a": rs.randint(0, 10, 41), "b": rs.rand(41), "s": [f"k{i % 5}" for i in range(41)]},
                        index=[f"i{i}" for i in range(41)])


def test_apply_closures_on_ray(df):
    m = md.DataFrame(df, chunk_size=7)
    offset, table = 3.5, {"k0": "zero", "k1": "one"}

    def row(r):
        return r["a"] * offset + len(table.get(r["s"], ""))
    assert_eq(m.apply(row, axis=1), df.apply(row, axis=1))
    assert_eq(m[["a", "b"]].apply(lambda c: c - c.mean() * offset),
              df[["a", "b"]].apply(lambda c: c - c.mean() * offset))
    assert_eq(m["s"].map(table), df["s"].map(table))
    assert_eq(m["a"].apply(lambda x: x + offset), df["a"].apply(lambda x: x + offset))
    assert_eq(m.map_chunk(lambda c: c[c["a"] > offset]), df[df["a"] > offset])


def test_agg_transform_and_custom_reduction_on_ray(df):
    class _Range(md.CustomReduction):  # a local class: pickled by value, as a user's would be
        def pre(self, values):
            return values.min(), values.max()

        def agg(self, lows, highs):
            return lows.min(), highs.max()

        def post(self, low, high):
            return high - low

    m = md.DataFrame(df[["a", "b"]], chunk_size=6)
    expected = df[["a", "b"]]
    assert_eq(m.agg(_Range()), expected.agg(_Range()))
    assert_eq(m.agg(["sum", "median", lambda c: c.max()]), expected.agg(["sum", "median", lambda c: c.max()]))
    assert_eq(m.transform(lambda c: c.rank()), expected.transform(lambda c: c.rank()))
    assert_eq(md.Series(df["b"], chunk_size=6).agg(["sum", "mean"]), df["b"].agg(["sum", "mean"]))


def test_eval_query_replace_on_ray(df):
    m = md.DataFrame(df, chunk_size=8)
    limit = 4
    assert_eq(m.query("a > @limit and s != 'k2'"), df.query("a > @limit and s != 'k2'"))
    assert_eq(m.eval("c = a * b"), df.eval("c = a * b"))
    assert_eq(m.replace({"s": {"k1": "one"}, "a": {0: -1}}), df.replace({"s": {"k1": "one"}, "a": {0: -1}}))
    assert_eq(m["b"].between(0.2, 0.6).sum(), df["b"].between(0.2, 0.6).sum())
    assert_eq(m.round(1), df.round(1))


def test_user_error_on_ray_keeps_its_type(df):
    m = md.DataFrame(df, chunk_size=7)

    def bad(r):
        if r["a"] == 9:
            raise LookupError("nine")
        return r["a"]
    with pytest.raises(LookupError) as info:
        m.apply(bad, axis=1).execute()
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "md.DataFrame.apply" in notes and "rows 'i" in notes


def test_executable_tuple(session, df):
    m = md.DataFrame(df, chunk_size=7)
    total, filtered = m["a"].sum(), m[m["a"] > 5]
    t = md.ExecutableTuple((total, filtered, "plain"))
    assert t.execute() is t
    assert session.last_task["subtasks"] > 0
    values = t.fetch()
    assert values[0] == df["a"].sum() and values[2] == "plain"
    pd.testing.assert_frame_equal(values[1], df[df["a"] > 5])
    assert md.ExecutableTuple(()).fetch() == []
    one = md.ExecutableTuple((m["b"].max(),)).fetch()
    assert one == [df["b"].max()]
