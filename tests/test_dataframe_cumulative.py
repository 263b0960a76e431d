"""cum*, ffill / bfill, fillna, shift, diff, pct_change, tshift against pandas.

Chunk sizes do not divide the data (7 of 41 rows), some chunks are all missing, indexes are
not the default (duplicated labels, strings, dates), and filtered inputs have unknown extents.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.cumulative import PANDAS3
from mars_on_ray.dataframe.scan import Neighbours, Scan
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 41
    frame = pd.DataFrame({"a": rs.rand(n), "b": rs.randint(-9, 9, n), "c": rs.rand(n) > 0.5,
                          "s": rs.choice(list("xyz"), n), "n": np.nan},
                         index=[f"r{i % 13}" for i in range(n)])  # duplicated labels
    frame.iloc[[0, 3, 7, 8, 9, 10, 11, 12, 13, 20, 40], 0] = np.nan  # chunk 1 all missing
    frame["s"] = frame["s"].where(rs.rand(n) > 0.3)
    return frame


NUM = ["a", "b", "c", "n"]


def _stages(obj):
    """The Scan stages of the tiled graph (one entry per chunk node) and the result's chunk count."""
    tiled = LocalExecutor().tile(obj.data)
    return [c.op.stage for c in topo_order(tiled.flat) if isinstance(c.op, Scan)], len(tiled.flat)


@pytest.mark.parametrize("how", ["cumsum", "cumprod", "cummax", "cummin"])
@pytest.mark.parametrize("skipna", [True, False])
def test_cumulative(df, how, skipna):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(getattr(m[NUM], how)(skipna=skipna), getattr(df[NUM], how)(skipna=skipna))
    assert_eq(getattr(m["a"], how)(skipna=skipna), getattr(df["a"], how)(skipna=skipna))
    assert_eq(getattr(m["c"], how)(), getattr(df["c"], how)())  # bools: int64 sums, bool max
    assert_eq(getattr(m[NUM], how)(axis=1), getattr(df[NUM], how)(axis=1))


def test_cumulative_is_a_scan_over_every_chunk(df):
    m = md.DataFrame(df[NUM], chunk_size=7)
    stages, n = _stages(m.cumsum())
    assert n == 6 and stages.count("apply") == 6 and stages.count("summary") == 5
    assert stages.count("scan") == 5  # one operand with an output (a carry) per later chunk


def test_cumulative_strings_and_dates(df):
    m = md.DataFrame(df, chunk_size=5)
    s = df["s"].fillna("w")  # pandas 2.2 cannot compare object strings with NaN
    assert_eq(md.Series(s, chunk_size=5).cummax(), s.cummax())
    assert_eq(md.Series(s, chunk_size=5).cumsum(), s.cumsum())
    s = pd.Series(pd.date_range("2020-01-01", periods=17, freq="D")[::-1])
    s.iloc[[2, 9]] = pd.NaT
    assert_eq(md.Series(s, chunk_size=4).cummin(), s.cummin())
    t = s - s.iloc[0]
    assert_eq(md.Series(t, chunk_size=4).cumsum(), t.cumsum())


def test_cumulative_unknown_extents_and_empty(df):
    m = md.DataFrame(df, chunk_size=6)
    sel = m[m["b"] > 0]
    assert_eq(sel[NUM].cumsum(), df[df["b"] > 0][NUM].cumsum())
    assert_eq(m[m["b"] > 100][NUM].cummax(), df[df["b"] > 100][NUM].cummax())
    assert_eq(md.Series(pd.Series([], dtype=float)).cumsum(), pd.Series([], dtype=float).cumsum())


@pytest.mark.parametrize("how", ["ffill", "bfill", "pad", "backfill"])
@pytest.mark.parametrize("limit", [None, 1, 3, 9])
def test_fills(df, how, limit):
    m = md.DataFrame(df, chunk_size=7)
    name = {"pad": "ffill", "backfill": "bfill"}.get(how, how)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(getattr(m, how)(limit=limit), getattr(df, name)(limit=limit))
        assert_eq(getattr(m["a"], how)(limit=limit), getattr(df["a"], name)(limit=limit))
    assert_eq(getattr(m[NUM], how)(axis=1), getattr(df[NUM], name)(axis=1))


