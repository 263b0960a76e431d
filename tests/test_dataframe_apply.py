"""User functions against pandas: apply (axis 0 and 1), Series.apply / map, transform, agg,
CustomReduction, map_chunk.

Chunk sizes do not divide the data; indexes are non-default; axis=0 runs on whole columns
through a column-group shuffle (checked to stay split).
"""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 23), "b": rs.rand(23), "c": rs.rand(23) > 0.5,
                          "s": [f"x{i % 4}" for i in range(23)], "n": np.nan},
                         index=[f"r{i:02d}" for i in range(23)])
    frame.loc[["r03", "r17"], "b"] = np.nan
    return frame


@pytest.fixture
def num(df):
    return df[["a", "b", "n"]]


# -- DataFrame.apply axis=1 -------------------------------------------------------------------
ROW_FUNCS = [lambda r: r["a"] + r["b"], lambda r: r["s"] * 2, lambda r: len(r),
             lambda r: pd.Series({"x": r["a"] * 2, "y": r["s"]}), lambda r: r["c"]]


@pytest.mark.parametrize("func", ROW_FUNCS)
def test_apply_rows(df, func):
    assert_eq(md.DataFrame(df, chunk_size=4).apply(func, axis=1), df.apply(func, axis=1))


@pytest.mark.parametrize("result_type", [None, "reduce", "expand", "broadcast"])
def test_apply_rows_result_types(num, result_type):
    m = md.DataFrame(num, chunk_size=5)

    def func(r):
        return [r["a"], r["a"] * 2, r["b"]]
    assert_eq(m.apply(func, axis=1, result_type=result_type),
              num.apply(func, axis=1, result_type=result_type))


def test_apply_rows_raw_args_kwargs(num):
    m = md.DataFrame(num, chunk_size=6)

    def func(row, k, scale=1):
        return row.sum() * scale + k
    assert_eq(m.apply(func, axis=1, raw=True, args=(3,), scale=2),
              num.apply(func, axis=1, raw=True, args=(3,), scale=2))
    assert_eq(m.apply(func, axis="columns", args=(1,)), num.apply(func, axis="columns", args=(1,)))


# -- DataFrame.apply axis=0 (whole columns) ---------------------------------------------------------
COL_FUNCS = [lambda c: c.sum(), lambda c: c.count(), lambda c: c - c.mean(), lambda c: c.cumsum(),
             lambda c: c.sort_values(), lambda c: c.dropna(), lambda c: c.describe(),
             lambda c: c.iloc[::-1].reset_index(drop=True), np.sqrt, "sum", ["sum", "max"]]


@pytest.mark.parametrize("func", COL_FUNCS)
@pytest.mark.parametrize("chunk_size", [4, 7, 30])
def test_apply_columns(num, func, chunk_size):
    assert_eq(md.DataFrame(num, chunk_size=chunk_size).apply(func), num.apply(func))


def test_apply_columns_mixed_dtypes(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.apply(lambda c: c.iloc[0]), df.apply(lambda c: c.iloc[0]))
    assert_eq(m.apply(lambda c: c.astype(str)), df.apply(lambda c: c.astype(str)))
    assert_eq(m.apply(lambda c: c.nunique()), df.apply(lambda c: c.nunique()))


def test_apply_columns_is_a_column_shuffle_not_one_chunk(num):
    m = md.DataFrame(num, chunk_size=4)  # 6 row chunks, 3 columns -> 3 groups
    tiled = LocalExecutor().tile(m.apply(lambda c: c - c.mean()).data)
    assert len(tiled.flat) == 6 and tiled.nsplits[0] == (4, 4, 4, 4, 4, 3)
    from mars_on_ray.core.graph import topo_order
    from mars_on_ray.dataframe.apply_columns import ColumnGroupApply
    groups = {c.key for c in topo_order(tiled.flat)
              if isinstance(c.op, ColumnGroupApply) and c.op.stage == "apply"}
    assert len(groups) == 3
    from mars_on_ray.core.fusion import build_steps
    from mars_on_ray.dataframe.apply_columns import ColumnSplit
    steps = build_steps(tiled.flat, set())
    assert sum(isinstance(s.op, ColumnSplit) for s in steps) == 6  # each block is split once


