"""Positional indexing against pandas: iloc, iat, take, tail, head and ``[]`` row selections.

Chunk sizes do not divide the data; frames after a filter have unknown chunk extents, so
tiling asks for real shapes (only of the chunks a selection needs).
"""
import warnings

import numpy as np
import pandas as pd
import pytest
from pandas.errors import IndexingError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.datasource import FrameData
from mars_on_ray.dataframe.positional import PANDAS3, GatherBlock
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


def _sources_read(obj) -> set:
    """Indices of the source chunks the tiled result reads (after any shape stages)."""
    tiled = LocalExecutor().tile(obj.data)
    return {c.index[0] for c in topo_order(tiled.flat) if isinstance(c.op, FrameData)}


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 23), "b": rs.rand(23), "c": rs.rand(23) > 0.5,
                          "s": [f"x{i % 4}" for i in range(23)], "n": np.nan},
                         index=[f"r{i:02d}" for i in range(23)])
    frame.loc[["r03", "r17"], "b"] = np.nan
    return frame


KEYS = [slice(2, 9), slice(None, 7), slice(-5, None), slice(3, None), slice(None, None, 3),
        slice(None, None, -2), slice(-7, -2, 2), slice(20, 2, -3), slice(5, 5), slice(30, 40),
        slice(None, -4), slice(-100, 3), [3, 1, 20, 5, 5, -1], [0, 4, 8, 12, 16], [], [22, 21, 20],
        np.array([7, 2, 19, 0, 13, 13, 6, 4, 1, 22, 10, 3]), range(1, 20, 4)]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_iloc_rows_of_frame_and_series(df, key):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.iloc[key], df.iloc[key])
    assert_eq(md.Series(df["b"], chunk_size=5).iloc[key], df["b"].iloc[key])


@pytest.mark.parametrize("key", [slice(1, 6), slice(-4, None), slice(2, None), [5, 0, 2, 0],
                                 slice(None, None, -1), [-1, -3], slice(None, 3)], ids=repr)
def test_iloc_after_a_filter_with_unknown_extents(df, key):
    m = md.DataFrame(df, chunk_size=4)
    flt, expected = m[m["a"] > -2], df[df["a"] > -2]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.iloc[key], expected.iloc[key])
    assert_eq(flt["b"].iloc[key], expected["b"].iloc[key])


def test_iloc_reads_only_the_chunks_holding_the_rows(df):
    m = md.DataFrame(df, chunk_size=4)  # chunks of 4, 4, 4, 4, 4, 3 rows
    assert _sources_read(m.iloc[:6]) == {0, 1}
    assert _sources_read(m.iloc[5:7]) == {1}
    assert _sources_read(m.iloc[-6:]) == {4, 5}
    assert _sources_read(m.tail(3)) == {5}
    assert _sources_read(m.iloc[[9, 2]]) == {0, 2}
    everything = m[m["a"] >= -5]  # unknown extents: shapes asked from the right end only
    assert _sources_read(everything.iloc[:3]) == {0}
    assert _sources_read(everything.iloc[-2:]) == {5}
    assert _sources_read(everything.tail(5)) == {4, 5}


def test_iloc_head_is_a_head_for_limit_pushdown(df):
    from mars_on_ray.dataframe.indexing import Head

    m = md.DataFrame(df, chunk_size=4)
    assert isinstance(m.iloc[:7].op, Head)
    assert isinstance(m.iloc[2:7].data.inputs[0].op, Head)  # the rows past 7 are never read
    assert_eq(m.iloc[:7], df.iloc[:7])


def test_csv_iloc_prefix_becomes_a_reader_limit(tmp_path):
    from mars_on_ray.core.optimizer import optimize
    from mars_on_ray.dataframe.io.csv import ReadCSV

    pdf = pd.DataFrame({"a": np.arange(3000), "b": np.arange(3000) * 0.5})
    path = tmp_path / "t.csv"
    pdf.to_csv(path, index=False)
    m = md.read_csv(str(path), chunk_bytes=2000)
    for obj, expected, limit in ((m.iloc[:10], pdf.iloc[:10], 10), (m.iloc[4:12], pdf.iloc[4:12], 12)):
        (reader,) = [n for n in optimize([obj.data]).order if isinstance(n.op, ReadCSV)]
        assert reader.op.limit == limit
        assert_eq(obj, expected)