def test_fill_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(ValueError):
        m.ffill(limit=0)
    with pytest.raises(ValueError):
        m.ffill(axis=2)
    with pytest.raises(NotImplementedError):
        m.ffill(limit_area="inside")


def test_fill_inplace(df):
    m = md.DataFrame(df, chunk_size=7)
    assert m.ffill(inplace=True) is None
    assert_eq(m, df.ffill())


def test_fillna_values(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[NUM].fillna(0), df[NUM].fillna(0))
    assert_eq(m.fillna({"a": -1.0, "s": "?"}), df.fillna({"a": -1.0, "s": "?"}))
    assert_eq(m.fillna(pd.Series({"a": 5.0, "n": 1.0})), df.fillna(pd.Series({"a": 5.0, "n": 1.0})))
    for limit in (1, 2, 5):
        assert_eq(m[NUM].fillna(0, limit=limit), df[NUM].fillna(0, limit=limit))
        assert_eq(m["a"].fillna(-1, limit=limit), df["a"].fillna(-1, limit=limit))
        assert_eq(m.fillna({"a": 7.0}, limit=limit), df.fillna({"a": 7.0}, limit=limit))


def test_fillna_aligned_values():
    rs = np.random.RandomState(1)
    s = pd.Series(np.where(rs.rand(30) > 0.5, rs.rand(30), np.nan), index=np.arange(30) * 2)
    other = pd.Series(np.arange(40.0), index=np.arange(40)[::-1] * 2)
    m = md.Series(s, chunk_size=7)
    assert_eq(m.fillna(other), s.fillna(other))
    assert_eq(m.fillna(md.Series(other, chunk_size=9)), s.fillna(other))
    frame = pd.DataFrame({"x": s, "y": s[::-1].to_numpy()}, index=s.index)
    fill = pd.DataFrame({"x": np.arange(30.0), "y": -np.arange(30.0)}, index=s.index[::-1])
    assert_eq(md.DataFrame(frame, chunk_size=8).fillna(fill), frame.fillna(fill))
    assert_eq(md.DataFrame(frame, chunk_size=8).fillna(md.DataFrame(fill, chunk_size=11)),
              frame.fillna(fill))


def test_fillna_method_and_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    if PANDAS3:
        with pytest.raises(TypeError):
            m.fillna(method="ffill")
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            assert_eq(m.fillna(method="ffill"), df.fillna(method="ffill"))
            assert_eq(m.fillna(method="bfill", limit=2), df.fillna(method="bfill", limit=2))
            with pytest.raises(ValueError):
                m.fillna(0, method="ffill")
    with pytest.raises((ValueError, TypeError)):
        m.fillna()


def test_index_fillna():
    idx = pd.Index([1.0, np.nan, 3.0, np.nan, 5.0, 6.0, np.nan])
    s = pd.Series(np.arange(7), index=idx)
    assert_eq(md.Series(s, chunk_size=3).index.fillna(0.5), idx.fillna(0.5))


@pytest.mark.parametrize("periods", [0, 1, 3, 7, 10, 40, 41, 60, -1, -8, -45])
def test_shift_diff_pct_change(df, periods):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.shift(periods), df.shift(periods))
    assert_eq(m["b"].shift(periods, fill_value=0), df["b"].shift(periods, fill_value=0))
    assert_eq(m[NUM].diff(periods), df[NUM].diff(periods))
    assert_eq(m["b"].diff(periods), df["b"].diff(periods))
    nums = ["a", "b", "n"]
    assert_eq(m[nums].pct_change(periods, fill_method=None), df[nums].pct_change(periods, fill_method=None))
    assert_eq(m["a"].pct_change(periods, fill_method=None), df["a"].pct_change(periods, fill_method=None))


def test_shift_borrows_only_neighbour_rows(df):
    m = md.DataFrame(df, chunk_size=7)
    tiled = LocalExecutor().tile(m.shift(2).data)
    assert len(tiled.flat) == 6
    assert all(isinstance(c.op, Neighbours) and len(c.inputs) <= 2 for c in tiled.flat)


