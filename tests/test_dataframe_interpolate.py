"""interpolate against pandas: missing runs spanning several chunks (40 rows in chunks of 5),
every limit / limit_direction / limit_area, x from the index, frames, after a filter."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.cumulative import PANDAS3
from mars_on_ray.testing import assert_eq


@pytest.fixture
def values():
    y = np.random.RandomState(0).rand(40)
    for a, b in [(0, 3), (6, 18), (20, 21), (25, 27), (33, 40)]:  # leading, long, short, trailing
        y[a:b] = np.nan
    return y


@pytest.mark.parametrize("method", ["linear", "index", "nearest"])
@pytest.mark.parametrize("limit", [None, 1, 7])
def test_interpolate_limits_across_chunk_boundaries(values, method, limit):
    s = pd.Series(values, name="v")
    ms = md.Series(s, chunk_size=5)
    for direction in (None, "forward", "backward", "both"):
        for area in (None, "inside", "outside"):
            kw = dict(method=method, limit=limit, limit_direction=direction, limit_area=area)
            assert_eq(ms.interpolate(**kw), s.interpolate(**kw))


def test_interpolate_by_an_increasing_index(values):
    rs = np.random.RandomState(1)
    s = pd.Series(values, index=np.cumsum(rs.rand(40)) * 3)
    ms = md.Series(s, chunk_size=6)
    assert_eq(ms.interpolate(method="values", limit_direction="both"), s.interpolate(method="values", limit_direction="both"))
    assert_eq(ms.interpolate(method="nearest"), s.interpolate(method="nearest"))
    times = pd.Series(values, index=pd.date_range("2020-01-01", periods=40, freq="h")
                      + pd.to_timedelta(rs.randint(0, 50, 40), unit="min"))
    assert_eq(md.Series(times, chunk_size=6).interpolate(method="time"), times.interpolate(method="time"))


def test_interpolate_frames_fill_float_columns_and_keep_the_rest(values):
    df = pd.DataFrame({"a": values, "b": values[::-1], "i": np.arange(40), "s": list("xy") * 20},
                      index=[f"r{i:02d}" for i in range(40)])
    m = md.DataFrame(df[["a", "b", "i"]], chunk_size=7)
    assert_eq(m.interpolate(), df[["a", "b", "i"]].interpolate())
    assert_eq(m.interpolate(limit=2, limit_direction="both"), df[["a", "b", "i"]].interpolate(limit=2, limit_direction="both"))
    assert_eq(m.interpolate(axis=1), df[["a", "b", "i"]].interpolate(axis=1))
    flt, expected = m[m["i"] % 3 > 0], df[["a", "b", "i"]][df["i"] % 3 > 0]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.interpolate(limit_area="inside"), expected.interpolate(limit_area="inside"))


def test_interpolate_of_empty_all_missing_and_integer_series():
    assert_eq(md.Series(pd.Series([], dtype=float)).interpolate(), pd.Series([], dtype=float).interpolate())
    nan = pd.Series([np.nan] * 7)
    assert_eq(md.Series(nan, chunk_size=3).interpolate(limit_direction="both"), nan.interpolate(limit_direction="both"))
    ints = pd.Series(np.arange(9))
    assert_eq(md.Series(ints, chunk_size=4).interpolate(), ints.interpolate())


def test_interpolate_inplace(values):
    s = pd.Series(values)
    ms = md.Series(s, chunk_size=5)
    assert ms.interpolate(inplace=True) is None
    assert_eq(ms, s.interpolate())


def test_interpolate_errors(values):
    ms = md.Series(pd.Series(values), chunk_size=5)
    with pytest.raises(ValueError):
        ms.interpolate(limit=0)
    with pytest.raises(ValueError):
        ms.interpolate(limit_direction="sideways")
    with pytest.raises(ValueError):
        ms.interpolate(limit_area="middle")
    with pytest.raises(NotImplementedError, match="polynomial"):
        ms.interpolate(method="polynomial", order=2)
    unsorted = md.Series(pd.Series(values, index=np.arange(40)[::-1]), chunk_size=5)
    with pytest.raises(NotImplementedError, match="not increasing"):
        LocalExecutor().compute(unsorted.interpolate(method="index").data)


def test_interpolate_pad_follows_each_pandas(values):
    s = pd.Series(values)
    ms = md.Series(s, chunk_size=5)
    if PANDAS3:
        with pytest.raises(ValueError):
            ms.interpolate(method="pad")
    else:
        with pytest.warns(FutureWarning):
            expected = s.interpolate(method="pad", limit=2)
        assert_eq(ms.interpolate(method="pad", limit=2), expected)


def test_interpolate_result_lines_up_with_its_input_by_chunk(values):
    from mars_on_ray.dataframe.align import index_relation

    s = pd.Series(values, index=[f"r{i % 30}" for i in range(40)])  # duplicate labels
    ms = md.Series(s, chunk_size=5)
    assert index_relation(ms.interpolate(), ms) == "same"
    assert_eq(ms.interpolate() - ms.fillna(0), s.interpolate() - s.fillna(0))
