"""Label indexing against pandas: loc and at on sorted, unsorted, non-unique, datetime indexes."""
import numpy as np
import pandas as pd
import pytest
from pandas.errors import IndexingError

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.datasource import FrameData
from mars_on_ray.dataframe.positional import TakeRows
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


def _raises_like(expected_call, actual_call):
    """``actual_call()`` raises the exception type pandas' ``expected_call()`` raises."""
    with pytest.raises(Exception) as raised:
        expected_call()
    with pytest.raises(type(raised.value)):
        actual_call()
    return raised.value


@pytest.fixture
def df():
    rs = np.random.RandomState(3)
    frame = pd.DataFrame({"a": rs.randint(0, 9, 23), "b": rs.rand(23), "s": [f"v{i % 5}" for i in range(23)],
                          "n": np.nan}, index=[f"r{i:02d}" for i in range(23)])
    frame.loc[["r04", "r11"], "b"] = np.nan
    return frame


SORTED_SLICES = [slice("r03", "r11"), slice("r03", "r11", 2), slice("r11", "r03", -2), slice(None, "r05"),
                 slice("r025", None), slice("r115", "r2"), slice("zz", None), slice(None, "a"),
                 slice("r20", "r02"), slice(None, None, -5), slice("r07", "r07")]


@pytest.mark.parametrize("key", SORTED_SLICES, ids=repr)
def test_loc_slices_on_a_sorted_index(df, key):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.loc[key], df.loc[key])
    assert_eq(md.Series(df["b"], chunk_size=6).loc[key], df["b"].loc[key])
    flt, expected = m[m["a"] > 2], df[df["a"] > 2]
    assert_eq(flt.loc[key], expected.loc[key])


def test_loc_slice_reads_rows_only_from_the_chunks_holding_them(df):
    m = md.DataFrame(df, chunk_size=4)  # r00-r03, r04-r07, ..., r20-r22
    tiled = LocalExecutor().tile(m.loc["r05":"r09"].data)
    cuts = [c for c in topo_order(tiled.flat) if isinstance(c.op, TakeRows)]
    read = {i.index[0] for c in cuts for i in c.inputs if isinstance(i.op, FrameData)}
    assert read == {1, 2}
    assert_eq(m.loc["r05":"r09"], df.loc["r05":"r09"])


@pytest.mark.parametrize("index", [
    np.arange(23) * 3,                               # sorted integers with gaps
    np.arange(23)[::-1] * 2,                         # decreasing
    np.repeat(np.arange(8), 3)[:23],                 # sorted, not unique
    pd.date_range("2021-01-01", periods=23, freq="7h"),
], ids=["ints", "decreasing", "non-unique", "datetime"])
def test_loc_slices_on_other_sorted_indexes(index):
    pdf = pd.DataFrame({"v": np.arange(23.0)}, index=index)
    m = md.DataFrame(pdf, chunk_size=5)
    if isinstance(index, pd.DatetimeIndex):
        keys = [slice("2021-01-02", "2021-01-04"), slice("2021-01-03 05:00", None),
                slice(pd.Timestamp("2021-01-02"), pd.Timestamp("2021-01-05 13:00"), 3),
                slice("2021-01-05", "2021-01-02", -1)]
    else:
        lo, hi = sorted([int(index[4]), int(index[15])])
        keys = [slice(lo, hi), slice(hi, lo), slice(lo - 1, hi + 1, 2), slice(None, lo), slice(hi, None),
                slice(hi, lo, -1), slice(lo + 1, lo + 1)]
    for key in keys:
        assert_eq(m.loc[key], pdf.loc[key])


