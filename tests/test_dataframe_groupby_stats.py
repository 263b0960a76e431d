"""GroupBy quantile, idxmax / idxmin, nth, ngroup, filter, pipe, describe, ohlc, rank and
rolling / expanding windows against pandas (2.2 and 3): 23 rows in chunks of 5, duplicate
labels, missing values and keys, keys that are columns, lists, Series and levels."""
import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import using
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.groupby import GroupByAgg
from mars_on_ray.dataframe.groupby_more import PANDAS3
from mars_on_ray.dataframe.groupby_stats import GroupByIdx
from mars_on_ray.testing import assert_eq

OPTIONS = [dict(sort=s, dropna=d, as_index=a) for s, d, a in itertools.product([True, False], repeat=3)]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 23
    frame = pd.DataFrame({"s": rs.choice(list("abc"), n), "k": rs.randint(0, 3, n),
                          "v": rs.rand(n), "w": rs.randint(0, 9, n)},
                         index=[f"r{i % 7}" for i in range(n)])  # duplicated labels
    frame.iloc[[2, 5], 2] = np.nan
    frame["kn"] = frame["k"].where(frame.index != "r3")  # missing keys
    return frame


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


def _check(m, p, f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        expected = f(p)
        assert_eq(f(m), expected)


@pytest.mark.parametrize("kw", OPTIONS)
def test_quantile_exact_per_group(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", **kw).quantile(0.3))
    _check(m, df, lambda d: d.groupby("kn", **kw)[["v", "w"]].quantile(0.3, interpolation="nearest"))
    if kw["as_index"] or PANDAS3:  # pandas 2.2 fails on a list of q with as_index=False
        _check(m, df, lambda d: d.groupby(["s", "k"], **kw)[["v", "w"]].quantile([0.7, 0.2]))
        _check(m, df, lambda d: d.groupby("s", **kw)["v"].quantile([0.7, 0.2]))
    else:
        with pytest.raises(ValueError):
            m.groupby(["s", "k"], **kw)[["v", "w"]].quantile([0.7, 0.2])


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_interpolations_and_series_keys(df, interpolation):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d["v"].groupby(d["s"]).quantile([0.1, 0.5], interpolation=interpolation))
    _check(m, df, lambda d: d[["v", "w"]].groupby(level=0, sort=False).quantile(0.9, interpolation=interpolation))
    assert_eq(m.groupby("s").median(), df.groupby("s").median(numeric_only=True))


def test_quantile_of_unknown_extents_and_empty(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m[m["w"] > 3], df[df["w"] > 3], lambda d: d.groupby("k")[["v", "w"]].quantile([0.25, 0.75]))
    _check(m[m["w"] > 100], df[df["w"] > 100], lambda d: d.groupby("k")[["v", "w"]].quantile(0.5))


def test_quantile_bad_q_raises_at_build(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(ValueError):
        m.groupby("s")[["v"]].quantile(1.5)
    with pytest.raises(TypeError):  # strings, as pandas
        m.groupby("k").quantile(0.5)


@pytest.mark.parametrize("kw", OPTIONS)
def test_idxmax_idxmin(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", **kw)[["v", "w"]].idxmax())
    _check(m, df, lambda d: d.groupby(["s", "k"], **kw)["v"].idxmin())
    _check(m, df, lambda d: d.groupby("kn", **kw)["w"].idxmax(skipna=False))


@pytest.mark.parametrize("tree", [True, False])
def test_idxmax_idxmin_combine_chunk_partials(tree):
    """Per-chunk partials combined by a tree, or shuffled when the groups are many; ties go
    to the first row; all-missing groups or skipna=False with missing values are pandas'
    ValueError (pandas 3) or NaN (pandas 2.2)."""
    rs = np.random.RandomState(1)
    n = 203
    df = pd.DataFrame({"g": rs.randint(0, 60, n), "s": rs.choice(list("abcdefgh"), n),
                       "v": rs.randint(0, 4, n).astype(float), "w": rs.randint(0, 3, n)},
                      index=[f"r{i % 17}" for i in range(n)])
    df.loc[df.g == 3, "v"] = np.nan
    df.iloc[::11, 2] = np.nan
    m = md.DataFrame(df, chunk_size=31)
    tiled = LocalExecutor().tile(m.groupby("g").idxmax().data)
    assert all(isinstance(c.op, GroupByIdx) for c in tiled.flat)
    with using({"groupby_tree_max_groups": 10**6 if tree else 2}):
        for sort, as_index, how in itertools.product([True, False], [True, False], ["idxmax", "idxmin"]):
            kw = dict(sort=sort, as_index=as_index)
            _check(m, df, lambda d: getattr(d.groupby("g", **kw)[["w"]], how)())
            _check(m, df, lambda d: getattr(d.groupby(["s", "w"], **kw)["w"], how)(skipna=False))
            _check(m, df, lambda d: getattr(d[d.g != 3].groupby("s", **kw)["v"], how)())
            for f in (lambda d: getattr(d.groupby("g", **kw)["v"], how)(),
                      lambda d: getattr(d[d.g != 3].groupby("g", **kw)[["v", "w"]], how)(skipna=False)):
                if PANDAS3:
                    with pytest.raises(ValueError):
                        _value(f(m))
                else:
                    _check(m, df, f)


def test_idxmax_of_dates_bools_and_categorical_keys():
    rs = np.random.RandomState(0)
    n = 23
    df = pd.DataFrame({"s": rs.choice(list("abc"), n), "b": rs.rand(n) > .5, "v": rs.rand(n),
                       "t": pd.date_range("2020", periods=n, freq="h")[rs.permutation(n)]},
                      index=[f"r{i % 7}" for i in range(n)])
    df["c"] = df["s"].astype("category")
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s")[["t", "b", "v"]].idxmax())
    _check(m, df, lambda d: d.groupby("s", sort=False)[["t", "b"]].idxmin())
    _check(m, df, lambda d: d.groupby("c", observed=True)[["v"]].idxmin())
    _check(m, df, lambda d: d.groupby("c", observed=False)[["v"]].quantile(.2))


@pytest.mark.parametrize("kw", OPTIONS)
def test_nth_filters_rows_in_original_order(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("kn", **kw).nth(1))
    _check(m, df, lambda d: d.groupby("s", **kw)["v"].nth([0, -1]))
    _check(m, df, lambda d: d.groupby(["s", "k"], **kw).nth(slice(1, -1)))
    _check(m, df, lambda d: d.groupby("s", **kw).nth(-2))


def test_nth_on_level_and_series_keys(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby(level=0).nth(0))
    _check(m, df, lambda d: d["v"].groupby(d["k"]).nth([1, 2]))
    _check(m[m["w"] > 3], df[df["w"] > 3], lambda d: d.groupby("s").nth(0))


@pytest.mark.parametrize("kw", OPTIONS)
def test_ngroup(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", **kw).ngroup())
    _check(m, df, lambda d: d.groupby(["s", "k"], **kw).ngroup(ascending=False))
    _check(m, df, lambda d: d["v"].groupby(d["s"], sort=kw["sort"], dropna=kw["dropna"]).ngroup())
    if not kw["dropna"]:  # every row has a group
        _check(m, df, lambda d: d.groupby("kn", **kw).ngroup())


def test_ngroup_and_cumcount_with_missing_keys_are_float_only_when_a_key_is_missing(df):
    m = md.DataFrame(df, chunk_size=5)
    for kw in ({}, {"sort": False}):
        _check(m, df, lambda d: d.groupby("kn", **kw).ngroup())  # float64: NaN for r3's rows
        _check(m, df, lambda d: d.groupby("kn", **kw).ngroup(ascending=False))
        _check(m, df, lambda d: d.groupby("kn", **kw).cumcount())
        _check(m, df, lambda d: d.groupby(["s", "kn"], **kw)["w"].cumcount())
    kept = m[m["kn"].notna()]  # a float key with no missing value: int64
    _check(kept, df[df["kn"].notna()], lambda d: d.groupby("kn").ngroup())
    _check(kept, df[df["kn"].notna()], lambda d: d.groupby("kn").cumcount())


def test_rowwise_methods_with_missing_keys_take_pandas_dtypes(df):
    m = md.DataFrame(df.assign(t=df["w"] > 4), chunk_size=5)
    p = df.assign(t=df["w"] > 4)
    for how, args in (("cumsum", ()), ("cummax", ()), ("transform", ("sum",)), ("ffill", ()), ("shift", ())):
        _check(m, p, lambda d: getattr(d.groupby("kn")[["w", "t"]], how)(*args))
        _check(m, p, lambda d: getattr(d.groupby("kn")["w"], how)(*args))
        _check(m, p, lambda d: getattr(d.groupby("kn", dropna=False)["w"], how)(*args))


def test_cumcount_and_median_exist(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", sort=False).cumcount(ascending=False))


@pytest.mark.parametrize("kw", OPTIONS)
def test_filter_keeps_original_order_and_index(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("kn", **kw).filter(lambda g: g["v"].sum() > 2))
    _check(m, df, lambda d: d.groupby("s", **kw)["w"].filter(lambda g: g.sum() > 30))
    _check(m, df, lambda d: d.groupby("s", **kw)[["v"]].filter(lambda g, x: len(g) > x, x=7))


def test_filter_dropna_false_masks_the_other_groups(df):
    m = md.DataFrame(df[["s", "v"]], chunk_size=5)
    _check(m, df[["s", "v"]], lambda d: d.groupby("s").filter(lambda g: len(g) > 7, dropna=False))


@pytest.mark.parametrize("size", [0, 3, 100], ids=["every group kept", "some kept", "none kept"])
def test_filter_dropna_false_keeps_int_dtypes_only_when_every_row_is_kept(df, size):
    p = df.assign(t=df["w"] > 4)
    m = md.DataFrame(p, chunk_size=5)
    _check(m, p, lambda d: d.groupby("s").filter(lambda g: len(g) > size, dropna=False))
    _check(m, p, lambda d: d.groupby("s")["w"].filter(lambda g: len(g) > size, dropna=False))
    _check(m, p, lambda d: d.groupby("kn").filter(lambda g: len(g) > size, dropna=False))  # r3: no group
    _check(m[m["w"] > 2], p[p["w"] > 2], lambda d: d.groupby("s").filter(lambda g: len(g) > size, dropna=False))


def test_pipe(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s")[["v", "w"]].pipe(lambda g, x: g.sum() + x, 1))
    _check(m, df, lambda d: d.groupby("s")["v"].pipe((lambda a, gb: gb.max() * a, "gb"), 2))
    with pytest.raises(ValueError):
        m.groupby("s").pipe((lambda gb: gb, "gb"), gb=1)


@pytest.mark.parametrize("kw", OPTIONS)
def test_describe(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", **kw).describe())
    _check(m, df, lambda d: d.groupby(["kn"], **kw)["v"].describe(percentiles=[0.1, 0.9]))


@pytest.mark.parametrize("kw", OPTIONS)
def test_ohlc(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby("s", **kw)["v"].ohlc())
    _check(m, df, lambda d: d.groupby(["kn"], **kw)[["v", "w"]].ohlc())


def test_ohlc_combines_partials(df):
    m = md.DataFrame(df, chunk_size=5)
    tiled = LocalExecutor().tile(m.groupby("s")["v"].ohlc().data)
    assert all(isinstance(c.op, GroupByAgg) for c in tiled.flat)
    with pytest.raises(pd.errors.DataError):  # no numeric values, as pandas
        m.groupby("k")["s"].ohlc()


@pytest.mark.parametrize("sort,dropna", itertools.product([True, False], repeat=2))
def test_rank_options(df, sort, dropna):
    m = md.DataFrame(df, chunk_size=5)
    for method, ascending, na_option, pct in itertools.product(
            ["average", "min", "max", "first", "dense"], [True, False], ["keep", "top", "bottom"], [False, True]):
        kw = dict(method=method, ascending=ascending, na_option=na_option, pct=pct)
        if method in ("first", "dense") or na_option == "top":  # a sample of the combinations
            _check(m, df, lambda d: d.groupby("kn", sort=sort, dropna=dropna)[["v", "w"]].rank(**kw))
    _check(m, df, lambda d: d.groupby(["s", "k"], sort=sort, dropna=dropna)["v"].rank(pct=True))


APPLIED = {  # pandas' result for as_index=False depends on what the function returns
    "scalar": lambda d, kw: d.groupby(["kn", "s"], **kw).apply(lambda x: x.v.sum()),
    "aggregating series": lambda d, kw: d.groupby("kn", **kw)[["v", "w"]].apply(
        lambda x: pd.Series({"a": x.v.sum(), "b": x.w.max()})),
    "frame rows": lambda d, kw: d.groupby("s", **kw)[["v", "w"]].apply(lambda x: x.head(2)),
    "frame of every row": lambda d, kw: d.groupby(["s", "k"], **kw)[["v", "w"]].apply(lambda x: x + 1),
    "series of rows": lambda d, kw: d.groupby("s", **kw)[["v", "w"]].apply(lambda x: x.v * 2),
    "selected scalar": lambda d, kw: d.groupby("s", **kw)["v"].apply(lambda x: x.sum()),
    "selected rows": lambda d, kw: d.groupby("kn", **kw)["v"].apply(lambda x: x.cumsum()),
}


@pytest.mark.parametrize("sort,dropna", itertools.product([True, False], repeat=2))
@pytest.mark.parametrize("result", list(APPLIED))
def test_apply_as_index_false(df, sort, dropna, result):
    m = md.DataFrame(df, chunk_size=5)
    kw = dict(sort=sort, dropna=dropna, as_index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pandas 2.2: apply on the keys
        _check(m, df, lambda d: APPLIED[result](d, kw))


@pytest.mark.parametrize("sort", [True, False])
def test_apply_series_of_rows_is_a_series_even_when_a_reducer_has_one_group(sort):
    """pandas stacks the Series results of groups indexed alike (one group, or a one-row
    sample) into a frame; with groups indexed differently they are one Series."""
    df = pd.DataFrame({"s": list("abcabcd"), "v": np.arange(7.0)}, index=list("xxyzzyw"))
    m = md.DataFrame(df, chunk_size=2)
    _check(m, df, lambda d: d.groupby("s", sort=sort)[["v"]].apply(lambda x: x.v * 2))


def _agg(x):
    return x["v"].sum()


def _rows(x):
    return x.head(2)


def _stats(x):
    return pd.Series({"m": x["v"].max(), "n": len(x)})


@pytest.mark.parametrize("func", [_agg, _rows, _stats], ids=lambda f: f.__name__)
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("keys", ["series", "unnamed", "level", "mixed", "function"])
def test_apply_as_index_false_by_keys_that_are_not_columns(df, func, sort, keys):
    """Was a NotImplementedError: pandas 3 inserts every key as a column of a result row per
    group; pandas 2.2 only the keys that are columns. Rows of a group's own lose the key
    levels (pandas 3) or get the group's number (2.2)."""
    m = md.DataFrame(df, chunk_size=5)
    by = {"series": lambda d: {"by": d["k"] * 2}, "unnamed": lambda d: {"by": (d["k"] * 2).rename(None)},
          "level": lambda d: {"level": 0}, "mixed": lambda d: {"by": [d["k"].rename("kk"), "s"]},
          "function": lambda d: {"by": str.upper}}[keys]
    _check(m, df, lambda d: d.groupby(as_index=False, sort=sort, **by(d)).apply(func))
    flt, expected = m[m["w"] > 2], df[df["w"] > 2]  # unknown chunk extents
    _check(flt, expected, lambda d: d.groupby(as_index=False, sort=sort, **by(d)).apply(func))


def test_apply_as_index_false_with_a_column_selection_by_series_keys(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d.groupby(d["k"] * 2, as_index=False)[["v"]].apply(lambda x: x.v * 2))
    _check(m, df, lambda d: d.groupby(d["k"] * 2, as_index=False)["v"].apply(lambda x: x.sum()))
    _check(m, df, lambda d: d.groupby(level=0, as_index=False).apply(lambda x: x.v.sum()))


WINDOWS = ["sum", "mean", "min", "max", "count", "std", "var"]


@pytest.mark.parametrize("kw", OPTIONS)
def test_rolling_and_expanding(df, kw):
    m = md.DataFrame(df, chunk_size=5)
    for how in WINDOWS:
        _check(m, df, lambda d: getattr(d.groupby("s", **kw)[["v", "w"]].rolling(3, min_periods=2), how)())
    if PANDAS3 or kw["sort"]:  # pandas 2.2 orders several keys' windows by each key's own order
        for how in WINDOWS:
            _check(m, df, lambda d: getattr(d.groupby(["kn", "s"], **kw)["v"].expanding(), how)())
    _check(m, df, lambda d: d.groupby("s", **kw).rolling(2).sum())


def test_windows_by_level_and_unknown_extents(df):
    m = md.DataFrame(df, chunk_size=5)
    _check(m, df, lambda d: d[["v"]].groupby(level=0).rolling(2).mean())
    _check(m[m["w"] > 3], df[df["w"] > 3], lambda d: d.groupby("k")["v"].expanding(2).sum())
    with pytest.raises(ValueError):
        m.groupby("s").rolling(-1)
    with pytest.raises(NotImplementedError):
        m.groupby("s").rolling("2s")
    with pytest.raises(AttributeError):
        m.groupby("s").rolling(2).foo()


def test_bad_arguments_raise_pandas_errors_at_build(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(TypeError):
        m.groupby("s").nth("x")
    with pytest.raises(TypeError):  # not a bool
        m.groupby("s").filter(lambda g: g.v)
    with pytest.raises(KeyError):
        m.groupby("s")[["v"]].quantile(0.5, interpolation="bad")
    with pytest.raises(ValueError):
        m.groupby("s").expanding(-1)
