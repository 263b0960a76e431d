"""The rest of GroupBy against pandas: transform-like methods (results in the rows' original
order, chunked like the input), head / tail / sample, fills, apply, all / any / skew / kurt."""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.groupby_more import PANDAS3, GroupByRows
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    n = 41
    frame = pd.DataFrame({"k": rs.randint(0, 5, n).astype(float), "k2": rs.choice(list("xyz"), n),
                          "v": rs.rand(n), "w": rs.randint(0, 9, n), "b": rs.rand(n) > 0.3},
                         index=[f"r{i % 13}" for i in range(n)])  # duplicated labels
    frame.iloc[[1, 5, 6, 30, 31, 32], 2] = np.nan
    frame["kn"] = frame["k"].where(~frame.index.isin(["r4"]))  # missing keys
    return frame


NUM = ["k", "v", "w"]
ROWWISE = ["cumsum", "cummax", "cummin", "cumprod", "cumcount", "ffill", "bfill", "shift", "diff",
           "rank", "pct_change"]


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


@pytest.mark.parametrize("how", ROWWISE)
@pytest.mark.parametrize("dropna", [True, False])
def test_rowwise_methods(df, how, dropna):
    m = md.DataFrame(df, chunk_size=7)
    kw = {"fill_method": None} if how == "pct_change" and not PANDAS3 else {}
    # missing keys with dropna=True: see test_missing_keys_make_int_results_float
    cols = ["kn", "v", "w"] if not dropna else NUM
    assert_eq(getattr(m[cols].groupby(cols[0], dropna=dropna), how)(**kw),
              getattr(df[cols].groupby(cols[0], dropna=dropna), how)(**kw))
    assert_eq(getattr(m.groupby(["k2", "k"], sort=False, dropna=dropna)["v"], how)(**kw),
              getattr(df.groupby(["k2", "k"], sort=False, dropna=dropna)["v"], how)(**kw))


def test_missing_keys_make_int_results_float(df):
    """With dropna=True the rows of missing keys become NaN: pandas' dtype for int results
    is float then (whether a key is missing is computed when the method is called)."""
    m = md.DataFrame(df, chunk_size=7)
    cols = ["kn", "v", "w"]
    result = m[cols].groupby("kn").cumsum()
    assert result.dtypes["w"] == np.float64
    assert_eq(result, df[cols].groupby("kn").cumsum())
    assert_eq(m.groupby("kn").cumcount(), df.groupby("kn").cumcount())
    present = df[df["kn"].notna()]
    assert_eq(m[m["kn"].notna()][cols].groupby("kn").cumsum(), present[cols].groupby("kn").cumsum())


def test_rowwise_keeps_chunks_and_order(df):
    m = md.DataFrame(df[NUM], chunk_size=7)
    result = m.groupby("k").cumsum()
    tiled = LocalExecutor().tile(result.data)
    assert len(tiled.flat) == 6 and tiled.nsplits[0] == (7, 7, 7, 7, 7, 6)
    assert all(isinstance(c.op, GroupByRows) for c in tiled.flat)


def test_arguments(df):
    m = md.DataFrame(df, chunk_size=7)
    g, p = m[NUM].groupby("k"), df[NUM].groupby("k")
    assert_eq(g.shift(-2, fill_value=0), p.shift(-2, fill_value=0))
    assert_eq(g.diff(3), p.diff(3))
    assert_eq(g.cumcount(ascending=False), p.cumcount(ascending=False))
    assert_eq(g.ffill(limit=1), p.ffill(limit=1))
    assert_eq(g.pad(), p.ffill())
    assert_eq(g.backfill(), p.bfill())
    assert_eq(g.rank(method="dense", ascending=False), p.rank(method="dense", ascending=False))
    assert_eq(m.groupby("k2").cumcount(), df.groupby("k2").cumcount())