def test_pct_change_default_fill(df):
    m = md.DataFrame(df, chunk_size=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_eq(m[["a", "b"]].pct_change(), df[["a", "b"]].pct_change())
        assert_eq(m["a"].pct_change(2), df["a"].pct_change(2))
    if PANDAS3:
        with pytest.raises(ValueError):
            m["a"].pct_change(fill_method="pad")


def test_shift_axis_1_and_freq(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[NUM].shift(1, axis=1), df[NUM].shift(1, axis=1))
    assert_eq(m[NUM].diff(axis=1), df[NUM].diff(axis=1))
    dated = df.set_index(pd.date_range("2021-01-01", periods=len(df), freq="h"))
    d = md.DataFrame(dated, chunk_size=7)
    assert_eq(d.shift(2, freq="D"), dated.shift(2, freq="D"))
    assert_eq(d["a"].shift(-3, freq="min"), dated["a"].shift(-3, freq="min"))
    assert_eq(d.tshift(2, freq="D"), dated.shift(2, freq="D"))
    with pytest.raises(ValueError):
        d.tshift(1)
    with pytest.raises(ValueError):
        d.shift(1, freq="D", fill_value=0)
    with pytest.raises(TypeError):
        m.shift(1.5)
    with pytest.raises(ValueError):
        m.diff(1.5)


def test_all_missing_and_empty():
    frame = pd.DataFrame({"x": [np.nan] * 9, "y": np.arange(9.0)})
    m = md.DataFrame(frame, chunk_size=2)
    assert_eq(m.cumsum(), frame.cumsum())
    assert_eq(m.ffill(), frame.ffill())
    assert_eq(m.bfill(), frame.bfill())
    assert_eq(m.diff(3), frame.diff(3))
    empty = frame.iloc[:0]
    e = md.DataFrame(empty)
    assert_eq(e.cumsum(), empty.cumsum())
    assert_eq(e.ffill(), empty.ffill())
    assert_eq(e.shift(2), empty.shift(2))


@pytest.mark.parametrize("kw", [dict(periods=[1, -2]), dict(periods=[0, 3], suffix="_s"),
                                dict(periods=[1, 2], fill_value=0), dict(periods=[4])])
def test_shift_by_a_list_of_periods_is_pandas(df, kw):
    """One column per column and period, suffixed as pandas does (its Series drop ``suffix``
    in 2.2); this was a NotImplementedError."""
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[NUM].shift(**kw), df[NUM].shift(**kw))
    assert_eq(m["a"].shift(**kw), df["a"].shift(**kw))
    assert_eq(m[m["a"] > 0][NUM].shift(**kw), df[df["a"] > 0][NUM].shift(**kw))  # unknown extents


def test_shift_by_a_list_of_periods_with_freq_is_pandas_but_for_the_index_freq():
    """Shifts by ``freq`` relabel the rows, so the parts are combined by label; the combined
    DatetimeIndex has no ``freq`` (pandas infers one from the union): a known difference."""
    dated = pd.DataFrame({"a": np.arange(11.0)}, index=pd.date_range("2020-01-01", periods=11))
    expected = dated.shift([1, 2], freq="D")
    expected.index.freq = None
    assert_eq(md.DataFrame(dated, chunk_size=4).shift([1, 2], freq="D"), expected)


def test_shift_by_a_list_of_periods_bad_input_raises_pandas_errors(df):
    m = md.DataFrame(df, chunk_size=7)
    for kw, exc in ((dict(periods=[]), ValueError), (dict(periods=[1, 2], axis=1), ValueError),
                    (dict(periods=[1.5]), TypeError)):
        with pytest.raises(exc):
            df.shift(**kw)
        with pytest.raises(exc):
            m.shift(**kw)


def test_scans_and_windows_declare_the_index_of_their_input():
    """Regression: ``s.cumsum()`` / ``s.shift()`` declared the sample's RangeIndex, not the
    input's index (found while building groupby ngroup)."""
    s = md.Series(pd.Series(np.arange(5.0), index=list("abcde")), chunk_size=2)
    for result in (s.cumsum(), s.shift(1), s.rolling(2).sum(), s.to_frame().cummax()):
        assert type(result.data.meta.index) is type(s.data.meta.index)
        assert result.data.meta.index.dtype == s.data.meta.index.dtype