def test_column_pruning_passes_row_selections(tmp_path):
    from mars_on_ray.core.optimizer import optimize
    from mars_on_ray.dataframe.io.parquet import ReadParquet

    pdf = pd.DataFrame({f"c{i}": np.arange(600.0) + i for i in range(5)})
    pdf.to_parquet(tmp_path / "t.parquet", row_group_size=100)
    m = md.read_parquet(str(tmp_path / "t.parquet"), chunk_bytes=1)
    for obj, expected, columns in (
            (m.iloc[5:250]["c1"], pdf.iloc[5:250]["c1"], ["c1"]),
            (m.tail(30)[["c2"]], pdf.tail(30)[["c2"]], ["c2"]),
            (m.iloc[[3, 590, 5]]["c1"], pdf.iloc[[3, 590, 5]]["c1"], ["c1"]),
            (m.loc[300:420]["c3"], pdf.loc[300:420]["c3"], ["c3"]),
            (m.loc[[7, 1]]["c0"], pdf.loc[[7, 1]]["c0"], ["c0"])):
        (reader,) = [n for n in optimize([obj.data]).order if isinstance(n.op, ReadParquet)]
        assert reader.op.columns == columns
        assert_eq(obj, expected)
    weighted = m.sample(n=5, weights="c4", random_state=1)[["c1"]]
    (reader,) = [n for n in optimize([weighted.data]).order if isinstance(n.op, ReadParquet)]
    assert reader.op.columns == ["c1", "c4"]
    same = md.DataFrame(pdf, chunk_size=77).sample(n=5, weights="c4", random_state=1)[["c1"]]
    pd.testing.assert_frame_equal(_value(weighted), _value(same))


def test_unsorted_positions_are_gathered_by_blocks(df):
    m = md.DataFrame(df, chunk_size=3)
    positions = np.random.RandomState(1).permutation(23).tolist() + [4, 4, -2]
    result = m.iloc[positions]
    tiled = LocalExecutor().tile(result.data)
    assert all(isinstance(c.op, GatherBlock) for c in tiled.flat) and len(tiled.flat) == 9
    assert_eq(result, df.iloc[positions])
    unfused = LocalExecutor(fusion=False)
    unfused.compute(result.data)
    assert unfused.subtask_count == 8 + 8 + 9  # read, split once per chunk, one per block
    assert_eq(m[m["a"] > 0].iloc[[3, 0, 2, 1]], df[df["a"] > 0].iloc[[3, 0, 2, 1]])


def test_iloc_boolean_masks(df):
    m = md.DataFrame(df, chunk_size=4)
    mask = (df["a"] > 0).to_numpy()
    assert_eq(m.iloc[mask], df.iloc[mask])
    assert_eq(m.iloc[list(mask)], df.iloc[list(mask)])
    assert_eq(m.iloc[mt.tensor(mask, chunk_size=6)], df.iloc[mask])
    assert_eq(m["b"].iloc[mt.tensor(mask, chunk_size=7)], df["b"].iloc[mask])
    flt, expected = m[m["c"]], df[df["c"]]
    sub = (expected["a"] > 0).to_numpy()
    assert_eq(flt.iloc[mt.tensor(sub, chunk_size=2)], expected.iloc[sub])
    with pytest.raises(IndexError, match="wrong length"):
        m.iloc[mask[:5]]
    with pytest.raises(IndexError, match="wrong length"):
        _value(flt.iloc[mt.tensor(mask)])


def test_iloc_with_a_boolean_series_follows_pandas():
    pdf = pd.DataFrame({"a": np.arange(10)})
    m = md.DataFrame(pdf, chunk_size=3)
    key = pdf["a"] % 3 == 0
    if PANDAS3:  # pandas 3 aligns a boolean Series by label
        assert_eq(m.iloc[m["a"] % 3 == 0], pdf.iloc[key])
        assert_eq(m.iloc[key], pdf.iloc[key])
    else:
        with pytest.raises(NotImplementedError):
            pdf.iloc[key]
        with pytest.raises(NotImplementedError):
            m.iloc[m["a"] % 3 == 0]


