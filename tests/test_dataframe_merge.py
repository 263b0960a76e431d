"""merge / join against pandas: every how, sort, duplicate and missing keys, each strategy."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.merge import KeyShuffleMap
from mars_on_ray.dataframe.positional import PANDAS3
from mars_on_ray.testing import assert_eq

HOWS = ["inner", "left", "right", "outer"]


@pytest.fixture(params=["broadcast", "shuffle"])
def strategy(request):
    old = options.merge_broadcast_bytes
    options.merge_broadcast_bytes = 10**12 if request.param == "broadcast" else 0
    yield request.param
    options.merge_broadcast_bytes = old


def _frames(n=41, m=29, seed=0):
    rs = np.random.RandomState(seed)
    left = pd.DataFrame({"k": rs.randint(0, 12, n).astype(float), "k2": rs.choice(list("abc"), n),
                         "a": rs.randint(0, 100, n), "s": rs.choice(["x", "y", "zz"], n)})
    right = pd.DataFrame({"k": rs.randint(3, 16, m).astype(float), "k2": rs.choice(list("abd"), m),
                          "b": rs.rand(m), "s": rs.choice(["u", "v"], m)})
    left.loc[[4, n - 5], "k"] = np.nan
    right.loc[[2, m - 3, m - 2], "k"] = np.nan
    return left, right


def _run(obj):
    return LocalExecutor().compute(obj.data)[0]


def _uses(obj, op_type) -> bool:
    tiled = LocalExecutor().tile(obj.data)
    seen, stack = set(), list(tiled.flat)
    while stack:
        c = stack.pop()
        if isinstance(getattr(c.op, "inner", c.op), op_type):  # core/exchange.Packed wraps mappers
            return True
        for i in c.inputs:
            if i.key not in seen:
                seen.add(i.key)
                stack.append(i)
    return False


@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("how", HOWS)
def test_merge_on_column(strategy, how, sort):
    left, right = _frames()
    ml, mr = md.DataFrame(left, chunk_size=7), md.DataFrame(right, chunk_size=10)
    assert_eq(md.merge(ml, mr, on="k", how=how, sort=sort), pd.merge(left, right, on="k", how=how, sort=sort))
    assert_eq(ml.merge(mr, on=["k", "k2"], how=how, sort=sort),
              left.merge(right, on=["k", "k2"], how=how, sort=sort))


@pytest.mark.parametrize("how", HOWS + ["cross"])
def test_merge_default_keys_and_suffixes(strategy, how):
    left, right = _frames(23, 31, seed=1)
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=9)
    if how == "cross":
        kw = dict(how="cross", suffixes=("_l", "_r"))
    else:
        kw = dict(how=how, on=["k", "k2"], suffixes=("_l", "_r"))
    assert_eq(md.merge(ml, mr, **kw), pd.merge(left, right, **kw))
    if how != "cross":
        assert_eq(md.merge(ml[["k", "a"]], mr[["k", "b"]], how=how),
                  pd.merge(left[["k", "a"]], right[["k", "b"]], how=how))


@pytest.mark.parametrize("how", HOWS)
def test_merge_left_on_right_on(strategy, how):
    left, right = _frames(37, 19, seed=2)
    right = right.rename(columns={"k": "rk", "k2": "rk2"})
    ml, mr = md.DataFrame(left, chunk_size=6), md.DataFrame(right, chunk_size=4)
    for sort in (False, True):
        kw = dict(how=how, left_on=["k", "k2"], right_on=["rk", "rk2"], sort=sort, indicator=True)
        assert_eq(md.merge(ml, mr, **kw), pd.merge(left, right, **kw))


@pytest.mark.parametrize("how", HOWS)
def test_merge_on_indexes(strategy, how):
    rs = np.random.RandomState(3)
    left = pd.DataFrame({"k": rs.randint(0, 9, 30), "a": rs.rand(30)},
                        index=[f"r{i}" for i in rs.permutation(30)])
    right = pd.DataFrame({"b": rs.randint(0, 50, 13)}, index=pd.Index(rs.randint(0, 12, 13), name="key"))
    ml, mr = md.DataFrame(left, chunk_size=7), md.DataFrame(right, chunk_size=4)
    for sort in (False, True):
        kw = dict(how=how, left_on="k", right_index=True, sort=sort)
        assert_eq(md.merge(ml, mr, **kw), pd.merge(left, right, **kw))
        kw = dict(how=how, left_index=True, right_on="k", sort=sort)
        assert_eq(md.merge(mr, ml, **kw), pd.merge(right, left, **kw))
    # differently named indexes: pandas 2.2 names the result after either, by its code path
    lk, rk = left.set_index("k"), right.rename_axis("k")
    assert_eq(md.merge(md.DataFrame(lk, chunk_size=8), md.DataFrame(rk, chunk_size=4), how=how,
                       left_index=True, right_index=True),
              pd.merge(lk, rk, how=how, left_index=True, right_index=True))


@pytest.mark.parametrize("how", HOWS)
def test_join(strategy, how):
    rs = np.random.RandomState(4)
    left = pd.DataFrame({"a": rs.rand(26), "k": rs.randint(0, 8, 26)}, index=rs.randint(0, 10, 26))
    right = pd.DataFrame({"b": rs.randint(0, 9, 11), "a": rs.rand(11)}, index=rs.permutation(11) + 4)
    ml, mr = md.DataFrame(left, chunk_size=6), md.DataFrame(right, chunk_size=3)
    sfx = dict(suffixes=("_l", "_r")) if PANDAS3 else dict(lsuffix="_l", rsuffix="_r")
    assert_eq(ml.join(mr, how=how, **sfx), left.join(right, how=how, **sfx))
    assert_eq(ml.join(mr, on="k", how=how, sort=True, **sfx), left.join(right, on="k", how=how, sort=True, **sfx))
    series = right["b"]
    assert_eq(ml.join(md.Series(series, chunk_size=4), how=how), left.join(series, how=how))
    with pytest.raises(ValueError):
        ml.join(mr)  # overlapping column without suffixes


def test_merge_strings_and_duplicates(strategy):
    rs = np.random.RandomState(5)
    left = pd.DataFrame({"key": rs.choice(["foo", "bar", "baz", "qux"], 50), "v": np.arange(50)})
    right = pd.DataFrame({"key": rs.choice(["foo", "bar", "quux"], 17), "w": np.arange(17) * 1.5,
                          "flag": rs.rand(17) > 0.5})
    ml, mr = md.DataFrame(left, chunk_size=9), md.DataFrame(right, chunk_size=5)
    for how in HOWS:
        for sort in (False, True):
            assert_eq(ml.merge(mr, on="key", how=how, sort=sort), left.merge(right, on="key", how=how, sort=sort))


def test_merge_mixed_key_dtypes(strategy):
    left = pd.DataFrame({"k": np.arange(20) % 7, "a": np.arange(20)})
    right = pd.DataFrame({"k": np.array([0, 2.0, 4, 6, 8, np.nan, 2]), "b": list("abcdefg")})
    ml, mr = md.DataFrame(left, chunk_size=6), md.DataFrame(right, chunk_size=2)
    for how in HOWS:
        assert_eq(ml.merge(mr, how=how), left.merge(right, how=how))


def test_merge_empty_and_unmatched(strategy):
    left, right = _frames(15, 9)
    ml = md.DataFrame(left, chunk_size=4)
    empty = right.iloc[:0]
    for how in HOWS:
        # pandas keeps int64 when no row of the other side goes unmatched (computed at build)
        assert_eq(ml.merge(md.DataFrame(empty), on="k", how=how), left.merge(empty, on="k", how=how))
        assert_eq(md.DataFrame(empty).merge(ml, on="k", how=how), empty.merge(left, on="k", how=how))
    disjoint = right.assign(k=right["k"] + 1000)
    assert_eq(ml.merge(md.DataFrame(disjoint, chunk_size=3), on="k", how="inner"),
              left.merge(disjoint, on="k", how="inner"))


def test_merge_with_pandas_and_series_arguments(strategy):
    left, right = _frames(12, 8)
    ml = md.DataFrame(left, chunk_size=5)
    assert_eq(ml.merge(right, on="k"), left.merge(right, on="k"))
    named = right.set_index("k")["b"]
    assert_eq(md.merge(ml, md.Series(named, chunk_size=3), left_on="k", right_index=True, how="left"),
              pd.merge(left, named, left_on="k", right_index=True, how="left"))
    with pytest.raises(ValueError):
        md.merge(ml, md.Series(named.rename(None)), left_on="k", right_index=True)


def test_merge_validate(strategy):
    left = pd.DataFrame({"k": [1, 2, 3, 4, 5, 6], "a": range(6)})
    right = pd.DataFrame({"k": [1, 1, 2, 7], "b": range(4)})
    ml, mr = md.DataFrame(left, chunk_size=2), md.DataFrame(right, chunk_size=3)
    assert_eq(ml.merge(mr, on="k", validate="one_to_many"), left.merge(right, on="k", validate="one_to_many"))
    with pytest.raises(pd.errors.MergeError):
        _run(ml.merge(mr, on="k", validate="one_to_one"))
    with pytest.raises(pd.errors.MergeError):
        _run(ml.merge(mr, on="k", how="left", validate="many_to_one"))
    dup_left = pd.concat([left, left.iloc[[5]]], ignore_index=True)  # 6 twice, in different chunks
    with pytest.raises(pd.errors.MergeError):
        _run(md.DataFrame(dup_left, chunk_size=3).merge(md.DataFrame(right.iloc[1:], chunk_size=2),
                                                        on="k", validate="1:1"))
    unique = md.DataFrame(dup_left.iloc[:-1], chunk_size=3).merge(md.DataFrame(right.iloc[1:]), on="k",
                                                                   validate="1:1")
    assert_eq(unique, dup_left.iloc[:-1].merge(right.iloc[1:], on="k", validate="1:1"))


def test_merge_bad_arguments_raise_at_build_time():
    left, right = _frames(10, 10)
    ml, mr = md.DataFrame(left, chunk_size=4), md.DataFrame(right, chunk_size=4)
    with pytest.raises(KeyError):
        ml.merge(mr, on="missing")
    with pytest.raises(ValueError):
        ml.merge(mr, on="k", how="sideways")
    with pytest.raises(pd.errors.MergeError):
        ml.merge(mr, on="k", left_on="k")
    with pytest.raises(ValueError):
        ml.merge(mr, on="k", validate="sometimes")
    with pytest.raises(TypeError):
        md.merge(ml, [1, 2, 3])


def test_strategy_follows_sizes():
    left, right = _frames(60, 20)
    ml, mr = md.DataFrame(left, chunk_size=10), md.DataFrame(right, chunk_size=5)
    old = options.merge_broadcast_bytes
    try:
        options.merge_broadcast_bytes = 10**12
        assert not _uses(ml.merge(mr, on="k"), KeyShuffleMap)
        assert _uses(ml.merge(mr, on="k", how="outer"), KeyShuffleMap)  # pandas sorts outer keys
        options.merge_broadcast_bytes = 0
        assert _uses(ml.merge(mr, on="k"), KeyShuffleMap)
    finally:
        options.merge_broadcast_bytes = old


def test_merge_of_unknown_sizes(strategy):
    left, right = _frames(40, 30)
    ml, mr = md.DataFrame(left, chunk_size=7), md.DataFrame(right, chunk_size=6)
    fl, fr = ml[ml["a"] > 20], mr[mr["b"] > 0.3]
    el, er = left[left["a"] > 20], right[right["b"] > 0.3]
    for how in HOWS:
        assert_eq(fl.merge(fr, on="k", how=how), el.merge(er, on="k", how=how))


def test_merge_categorical_and_datetime_keys(strategy):
    rs = np.random.RandomState(6)
    dates = pd.date_range("2021-01-01", periods=6)
    left = pd.DataFrame({"d": rs.choice(dates, 25), "c": pd.Categorical(rs.choice(list("pqr"), 25)),
                         "a": np.arange(25)})
    right = pd.DataFrame({"d": dates[[2, 3, 3, 5, 4, 2, 5, 3]].append(pd.DatetimeIndex(["2022-01-01"])),
                          "c": pd.Categorical(list("pqsqppqsq")),
                          "b": np.arange(9)})
    ml, mr = md.DataFrame(left, chunk_size=6), md.DataFrame(right, chunk_size=4)
    for how in HOWS:
        assert_eq(ml.merge(mr, on="d", how=how), left.merge(right, on="d", how=how))
        assert_eq(ml.merge(mr[["c", "b"]], on="c", how=how), left.merge(right[["c", "b"]], on="c", how=how))


@pytest.mark.skipif(not PANDAS3, reason="anti joins are new in pandas 3")
@pytest.mark.parametrize("how", ["left_anti", "right_anti"])
def test_anti_joins_are_pandas_rows_labels_and_dtypes(strategy, how):
    """The unmatched rows of a left (right) join, labelled by their position in it; this was
    a NotImplementedError."""
    left, right = _frames(41, 29, seed=3)
    ml, mr = md.DataFrame(left, chunk_size=6), md.DataFrame(right, chunk_size=7)
    for kw in ({"on": "k"}, {"on": ["k", "k2"]}, {"on": "k", "sort": True}, {"on": "k", "indicator": True},
               {"left_on": "k", "right_on": "k", "suffixes": ("_l", "_r")}):
        assert_eq(ml.merge(mr, how=how, **kw), left.merge(right, how=how, **kw))
    indexed = right.set_index("k")[["b"]]
    assert_eq(ml.merge(md.DataFrame(indexed, chunk_size=5), left_on="k", right_index=True, how=how),
              left.merge(indexed, left_on="k", right_index=True, how=how))


@pytest.mark.skipif(PANDAS3, reason="pandas 2.2 has no anti joins")
def test_anti_joins_under_pandas22_raise_a_clear_error():
    left, right = _frames(10, 10)
    with pytest.raises(ValueError):
        md.DataFrame(left).merge(md.DataFrame(right), on="k", how="left_anti")


def test_merge_on_columns_of_indexed_frames_gets_a_range_index(strategy):
    left, right = _frames(21, 13, seed=8)
    left.index = [f"l{i}" for i in range(21)]
    right.index = pd.date_range("2020-01-01", periods=13)
    ml, mr = md.DataFrame(left, chunk_size=4), md.DataFrame(right, chunk_size=5)
    for how in HOWS:
        assert_eq(ml.merge(mr, on="k", how=how), left.merge(right, on="k", how=how))


def test_readers_under_a_merge_read_only_the_columns_used(tmp_path):
    import mars_on_ray as mr

    left, right = _frames(40, 25)
    left.to_parquet(tmp_path / "l.parquet")
    right.to_parquet(tmp_path / "r.parquet")
    ml, mr_ = md.read_parquet(str(tmp_path / "l.parquet")), md.read_parquet(str(tmp_path / "r.parquet"))
    out = ml.merge(mr_, on="k", how="left")[["a", "s_y"]]
    readers = mr.explain(out, show=False).nodes("md.read_parquet")
    assert sorted(sorted(r.op.columns) for r in readers) == [["a", "k", "s"], ["k", "s"]]
    assert_eq(out, left.merge(right, on="k", how="left")[["a", "s_y"]])


@pytest.mark.parametrize("how", ["left", "right", "outer", "inner"])
@pytest.mark.parametrize("sort", [False, True])
def test_join_a_list_of_frames_is_pandas(how, sort):
    """Unique indexes: pandas concatenates the columns (its rules differ between 2.2 and 3);
    a repeated label: a chain of merges. This was a NotImplementedError."""
    rs = np.random.RandomState(0)
    a = pd.DataFrame({"a": rs.rand(12)}, index=rs.permutation(12))
    b = pd.DataFrame({"b": rs.randint(0, 5, 9)}, index=rs.permutation(9) + 5)
    c = pd.DataFrame({"c": list("pqrstu")}, index=[0, 3, 30, 6, 2, 40])
    ma, mb, mc = (md.DataFrame(f, chunk_size=k) for f, k in ((a, 5), (b, 4), (c, 4)))
    try:
        expected = a.join([b, c], how=how, sort=sort)
    except ValueError:  # pandas 2.2 with how="right"
        with pytest.raises(ValueError):
            ma.join([mb, mc], how=how, sort=sort)
        return
    assert_eq(ma.join([mb, mc], how=how, sort=sort), expected)
    assert_eq((ma * 2).join([mb + 1, mc], how=how, sort=sort), (a * 2).join([b + 1, c], how=how, sort=sort))
    repeated = pd.DataFrame({"d": [1, 2, 3]}, index=[3, 3, 4])
    assert_eq(ma.join([mb, md.DataFrame(repeated, chunk_size=2)], how=how, sort=sort),
              a.join([b, repeated], how=how, sort=sort))


def test_join_a_list_bad_input_raises_pandas_errors():
    a = pd.DataFrame({"a": [1, 2]})
    ma = md.DataFrame(a)
    with pytest.raises(ValueError):
        ma.join([ma.rename(columns={"a": "b"})], on="a")
    with pytest.raises(ValueError):
        ma.join([ma.rename(columns={"a": "b"})], lsuffix="_l")
    with pytest.raises(ValueError, match="overlapping"):
        ma.join([ma])  # the same column twice


# --- broadcast joins by direct addressing (dataframe/direct_join.py) --------------------------

def _dense(n=53, m=31, seed=3, lo=-7):
    """Left keys partly outside the right's range; right keys unique in a dense range."""
    rs = np.random.RandomState(seed)
    left = pd.DataFrame({"a": rs.randint(0, 9, n), "k": rs.randint(lo - 5, lo + m + 5, n),
                         "s": rs.choice(["x", "y"], n)})
    right = pd.DataFrame({"k": rs.permutation(np.arange(lo, lo + m)), "b": rs.rand(m),
                          "i": rs.randint(0, 5, m), "t": rs.rand(m) > 0.5,
                          "s": rs.choice(["u", "v"], m)})
    return left, right


