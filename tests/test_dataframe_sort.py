"""sort_values, sort_index, nlargest, nsmallest against pandas (range-partitioned sort, top-k)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.sort import SortChunks, TopK
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 41
    frame = pd.DataFrame({"a": rs.randint(0, 5, n), "b": rs.rand(n), "s": [f"x{i % 7}" for i in range(n)],
                          "c": pd.Categorical(rs.choice(["lo", "mid", "hi"], n), categories=["lo", "mid", "hi"]),
                          "t": pd.Timestamp("2020-01-01") + pd.to_timedelta(rs.randint(0, 9, n), unit="D"),
                          "n": np.nan},
                         index=[f"r{i:02d}" for i in rs.permutation(n)])
    frame.loc[frame.index[[3, 9, 30]], "b"] = np.nan
    frame.loc[frame.index[[4, 12]], "a"] = 2
    return frame


def _ops(obj) -> set:
    tiled = LocalExecutor().tile(obj.data)
    return {type(c.op) for c in topo_order(tiled.flat)}


def _nsplits(obj):
    return LocalExecutor().tile(obj.data).nsplits[0]


@pytest.mark.parametrize("by", ["a", "s", "c", "t", ["a", "s"], ["s", "b"], ["c", "a", "t"]])
@pytest.mark.parametrize("ascending", [True, False])
def test_sort_values_stable_ties(df, by, ascending):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.sort_values(by, ascending=ascending, kind="stable"),
              df.sort_values(by, ascending=ascending, kind="stable"))


def test_sort_values_is_range_partitioned(df):
    m = md.DataFrame(df, chunk_size=7)
    result = m.sort_values("a", kind="stable")
    assert len(_nsplits(result)) > 1 and SortChunks in _ops(result)
    big = pd.DataFrame({"k": np.zeros(200, dtype=int), "v": np.arange(200)})
    same = md.DataFrame(big, chunk_size=20).sort_values("k", kind="stable")
    assert _nsplits(same) == (20,) * 10  # one key: ranges still split by global position
    assert_eq(same, big.sort_values("k", kind="stable"))


@pytest.mark.parametrize("na_position", ["first", "last"])
def test_sort_values_na_position_and_lists(df, na_position):
    m = md.DataFrame(df, chunk_size=6)
    assert_eq(m.sort_values("b", na_position=na_position), df.sort_values("b", na_position=na_position))
    assert_eq(m.sort_values(["a", "b"], ascending=[False, True], na_position=na_position),
              df.sort_values(["a", "b"], ascending=[False, True], na_position=na_position))
    assert_eq(m.sort_values(["n", "a"], na_position=na_position, kind="stable"),
              df.sort_values(["n", "a"], na_position=na_position, kind="stable"))
    assert_eq(m["b"].sort_values(ascending=False, na_position=na_position),
              df["b"].sort_values(ascending=False, na_position=na_position))


def test_sort_values_options(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.sort_values("s", kind="stable", ignore_index=True),
              df.sort_values("s", kind="stable", ignore_index=True))
    assert_eq(m.sort_values("b", kind="mergesort"), df.sort_values("b", kind="mergesort"))
    assert_eq(m.sort_values("b"), df.sort_values("b"))  # no ties: any kind gives pandas' order
    assert_eq(m.sort_values("s", key=lambda s: s.str[-1].astype(int) % 3, kind="stable"),
              df.sort_values("s", key=lambda s: s.str[-1].astype(int) % 3, kind="stable"))
    assert_eq(m["a"].sort_values(kind="stable", ignore_index=True),
              df["a"].sort_values(kind="stable", ignore_index=True))
    assert_eq(m.sort_values(by=("a",), kind="stable"), df.sort_values(by=["a"], kind="stable"))
    named = df.rename_axis("name")
    assert_eq(md.DataFrame(named, chunk_size=7).sort_values(["a", "name"], ascending=[True, False]),
              named.sort_values(["a", "name"], ascending=[True, False]))
    inplace, expected = md.DataFrame(df, chunk_size=7), df.copy()
    assert inplace.sort_values("a", inplace=True, kind="stable") is None
    expected.sort_values("a", inplace=True, kind="stable")
    assert_eq(inplace, expected)


def test_sort_values_odd_inputs():
    dup = pd.DataFrame({"a": [3, 1, 2, 1, 3, 0, 2, 1, 5]}, index=[1, 1, 0, 2, 1, 0, 0, 5, 1])
    assert_eq(md.DataFrame(dup, chunk_size=2).sort_values("a", kind="stable"), dup.sort_values("a", kind="stable"))
    empty = pd.DataFrame({"a": pd.Series([], dtype="int64"), "b": pd.Series([], dtype="str")})
    assert_eq(md.DataFrame(empty).sort_values("b"), empty.sort_values("b"))
    all_nan = pd.DataFrame({"x": [np.nan] * 9, "y": range(9)})
    assert_eq(md.DataFrame(all_nan, chunk_size=4).sort_values("x", kind="stable"),
              all_nan.sort_values("x", kind="stable"))
    mixed = pd.Series([3.5, np.nan, -1.0, 2.0, np.nan, 8.0, 0.0, -1.0], name="v")
    assert_eq(md.Series(mixed, chunk_size=3).sort_values(na_position="first", kind="stable"),
              mixed.sort_values(na_position="first", kind="stable"))


def test_sort_after_filter_with_unknown_extents(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 1], df[df["a"] > 1]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.sort_values(["s", "a"], ignore_index=True), expected.sort_values(["s", "a"], ignore_index=True))
    none = m[m["a"] > 100]
    assert_eq(none.sort_values("a"), df[df["a"] > 100].sort_values("a"))


def test_sort_values_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(KeyError):
        m.sort_values("missing")
    with pytest.raises(ValueError):
        m.sort_values("a", na_position="middle")
    with pytest.raises(ValueError):
        m.sort_values(["a", "b"], ascending=[True])
    with pytest.raises(ValueError):
        m["a"].sort_values(axis=1)
    with pytest.raises(TypeError):
        m.sort_values()


@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["first", "last"])
def test_sort_index(df, ascending, na_position):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.sort_index(ascending=ascending, na_position=na_position),
              df.sort_index(ascending=ascending, na_position=na_position))
    ser = df["b"].copy()
    ser.index = df["b"].to_numpy()  # float index with NaNs and repeats
    ser[:] = np.arange(len(ser))
    assert_eq(md.Series(ser, chunk_size=6).sort_index(ascending=ascending, na_position=na_position, kind="stable"),
              ser.sort_index(ascending=ascending, na_position=na_position, kind="stable"))


def test_sort_index_options(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.sort_index(ignore_index=True), df.sort_index(ignore_index=True))
    assert_eq(m.sort_index(key=lambda i: i.str[-1], kind="stable"),
              df.sort_index(key=lambda i: i.str[-1], kind="stable"))
    assert_eq(m.sort_index(axis=1), df.sort_index(axis=1))
    assert_eq(m.sort_index(axis=1, ascending=False), df.sort_index(axis=1, ascending=False))
    repeats = df.set_index("a")
    assert_eq(md.DataFrame(repeats, chunk_size=5).sort_index(kind="stable", ascending=False),
              repeats.sort_index(kind="stable", ascending=False))
    multi = df.set_index(["s", "a"])
    mm = md.DataFrame(multi, chunk_size=6)
    assert_eq(mm.sort_index(), multi.sort_index())
    assert_eq(mm.sort_index(ascending=[False, True]), multi.sort_index(ascending=[False, True]))
    assert_eq(mm.sort_index(level="a"), multi.sort_index(level="a"))
    assert_eq(mm.sort_index(level=1, sort_remaining=False, ascending=False),
              multi.sort_index(level=1, sort_remaining=False, ascending=False))
    with pytest.raises(ValueError):
        m.sort_index(axis=2)


def test_index_sort_values(df):
    idx = md.DataFrame(df, chunk_size=7).index
    assert_eq(idx.sort_values(), df.index.sort_values())
    assert_eq(idx.sort_values(ascending=False), df.index.sort_values(ascending=False))


@pytest.mark.parametrize("keep", ["first", "last", "all"])
@pytest.mark.parametrize("n", [0, 1, 3, 10, 50])
def test_nlargest_nsmallest(df, keep, n):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.nlargest(n, "a", keep=keep), df.nlargest(n, "a", keep=keep))
    assert_eq(m.nsmallest(n, ["a", "b"], keep=keep), df.nsmallest(n, ["a", "b"], keep=keep))
    assert_eq(m.nlargest(n, ["a", "t"], keep=keep), df.nlargest(n, ["a", "t"], keep=keep))
    assert_eq(m["a"].nlargest(n, keep=keep), df["a"].nlargest(n, keep=keep))
    assert_eq(m["b"].nsmallest(n, keep=keep), df["b"].nsmallest(n, keep=keep))


def test_nlargest_is_a_top_k_and_errors(df):
    m = md.DataFrame(df, chunk_size=4)
    result = m["a"].nlargest(3)
    assert TopK in _ops(result) and SortChunks not in _ops(result)
    assert result.shape == (3,)
    with pytest.raises(KeyError):
        m.nlargest(3, "missing")
    with pytest.raises(TypeError):
        m.nlargest(3, "s")
    with pytest.raises(ValueError):
        m["a"].nsmallest(3, keep="middle")


def test_sort_then_head_is_a_top_k(df):
    m = md.DataFrame(df, chunk_size=5)
    head = m.sort_values(["a", "s"], ascending=[False, True]).head(6)
    assert TopK in _ops(head) and SortChunks not in _ops(head)
    assert_eq(head, df.sort_values(["a", "s"], ascending=[False, True]).head(6))
    assert_eq(m.sort_values("b", na_position="first", ignore_index=True).head(4),
              df.sort_values("b", na_position="first", ignore_index=True).head(4))
    assert_eq(m.sort_index(ascending=False).head(7), df.sort_index(ascending=False).head(7))
    assert_eq(m["a"].sort_values(kind="stable").head(9), df["a"].sort_values(kind="stable").head(9))
    tail = m.sort_values("a", kind="stable").head(-3)  # all but the last rows: a real sort
    assert SortChunks in _ops(tail)
    assert_eq(tail, df.sort_values("a", kind="stable").head(-3))


def test_range_split_codes_follow_pandas_order():
    from mars_on_ray.core.shuffle import order_keys, range_split_codes, regular_sample, weighted_boundaries

    rs = np.random.RandomState(5)
    values = pd.Series(rs.choice([1.0, 2.0, 3.0, np.nan], 200))
    keys = order_keys([values], 0)
    for ascending, na_position in ((True, "last"), (False, "first")):
        directions = [ascending, True]
        samples = [regular_sample(keys.iloc[i:i + 50], directions, na_position, 8) for i in range(0, 200, 50)]
        bounds = weighted_boundaries(samples, [50] * 4, 4, directions, na_position)
        codes = range_split_codes(keys, bounds, directions, na_position)
        order = values.sort_values(ascending=ascending, na_position=na_position, kind="stable").index
        assert np.all(np.diff(codes[order.to_numpy()]) >= 0)  # ranges follow pandas' stable order
        assert 2 <= len(np.unique(codes)) <= 4


@pytest.mark.parametrize("kw", [dict(by="r01"), dict(by=["r01", "r02"], ascending=[False, True]),
                                dict(by="r01", na_position="first", kind="stable"),
                                dict(by="r03", ignore_index=True)])
def test_sort_values_along_the_columns_is_pandas(kw):
    """Was a NotImplementedError ("sort_values(axis=1)")."""
    rs = np.random.RandomState(0)
    frame = pd.DataFrame(rs.randint(0, 4, (23, 6)), columns=list("fbdaeb"),  # a repeated name
                         index=[f"r{i:02d}" for i in range(23)])
    frame.iloc[1, 2] = np.nan
    m = md.DataFrame(frame, chunk_size=5)
    assert_eq(m.sort_values(axis=1, **kw), frame.sort_values(axis=1, **kw))
    m.sort_values(axis=1, inplace=True, **kw)
    assert_eq(m, frame.sort_values(axis=1, **kw))


def test_sort_values_along_the_columns_raises_pandas_errors():
    frame = pd.DataFrame({"a": [3, 1, 2], "b": [1, 2, 3]}, index=["x", "y", "x"])
    m = md.DataFrame(frame, chunk_size=2)
    for by, error in (("zz", KeyError), ("x", ValueError)):  # missing; not unique
        with pytest.raises(error):
            frame.sort_values(by, axis=1)
        with pytest.raises(error):
            m.sort_values(by, axis=1)
