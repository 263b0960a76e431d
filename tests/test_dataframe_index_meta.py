"""The index an operation declares when built is the one pandas gives its result (issue 6)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq, index_meta_mismatch

TEXT_INDEX = pd.Index([f"r{i}" for i in range(23)], name="row")
INDEXES = {
    "text": TEXT_INDEX,
    "dates": pd.date_range("2021-01-01", periods=23, freq="D", name="day"),
    "multi": pd.MultiIndex.from_arrays([np.repeat(list("abcde"), 5)[:23], np.arange(23)], names=["k", "n"]),
}


def _frame(index):
    rs = np.random.RandomState(0)
    return pd.DataFrame({"a": rs.rand(23), "b": rs.randint(0, 9, 23), "s": list("xyz" * 8)[:23]}, index=index)


def test_index_meta_mismatch_tells_kind_levels_names_and_dtype():
    ints = pd.Index([], dtype=np.int64)
    assert index_meta_mismatch(pd.RangeIndex(0), ints) is None
    assert "dtype" in index_meta_mismatch(ints, pd.Index([], dtype=object))
    assert "dtype" in index_meta_mismatch(pd.Index([], dtype=object), pd.Index([], dtype="string"))
    assert "names" in index_meta_mismatch(ints, ints.rename("x"))
    multi = pd.MultiIndex.from_arrays([[1], ["a"]])[:0]
    assert "MultiIndex" in index_meta_mismatch(ints, multi)
    assert "dtype" in index_meta_mismatch(multi, pd.MultiIndex.from_arrays([[1], [2]])[:0])
    with pytest.raises(AssertionError, match="declared index"):
        assert_eq(md.Series([1.0, 2.0]), pd.Series([1.0, 2.0], index=["p", "q"]), check_chunks=False)


@pytest.mark.parametrize("kind", list(INDEXES))
def test_metadata_inferred_from_samples_declares_the_input_index(kind):
    df = _frame(INDEXES[kind])
    m = md.DataFrame(df, chunk_size=5)
    c = m.copy()
    c["t"] = c["a"] * 2  # setting, arithmetic
    assert_eq(c, df.assign(t=df["a"] * 2))
    assert_eq(m[["a", "b"]].cumsum(axis=1), df[["a", "b"]].cumsum(axis=1))
    assert_eq(m[["a", "b"]].clip(0.2, 5), df[["a", "b"]].clip(0.2, 5))
    assert_eq(m["a"].where(m["a"] > 0.5, 0), df["a"].where(df["a"] > 0.5, 0))
    assert_eq(m[["a", "b"]].median(axis=1), df[["a", "b"]].median(axis=1))
    assert_eq(m[["a", "b"]].rank(axis=1), df[["a", "b"]].rank(axis=1))
    assert_eq(m.groupby("s").head(2), df.groupby("s").head(2))
    assert_eq(m.groupby("s")["a"].rank(), df.groupby("s")["a"].rank())


def test_str_extract_declares_the_input_index():
    s = pd.Series(["a1", "b2", None, "c", "d4e5"] * 4 + ["f6"], index=TEXT_INDEX[:21])
    m = md.Series(s, chunk_size=5)
    assert_eq(m.str.extract(r"(\w)(\d)"), s.str.extract(r"(\w)(\d)"))
    assert_eq(m.str.extract(r"(?P<x>\d)", expand=False), s.str.extract(r"(?P<x>\d)", expand=False))
    # extractall: the input's levels and an int64 "match" level
    assert_eq(m.str.extractall(r"(\w)(\d)"), s.str.extractall(r"(\w)(\d)"))
    # a block the filter empties is labelled as the others (pandas gives empty input a RangeIndex)
    assert_eq(m[m.str.len() > 2].str.extract(r"(\d)"), s[s.str.len() > 2].str.extract(r"(\d)"))
    empty = s.iloc[:0]
    assert_eq(md.Series(empty).str.extract(r"(\d)"), empty.str.extract(r"(\d)"))


@pytest.mark.parametrize("join", ["outer", "inner"])
def test_align_with_level_declares_the_other_side_with_these_labels(join):
    df = _frame(INDEXES["multi"])
    other = pd.Series([1.0, 2.0, 9.0], index=pd.Index(["a", "c", "z"], name="k"))
    left, right = md.DataFrame(df, chunk_size=6).align(md.Series(other), join=join, axis=0, level="k")
    expected = df.align(other, join=join, axis=0, level="k")
    assert_eq(left, expected[0])
    assert_eq(right, expected[1])


def test_concat_blocks_take_the_result_index_dtype():
    ints = pd.DataFrame({"a": np.arange(7.0)}, index=np.arange(7) * 3)
    text = pd.DataFrame({"a": np.arange(4.0)}, index=list("pqrs"))
    objs = [md.DataFrame(ints, chunk_size=3), md.DataFrame(text, chunk_size=3)]
    assert_eq(md.concat(objs), pd.concat([ints, text]))  # ints and strings: object labels
    assert_eq(md.concat(objs, keys=["i", "t"]), pd.concat([ints, text], keys=["i", "t"]))


def test_map_chunk_with_hinted_types_declares_the_blocks_labels():
    df = _frame(TEXT_INDEX)
    m = md.DataFrame(df, chunk_size=5)
    res = m.map_chunk(lambda c: c["a"] * 2, output_type="series", dtype="float64", name="a")
    assert_eq(res, df["a"] * 2)


def test_sort_values_ignore_index_keeps_its_range_index_when_columns_are_pruned():
    df = _frame(TEXT_INDEX)
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m["a"].sort_values(ignore_index=True), df["a"].sort_values(ignore_index=True))
    assert_eq(m.sort_values("a", ignore_index=True)["b"], df.sort_values("a", ignore_index=True)["b"])


@pytest.mark.parametrize("how", ["right", "outer"])
def test_join_blocks_take_the_float_index_of_unmatched_rows(how):
    left = pd.DataFrame({"a": np.arange(12.0), "k": np.arange(12) % 5}, index=np.arange(12) * 2)
    right = pd.DataFrame({"b": np.arange(4)}, index=[0, 3, 4, 7])
    got = md.DataFrame(left, chunk_size=4).join(md.DataFrame(right, chunk_size=2), on="k", how=how)
    expected = left.join(right, on="k", how=how)
    assert expected.index.dtype == np.float64  # NaN labels for the right's unmatched rows
    assert_eq(got, expected)


@pytest.mark.parametrize("as_index", [True, False])
def test_groupby_apply_samples_keep_the_index_dtype(as_index):
    df = _frame(TEXT_INDEX)
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.groupby("s", as_index=as_index)[["a", "b"]].apply(lambda x: x.a * 2),
              df.groupby("s", as_index=as_index)[["a", "b"]].apply(lambda x: x.a * 2))
    assert_eq(m.groupby("s", as_index=as_index)[["a", "b"]].apply(lambda x: x.head(2)),
              df.groupby("s", as_index=as_index)[["a", "b"]].apply(lambda x: x.head(2)))


def test_setting_a_series_of_other_labels_raises_when_set():
    """The frame's sample and the value's have labels of different dtypes: no row can line up."""
    m = md.DataFrame(_frame(INDEXES["dates"]), chunk_size=5)
    with pytest.raises(NotImplementedError, match="same index"):
        m["y"] = md.Series(np.arange(23))
    assert LocalExecutor().compute(m.data)[0].shape == (23, 3)