@pytest.mark.parametrize("how", ["inner", "left"])
def test_broadcast_join_of_dense_unique_int_keys_is_pandas(how):
    from mars_on_ray.dataframe.direct_join import direct_join

    left, right = _dense()
    expected = left.merge(right, on="k", how=how)
    kwargs = dict(how=how, on="k", left_on=None, right_on=None, left_index=False,
                  right_index=False, sort=False, suffixes=("_x", "_y"), indicator=False,
                  validate=None)
    direct = direct_join(left, right, kwargs, expected.columns)
    assert direct is not None  # the path these cases test
    old = options.merge_broadcast_bytes
    options.merge_broadcast_bytes = 10**12
    try:
        ml, mr = md.DataFrame(left, chunk_size=9), md.DataFrame(right, chunk_size=7)
        assert_eq(ml.merge(mr, on="k", how=how), expected)  # int / bool columns promoted on "left"
        assert_eq(ml.merge(mr, left_on="k", right_on="k", how=how, suffixes=("", "_r")),
                  left.merge(right, left_on="k", right_on="k", how=how, suffixes=("", "_r")))
        other = right.rename(columns={"k": "key"})
        assert_eq(ml.merge(md.DataFrame(other, chunk_size=5), left_on="k", right_on="key", how=how),
                  left.merge(other, left_on="k", right_on="key", how=how))
        narrow = left.astype({"k": "int32"})
        assert_eq(md.DataFrame(narrow, chunk_size=8).merge(mr, on="k", how=how),
                  narrow.merge(right, on="k", how=how))
        flt = ml[ml["a"] > 3]  # unknown extents, some chunks empty
        assert_eq(flt.merge(mr, on="k", how=how), left[left["a"] > 3].merge(right, on="k", how=how))
    finally:
        options.merge_broadcast_bytes = old


