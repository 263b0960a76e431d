"""loc on a MultiIndex with lists, slices and tuples holding them, against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

IDX = pd.IndexSlice


@pytest.fixture
def frame():
    index = pd.MultiIndex.from_product([["a", "b", "c"], [1, 2, 3], [10.5, 20.5]], names=["k", "n", "f"])
    return pd.DataFrame({"x": np.arange(18), "y": np.arange(18) * 2.5}, index=index)


FRAME_KEYS = {
    "list of level-0 labels": lambda d: d.loc[["c", "a"]],
    "list of full tuples": lambda d: d.loc[[("c", 2, 20.5), ("a", 1, 10.5)]],
    "list and all": lambda d: d.loc[(["c", "a"], slice(None)), :],
    "all and list": lambda d: d.loc[(slice(None), [3, 1]), :],
    "range and label": lambda d: d.loc[(slice("a", "b"), 2), :],
    "label and list": lambda d: d.loc[("b", [3, 1]), :],
    "two lists": lambda d: d.loc[(["c", "a"], [3, 1]), :],
    "IndexSlice ranges": lambda d: d.loc[IDX["a":"b", 2:3], :],
    "IndexSlice, one column": lambda d: d.loc[IDX["a":"b", 2:3], "y"],
    "IndexSlice, columns list": lambda d: d.loc[IDX[:, :, 20.5], ["y", "x"]],
    "label, all": lambda d: d.loc[("a", slice(None)), :],
    "label slice": lambda d: d.loc["a":"b"],
    "tuple slice": lambda d: d.loc[("a", 2):("b", 1)],
    "third level list": lambda d: d.loc[IDX[:, :, [20.5]], :],
    "open range": lambda d: d.loc[IDX["b":, 2:], :],
}


@pytest.mark.parametrize("name", list(FRAME_KEYS))
@pytest.mark.parametrize("chunk_size", [4, 7, 18])
def test_multi_index_selection_is_pandas(frame, name, chunk_size):
    select = FRAME_KEYS[name]
    assert_eq(select(md.DataFrame(frame, chunk_size=chunk_size)), select(frame))


@pytest.mark.parametrize("key", [IDX[:, 2], IDX["a":"b", [3, 1]], IDX[["c", "a"], :, 10.5], ["b"]], ids=repr)
def test_series_multi_index_selection_is_pandas(frame, key):
    s = frame["y"]
    assert_eq(md.Series(s, chunk_size=5).loc[key], s.loc[key])


def test_multi_index_selection_on_an_unsorted_index(frame):
    shuffled = frame.sample(frac=1, random_state=1)
    m = md.DataFrame(shuffled, chunk_size=5)
    for key in [["c", "a"], (["b", "a"], [2, 3]), (slice(None), [1])]:
        assert_eq(m.loc[key, :] if isinstance(key, tuple) else m.loc[key],
                  shuffled.loc[key, :] if isinstance(key, tuple) else shuffled.loc[key])


def test_multi_index_selection_with_string_levels():
    index = pd.MultiIndex.from_arrays([pd.array(["x", "y", "x", "z"], dtype="string"), [1, 2, 3, 4]])
    df = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]}, index=index)
    assert_eq(md.DataFrame(df, chunk_size=3).loc[(["z", "x"], slice(None)), :], df.loc[(["z", "x"], slice(None)), :])


@pytest.mark.parametrize("key", [["a", "zzz"], (slice(None), [1, 99]), [("a", 7, 10.5)]], ids=repr)
def test_missing_labels_raise_key_error_when_run(frame, key):
    with pytest.raises(KeyError):
        frame.loc[key, :] if isinstance(key, tuple) else frame.loc[key]
    m = md.DataFrame(frame, chunk_size=4)
    selected = m.loc[key, :] if isinstance(key, tuple) else m.loc[key]
    with pytest.raises(KeyError):
        _compute(selected)


def _compute(obj):
    from mars_on_ray.core.local import LocalExecutor

    return LocalExecutor().compute(obj.data)[0]


def test_a_key_longer_than_the_levels_raises_pandas_error(frame):
    with pytest.raises((KeyError, IndexError)) as expected:
        frame["y"].loc[IDX[:, :, :, 1]]
    with pytest.raises(type(expected.value)):
        md.Series(frame["y"]).loc[IDX[:, :, :, 1]]