def test_default_index_and_as_index_false():
    frame = pd.DataFrame({"k": [1, 2, 1, 2, 3] * 5, "v": np.arange(25.0)})
    m = md.DataFrame(frame, chunk_size=4)
    g, p = m.groupby("k", as_index=False), frame.groupby("k", as_index=False)
    assert_eq(g.cumsum(), p.cumsum())
    assert_eq(g.head(2), p.head(2))
    assert_eq(g.v.transform("sum"), p.v.transform("sum"))
    assert_eq(m.groupby("k").v.tail(1), frame.groupby("k").v.tail(1))


def test_transform(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m[NUM].groupby("k").transform("mean"), df[NUM].groupby("k").transform("mean"))
    assert_eq(m.groupby("k2").w.transform("sum"), df.groupby("k2").w.transform("sum"))
    assert_eq(m.groupby("k2")[["v", "w"]].transform(lambda x: x - x.mean()),
              df.groupby("k2")[["v", "w"]].transform(lambda x: x - x.mean()))
    assert_eq(m.groupby("k2").v.transform(lambda x, a: x * a, 3),
              df.groupby("k2").v.transform(lambda x, a: x * a, 3))


def test_series_keys_and_series_groupby(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.groupby(m["w"] % 3)[["v", "k"]].cumsum(), df.groupby(df["w"] % 3)[["v", "k"]].cumsum())
    assert_eq(m["v"].groupby(m["k2"]).cummax(), df["v"].groupby(df["k2"]).cummax())
    assert_eq(m["v"].groupby(m["k2"]).transform("max"), df["v"].groupby(df["k2"]).transform("max"))
    assert_eq(m.groupby(m["k2"]).head(2), df.groupby(df["k2"]).head(2))


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_head_tail(df, n):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.groupby("k2").head(n), df.groupby("k2").head(n))
    assert_eq(m.groupby("kn", dropna=False).tail(n), df.groupby("kn", dropna=False).tail(n))
    assert_eq(m.groupby("kn").tail(n), df.groupby("kn").tail(n))
    assert_eq(m.groupby("k2")[["v"]].head(n), df.groupby("k2")[["v"]].head(n))


def test_sample(df):
    """pandas' draws cannot be reproduced chunk-wise: rows of the frame, the right number per
    group, in their original order, the same for the same random_state."""
    frame = df.reset_index(drop=True)
    m = md.DataFrame(frame, chunk_size=7)
    got = _value(m.groupby("k2").sample(n=2, random_state=3))
    pd.testing.assert_frame_equal(got, frame.loc[got.index])
    assert got.index.is_monotonic_increasing and got.index.is_unique
    assert got.groupby("k2").size().to_dict() == {"x": 2, "y": 2, "z": 2}
    pd.testing.assert_frame_equal(_value(m.groupby("k2").sample(n=2, random_state=3)), got)
    frac = _value(m.groupby("k2").w.sample(frac=0.5, random_state=1))
    pd.testing.assert_series_equal(frac, frame.w.loc[frac.index])
    expected = (frame.groupby("k2").size() * 0.5).round().astype(int)
    assert frame.k2.loc[frac.index].value_counts().sort_index().to_dict() == expected.to_dict()
    with pytest.raises(NotImplementedError):
        m.groupby("k2").sample(n=1, weights=[1] * 41)


def test_fillna(df):
    m = md.DataFrame(df, chunk_size=7)
    g = m[NUM].groupby("k")
    p = df[NUM].groupby("k")
    expected = df[["v", "w"]].fillna(-1)
    assert_eq(g.fillna(-1), expected)
    limited = df[["v", "w"]].copy()
    limited["v"] = df.groupby("k")["v"].transform(lambda s: s.fillna(-1, limit=1))
    assert_eq(g.fillna(-1, limit=1), limited)
    assert_eq(g.fillna(method="ffill"), p.ffill())
    assert_eq(g.fillna(method="bfill", limit=1), p.bfill(limit=1))
    if not PANDAS3:  # pandas 2.2's own (deprecated) method: it reorders duplicated labels
        # and turns a RangeIndex into an Index of the same labels
        unique = df[NUM].reset_index(drop=True)
        gu, pu = md.DataFrame(unique, chunk_size=7).groupby("k"), unique.groupby("k")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            assert_eq(gu.fillna(-1), pu.fillna(-1), check_index_type=False)
            assert_eq(gu.fillna(-1, limit=1), pu.fillna(-1, limit=1), check_index_type=False)
    with pytest.raises(ValueError):
        g.fillna()
    with pytest.raises(ValueError):
        g.fillna(0, method="ffill")