def test_direct_join_leaves_repeated_sparse_or_other_keys_to_pandas():
    from mars_on_ray.dataframe.direct_join import direct_join

    left, right = _dense()
    kwargs = dict(how="inner", on="k", left_on=None, right_on=None, left_index=False,
                  right_index=False, sort=False, suffixes=("_x", "_y"), indicator=False,
                  validate=None)
    columns = left.merge(right, on="k").columns
    repeated = pd.concat([right, right.iloc[:2]])
    sparse = right.assign(k=right["k"] * 10**6)
    floats = right.astype({"k": "float64"})
    nullable = right.astype({"k": "Int64"})
    for other in (repeated, sparse, floats, nullable, right.iloc[:0]):
        assert direct_join(left, other, kwargs, columns) is None
    assert direct_join(left, right, {**kwargs, "sort": True}, columns) is None
    assert direct_join(left, right, {**kwargs, "how": "outer"}, columns) is None
    old = options.merge_broadcast_bytes
    options.merge_broadcast_bytes = 10**12
    try:
        for other in (repeated, sparse):
            assert_eq(md.DataFrame(left, chunk_size=9).merge(md.DataFrame(other, chunk_size=7), on="k"),
                      left.merge(other, on="k"))
    finally:
        options.merge_broadcast_bytes = old