def test_loc_slices_on_an_unsorted_index(df):
    shuffled = df.sample(frac=1, random_state=0)
    m = md.DataFrame(shuffled, chunk_size=5)
    for key in (slice("r03", "r11"), slice("r11", "r03"), slice(None, "r07"), slice("r07", None, 2),
                slice("r07", "r03", -1)):
        assert_eq(m.loc[key], shuffled.loc[key])
    err = _raises_like(lambda: shuffled.loc["r035":"r11"], lambda: _value(m.loc["r035":"r11"]))
    assert isinstance(err, KeyError)
    dup = pd.DataFrame({"v": np.arange(9)}, index=list("cbbadeaxy"))
    md_dup = md.DataFrame(dup, chunk_size=2)
    assert_eq(md_dup.loc["b":"e"], dup.loc["b":"e"])   # contiguous duplicates: a slice bound
    _raises_like(lambda: dup.loc["a":"x"], lambda: _value(md_dup.loc["a":"x"]))  # non-contiguous


def test_loc_single_labels(df):
    m = md.DataFrame(df, chunk_size=4)
    row = m.loc["r07"]
    assert row.name == "r07" and row.shape == (4,)
    assert_eq(row, df.loc["r07"])
    assert_eq(m["b"].loc["r12"], df["b"].loc["r12"])
    assert _value(m["s"].loc["r12"]) == df["s"].loc["r12"]
    assert_eq(m.loc["r07", "b"], df.loc["r07", "b"])
    assert_eq(m.loc["r07", ["b", "a"]], df.loc["r07", ["b", "a"]])
    shuffled = md.DataFrame(df.sample(frac=1, random_state=1), chunk_size=6)
    assert_eq(shuffled.loc["r19"], df.loc["r19"])
    with pytest.raises(KeyError):
        _value(m.loc["zz"])
    with pytest.raises(KeyError):
        _value(m["a"].loc["zz"])
    with pytest.raises(KeyError):
        m.loc["r01", "zz"]


def test_loc_label_on_a_non_unique_index():
    dup = pd.DataFrame({"v": np.arange(7), "w": np.arange(7) * 0.5}, index=list("abcbdeb"))
    m = md.DataFrame(dup, chunk_size=3)
    assert_eq(m.loc["d"], dup.loc["d"])  # a label present once: a row, as pandas gives
    with pytest.raises(NotImplementedError, match=r"not unique.*\.loc\[\['b'\]\]"):
        _value(m.loc["b"])  # pandas returns a DataFrame: a type known only from the data
    assert_eq(m.loc[["b"]], dup.loc[["b"]])
    assert_eq(m.loc[["e", "b", "a", "b"]], dup.loc[["e", "b", "a", "b"]])


def test_loc_lists_of_labels(df):
    m = md.DataFrame(df, chunk_size=4)
    for key in (["r05", "r01", "r22", "r01"], np.array(["r00"]), pd.Index(["r13", "r02"]), []):
        assert_eq(m.loc[key], df.loc[key])
        assert_eq(m["b"].loc[key], df["b"].loc[key])
    ints = pd.DataFrame({"v": np.arange(10)})
    mi = md.DataFrame(ints, chunk_size=3)
    assert_eq(mi.loc[[1, 2, 3]], ints.loc[[1, 2, 3]])
    assert_eq(mi.loc[[9, 0, 4]], ints.loc[[9, 0, 4]])
    many = list(np.random.RandomState(0).permutation(23))
    flt = m[m["a"] >= 0]
    labels = [f"r{i:02d}" for i in many]
    several = md.DataFrame(df, chunk_size=2).loc[labels]  # 12 chunks, 12 blocks of labels
    assert_eq(several, df.loc[labels])
    unfused = LocalExecutor(fusion=False)
    unfused.compute(several.data)
    assert unfused.subtask_count == 3 * 12  # read, split once per chunk, one per block
    assert_eq(flt.loc[labels], df.loc[labels])
    _raises_like(lambda: df.loc[["r05", "zz"]], lambda: _value(m.loc[["r05", "zz"]]))
    _raises_like(lambda: df.loc[["yy", "zz"]], lambda: _value(m.loc[["yy", "zz"]]))


