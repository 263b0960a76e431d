"""filter, get, pipe, squeeze, truncate, repeat, argsort, searchsorted, update and compare
against pandas: 23 rows in chunks of 5, unknown chunk extents after a filter, duplicate
labels, NaN, empty inputs."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


def _frame(n=23, dup=True):
    labels = [f"r{i % 19:02d}" for i in range(n)] if dup else [f"r{i:02d}" for i in range(n)]
    return pd.DataFrame({"a1": [3, 1, 2] + list(range(n - 3)), "b1": [np.nan] * 3 + list(np.arange(n - 3.0)),
                         "xa": 1}, index=labels)


FILTERS = [dict(items=["xa", "a1", "zz"]), dict(like="1"), dict(regex="^x"), dict(like="r0", axis=0),
           dict(regex="1$", axis="index"), dict(items=[])]


@pytest.mark.parametrize("kwargs", FILTERS, ids=repr)
def test_filter_by_columns_and_row_patterns(kwargs):
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=5)
    assert_eq(df.filter(**kwargs), pdf.filter(**kwargs))
    assert_eq(df[df["a1"] > 3].filter(**kwargs), pdf[pdf["a1"] > 3].filter(**kwargs))


def test_filter_items_on_rows_reindexes_to_the_labels_present():
    pdf = _frame(19, dup=False)
    df = md.DataFrame(pdf, chunk_size=4)
    for items in (["r05", "r01", "zz", "r05"], ["zz"], []):
        assert_eq(df.filter(items=items, axis=0), pdf.filter(items=items, axis=0))
        assert_eq(df["a1"].filter(items=items), pdf["a1"].filter(items=items))
    assert_eq(df[df["a1"] > 4].filter(items=["r05", "r11"], axis=0),
              pdf[pdf["a1"] > 4].filter(items=["r05", "r11"], axis=0))
    with pytest.raises(ValueError, match="duplicate"):
        md.DataFrame(_frame(), chunk_size=5).filter(items=["r01"], axis=0)
    with pytest.raises(TypeError):
        df.filter(items=["a1"], like="a")


def test_get_pipe_squeeze():
    pdf = _frame(19, dup=False)
    df = md.DataFrame(pdf, chunk_size=4)
    assert_eq(df.get("a1"), pdf.get("a1"))
    assert_eq(df.get(["xa", "a1"]), pdf.get(["xa", "a1"]))
    assert df.get("zz", 5) == 5 and df.get(["a1", "zz"]) is None
    assert df["a1"].get("r05") == pdf["a1"].get("r05") and df["a1"].get("zz", -1) == -1
    assert_eq(df.pipe(lambda f, k: f * k, 2), pdf * 2)
    assert_eq(df.pipe((lambda k, data: data + k, "data"), 1), pdf + 1)
    assert_eq(df[["a1"]].squeeze(), pdf[["a1"]].squeeze())
    assert df.squeeze() is df
    assert_eq(df.iloc[:1].squeeze(axis=0), pdf.iloc[:1].squeeze(axis=0))
    one = df[df["a1"] == 7]  # one row, unknown until counted
    assert one[["b1"]].squeeze() == pdf[pdf["a1"] == 7][["b1"]].squeeze()
    assert df["a1"][df["a1"] == 7].squeeze() == 7


def test_truncate_on_an_increasing_and_a_decreasing_index():
    pdf = pd.DataFrame({"a": range(23), "b": 1.5}, index=np.arange(23) * 2)
    for frame in (pdf, pdf.iloc[::-1].copy()):
        df = md.DataFrame(frame, chunk_size=5)
        for before, after in ((5, 20), (None, 9), (31, None), (100, 200)):
            assert_eq(df.truncate(before, after), frame.truncate(before, after))
            assert_eq(df["a"].truncate(before, after), frame["a"].truncate(before, after))
    df = md.DataFrame(pdf, chunk_size=5)
    assert_eq(df.truncate("a", "a", axis=1), pdf.truncate("a", "a", axis=1))
    with pytest.raises(ValueError, match="must be after"):
        df.truncate(20, 5)
    with pytest.raises(ValueError, match="sorted index"):
        md.DataFrame(pdf.sample(frac=1, random_state=0), chunk_size=5).truncate(5, 20)
    dated = pd.Series(range(23), index=pd.date_range("2020", periods=23, freq="D"))
    assert_eq(md.Series(dated, chunk_size=5).truncate("2020-01-04", "2020-01-19"),
              dated.truncate("2020-01-04", "2020-01-19"))
    const = pd.Series(range(7), index=[3] * 7)
    assert_eq(md.Series(const, chunk_size=3).truncate(3, 3), const.truncate(3, 3))


def test_repeat_by_a_count_and_per_value():
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=5)
    counts = np.arange(23) % 3
    assert_eq(df["a1"].repeat(3), pdf["a1"].repeat(3))
    assert_eq(df["b1"].repeat(counts), pdf["b1"].repeat(counts))
    assert_eq(df["a1"].repeat(0), pdf["a1"].repeat(0))
    flt = df[df["a1"] > 3]
    assert_eq(flt["a1"].repeat(2), pdf[pdf["a1"] > 3]["a1"].repeat(2))
    with pytest.raises(ValueError):
        df["a1"].repeat([1, 2])


@pytest.mark.filterwarnings("ignore:The behavior of Series.argsort")
def test_argsort_is_stable_and_treats_nan_as_pandas_does():
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=5)
    vals = pd.Series([3.0, np.nan, 1, 2, np.nan, 1, 3] * 3 + [0.5, 1], index=pdf.index, name="v")
    for s, e in ((md.Series(vals, chunk_size=5), vals), (df["a1"], pdf["a1"]), (df["b1"], pdf["b1"]),
                 (df[df["a1"] > 3]["b1"], pdf[pdf["a1"] > 3]["b1"]), (md.Series(vals.iloc[:0]), vals.iloc[:0])):
        assert_eq(s.argsort(kind="stable"), e.argsort(kind="stable"))
    distinct = pd.Series(np.random.RandomState(0).permutation(40) * 1.5, index=np.arange(40) % 7)
    assert_eq(md.Series(distinct, chunk_size=6).argsort(), distinct.argsort())


def test_searchsorted_sums_block_positions():
    ps = pd.Series(np.sort(np.r_[np.arange(20.0), 5, 5, np.nan]))
    s = md.Series(ps, chunk_size=4)
    for side in ("left", "right"):
        for value in (5, -1, 100, 5.5, [5, 100, -1], np.array([0.0, 19.0])):
            got, want = s.searchsorted(value, side=side), ps.searchsorted(value, side=side)
            assert type(got) is type(want) and np.array_equal(got, want)
    flt = s[s > 3]
    assert flt.searchsorted(5) == ps[ps > 3].searchsorted(5)
    assert md.Series(ps.iloc[:0]).searchsorted(1) == 0
    with pytest.raises(ValueError):
        s.searchsorted(1, side="middle")


def test_update_overwrites_with_non_missing_values_of_other_aligned_by_label():
    a = pd.DataFrame({"x": np.arange(11.0), "y": range(11), "s": list("pqrstuvwxyz")}, index=list("abcdeffghij"))
    b = pd.DataFrame({"x": [100.0, np.nan, 300.0], "z": 1, "s": ["P", "Q", None]}, index=list("jfq"))
    unique = pd.concat([a.iloc[:6], a.iloc[7:]])  # pandas 3 refuses filter_func with duplicate labels
    for frame, kwargs in ((a, {}), (a, {"overwrite": False}), (unique[["x"]], {"filter_func": lambda v: v > 5})):
        m, e = md.DataFrame(frame, chunk_size=3), frame.copy()
        assert m.update(md.DataFrame(b, chunk_size=2), **kwargs) is None
        e.update(b, **kwargs)
        assert_eq(m, e)
    flt = md.DataFrame(a, chunk_size=4)
    flt = flt[flt["y"] > 2]
    e = a[a["y"] > 2].copy()
    flt.update(b["x"])
    e.update(b["x"])
    assert_eq(flt, e)
    with pytest.raises(ValueError):
        md.DataFrame(a, chunk_size=3).update(b, errors="raise")
    with pytest.raises(ValueError):
        md.DataFrame(a).update(pd.DataFrame({"x": [1.0, 2.0]}, index=["a", "a"]))


COMPARES = [{}, dict(keep_shape=True), dict(keep_equal=True), dict(align_axis=0),
            dict(keep_shape=True, keep_equal=True, align_axis=0), dict(result_names=("L", "R"))]


@pytest.mark.parametrize("kwargs", COMPARES, ids=repr)
def test_compare_keeps_differing_rows_and_columns_with_pandas_dtypes(kwargs):
    a = pd.DataFrame({"x": np.arange(11.0), "y": range(11), "s": list("pqrstuvwxyz"), "k": 7},
                     index=list("abcdeffghij"))
    a.iloc[2, 0] = np.nan
    c = a.copy()
    c.iloc[3, 0] = -1
    c.iloc[7, 2] = "Z"
    c.iloc[7, 1] = 99
    c["k"] = 8  # every cell differs: the column keeps its dtype
    m = md.DataFrame(a, chunk_size=3)
    assert_eq(m.compare(md.DataFrame(c, chunk_size=4), **kwargs), a.compare(c, **kwargs))
    assert_eq(m["y"].compare(c["y"], **kwargs), a["y"].compare(c["y"], **kwargs))
    assert_eq(m.compare(a, **kwargs), a.compare(a, **kwargs))


def test_compare_refuses_differently_labelled_objects():
    a = pd.DataFrame({"x": np.arange(6.0)}, index=list("abcdef"))
    m = md.DataFrame(a, chunk_size=4)
    for other in (a.iloc[:5], a.rename(index={"f": "z"}), a.rename(columns={"x": "w"})):
        with pytest.raises(ValueError, match="identically-labeled"):
            m.compare(other)