def test_left_merge_keeps_int_columns_when_every_row_matches():
    # pandas gives float64 only when some row finds no match: which sides have unmatched
    # rows is computed when the merge is built
    left = pd.DataFrame({"s": [f"k{i % 4}" for i in range(23)], "a": np.arange(23)})
    right = pd.DataFrame({"s": ["k0", "k1", "k2", "k3", "k9"], "b": [1, 2, 3, 4, 5]})
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=2)
    for how in ("left", "right", "outer", "inner"):
        for indicator in (True, False):
            assert_eq(ml.merge(mr, on="s", how=how, indicator=indicator),
                      left.merge(right, on="s", how=how, indicator=indicator))
            assert_eq(mr.merge(ml, on="s", how=how, indicator=indicator),
                      right.merge(left, on="s", how=how, indicator=indicator))
    flt = ml[ml["a"] > 4]
    assert_eq(flt.merge(mr, on="s", how="left"), left[left["a"] > 4].merge(right, on="s", how="left"))


_PD22_INDEX = pytest.mark.xfail(not PANDAS3, strict=True, reason=(
    "pandas 2.2: a right/outer join of a column to an index with unmatched right rows gives a "
    "float64 index; the declared index is int64 (known gap, stop 22)"))


@pytest.mark.parametrize("how", ["left", pytest.param("right", marks=_PD22_INDEX),
                                 pytest.param("outer", marks=_PD22_INDEX), "inner"])
def test_merge_on_a_column_and_a_range_index_keeps_int_columns_when_every_row_matches(how):
    rs = np.random.RandomState(0)
    left = pd.DataFrame({"k": rs.randint(0, 8, 23), "a": rs.randint(-5, 5, 23)}, index=[i % 7 for i in range(23)])
    for right in (pd.DataFrame({"c": range(8)}), pd.DataFrame({"c": range(3)}), pd.DataFrame({"c": range(20)})):
        ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=3)
        assert_eq(ml.join(mr, on="k", how=how), left.join(right, on="k", how=how))
        assert_eq(ml.merge(mr, left_on="k", right_index=True, how=how, indicator=True),
                  left.merge(right, left_on="k", right_index=True, how=how, indicator=True))
        kept = ml[ml["a"] > -3]
        assert_eq(kept.join(mr, on="k", how=how), left[left["a"] > -3].join(right, on="k", how=how))
