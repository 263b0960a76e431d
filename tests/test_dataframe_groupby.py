"""groupby aggregations against pandas, with both the tree and the shuffle strategy."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options, using
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.shuffle import hash_partition
from mars_on_ray.dataframe.groupby import ShuffleMap
from mars_on_ray.testing import assert_eq

PANDAS3 = int(pd.__version__.split(".")[0]) >= 3


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 101
    frame = pd.DataFrame({"k": rs.randint(0, 7, n), "k2": rs.choice(list("xyz"), n),
                          "v": rs.randint(0, 100, n), "w": rs.rand(n), "b": rs.rand(n) > 0.5})
    frame.loc[[3, 50], "w"] = np.nan
    return frame


@pytest.fixture(params=["tree", "shuffle"])
def strategy(request):
    old = options.groupby_tree_max_groups
    options.groupby_tree_max_groups = 10**9 if request.param == "tree" else 0
    yield request.param
    options.groupby_tree_max_groups = old


def _uses_shuffle(obj) -> bool:
    tiled = LocalExecutor().tile(obj.data)
    seen, stack = set(), list(tiled.flat)
    while stack:
        c = stack.pop()
        if isinstance(getattr(c.op, "inner", c.op), ShuffleMap):  # core/exchange.Packed wraps mappers
            return True
        for i in c.inputs:
            if i.key not in seen:
                seen.add(i.key)
                stack.append(i)
    return False


NUMERIC = ["k", "v", "w", "b"]


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("how", ["sum", "mean", "count", "min", "max", "size", "prod", "first", "last"])
def test_groupby_methods(df, strategy, sort, how):
    cols = NUMERIC if how in ("mean", "prod") else list(df.columns)
    m = md.DataFrame(df[cols], chunk_size=13)
    assert_eq(getattr(m.groupby("k", sort=sort), how)(), getattr(df[cols].groupby("k", sort=sort), how)())
    assert_eq(getattr(m.groupby("k", sort=sort)["w"], how)(), getattr(df[cols].groupby("k", sort=sort)["w"], how)())


def test_strategy_is_chosen_from_partial_sizes(df, strategy):
    m = md.DataFrame(df, chunk_size=13)
    assert _uses_shuffle(m.groupby("k").sum()) == (strategy == "shuffle")


def test_multiple_keys_and_selection(df, strategy):
    m = md.DataFrame(df, chunk_size=12)
    assert_eq(m.groupby(["k", "k2"])["v"].sum(), df.groupby(["k", "k2"])["v"].sum())
    assert_eq(m.groupby(["k2", "k"], sort=False)[["v", "w"]].mean(),
              df.groupby(["k2", "k"], sort=False)[["v", "w"]].mean())
    assert_eq(m.groupby("k").v.max(), df.groupby("k").v.max())


def test_as_index_false(df, strategy):
    m = md.DataFrame(df, chunk_size=12)
    assert_eq(m.groupby("k", as_index=False)[["v", "w"]].sum(), df.groupby("k", as_index=False)[["v", "w"]].sum())
    assert_eq(m.groupby("k2", as_index=False)["v"].mean(), df.groupby("k2", as_index=False)["v"].mean())
    assert_eq(m.groupby(["k", "k2"], as_index=False).size(), df.groupby(["k", "k2"], as_index=False).size())


def test_agg_list_dict_named(df, strategy):
    m = md.DataFrame(df[["k", "k2", "v", "w"]], chunk_size=9)
    p = df[["k", "k2", "v", "w"]]
    assert_eq(m[["k", "v", "w"]].groupby("k").agg(["sum", "mean", "count"]),
              p[["k", "v", "w"]].groupby("k").agg(["sum", "mean", "count"]))
    assert_eq(m.groupby("k").agg({"v": "sum", "w": ["min", "mean"]}),
              p.groupby("k").agg({"v": "sum", "w": ["min", "mean"]}))
    assert_eq(m.groupby("k2").agg({"v": "max", "w": "mean"}), p.groupby("k2").agg({"v": "max", "w": "mean"}))
    assert_eq(m.groupby("k2").aggregate(tot=("v", "sum"), avg=("w", "mean")),
              p.groupby("k2").aggregate(tot=("v", "sum"), avg=("w", "mean")))
    assert_eq(m.groupby("k2")["v"].agg(["sum", "max"]), p.groupby("k2")["v"].agg(["sum", "max"]))
    assert_eq(m.groupby("k2")["v"].agg("mean"), p.groupby("k2")["v"].agg("mean"))
    assert_eq(m[["k2", "v"]].groupby("k2", as_index=False).agg(["sum", "max"]),
              p[["k2", "v"]].groupby("k2", as_index=False).agg(["sum", "max"]))


def test_string_values_and_keys(df, strategy):
    m = md.DataFrame(df, chunk_size=10)
    assert_eq(m.groupby("k")["k2"].sum(), df.groupby("k")["k2"].sum())
    assert_eq(m.groupby("k")["k2"].min(), df.groupby("k")["k2"].min())
    assert_eq(m.groupby("k2").count(), df.groupby("k2").count())


@pytest.mark.parametrize("sort", [True, False])
def test_missing_keys_dropna(strategy, sort):
    pdf = pd.DataFrame({"k": [1.0, np.nan, 2.0, 1.0, np.nan, 3.0, 2.0] * 5, "v": np.arange(35)})
    m = md.DataFrame(pdf, chunk_size=4)
    assert_eq(m.groupby("k", sort=sort).sum(), pdf.groupby("k", sort=sort).sum())
    assert_eq(m.groupby("k", dropna=False, sort=sort).sum(), pdf.groupby("k", dropna=False, sort=sort).sum())
    assert_eq(m.groupby("k", dropna=False, sort=sort)["v"].mean(),
              pdf.groupby("k", dropna=False, sort=sort)["v"].mean())


def test_many_groups_shuffle_matches_pandas():
    rs = np.random.RandomState(3)
    pdf = pd.DataFrame({"k": rs.randint(0, 5000, 20000), "v": rs.rand(20000)})
    old = options.groupby_tree_max_groups
    options.groupby_tree_max_groups = 1000
    try:
        m = md.DataFrame(pdf, chunk_size=3000)
        result = m.groupby("k").agg(["sum", "mean", "count"])
        assert _uses_shuffle(result)
        assert_eq(result, pdf.groupby("k").agg(["sum", "mean", "count"]))
    finally:
        options.groupby_tree_max_groups = old


def test_single_chunk(df):
    m = md.DataFrame(df, chunk_size=1000)
    assert_eq(m.groupby("k2").sum(), df.groupby("k2").sum())


def test_groupby_after_filter_and_arithmetic(df, strategy):
    m = md.DataFrame(df, chunk_size=11)
    flt = m[m["v"] > 40]
    expected = df[df["v"] > 40]
    assert_eq(flt.groupby("k")["w"].mean(), expected.groupby("k")["w"].mean())


def test_fused_and_unfused_agree(df):
    old = options.groupby_tree_max_groups
    options.groupby_tree_max_groups = 0
    try:
        m = md.DataFrame(df, chunk_size=10)
        expr = m[m["v"] > 10].groupby("k2")["w"].mean()
        fused, unfused = LocalExecutor(), LocalExecutor(fusion=False)
        a, b = fused.compute(expr.data)[0], unfused.compute(expr.data)[0]
        pd.testing.assert_series_equal(a, b)
        pd.testing.assert_series_equal(a, df[df["v"] > 10].groupby("k2")["w"].mean())
        assert fused.subtask_count < unfused.subtask_count
    finally:
        options.groupby_tree_max_groups = old


def test_groupby_errors_at_build_time(df):
    m = md.DataFrame(df, chunk_size=10)
    with pytest.raises(KeyError):
        m.groupby("missing")
    with pytest.raises(KeyError):
        m.groupby("k")["missing"]
    with pytest.raises(TypeError):
        df.groupby("k").mean()
    with pytest.raises(TypeError):
        m.groupby("k").mean()  # a string column
    with pytest.raises(AttributeError):
        df.groupby("k").agg("no_such_agg")
    with pytest.raises(AttributeError):
        m.groupby("k").agg("no_such_agg")


def test_hash_partition_is_stable_and_complete():
    pdf = pd.DataFrame({"v": range(100)}, index=pd.Index(np.arange(100) % 17, name="k"))
    parts = hash_partition(pdf, 4)
    assert sum(len(p) for p in parts) == 100
    for p in parts:
        assert p["v"].is_monotonic_increasing
    keys = [set(p.index) for p in parts]
    assert all(not (a & b) for i, a in enumerate(keys) for b in keys[i + 1:])
    again = hash_partition(pdf.iloc[::-1], 4)
    assert [set(p.index) for p in again] == keys


def test_groupby_by_series(df, strategy):
    m = md.DataFrame(df[["k", "v", "w"]], chunk_size=7)
    p = df[["k", "v", "w"]]
    assert_eq(m.groupby(m["k"]).sum(), p.groupby(p["k"]).sum())
    assert_eq(m.groupby(m["k"] + 1).sum(), p.groupby(p["k"] + 1).sum())
    assert_eq(m["v"].groupby(m["k"]).sum(), p["v"].groupby(p["k"]).sum())
    assert_eq(m["w"].groupby(m["k"] % 2).agg(["sum", "mean"]), p["w"].groupby(p["k"] % 2).agg(["sum", "mean"]))
    assert_eq(m[["v", "w"]].groupby(m["k"] > 2, sort=False).mean(), p[["v", "w"]].groupby(p["k"] > 2, sort=False).mean())
    assert_eq(m["v"].groupby(m["k"]).size(), p["v"].groupby(p["k"]).size())
    values, keys = md.Series(p.v.values, chunk_size=6), md.Series(p.k.values, chunk_size=9)
    assert_eq(values.groupby(keys).max(), pd.Series(p.v.values).groupby(pd.Series(p.k.values)).max())


def spread(x):
    return x.max() - x.min()


@pytest.mark.parametrize("sort", [True, False])
def test_other_aggregations_shuffle_rows_to_pandas(df, sort):
    num = df[["k", "v", "w"]]
    m = md.DataFrame(num, chunk_size=13)
    for how in ("median", "var", "std", "nunique", "sem"):
        assert_eq(getattr(m.groupby("k", sort=sort), how)(), getattr(num.groupby("k", sort=sort), how)())
        assert_eq(getattr(m.groupby("k", sort=sort)["w"], how)(), getattr(num.groupby("k", sort=sort)["w"], how)())
    assert_eq(m.groupby("k", sort=sort).std(ddof=0), num.groupby("k", sort=sort).std(ddof=0))
    assert_eq(m.groupby("k", sort=sort).agg(["median", "sum"]), num.groupby("k", sort=sort).agg(["median", "sum"]))
    assert_eq(m.groupby("k", sort=sort, as_index=False).agg({"v": "nunique", "w": ["var", "max"]}),
              num.groupby("k", sort=sort, as_index=False).agg({"v": "nunique", "w": ["var", "max"]}))
    assert_eq(m.groupby("k", sort=sort).sum(min_count=3), num.groupby("k", sort=sort).sum(min_count=3))
    assert_eq(m["w"].groupby(m["v"] % 3, sort=sort).median(), num["w"].groupby(num["v"] % 3, sort=sort).median())
    full = md.DataFrame(df, chunk_size=13)
    assert_eq(full.groupby(["k2", "k"], sort=sort, dropna=False)["w"].agg(spread),
              df.groupby(["k2", "k"], sort=sort, dropna=False)["w"].agg(spread))


def test_sorted_shuffle_keeps_one_chunk_per_key_range(df):
    old = options.groupby_tree_max_groups
    options.groupby_tree_max_groups = 0
    try:
        m = md.DataFrame(df, chunk_size=13)
        for result, expected in [(m.groupby("k").sum(), df.groupby("k").sum()),
                                 (m.groupby("k2")["v"].max(), df.groupby("k2")["v"].max()),
                                 (m.groupby("w", as_index=False)["v"].sum(), df.groupby("w", as_index=False)["v"].sum()),
                                 (m.groupby("w", dropna=False)["v"].sum(), df.groupby("w", dropna=False)["v"].sum())]:
            tiled = LocalExecutor().tile(result.data)
            assert tiled.chunks.shape[0] == 8
            assert_eq(result, expected)
        median = m.groupby("k2", as_index=False)["w"].median()
        assert LocalExecutor().tile(median.data).chunks.shape[0] == 8
        assert_eq(median, df.groupby("k2", as_index=False)["w"].median())
        unsorted = m.groupby("k", sort=False).sum()
        assert LocalExecutor().tile(unsorted.data).chunks.shape[0] == 8  # ranges of first appearance
        assert_eq(unsorted, df.groupby("k", sort=False).sum())
    finally:
        options.groupby_tree_max_groups = old


@pytest.mark.parametrize("as_index", [True, False])
@pytest.mark.parametrize("by,sort", [("k", False), (["s", "k"], False), (["s", "k"], True)])
def test_unsorted_groupby_with_many_groups_is_not_gathered_into_one_chunk(by, sort, as_index):
    # regression: sort=False (or keys that do not range-partition as one column) hash-shuffled
    # the groups, then concatenated every reducer into one chunk to put them in pandas' order
    rs = np.random.RandomState(5)
    n = 20_000
    k = rs.randint(0, 5000, n).astype(float)
    k[rs.rand(n) < 0.05] = np.nan
    pdf = pd.DataFrame({"k": k, "s": rs.randint(0, 40, n).astype(str), "v": rs.rand(n),
                        "t": rs.randint(0, 9, n).astype(str)})
    with using({"groupby_tree_max_groups": 100}):
        m = md.DataFrame(pdf, chunk_size=2999)
        for dropna in (True, False):
            for func in ({"v": ["sum", "mean"], "t": "last"}, {"v": "median", "t": "nunique"}):
                result = m.groupby(by, sort=sort, as_index=as_index, dropna=dropna).agg(func)
                assert LocalExecutor().tile(result.data).chunks.shape[0] > 1
                assert_eq(result, pdf.groupby(by, sort=sort, as_index=as_index, dropna=dropna).agg(func))


def test_hash_shuffle_of_groups_with_missing_values_in_several_keys():
    # regression: pandas' hash of a MultiIndex with a missing level value raises
    # "Categorical categories cannot be null"
    keys = pd.MultiIndex.from_arrays([["a", "b", "a"], [1.0, np.nan, 3.0]])
    assert len(hash_partition(pd.Series([1, 2, 3], index=keys), 4)) == 4
    pdf = pd.DataFrame({"a": ["x", "y", None, "x"] * 50, "b": [1.0, np.nan, 2.0, np.nan] * 50,
                        "v": np.arange(200.0)})
    with using({"groupby_tree_max_groups": 0}):
        m = md.DataFrame(pdf, chunk_size=37)
        for sort in (True, False):
            # pandas 2.2: a block of groups whose text key is only None has a float64 level
            assert_eq(m.groupby(["a", "b"], dropna=False, sort=sort)["v"].first(),
                      pdf.groupby(["a", "b"], dropna=False, sort=sort)["v"].first(),
                      check_index_meta=PANDAS3)


@pytest.mark.parametrize("observed", [True, False])
def test_categorical_keys_through_a_shuffle_list_each_category_once(observed):
    # regression: with observed=False every reducer of the shuffle listed the unobserved
    # categories, so the result repeated them (and as_index=False on several keys failed)
    rs = np.random.RandomState(2)
    n = 3000
    cats = pd.Categorical(rs.choice(list("qwertyuiop"), n), categories=list("zyxwvutsrqponmlkjihgfedcba"))
    pdf = pd.DataFrame({"c": cats, "k": rs.randint(0, 300, n), "v": rs.rand(n),
                        "d": pd.to_datetime(rs.randint(0, 50, n), unit="D")})
    with using({"groupby_tree_max_groups": 0}):
        m = md.DataFrame(pdf, chunk_size=333)
        assert_eq(m.groupby("c", observed=observed).v.sum(), pdf.groupby("c", observed=observed).v.sum())
        assert_eq(m.groupby(["c", "k"], observed=observed).v.median(),
                  pdf.groupby(["c", "k"], observed=observed).v.median())
        assert_eq(m.groupby(["k", "c"], observed=observed, as_index=False).v.mean(),
                  pdf.groupby(["k", "c"], observed=observed, as_index=False).v.mean())
        assert_eq(m.groupby(["d", "k"]).v.max(), pdf.groupby(["d", "k"]).v.max())


def test_groupby_by_a_differently_indexed_series_aligns_it_by_label():
    # was a NotImplementedError: pandas reindexes the key to the grouped object's labels
    rs = np.random.RandomState(0)
    pdf = pd.DataFrame({"v": np.arange(60.0), "w": np.arange(60) % 7}, index=rs.permutation(60))
    key = pd.Series(np.random.RandomState(1).choice(list("abc"), 50), index=np.arange(5, 55))
    m, mk = md.DataFrame(pdf, chunk_size=7), md.Series(key, chunk_size=11)
    assert_eq(m.groupby(mk).v.sum(), pdf.groupby(key).v.sum())
    assert_eq(m.groupby(mk, dropna=False).sum(), pdf.groupby(key, dropna=False).sum())
    assert_eq(m.v.groupby(mk, sort=False).mean(), pdf.v.groupby(key, sort=False).mean())
    repeated = pd.Series(["a", "b"] * 30, index=[0, 0] * 30)
    with pytest.raises(ValueError, match="duplicate labels"):
        pdf.groupby(repeated)
    with pytest.raises(ValueError, match="duplicate labels"):
        LocalExecutor().compute(m.groupby(md.Series(repeated, chunk_size=9)).v.sum().data)


@pytest.mark.filterwarnings("ignore:A grouping was used that is not in the columns:FutureWarning")
@pytest.mark.parametrize("name", ["g", None, "v"])
def test_groupby_by_a_series_with_as_index_false(name, strategy):
    # was a NotImplementedError; pandas inserts the key as a column unless it leaves it out
    # (named like a result column, or under pandas 2.2 not among the grouped columns)
    pdf = pd.DataFrame({"v": np.arange(120.0), "w": np.arange(120) % 5})
    key = pd.Series(np.arange(120) % 13, name=name)
    m, mk = md.DataFrame(pdf, chunk_size=17), md.Series(key, chunk_size=17)
    for sort in (True, False):
        assert_eq(m.groupby(mk, as_index=False, sort=sort).v.sum(), pdf.groupby(key, as_index=False, sort=sort).v.sum())
        assert_eq(m.groupby(mk, as_index=False, sort=sort).agg({"v": "sum", "w": "median"}),
                  pdf.groupby(key, as_index=False, sort=sort).agg({"v": "sum", "w": "median"}))
        assert_eq(m.groupby(mk, as_index=False, sort=sort).agg({"w": "max"}),
                  pdf.groupby(key, as_index=False, sort=sort).agg({"w": "max"}))