def test_loc_boolean_masks(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.loc[m["a"] > 4], df.loc[df["a"] > 4])
    assert_eq(m.loc[m["a"] > 4, ["s", "b"]], df.loc[df["a"] > 4, ["s", "b"]])
    assert_eq(m.loc[df["a"] > 4, "b"], df.loc[df["a"] > 4, "b"])
    mask = (df["b"] > 0.5).to_numpy()
    assert_eq(m.loc[mask], df.loc[mask])
    assert_eq(m.loc[list(mask), "a"], df.loc[list(mask), "a"])
    assert_eq(m.loc[mt.tensor(mask, chunk_size=7)], df.loc[mask])
    assert_eq(m.loc[lambda x: x["a"] < 3], df.loc[lambda x: x["a"] < 3])
    other = md.Series((df["a"] > 4).to_numpy())  # a RangeIndex: no label of the frame's
    with pytest.raises(IndexingError):
        df.loc[(df["a"] > 4).reset_index(drop=True)]
    with pytest.raises(IndexingError):
        _value(m.loc[other])
    with pytest.raises(IndexError, match="wrong length"):
        m.loc[mask[:4]]


def test_loc_columns(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.loc[:, "b"], df.loc[:, "b"])
    assert_eq(m.loc[:, ["s", "a"]], df.loc[:, ["s", "a"]])
    assert_eq(m.loc[:, "b":"n"], df.loc[:, "b":"n"])
    assert_eq(m.loc[:, [True, False, True, False]], df.loc[:, [True, False, True, False]])
    assert_eq(m.loc["r02":"r08", "a":"b"], df.loc["r02":"r08", "a":"b"])
    assert_eq(m.loc[["r08", "r02"], "s"], df.loc[["r08", "r02"], "s"])
    with pytest.raises(KeyError):
        m.loc[:, ["a", "zz"]]
    with pytest.raises(IndexingError):
        m.loc["r01", "a", 3]
    with pytest.raises(IndexingError):
        m["a"].loc["r01", "a"]
    dupcols = pd.DataFrame(np.arange(12).reshape(4, 3), columns=["x", "y", "x"])
    md_dup = md.DataFrame(dupcols, chunk_size=3)
    assert_eq(md_dup.loc[:, "x"], dupcols.loc[:, "x"])
    assert_eq(md_dup.iloc[:, [2, 1]], dupcols.iloc[:, [2, 1]])


def test_loc_bad_bounds_and_datetime_labels():
    dates = pd.DataFrame({"v": np.arange(10.0)}, index=pd.date_range("2021-01-01", periods=10))
    m = md.DataFrame(dates, chunk_size=3)
    assert_eq(m.loc[pd.Timestamp("2021-01-04")], dates.loc[pd.Timestamp("2021-01-04")])
    with pytest.raises(NotImplementedError, match="Timestamp"):
        m.loc["2021-01-04"]
    strings = pd.DataFrame({"v": np.arange(4)}, index=list("abcd"))
    _raises_like(lambda: strings.loc[1:2], lambda: md.DataFrame(strings, chunk_size=2).loc[1:2])


def test_loc_on_an_empty_frame():
    empty = pd.DataFrame({"a": pd.Series([], dtype="float64")}, index=pd.Index([], dtype="str"))
    m = md.DataFrame(empty, chunk_size=2)
    assert_eq(m.loc["a":"c"], empty.loc["a":"c"])
    assert_eq(m.loc[[]], empty.loc[[]])
    with pytest.raises(KeyError):
        _value(m.loc["a"])


def test_at(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.at["r09", "b"], df.at["r09", "b"])
    assert_eq(m["a"].at["r10"], df["a"].at["r10"])
    for bad in (("r09", ["a"]), (slice(None), "a"), "r09"):
        with pytest.raises(ValueError):
            m.at[bad]
    with pytest.raises(KeyError):
        _value(m.at["zz", "a"])


# --- loc on a MultiIndex (dataframe/multi_loc.py) -----------------------------------------------

@pytest.fixture
def multi():
    rs = np.random.RandomState(0)
    n = 23
    index = pd.MultiIndex.from_arrays([rs.randint(0, 4, n), rs.choice(list("abc"), n), np.arange(n)],
                                      names=["o", "m", None])
    return pd.DataFrame({"x": rs.rand(n), "y": rs.randint(0, 9, n)}, index=index)