def test_apply_columns_raw(num):
    m = md.DataFrame(num, chunk_size=5)
    assert_eq(m.apply(lambda v: np.nansum(v), raw=True), num.apply(lambda v: np.nansum(v), raw=True))


def test_apply_duplicate_labels_and_unknown_extents(num):
    dup = num.set_axis(["x", "x", "y"] * 7 + ["z", "z"])
    m = md.DataFrame(dup, chunk_size=4)
    assert_eq(m.apply(lambda c: c * 2), dup.apply(lambda c: c * 2))
    assert_eq(m.apply(lambda r: r.max(), axis=1), dup.apply(lambda r: r.max(), axis=1))
    flt = m[m["a"] > 0]
    assert np.isnan(flt.shape[0])
    expected = dup[dup["a"] > 0]
    assert_eq(flt.apply(lambda c: c - c.min()), expected.apply(lambda c: c - c.min()))
    assert_eq(flt.apply(lambda c: c.max()), expected.apply(lambda c: c.max()))
    assert_eq(flt.apply(lambda r: r["a"] * r["b"], axis=1), expected.apply(lambda r: r["a"] * r["b"], axis=1))


def test_apply_empty_frames(num):
    empty = num.iloc[:0]
    m = md.DataFrame(empty, chunk_size=4)
    assert_eq(m.apply(lambda c: c.sum()), empty.apply(lambda c: c.sum()))
    assert_eq(m.apply(lambda r: r["a"] + 1, axis=1), empty.apply(lambda r: r["a"] + 1, axis=1))
    none = md.DataFrame(num, chunk_size=4)
    none = none[none["a"] > 100]  # empty blocks after a filter
    assert_eq(none.apply(lambda r: r["a"] * 2.5, axis=1),
              num[num["a"] > 100].apply(lambda r: r["a"] * 2.5, axis=1), check_index_type=False)


def test_apply_hints(num):
    m = md.DataFrame(num, chunk_size=4)
    res = m.apply(lambda r: r["a"] * 2, axis=1, output_type="series", dtype="float64", name="x")
    assert res.dtype == np.float64 and res.name == "x"
    assert_eq(res, num.apply(lambda r: r["a"] * 2, axis=1).astype("float64").rename("x"))
    res = m.apply(lambda r: r * 2, axis=1, output_type="dataframe", dtypes=num.dtypes)
    assert_eq(res, num.apply(lambda r: r * 2, axis=1).astype(num.dtypes))  # declared dtypes
    res = m.apply(lambda r: r["a"] + 1, axis=1, meta=pd.Series([], dtype="int64"))
    assert_eq(res, num.apply(lambda r: r["a"] + 1, axis=1).astype("int64"))
    with pytest.raises(ValueError):
        m.apply(lambda r: r, axis=1, output_type="tensor")


def test_apply_bad_input(num):
    m = md.DataFrame(num, chunk_size=4)
    for call in (lambda o: o.apply(lambda c: c, axis=2), lambda o: o.apply(lambda c: c, result_type="x")):
        with pytest.raises(ValueError):
            call(num)
        with pytest.raises(ValueError):
            call(m)
    with pytest.raises(AttributeError):
        num.apply("nope")
    with pytest.raises(AttributeError):
        m.apply("nope")


