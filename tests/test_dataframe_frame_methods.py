"""Frame methods that keep rows, against pandas: rename, drop, assign, insert, pop, copy,
prefixes, set_index / reset_index / set_axis, where / mask, isin, select_dtypes, to_frame,
to_tensor, the top-level isna family and constructors.

Chunk sizes do not divide the data (7 rows of 41); frames after a filter have unknown chunk
extents; indexes are not the default and hold duplicates where it matters.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41), "c": rs.rand(41) > 0.5,
                          "s": [f"x{i % 4}" for i in range(41)], "n": np.nan},
                         index=[f"r{i % 37:02d}" for i in range(41)])  # r00..r03 twice
    frame.loc[["r03", "r17"], "b"] = np.nan
    return frame


@pytest.fixture
def m(df):
    return md.DataFrame(df, chunk_size=7)


def _filtered(m, df):
    """A lazy frame with unknown chunk extents and its pandas twin."""
    flt = m[m["a"] > -3]
    assert np.isnan(flt.shape[0])
    return flt, df[df["a"] > -3]


EMPTY = pd.DataFrame({"a": pd.Series([], dtype="int64"), "s": pd.Series([], dtype=object)},
                     index=pd.Index([], dtype=object))


# --- rename / rename_axis / prefixes ------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {"columns": {"a": "A", "zz": "Z"}}, {"columns": str.upper}, {"index": {"r01": "one", "r40": 4}},
    {"index": str.upper}, {"mapper": str.upper, "axis": 1}, {"mapper": {"r02": "two"}, "axis": "index"},
    {"index": {"r03": "three"}, "columns": {"s": "S"}, "errors": "raise"},
], ids=repr)
def test_rename_frame(m, df, kwargs):
    assert_eq(m.rename(**kwargs), df.rename(**kwargs))


def test_rename_series_and_errors(m, df):
    s, ps = m["b"], df["b"]
    assert_eq(s.rename("bee"), ps.rename("bee"))
    assert_eq(s.rename({"r05": "five"}), ps.rename({"r05": "five"}))
    assert_eq(s.rename(lambda x: x + "!"), ps.rename(lambda x: x + "!"))
    with pytest.raises(KeyError):
        m.rename(columns={"zz": "Z"}, errors="raise")  # at build time, like pandas
    with pytest.raises(KeyError, match="not found in axis"):
        _value(m.rename(index={"nope": 1}, errors="raise"))
    with pytest.raises(KeyError, match="not found in axis"):
        _value(s.rename({"nope": 1}, errors="raise"))
    with pytest.raises(TypeError):
        df.rename(str.upper, index=str.lower)
    with pytest.raises(TypeError):
        m.rename(str.upper, index=str.lower)


def test_rename_inplace_and_after_filter(m, df):
    flt, expected = _filtered(m, df)
    assert_eq(flt.rename(index=str.upper), expected.rename(index=str.upper))
    copy = m.copy()
    assert copy.rename(columns={"a": "A"}, inplace=True) is None
    assert_eq(copy, df.rename(columns={"a": "A"}))
    assert_eq(m, df)


def test_rename_axis_and_prefixes(m, df):
    assert_eq(m.rename_axis("rows"), df.rename_axis("rows"))
    assert_eq(m.rename_axis("cols", axis=1), df.rename_axis("cols", axis=1))
    assert_eq(m["a"].rename_axis("k"), df["a"].rename_axis("k"))
    assert_eq(m.add_prefix("p_"), df.add_prefix("p_"))
    assert_eq(m.add_suffix("_q"), df.add_suffix("_q"))
    assert_eq(m["a"].add_prefix("p_"), df["a"].add_prefix("p_"))
    assert_eq(m["a"].add_suffix("_q"), df["a"].add_suffix("_q"))
    assert_eq(m.add_prefix("p_", axis=0), df.add_prefix("p_", axis=0))


# --- drop ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {"columns": "a"}, {"columns": ["a", "n"]}, {"labels": "s", "axis": 1}, {"labels": ["r01", "r36"]},
    {"index": "r02"}, {"index": ["r00", "zz"], "errors": "ignore"},
    {"index": ["r10"], "columns": ["c"]}, {"columns": ["zz"], "errors": "ignore"},
], ids=repr)
def test_drop_frame(m, df, kwargs):
    assert_eq(m.drop(**kwargs), df.drop(**kwargs))


def test_drop_series_errors_and_unknown_extents(m, df):
    assert_eq(m["b"].drop(["r00", "r30"]), df["b"].drop(["r00", "r30"]))
    flt, expected = _filtered(m, df)
    labels = list(expected.index[:3])
    assert_eq(flt.drop(labels), expected.drop(labels))
    with pytest.raises(KeyError):
        m.drop(columns=["zz"])
    with pytest.raises(KeyError, match=r"\['zz'\] not found in axis"):
        _value(m.drop(["r01", "zz"]))
    with pytest.raises(ValueError):
        m.drop("a", columns="b")
    with pytest.raises(ValueError):
        m.drop()


def test_drop_inplace_and_pop(m, df):
    other = m.copy()
    assert other.drop(columns=["n"], inplace=True) is None
    assert_eq(other, df.drop(columns=["n"]))
    expected = df.copy()
    popped = expected.pop("s")
    col = other.pop("s")
    assert_eq(col, popped)
    assert_eq(other, expected.drop(columns=["n"]))
    with pytest.raises(KeyError):
        other.pop("s")
    assert_eq(m, df)  # the original is untouched


def test_drop_empty(m):
    e = md.DataFrame(EMPTY, chunk_size=3)
    assert_eq(e.drop(columns="a"), EMPTY.drop(columns="a"))
    assert_eq(e.drop(["x"], errors="ignore"), EMPTY.drop(["x"], errors="ignore"))


# --- assign / insert / copy / select_dtypes -----------------------------------------------------

def test_assign(m, df):
    assert_eq(m.assign(z=1, w="t"), df.assign(z=1, w="t"))
    assert_eq(m.assign(z=lambda x: x["a"] * 2, y=lambda x: x["z"] + x["b"]),
              df.assign(z=lambda x: x["a"] * 2, y=lambda x: x["z"] + x["b"]))
    assert_eq(m.assign(z=m["a"] + 1, a=m["b"]), df.assign(z=df["a"] + 1, a=df["b"]))
    values = np.arange(41) * 3
    assert_eq(m.assign(z=values), df.assign(z=values))
    assert_eq(m.assign(z=mt.tensor(values, chunk_size=10)), df.assign(z=values))
    assert_eq(m.assign(z=pd.Series(values, index=df.index)), df.assign(z=values))
    flt, exp = _filtered(m, df)
    assert_eq(flt.assign(z=flt["a"] - flt["b"]), exp.assign(z=exp["a"] - exp["b"]))
    with pytest.raises(ValueError):
        _value(m.assign(z=np.arange(3)))


def test_insert(m, df):
    a, b = m.copy(), df.copy()
    a.insert(0, "first", 1.5)
    b.insert(0, "first", 1.5)
    a.insert(3, "mid", m["a"] * 2)
    b.insert(3, "mid", df["a"] * 2)
    a.insert(len(a.columns), "last", np.arange(41))
    b.insert(len(b.columns), "last", np.arange(41))
    assert_eq(a, b)
    with pytest.raises(ValueError):
        a.insert(0, "mid", 1)
    a.insert(0, "mid", 2, allow_duplicates=True)
    b.insert(0, "mid", 2, allow_duplicates=True)
    assert_eq(a, b)
    assert_eq(m, df)


def test_copy_is_independent(m, df):
    c = m.copy()
    c["a"] = 0
    assert_eq(m, df)
    assert_eq(c, df.assign(a=0))
    assert_eq(m["a"].copy(), df["a"].copy())


@pytest.mark.parametrize("kwargs", [{"include": "number"}, {"exclude": "number"},
                                    {"include": ["bool", "float"]}, {"include": "object"}],
                         ids=repr)
def test_select_dtypes(m, df, kwargs):
    assert_eq(m.select_dtypes(**kwargs), df.select_dtypes(**kwargs))


def test_select_dtypes_errors(m, df):
    with pytest.raises(ValueError):
        m.select_dtypes()
    with pytest.raises(ValueError):
        m.select_dtypes(include="number", exclude="number")


# --- where / mask -------------------------------------------------------------------------------

def test_where_and_mask_frame(m, df):
    num, pnum = m[["a", "b", "n"]], df[["a", "b", "n"]]
    assert_eq(num.where(num > 0), pnum.where(pnum > 0))
    assert_eq(num.where(num > 0, -1), pnum.where(pnum > 0, -1))
    assert_eq(num.mask(num > 0, 0.5), pnum.mask(pnum > 0, 0.5))
    assert_eq(num.where(m["c"], axis=0), pnum.where(df["c"], axis=0))
    assert_eq(num.where(lambda x: x < 0.5, lambda x: x * 10), pnum.where(lambda x: x < 0.5, lambda x: x * 10))
    assert_eq(num.where(num > 0, num * -1), pnum.where(pnum > 0, pnum * -1))
    arr = (df[["a", "b", "n"]] > 0).to_numpy()
    assert_eq(num.where(arr), pnum.where(arr))
    assert_eq(m.where(m["a"] > 0, axis=0), df.where(df["a"] > 0, axis=0))


def test_where_and_mask_series(m, df):
    s, ps = m["a"], df["a"]
    assert_eq(s.where(s > 0), ps.where(ps > 0))
    assert_eq(s.where(s > 0, 100), ps.where(ps > 0, 100))
    assert_eq(s.mask(s > 0, m["b"]), ps.mask(ps > 0, df["b"]))
    assert_eq(m["s"].where(m["c"], "other"), df["s"].where(df["c"], "other"))
    flags = list(ps > 1)
    assert_eq(s.where(flags, 0), ps.where(flags, 0))
    flt, exp = _filtered(m, df)
    assert_eq(flt["b"].mask(flt["a"] > 2), exp["b"].mask(exp["a"] > 2))
    c = s.copy()
    assert c.where(c > 0, 0, inplace=True) is None
    assert_eq(c, ps.where(ps > 0, 0))


def test_where_errors(m, df):
    with pytest.raises((TypeError, ValueError)) as expected:
        df[["a", "b"]].where(df[["a", "b"]])
    with pytest.raises(expected.type):  # not a boolean condition: at build time
        m[["a", "b"]].where(m[["a", "b"]])
    with pytest.raises(ValueError):
        m.where(True)


# --- isin ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("values", [[1, 2, "x1"], {-1, 0}, {"a": [1, 2], "s": ["x0"]}, [], ("x3",)],
                         ids=repr)
def test_isin_frame(m, df, values):
    assert_eq(m.isin(values), df.isin(values))


def test_isin_series_and_lazy_values(m, df):
    s, ps = m["s"], df["s"]
    assert_eq(s.isin(["x1", "x2"]), ps.isin(["x1", "x2"]))
    assert_eq(m["a"].isin({0, 3}), df["a"].isin({0, 3}))
    assert_eq(m["a"].isin(pd.Series([1, 4])), df["a"].isin(pd.Series([1, 4])))
    lazy = md.Series([1, 4, -5], chunk_size=2)
    assert_eq(m["a"].isin(lazy), df["a"].isin([1, 4, -5]))
    assert_eq(m["a"].isin(mt.tensor(np.array([2, 3]), chunk_size=1)), df["a"].isin([2, 3]))
    unique = df.reset_index(drop=True)  # pandas refuses a duplicate axis here
    u = md.DataFrame(unique, chunk_size=7)
    other = unique[["a"]] > 0
    assert_eq(u[["a"]].isin(md.DataFrame(other, chunk_size=5)), unique[["a"]].isin(other))
    assert_eq(u.isin(u[["a", "s"]]), unique.isin(unique[["a", "s"]]))
    assert_eq(u.isin(unique["a"]), unique.isin(unique["a"]))
    with pytest.raises(TypeError):
        m["a"].isin(1)
    with pytest.raises(TypeError):
        m.isin("abc")


# --- set_index / reset_index / set_axis ---------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {"keys": "s"}, {"keys": ["s", "a"]}, {"keys": "s", "drop": False}, {"keys": "a", "append": True},
    {"keys": ["c"], "append": True, "drop": False},
], ids=repr)
def test_set_index_columns(m, df, kwargs):
    assert_eq(m.set_index(**kwargs), df.set_index(**kwargs))


def test_set_index_arrays(m, df):
    assert_eq(m.set_index(m["a"] * 2), df.set_index(df["a"] * 2))
    assert_eq(m.set_index(["s", m["b"]]), df.set_index(["s", df["b"]]))
    values = np.arange(41)[::-1]
    assert_eq(m.set_index(pd.Index(values, name="v")), df.set_index(pd.Index(values, name="v")))
    assert_eq(m.set_index(mt.tensor(values, chunk_size=9)), df.set_index(values))
    assert_eq(m.set_index(m.index), df.set_index(df.index))
    with pytest.raises(KeyError):
        m.set_index("zz")
    with pytest.raises(ValueError, match="Length"):
        _value(m.set_index(np.arange(3)))


def test_set_index_verify_integrity_raises_pandas_value_error_for_repeated_keys():
    """verify_integrity=True was a NotImplementedError; pandas names the repeated keys."""
    df = pd.DataFrame({"a": [1, 1, 2, 3, 3, 4, 5], "k": list("pqrstuv"), "b": range(7)})
    m = md.DataFrame(df, chunk_size=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3 deprecates the keyword
        with pytest.raises(ValueError) as expected:
            df.set_index("a", verify_integrity=True)
        with pytest.raises(ValueError) as got:
            _value(m.set_index("a", verify_integrity=True))
        assert str(got.value) == str(expected.value)
        with pytest.raises(ValueError, match="duplicate keys"):
            _value(m.set_index(["a", "a"], verify_integrity=True))
        assert_eq(m.set_index("k", verify_integrity=True), df.set_index("k", verify_integrity=True))
        assert_eq(m.set_index(["a", "k"], verify_integrity=True), df.set_index(["a", "k"], verify_integrity=True))


def test_set_index_inplace(m, df):
    c = m.copy()
    assert c.set_index("s", inplace=True) is None
    assert_eq(c, df.set_index("s"))


@pytest.mark.parametrize("kwargs", [{}, {"drop": True}, {"names": "label"}], ids=repr)
def test_reset_index_frame(m, df, kwargs):
    assert_eq(m.reset_index(**kwargs), df.reset_index(**kwargs))
    flt, exp = _filtered(m, df)
    assert_eq(flt.reset_index(**kwargs), exp.reset_index(**kwargs))


def test_reset_index_levels_and_series(m, df):
    mi = df.set_index(["s", "a"], append=True)
    lazy = md.DataFrame(mi, chunk_size=6)
    for level in ["s", ["s", "a"], [0, 1, 2], 1]:
        assert_eq(lazy.reset_index(level=level), mi.reset_index(level=level))
        assert_eq(lazy.reset_index(level=level, drop=True), mi.reset_index(level=level, drop=True))
    s, ps = m["b"], df["b"]
    assert_eq(s.reset_index(), ps.reset_index())
    assert_eq(s.reset_index(name="value"), ps.reset_index(name="value"))
    assert_eq(s.reset_index(drop=True), ps.reset_index(drop=True))
    with pytest.raises(TypeError):
        s.reset_index(inplace=True)
    c = s.copy()
    c.reset_index(drop=True, inplace=True)
    assert_eq(c, ps.reset_index(drop=True))
    with pytest.raises(KeyError):
        m.reset_index(level="zz")


def test_reset_index_empty_and_all_nan():
    e = md.DataFrame(EMPTY, chunk_size=3)
    assert_eq(e.reset_index(), EMPTY.reset_index())
    nan = pd.DataFrame({"x": [np.nan] * 9}, index=pd.Index([np.nan] * 9, name="k"))
    assert_eq(md.DataFrame(nan, chunk_size=4).reset_index(), nan.reset_index())


def test_set_axis(m, df):
    labels = [f"L{i}" for i in range(41)]
    assert_eq(m.set_axis(labels), df.set_axis(labels))
    assert_eq(m.set_axis(list("ABCDE"), axis=1), df.set_axis(list("ABCDE"), axis=1))
    assert_eq(m["a"].set_axis(pd.RangeIndex(41)), df["a"].set_axis(pd.RangeIndex(41)))
    flt, exp = _filtered(m, df)
    assert_eq(flt.set_axis(np.arange(len(exp)) * 2), exp.set_axis(np.arange(len(exp)) * 2))
    with pytest.raises(ValueError, match="Length mismatch"):
        m.set_axis([1, 2])
    with pytest.raises(ValueError, match="Length mismatch"):
        _value(flt.set_axis([1, 2]))
    with pytest.raises(ValueError):
        m.set_axis(["x"], axis=1)


def test_set_axis_with_lazy_labels_lines_them_up_by_position(m, df):
    labels = pd.Index([f"L{i}" for i in range(41)], name="lab")
    assert_eq(m.set_axis(md.Index(labels, chunk_size=6)), df.set_axis(labels))
    values = pd.Series(np.arange(41) * 3, name="v")
    assert_eq(m.set_axis(md.Series(values, chunk_size=9)), df.set_axis(values))
    assert_eq(m["b"].set_axis(mt.arange(41, chunk_size=5) * 2), df["b"].set_axis(np.arange(41) * 2))
    flt, exp = _filtered(m, df)  # unknown extents on both sides
    assert_eq(flt.set_axis(flt["a"] * 10), exp.set_axis(exp["a"] * 10))
    with pytest.raises(ValueError, match="Length mismatch"):
        m.set_axis(md.Index(labels[:5]))


# --- to_frame / to_tensor / items ---------------------------------------------------------------

def test_to_frame_and_to_tensor(m, df):
    assert_eq(m["b"].to_frame(), df["b"].to_frame())
    assert_eq(m["b"].to_frame("bee"), df["b"].to_frame("bee"))
    assert_eq(m["b"].rename(None).to_frame(), df["b"].rename(None).to_frame())
    assert_eq(m["b"].to_tensor(), df["b"].to_numpy())
    assert_eq(m["a"].to_tensor(), df["a"].to_numpy())
    assert_eq(m["s"].to_tensor(), df["s"].to_numpy())
    flt, exp = _filtered(m, df)
    assert_eq(flt["a"].to_tensor(), exp["a"].to_numpy())


def test_frame_items_are_lazy_columns(m, df):
    pairs = list(m.items())
    assert [k for k, _ in pairs] == list(df.columns)
    for (_, col), (_, expected) in zip(pairs, df.items()):
        assert_eq(col, expected)
    assert m.iteritems is not None


# --- top level ----------------------------------------------------------------------------------

def test_toplevel_isna(m, df):
    assert_eq(md.isna(m), pd.isna(df))
    assert_eq(md.isnull(m["b"]), pd.isnull(df["b"]))
    assert_eq(md.notna(m), pd.notna(df))
    assert_eq(md.notnull(m["n"]), pd.notnull(df["n"]))
    assert_eq(md.isna(m.index), pd.isna(df.index))
    arr = np.array([[1.0, np.nan], [np.nan, 2.0], [3.0, 4.0]])
    assert_eq(md.isna(mt.tensor(arr, chunk_size=2)), pd.isna(arr))
    assert_eq(md.notna(mt.tensor(arr, chunk_size=2)), pd.notna(arr))
    assert md.isna(None) and md.isna(np.nan) and not md.isna(1) and md.notna("x")
    pd.testing.assert_series_equal(md.isna(df["b"]), pd.isna(df["b"]))
    np.testing.assert_array_equal(md.isnull([1, None]), pd.isnull([1, None]))


def test_from_records():
    records = np.array([(i, i * 0.5, f"s{i}") for i in range(23)],
                       dtype=[("a", "i8"), ("b", "f8"), ("c", "U3")])
    t = mt.tensor(records, chunk_size=5)
    assert_eq(md.from_records(t), pd.DataFrame.from_records(records))
    assert_eq(md.from_records(t, index="a", exclude=["b"]),
              pd.DataFrame.from_records(records, index="a", exclude=["b"]))
    assert_eq(md.from_records(t, columns=["a", "c", "b"]),
              pd.DataFrame.from_records(records, columns=["a", "c", "b"]))
    assert_eq(md.from_records(records, chunk_size=4), pd.DataFrame.from_records(records))
    rows = [(1, "x"), (2, "y"), (3, "z")]
    assert_eq(md.from_records(iter(rows), columns=["n", "v"], nrows=2),
              pd.DataFrame.from_records(iter(rows), columns=["n", "v"], nrows=2))
    with pytest.raises(ValueError):
        md.from_records(mt.tensor(np.ones((3, 2))))


def test_frames_from_tensors_and_index():
    x = np.random.RandomState(1).rand(23, 3)
    tx = mt.tensor(x, chunk_size=6)
    assert_eq(md.dataframe_from_tensor(tx), pd.DataFrame(x))
    assert_eq(md.dataframe_from_tensor(tx, columns=list("abc"), index=np.arange(23) * 2),
              pd.DataFrame(x, columns=list("abc"), index=np.arange(23) * 2))
    assert_eq(md.dataframe_from_tensor(tx, index=mt.arange(23, chunk_size=4)),
              pd.DataFrame(x, index=np.arange(23)))
    assert_eq(md.series_from_tensor(tx[:, 0], name="z"), pd.Series(x[:, 0], name="z"))
    labels = pd.Index([f"i{i}" for i in range(23)], name="nm")
    lazy_index = md.DataFrame(pd.DataFrame({"q": range(23)}, index=labels), chunk_size=9).index
    assert_eq(md.series_from_tensor(tx[:, 1], index=lazy_index), pd.Series(x[:, 1], index=labels))
    assert_eq(md.series_from_index(lazy_index, name="v"), labels.to_series(name="v"))
    assert_eq(md.series_from_index(pd.Index([3, 1])), pd.Index([3, 1]).to_series())
    with pytest.raises(ValueError):
        md.series_from_tensor(tx)


def test_multiindex_levels():
    frame = pd.DataFrame({"a": [1, 1, 2, 2, 3, 3, 4], "b": list("xyxyxyx"), "v": range(7)}).set_index(["a", "b"])
    m = md.DataFrame(frame, chunk_size=3)
    for op in (lambda x: x.drop(2, level="a"), lambda x: x.drop((1, "y")), lambda x: x.drop("y", level=1),
               lambda x: x.drop([(1, "y"), (3, "x")]), lambda x: x.rename(index={"x": "X"}, level="b"),
               lambda x: x.rename(index={2: 20}, level=0, errors="raise"), lambda x: x["v"].drop(1, level=0),
               lambda x: x.rename_axis(["A", "B"]), lambda x: x.reset_index(level="b")):
        assert_eq(op(m), op(frame))
    with pytest.raises(KeyError, match="not found in level"):
        _value(m.drop(9, level="a"))


def test_where_with_read_only_values():
    """Values from Ray's object store are read-only (pandas 2.2's where wrote into ``other``)."""
    a, b = np.arange(-5, 6), np.linspace(0, 1, 11)
    a.setflags(write=False)
    b.setflags(write=False)
    s, o = pd.Series(a), pd.Series(b)
    lazy = md.Series(s, chunk_size=4)
    assert_eq(lazy.where(lazy > 0, md.Series(o, chunk_size=4)), s.where(s > 0, o.copy()))
