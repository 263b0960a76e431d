"""rank against pandas: every tie method, both orders, missing values first / last / kept,
pct, across chunks (23 rows in chunks of 5), after a filter, duplicate labels, empty input."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(0, 6, 23).astype(float), "b": rs.rand(23),
                          "s": [f"x{i % 5}" for i in range(23)], "i": rs.randint(-3, 3, 23),
                          "t": pd.date_range("2020-01-01", periods=23, freq="h")[::-1]},
                         index=[f"r{i % 20:02d}" for i in range(23)])  # duplicate labels
    frame.loc[frame.index[[2, 3, 11, 17]], "a"] = np.nan
    return frame


@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
@pytest.mark.parametrize("na_option", ["keep", "top", "bottom"])
def test_series_rank_ties_and_missing_values_across_chunks(df, method, na_option):
    s = md.DataFrame(df, chunk_size=5)["a"]
    for ascending in (True, False):
        for pct in (False, True):
            kw = {"method": method, "na_option": na_option, "ascending": ascending, "pct": pct}
            assert_eq(s.rank(**kw), df["a"].rank(**kw))


def test_frame_rank_ranks_every_column_including_strings_and_dates(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.rank(), df.rank())
    assert_eq(m.rank(method="dense", ascending=False), df.rank(method="dense", ascending=False))
    assert_eq(m.rank(numeric_only=True, pct=True), df.rank(numeric_only=True, pct=True))


def test_frame_rank_along_the_columns_is_per_row(df):
    m = md.DataFrame(df[["a", "b", "i"]], chunk_size=5)
    assert_eq(m.rank(axis=1), df[["a", "b", "i"]].rank(axis=1))
    assert_eq(m.rank(axis=1, method="min", na_option="top"),
              df[["a", "b", "i"]].rank(axis=1, method="min", na_option="top"))


def test_rank_after_a_filter_keeps_the_unknown_chunks(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["b"] > 0.3], df[df["b"] > 0.3]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.rank(method="first"), expected.rank(method="first"))
    assert_eq(flt["a"].rank(na_option="bottom", pct=True), expected["a"].rank(na_option="bottom", pct=True))
    assert_eq(m[m["b"] > 5]["a"].rank(), df[df["b"] > 5]["a"].rank())


def test_rank_of_empty_and_all_missing_series():
    assert_eq(md.Series(pd.Series([], dtype=float)).rank(pct=True), pd.Series([], dtype=float).rank(pct=True))
    allnan = pd.Series([np.nan] * 7, name="x")
    for na in ("keep", "top", "bottom"):
        assert_eq(md.Series(allnan, chunk_size=3).rank(na_option=na, pct=True), allnan.rank(na_option=na, pct=True))


def test_rank_keeps_the_input_chunking_and_does_not_gather(df):
    m = md.DataFrame(df, chunk_size=5)
    tiled = LocalExecutor().tile(m["b"].rank().data)
    assert tiled.nsplits[0] == (5, 5, 5, 5, 3)


def test_rank_rejects_bad_options_at_build_time(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(KeyError):  # pandas' own error for an unknown method
        m["a"].rank(method="bogus")
    with pytest.raises(ValueError):
        m["a"].rank(na_option="middle")


def test_frame_rank_numeric_only_with_duplicate_column_names(df):
    dup = df[["a", "s", "b"]].set_axis(["x", "x", "y"], axis=1)
    m = md.DataFrame(dup, chunk_size=4)
    assert_eq(m.rank(numeric_only=True), dup.rank(numeric_only=True))
    assert_eq(m.rank(method="max"), dup.rank(method="max"))


def test_rank_result_lines_up_with_its_input_by_chunk(df):
    from mars_on_ray.dataframe.align import index_relation

    m = md.DataFrame(df, chunk_size=5)
    assert index_relation(m["b"].rank(), m["b"]) == "same"
    assert_eq(m["b"].rank() + m["b"], df["b"].rank() + df["b"])


def test_rank_of_categoricals_follows_the_category_order():
    ordered = pd.Series(pd.Categorical(list("bcabca") + [None], categories=["c", "b", "a"], ordered=True))
    unordered = pd.Series(pd.Categorical(list("bcabca"), categories=["c", "b", "a"]))
    for s in (ordered, unordered):
        assert_eq(md.Series(s, chunk_size=2).rank(), s.rank())
        assert_eq(md.Series(s, chunk_size=2).rank(method="dense", na_option="top"), s.rank(method="dense", na_option="top"))