def test_user_errors_keep_their_type_and_name_the_operation(num):
    m = md.DataFrame(num, chunk_size=4)

    def fails_on_data(r):
        if r["a"] == -5:
            raise KeyError("bad row")
        return r["a"]
    res = m.apply(fails_on_data, axis=1)  # the sample (a = 1) passes
    with pytest.raises(KeyError) as info:
        _value(res)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "md.DataFrame.apply" in notes and "rows 'r" in notes
    with pytest.raises(ZeroDivisionError) as info:
        m.apply(lambda c: 1 / 0)
    assert "sample" in "\n".join(info.value.__notes__)

    def col_fails(c):
        if c.name == "b" and len(c) > 1:  # not on the one-row sample
            raise OverflowError("column b")
        return c.sum()
    with pytest.raises(OverflowError) as info:
        _value(m.apply(col_fails))
    assert "md.DataFrame.apply on columns ['b']" in "\n".join(info.value.__notes__)


# -- Series.apply / map --------------------------------------------------------------------------
@pytest.mark.parametrize("func", [lambda x: x * 2, str, lambda x: x > 0, np.abs,
                                  lambda x: pd.Series([x, x * 2], index=["v", "w"])])
def test_series_apply(df, func):
    assert_eq(md.Series(df["a"], chunk_size=4).apply(func), df["a"].apply(func))


def test_series_apply_args_and_names(df):
    s = md.Series(df["b"], chunk_size=6)
    assert_eq(s.apply(lambda x, k, m=1: x * k + m, args=(2,), m=3),
              df["b"].apply(lambda x, k, m=1: x * k + m, args=(2,), m=3))
    assert_eq(s.apply("sum"), df["b"].apply("sum"))
    assert_eq(s.apply(["min", "max"]), df["b"].apply(["min", "max"]))
    assert_eq(md.Series(df["s"], chunk_size=5).apply(lambda v: v.upper()),
              df["s"].apply(lambda v: v.upper()))


@pytest.mark.parametrize("mapping", [{1: "one", 2: "two"}, {i: i * 10 for i in range(-5, 5)},
                                     {-5: 1.5}, pd.Series({0: "zero", 1: "one"})], ids=repr)
def test_series_map_mappings(df, mapping):
    s = md.Series(df["a"], chunk_size=4)
    assert_eq(s.map(mapping), df["a"].map(mapping))


def test_series_map_callables_lazy_series_and_na_action(df):
    s = md.Series(df["b"], chunk_size=4)
    assert_eq(s.map(lambda x: x * 2), df["b"].map(lambda x: x * 2))
    assert_eq(s.map(lambda x: f"{x:.1f}", na_action="ignore"),
              df["b"].map(lambda x: f"{x:.1f}", na_action="ignore"))
    lookup = pd.Series(["p", "q", "r", "t"], index=["x0", "x1", "x2", "x3"])
    keys = md.Series(df["s"], chunk_size=6)
    assert_eq(keys.map(md.Series(lookup, chunk_size=3)), df["s"].map(lookup))
    with pytest.raises(ValueError):
        s.map(lambda x: x, na_action="all")


# -- transform ---------------------------------------------------------------------------------------
TRANSFORMS = [lambda x: x + 1, "abs", np.sqrt, ["abs", "sqrt"], {"a": "abs", "b": ["sqrt", "exp"]},
              lambda c: c - c.mean(), "cumsum", {"b": lambda c: c.rank()}]


@pytest.mark.parametrize("func", TRANSFORMS)
def test_frame_transform(num, func):
    m = md.DataFrame(num, chunk_size=4)
    with np.errstate(all="ignore"):
        assert_eq(m.transform(func), num.transform(func))


def test_transform_rows_series_and_errors(num):
    m = md.DataFrame(num, chunk_size=4)
    assert_eq(m.transform(lambda r: r / r.sum(), axis=1), num.transform(lambda r: r / r.sum(), axis=1))
    s = md.Series(num["b"], chunk_size=5)
    for func in (lambda x: x * 2, "cumsum", lambda x: x - x.mean(), ["abs", "cumsum"]):
        assert_eq(s.transform(func), num["b"].transform(func))
    with pytest.raises(ValueError, match="did not transform"):
        num.transform(lambda c: c.sum())
    with pytest.raises(ValueError, match="did not transform"):
        _value(m.transform(lambda c: c.sum()))
    with pytest.raises(AttributeError):
        m.transform("nope")