def test_iloc_with_a_lazy_integer_tensor_is_pandas(df):
    """Was a NotImplementedError ("iloc with a lazy integer tensor"): ``df.iloc[perm]``
    with a lazy permutation, of known or unknown length, repeats and negative positions."""
    m = md.DataFrame(df, chunk_size=5)
    perm = np.random.RandomState(1).permutation(len(df))
    assert_eq(m.iloc[mt.tensor(perm, chunk_size=4)], df.iloc[perm])
    assert_eq(m["b"].iloc[mt.tensor(perm, chunk_size=4)], df["b"].iloc[perm])
    assert_eq(m.iloc[mt.tensor(np.array([-1, 0, 5, 5]))], df.iloc[[-1, 0, 5, 5]])
    assert_eq(m.iloc[mt.tensor(perm, chunk_size=4), [1, 0]], df.iloc[perm, [1, 0]])
    picked = mt.flatnonzero(mt.tensor(np.arange(len(df)), chunk_size=6) % 3 == 1)  # unknown length
    assert_eq(m.iloc[picked], df.iloc[np.flatnonzero(np.arange(len(df)) % 3 == 1)])
    with pytest.raises(IndexError):
        _value(m.iloc[mt.tensor(np.array([len(df)]))])
    with pytest.raises(IndexError):
        m.iloc[mt.ones((2, 2), dtype=int)]


def test_iloc_two_dimensional(df):
    m = md.DataFrame(df, chunk_size=5)
    for key in [(slice(3, 9), [0, 2]), (slice(None), 1), (slice(None), slice(1, 3)),
                ([4, 1], [-1, 0]), (slice(None, None, -3), slice(None)), (np.arange(23) % 2 == 0, [True, False, True, False, True])]:
        assert_eq(m.iloc[key], df.iloc[key])
    assert_eq(m.iloc[5, 1], df.iloc[5, 1])
    assert_eq(m.iloc[-1, 0], df.iloc[-1, 0])
    assert_eq(m.iloc[[2, 3], 0], df.iloc[[2, 3], 0])
    assert _value(m.iloc[4, 3]) == df.iloc[4, 3]
    row = m.iloc[3, [1, 0]]  # pandas 2.2: the whole row's dtype (object); pandas 3: the selection's
    assert row.dtype == df.iloc[3, [1, 0]].dtype
    pd.testing.assert_series_equal(_value(row), df.iloc[3, [1, 0]])
    with pytest.raises(IndexError):
        m.iloc[:, 7]
    with pytest.raises(IndexingError):
        m.iloc[1, 2, 3]
    with pytest.raises(IndexingError):
        m["a"].iloc[1, 2]


def test_iloc_scalar_rows_and_values(df):
    m = md.DataFrame(df, chunk_size=4)
    for i in (0, 5, 22, -1, -23):
        row = m.iloc[i]
        assert row.shape == (5,) and row.dtype == df.iloc[i].dtype
        pd.testing.assert_series_equal(_value(row), df.iloc[i])  # the declared name is None
        assert_eq(m["b"].iloc[i], df["b"].iloc[i])
        assert _value(m["s"].iloc[i]) == df["s"].iloc[i]
    numeric = md.DataFrame(df[["a", "b"]], chunk_size=4)
    pd.testing.assert_series_equal(_value(numeric.iloc[7]), df[["a", "b"]].iloc[7])
    flt = m[m["a"] > 0]
    pd.testing.assert_series_equal(_value(flt.iloc[-1]), df[df["a"] > 0].iloc[-1])
    assert_eq(flt["a"].iloc[2], df[df["a"] > 0]["a"].iloc[2])


def test_iloc_errors(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.iloc[[1.5, 3.0]], df.iloc[[1.5, 3.0]])
    for key in (23, -24, [0, 23], 1.5, "a", slice("a", "b"), ["a"]):
        with pytest.raises(Exception) as raised:
            df.iloc[key]
        with pytest.raises(type(raised.value)):
            m.iloc[key]
    flt = m[m["a"] > 100]  # no row: known only when run
    with pytest.raises(IndexError, match="single positional indexer is out-of-bounds"):
        _value(flt.iloc[0])
    with pytest.raises(IndexError, match="out-of-bounds"):
        _value(flt.iloc[[-1]])
    with pytest.raises(ValueError):
        m.iloc[::0]