@pytest.mark.parametrize("sort", [True, False])
def test_apply(df, sort):
    m = md.DataFrame(df, chunk_size=7)
    kw = {"include_groups": False}
    assert_eq(m.groupby("k2", sort=sort).apply(lambda g: g.v.sum() + g.w.max(), **kw),
              df.groupby("k2", sort=sort).apply(lambda g: g.v.sum() + g.w.max(), **kw))
    assert_eq(m.groupby("k2", sort=sort)[["v", "w"]].apply(lambda g: g.cumsum()),
              df.groupby("k2", sort=sort)[["v", "w"]].apply(lambda g: g.cumsum()))
    assert_eq(m.groupby(["k2", "w"], sort=sort).v.apply(lambda s: s.max() - s.min()),
              df.groupby(["k2", "w"], sort=sort).v.apply(lambda s: s.max() - s.min()))
    assert_eq(m.groupby("kn", sort=sort, dropna=False).apply(lambda g: g.head(2), **kw),
              df.groupby("kn", sort=sort, dropna=False).apply(lambda g: g.head(2), **kw))
    def stats(g):
        return pd.Series({"a": g.v.mean(), "n": len(g)})

    assert_eq(m.groupby("k2", sort=sort).apply(stats, **kw),
              df.groupby("k2", sort=sort).apply(stats, **kw))


def test_apply_unsupported(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(NotImplementedError):
        m.groupby("k2", group_keys=False).v.apply(lambda s: s * 2)


@pytest.mark.parametrize("as_index", [True, False])
@pytest.mark.parametrize("how", ["all", "any", "skew", "kurt", "kurtosis"])
def test_aggregations(df, how, as_index):
    m = md.DataFrame(df, chunk_size=7)
    cols = ["k2", "v", "w"] if how in ("skew", "kurt", "kurtosis") else ["k2", "v", "w", "b"]
    g = df[cols].groupby("k2", as_index=as_index)
    if how in ("kurt", "kurtosis") and not PANDAS3:
        expected = g.agg(lambda x: x.kurt())
    else:
        expected = getattr(g, "kurt" if how == "kurtosis" else how)()
    assert_eq(getattr(m[cols].groupby("k2", as_index=as_index), how)(), expected)
    if as_index:
        assert_eq(getattr(m.groupby("k2", sort=False).w, how)(),
                  expected["w"].reindex(df["k2"].unique()))


def test_errors_and_existing_agg(df):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(KeyError):
        m.groupby("nope").cumsum()
    with pytest.raises(Exception) as raised:
        df.groupby("k").cumsum()  # strings: TypeError (pandas 3), NotImplementedError (2.2)
    with pytest.raises(type(raised.value)):
        m.groupby("k").cumsum()
    with pytest.raises(Exception) as raised:  # the same by a key function
        df.groupby(lambda x: x[:2]).cumsum()
    with pytest.raises(type(raised.value)):
        m.groupby(lambda x: x[:2]).cumsum()
    spec = {"v": "sum", "w": "max"}
    assert_eq(m.groupby("k2").agg(spec), df.groupby("k2").agg(spec))


def test_unknown_extents_and_empty(df):
    m = md.DataFrame(df, chunk_size=6)
    sel, expected = m[m["w"] > 2], df[df["w"] > 2]
    assert_eq(sel[NUM].groupby("k").cumsum(), expected[NUM].groupby("k").cumsum())
    assert_eq(sel.groupby("k2").head(1), expected.groupby("k2").head(1))
    empty = df[NUM].iloc[:0]
    assert_eq(md.DataFrame(empty).groupby("k").cumsum(), empty.groupby("k").cumsum())