# -- agg ------------------------------------------------------------------------------------------------
AGGS = ["sum", "mean", "var", "median", "nunique", ["sum", "max"], ["min", "median", "count"],
        {"b": "sum", "a": ["min", "max"]}, {"b": ["sum", "min"], "a": ["min", "max"]},
        {"b": "sum", "a": "max"}, lambda c: c.max() - c.min(), [lambda c: c.max(), "sum"]]


@pytest.mark.parametrize("func", AGGS, ids=repr)
@pytest.mark.parametrize("chunk_size", [4, 9])
def test_frame_agg(num, func, chunk_size):
    m = md.DataFrame(num, chunk_size=chunk_size)
    assert_eq(m.agg(func), num.agg(func))
    assert_eq(m.aggregate(func), num.aggregate(func))


def test_agg_of_strings_axis_one_and_named(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m[["s", "a"]].agg(["min", "max"]), df[["s", "a"]].agg(["min", "max"]))
    assert_eq(m[["a", "b"]].agg("sum", axis=1), df[["a", "b"]].agg("sum", axis=1))
    assert_eq(m[["a", "b"]].agg(["min", "max"], axis=1), df[["a", "b"]].agg(["min", "max"], axis=1))
    assert_eq(m.agg(x=("a", "max"), y=("b", "min")), df.agg(x=("a", "max"), y=("b", "min")))


def test_series_agg(df):
    s = md.Series(df["b"], chunk_size=4)
    for func in ("sum", "median", ["sum", "mean"], ["min", "max", "count"], lambda x: x.max() - x.min(),
                 np.sqrt, ["median", "sum"]):
        with np.errstate(all="ignore"):
            assert_eq(s.agg(func), df["b"].agg(func))


def test_agg_bad_input(num):
    m = md.DataFrame(num, chunk_size=4)
    for func, error in (("nope", AttributeError), (["sum", "nope"], AttributeError),
                        ({"zz": "sum"}, KeyError)):
        with pytest.raises(error):
            num.agg(func)
        with pytest.raises(error):
            m.agg(func)
    with pytest.raises(AttributeError):
        md.Series(num["a"]).agg("nope")


class _Sum(md.CustomReduction):
    def agg(self, values):
        return values.sum()


class _Mean(md.CustomReduction):
    def pre(self, values):
        return values.sum(), values.count()

    def agg(self, sums, counts):
        return sums.sum(), counts.sum()

    def post(self, total, count):
        with np.errstate(all="ignore"):  # the all-NaN column: 0 / 0
            return total / count


@pytest.mark.parametrize("red", [_Sum(), _Mean(name="my_mean")])
def test_custom_reduction(num, red):
    for chunk_size in (2, 4, 30):  # 12 blocks: two combine levels
        m = md.DataFrame(num, chunk_size=chunk_size)
        assert_eq(m.agg(red), num.agg(red))
        assert_eq(md.Series(num["b"], chunk_size=chunk_size).agg(red), num["b"].agg(red))
    assert_eq(md.DataFrame(num, chunk_size=5).agg([red, "sum"]), num.agg([red, "sum"]))


def test_custom_reduction_is_a_tree(num):
    from mars_on_ray.core.graph import topo_order
    from mars_on_ray.dataframe.aggregate import CustomReduce
    tiled = LocalExecutor().tile(md.DataFrame(num, chunk_size=2).agg(_Sum()).data)
    stages = [c.op.stage for c in topo_order(tiled.flat) if isinstance(c.op, CustomReduce)]
    assert stages.count("map") == 12 and stages.count("combine") == 3 and stages.count("final") == 1