def test_iloc_on_empty_and_nondefault_indexes():
    empty = pd.DataFrame({"a": pd.Series([], dtype="int64"), "s": pd.Series([], dtype="str")})
    m = md.DataFrame(empty, chunk_size=3)
    for key in (slice(None, 3), slice(2, None), [], slice(None, None, -1)):
        assert_eq(m.iloc[key], empty.iloc[key])
    assert_eq(m.tail(2), empty.tail(2))
    with pytest.raises(IndexError):
        m.iloc[0]
    dates = pd.DataFrame({"v": np.arange(11.0)}, index=pd.date_range("2021-01-01", periods=11))
    assert_eq(md.DataFrame(dates, chunk_size=3).iloc[[8, 1, 5]], dates.iloc[[8, 1, 5]])
    dup = pd.Series(np.arange(9), index=list("aabbccdda"))
    assert_eq(md.Series(dup, chunk_size=2).iloc[2:7], dup.iloc[2:7])
    assert_eq(md.Series(dup, chunk_size=2).iloc[[8, 0]], dup.iloc[[8, 0]])


def test_iat_take_and_tail(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.iat[3, 1], df.iat[3, 1])
    assert_eq(m["a"].iat[-2], df["a"].iat[-2])
    for bad in ((0, "a"), (1,), 0):
        with pytest.raises(ValueError):
            m.iat[bad]
    assert_eq(m.take([4, 0, -1]), df.take([4, 0, -1]))
    assert_eq(m.take([2, 0], axis=1), df.take([2, 0], axis=1))
    assert_eq(m["b"].take([5, 5, 1]), df["b"].take([5, 5, 1]))
    with pytest.raises(IndexError):
        m.take([30])
    for n in (0, 1, 3, 4, 7, 23, 40, -1, -5, -30):
        assert_eq(m.tail(n), df.tail(n))
        assert_eq(m["s"].tail(n), df["s"].tail(n))
    flt, expected = m[m["c"]], df[df["c"]]
    for n in (2, 6, -3):
        assert_eq(flt.tail(n), expected.tail(n))
        assert_eq(flt.head(n), expected.head(n))


def test_getitem_row_slices_and_masks(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m[2:9], df[2:9])
    assert_eq(m[::-4], df[::-4])
    assert_eq(m["r03":"r09"], df["r03":"r09"])
    mask = (df["b"] > 0.4).to_numpy()
    assert_eq(m[mask], df[mask])
    assert_eq(m[list(mask)], df[list(mask)])
    assert_eq(m[mt.tensor(mask, chunk_size=5)], df[mask])
    assert_eq(m[lambda x: x["a"] > 0], df[lambda x: x["a"] > 0])
    ints = pd.DataFrame({"v": np.arange(10)}, index=np.arange(10) * 10)
    assert_eq(md.DataFrame(ints, chunk_size=3)[1:4], ints[1:4])
    floats = pd.DataFrame({"v": np.arange(5)}, index=[1.0, 2.0, 3.0, 4.0, 5.0])
    with warnings.catch_warnings():  # pandas 2.2: label-based, deprecated; pandas 3: positions
        warnings.simplefilter("ignore", FutureWarning)
        expected = floats[1:3]
    assert_eq(md.DataFrame(floats, chunk_size=2)[1:3], expected)


def test_getitem_where_by_a_boolean_frame(df):
    num = df[["a", "b"]]
    m = md.DataFrame(num, chunk_size=4)
    assert_eq(m[m > 0], num[num > 0])
    assert_eq(m[m[["a"]] > 0], num[num[["a"]] > 0])
    withbool = df[["a", "b", "c", "s"]]
    mm = md.DataFrame(withbool, chunk_size=5)
    key = md.DataFrame(withbool[["a", "b", "c"]] != 0, chunk_size=5)
    assert_eq(mm[key], withbool[withbool[["a", "b", "c"]] != 0])
    with pytest.raises(Exception) as raised:
        num[num + 1]
    with pytest.raises(type(raised.value)):
        m[m + 1]


def test_series_getitem_labels_and_positions(df):
    s = md.Series(df["b"], chunk_size=4)
    ps = df["b"]
    assert_eq(s["r05"], ps["r05"])
    assert_eq(s[["r05", "r01", "r05"]], ps[["r05", "r01", "r05"]])
    assert_eq(s["r02":"r06"], ps["r02":"r06"])
    assert_eq(s[2:6], ps[2:6])
    assert_eq(s[s > 0.5], ps[ps > 0.5])
    if PANDAS3:  # integers are labels
        with pytest.raises(KeyError):
            _value(s[3])
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_eq(s[3], ps[3])
            assert_eq(s[[3, 0]], ps[[3, 0]])
    ints = pd.Series(np.arange(6.0), index=[5, 4, 3, 2, 1, 0])
    assert_eq(md.Series(ints, chunk_size=4)[2], ints[2])
    assert_eq(md.Series(ints, chunk_size=4)[[0, 5]], ints[[0, 5]])