@pytest.mark.filterwarnings("ignore::pandas.errors.PerformanceWarning")
@pytest.mark.parametrize("chunk_size", [5, 23])
def test_loc_on_a_multi_index_is_pandas(multi, chunk_size):
    m = md.DataFrame(multi, chunk_size=chunk_size)
    full = multi.index[3]
    for key in (1, (1,), (1, "a"), full):  # leading labels drop their levels; all of them: a row
        assert_eq(m.loc[key], multi.loc[key])
        assert_eq(m["x"].loc[key], multi["x"].loc[key])
    assert_eq(m.loc[1, "x"], multi.loc[1, "x"])  # (rows, column)
    assert_eq(m.loc[(1, "a"), ["x"]], multi.loc[(1, "a"), ["x"]])
    assert_eq(m.loc[full, "y"], multi.loc[full, "y"])
    with pytest.raises(KeyError):
        multi.loc[7]
    with pytest.raises(KeyError):
        _value(m.loc[7])
    with pytest.raises(KeyError):
        _value(m.loc[(1, "z")])


@pytest.mark.filterwarnings("ignore::pandas.errors.PerformanceWarning")
def test_loc_of_leading_labels_on_a_grouped_result(multi):
    m = md.DataFrame(multi, chunk_size=6)
    grouped, expected = m.groupby(["o", "m"]).sum(), multi.groupby(["o", "m"]).sum()
    assert_eq(grouped.loc[2], expected.loc[2])
    assert_eq(grouped.loc[(2, "b")], expected.loc[(2, "b")])
    assert_eq(grouped["y"].loc[(2, "b")], expected["y"].loc[(2, "b")])


def test_boolean_series_with_other_labels_is_reindexed_as_pandas_does():
    import warnings

    frame = pd.DataFrame({"a": np.arange(10)}, index=list("abcdefghij"))
    mask = (frame["a"] % 3 == 0).iloc[::-1]  # the same labels in another order
    m = md.DataFrame(frame, chunk_size=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pandas: "will be reindexed"
        assert_eq(m[md.Series(mask, chunk_size=4)], frame[mask])
        assert_eq(m.loc[md.Series(mask, chunk_size=4)], frame.loc[mask])
        assert_eq(m["a"][md.Series(mask, chunk_size=4)], frame["a"][mask])
        with pytest.raises(IndexingError):
            frame[mask.iloc[:6]]
    with pytest.raises(IndexingError):
        _value(m[md.Series(mask.iloc[:6], chunk_size=4)])


def test_loc_with_a_lazy_tensor_of_labels_is_pandas():
    """Was a NotImplementedError ("loc with a lazy tensor of labels")."""
    frame = pd.DataFrame({"x": np.arange(23.0), "y": np.arange(23) % 4},
                         index=np.arange(23) % 19 * 10)  # repeated labels
    m = md.DataFrame(frame, chunk_size=5)
    labels = np.array([50, 0, 180, 50, 10])
    assert_eq(m.loc[mt.tensor(labels, chunk_size=2)], frame.loc[labels])
    assert_eq(m["x"].loc[mt.tensor(labels, chunk_size=2)], frame["x"].loc[labels])
    wanted = m["y"].to_tensor() * 10  # lazy labels of unknown values: 0, 10, 20, 30
    assert_eq(m.loc[wanted[:4]], frame.loc[(frame["y"] * 10).to_numpy()[:4]])
    with pytest.raises(KeyError):
        LocalExecutor().compute(m.loc[mt.tensor(np.array([5]))].data)


def test_loc_with_a_lazy_scalar_label_selects_that_row():
    """``df.loc[df["x"].idxmax()]`` raised "Cannot index with multidimensional key"."""
    frame = pd.DataFrame({"x": [3.0, 9.0, 1.0, 4.0], "y": list("abcd")}, index=list("pqrs"))
    m = md.DataFrame(frame, chunk_size=3)
    assert_eq(m.loc[m["x"].idxmax()], frame.loc[frame["x"].idxmax()])
    assert_eq(m["y"].loc[m["x"].idxmin()], frame["y"].loc[frame["x"].idxmin()], check_dtype=False)