# -- map_chunk -------------------------------------------------------------------------------------
def test_map_chunk(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.map_chunk(lambda c: c[c["a"] > 0]), df[df["a"] > 0])
    assert_eq(m.map_chunk(lambda c, k: c["b"] * k, args=(3,)), df["b"] * 3)
    assert_eq(m.map_chunk(lambda c, k=1: c[["a"]] + k, kwargs={"k": 2}), df[["a"]] + 2)
    res = m.map_chunk(lambda c: c["a"] * 1.5, output_type="series", dtype="float64", name="a")
    assert_eq(res, df["a"] * 1.5)
    res = m.map_chunk(lambda c: c[["a", "b"]], dtypes=df[["a", "b"]].dtypes)
    assert_eq(res, df[["a", "b"]])
    per_chunk = m.map_chunk(lambda c: c.head(1))
    assert_eq(per_chunk, df.iloc[::4])
    assert_eq(md.Series(df["s"], chunk_size=5).map_chunk(lambda s: s.str.upper()), df["s"].str.upper())


@pytest.mark.parametrize("func", [["sum", "max"], ["min", "count", "mean"], ["product", "std", "var"],
                                  {"c": ["sum", "max"], "a": "mean"}, {"a": "sum", "b": "max"},
                                  {"b": ["min"], "a": ["max", "min"]}], ids=repr)
def test_agg_of_reduction_names_uses_tree_reductions(df, func):
    from mars_on_ray.core.graph import topo_order
    frame = df[["a", "b", "c", "n"]]
    m = md.DataFrame(frame, chunk_size=4)
    res = m.agg(func)
    ops = {type(c.op).__name__ for c in topo_order(LocalExecutor().tile(res.data).flat)}
    assert "ReduceChunks" in ops and "ColumnGroupApply" not in ops
    assert_eq(res, frame.agg(func))
    assert_eq(md.DataFrame(frame.iloc[:0], chunk_size=4).agg(func), frame.iloc[:0].agg(func))


def test_apply_of_a_ufunc_is_blockwise(num):
    from mars_on_ray.core.graph import topo_order
    m = md.DataFrame(num, chunk_size=4)
    with np.errstate(all="ignore"):
        res = m.apply(np.sqrt)
        ops = {type(c.op).__name__ for c in topo_order(LocalExecutor().tile(res.data).flat)}
        assert "ColumnGroupApply" not in ops
        assert_eq(res, num.apply(np.sqrt))
        assert_eq(m.apply(np.exp, result_type="broadcast"), num.apply(np.exp, result_type="broadcast"))


@pytest.mark.parametrize("name", ["median", "skew", "kurt", "sem", "all", "any"])
def test_agg_of_other_reduction_names(df, name):
    m = md.DataFrame(df[["a", "b", "c", "n"]], chunk_size=4)
    assert_eq(m.agg(name), df[["a", "b", "c", "n"]].agg(name))
    assert_eq(md.Series(df["b"], chunk_size=5).agg(name), df["b"].agg(name))


def test_series_map_with_a_dict_gives_pandas_dtype_not_the_input_one():
    s = pd.Series([f"k{i % 4}" for i in range(23)], name="s", index=[f"r{i}" for i in range(23)])
    m = md.Series(s, chunk_size=5)
    for arg in ({"k0": 1, "k1": 2}, {"k0": 1, "k1": 2, "k2": 3, "k3": 4}, {"k0": "a"},
                pd.Series({"k0": 1.5, "k3": 2.5}), {}):
        assert_eq(m.map(arg), s.map(arg))  # float64 where a key is missing, int64 when none is
    assert_eq(m.map(md.Series(pd.Series({"k0": 1, "k1": 2}))), s.map(pd.Series({"k0": 1, "k1": 2})))
    flt = m[m != "k0"]
    assert_eq(flt.map({"k1": 1, "k2": 2, "k3": 3}), s[s != "k0"].map({"k1": 1, "k2": 2, "k3": 3}))
    assert_eq(m[m == "zz"].map({"k0": 1}), s[s == "zz"].map({"k0": 1}))