def test_keys_and_fusion_of_positional_graphs(df):
    m = md.DataFrame(df, chunk_size=4)
    expr = m[m["a"] > 0].iloc[[4, 0, 2]]["b"].tail(2)
    fused = LocalExecutor(fusion=True).compute(expr.data)[0]
    unfused = LocalExecutor(fusion=False).compute(expr.data)[0]
    pd.testing.assert_series_equal(fused, unfused)
    pd.testing.assert_series_equal(fused, df[df["a"] > 0].iloc[[4, 0, 2]]["b"].tail(2))
    again = md.DataFrame(df, chunk_size=4)
    assert again[again["a"] > 0].iloc[[4, 0, 2]].key == m[m["a"] > 0].iloc[[4, 0, 2]].key


# --- on Ray (the module's local Ray: tiling stages and values requests through the services) ---

def test_iloc_tail_and_take_on_ray(session, df):
    m = md.DataFrame(df, chunk_size=4)
    flt, expected = m[m["a"] > -3], df[df["a"] > -3]
    assert_eq(flt.iloc[2:9], expected.iloc[2:9])
    assert_eq(flt.iloc[[5, 0, 3, 3, -1]], expected.iloc[[5, 0, 3, 3, -1]])
    assert_eq(m.iloc[np.random.RandomState(2).permutation(23)], df.iloc[np.random.RandomState(2).permutation(23)])
    assert_eq(flt.tail(4), expected.tail(4))
    assert_eq(m.iloc[mt.tensor((df["b"] > 0.5).to_numpy(), chunk_size=6), [0, 1]],
              df.iloc[(df["b"] > 0.5).to_numpy(), [0, 1]])
    assert_eq(m["b"].iloc[7], df["b"].iloc[7])
    pd.testing.assert_series_equal(flt.iloc[-2].fetch(), expected.iloc[-2])
    with pytest.raises(IndexError):
        m[m["a"] > 100].iloc[0].fetch()


def test_loc_on_ray(session, df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.loc["r04":"r13":2, ["b", "s"]], df.loc["r04":"r13":2, ["b", "s"]])
    shuffled = df.sample(frac=1, random_state=4)
    ms = md.DataFrame(shuffled, chunk_size=5)
    assert_eq(ms.loc["r10":"r02"], shuffled.loc["r10":"r02"])
    assert_eq(ms.loc[["r07", "r01", "r07"]], shuffled.loc[["r07", "r01", "r07"]])
    assert_eq(ms.loc["r09"], shuffled.loc["r09"])
    assert_eq(ms.at["r09", "a"], shuffled.at["r09", "a"])
    with pytest.raises(KeyError):
        ms.loc["zz"].fetch()
    with pytest.raises(KeyError):
        ms.loc["r035":"r11"].fetch()


def test_setitem_on_ray(session, df):
    m, p = md.DataFrame(df, chunk_size=4), df.copy()
    m["d"] = m["a"] * 2
    p["d"] = p["a"] * 2
    m["e"] = mt.arange(23, chunk_size=6)
    p["e"] = np.arange(23)
    m.loc[m["a"] > 2, "b"] = 0.0
    p.loc[p["a"] > 2, "b"] = 0.0
    m.iloc[[1, 20], 0] = 9
    p.iloc[[1, 20], 0] = 9
    m.at["r05", "d"] = -1
    p.at["r05", "d"] = -1
    assert_eq(m, p)
    m.loc["zz", "a"] = 1
    with pytest.raises(NotImplementedError, match="enlargement"):
        m.fetch()


def test_sample_on_ray(session, df):
    m = md.DataFrame(df, chunk_size=4)
    weighted = dict(n=3, weights=df["b"].fillna(0.5).to_numpy(), random_state=1)
    for kwargs in (dict(n=9, random_state=3), dict(frac=0.4, random_state=1), weighted,
                   dict(n=30, replace=True, random_state=2)):
        drawn = m.sample(**kwargs).fetch()
        local = LocalExecutor().compute(md.DataFrame(df, chunk_size=6).sample(**kwargs).data)[0]
        pd.testing.assert_frame_equal(drawn, local)
