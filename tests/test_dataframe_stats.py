"""Statistics against pandas: all/any, skew/kurt/sem, memory_usage, quantile/median, corr/cov,
describe, cut/qcut.

Chunk sizes do not divide the data (41 rows in chunks of 7: the reduction tree combines);
frames hold all-NaN columns, non-default and duplicate indexes, empty frames.
"""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


def _raises_like(pandas_call, our_call):
    """Our call raises the exception type pandas raises."""
    with pytest.raises(Exception) as expected:
        pandas_call()
    with pytest.raises(type(expected.value)):
        our_call()


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41) * 100, "c": rs.rand(41) > 0.3,
                          "s": [f"x{i % 4}" if i % 5 else "" for i in range(41)], "n": np.nan,
                          "f": rs.randn(41).astype("float32")},
                         index=[f"r{i % 37:02d}" for i in range(41)])
    frame.iloc[[3, 17], 1] = np.nan
    return frame


NUMERIC = ["a", "b", "c", "n", "f"]


@pytest.mark.parametrize("how", ["all", "any"])
def test_all_any(df, how):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(getattr(m, how)(), getattr(df, how)())
    assert_eq(getattr(m, how)(axis=1), getattr(df, how)(axis=1))
    assert_eq(getattr(m, how)(axis=None), getattr(df, how)(axis=None))
    assert_eq(getattr(m, how)(bool_only=True), getattr(df, how)(bool_only=True))
    for col in df.columns:
        assert_eq(getattr(m[col], how)(), getattr(df[col], how)())
    assert_eq(getattr(m["n"], how)(skipna=False), getattr(df["n"], how)(skipna=False))
    assert_eq(getattr(m.index, how)(), getattr(df.index, how)())
    idx = pd.Index([0, 1, 2, 3, 0, 5, 6])
    assert_eq(getattr(md.Series(pd.Series(idx), chunk_size=3).index, how)(),
              getattr(pd.RangeIndex(7), how)())
    empty = df.iloc[:0]
    assert_eq(getattr(md.DataFrame(empty, chunk_size=3), how)(), getattr(empty, how)())
    with pytest.raises(ValueError):
        getattr(m, how)(axis=2)


def test_all_any_after_filter_with_empty_chunks(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 3], df[df["a"] > 3]
    assert_eq(flt.all(), expected.all())
    assert_eq(flt["c"].any(), expected["c"].any())


@pytest.mark.parametrize("how", ["skew", "kurt", "kurtosis", "sem"])
def test_moment_statistics(df, how):
    num = df[NUMERIC]
    m = md.DataFrame(num, chunk_size=7)
    assert_eq(getattr(m, how)(), getattr(num, how)(), rtol=1e-5)
    assert_eq(getattr(md.DataFrame(df, chunk_size=6), how)(numeric_only=True),
              getattr(df, how)(numeric_only=True), rtol=1e-5)
    assert_eq(getattr(m, how)(axis=1), getattr(num, how)(axis=1), rtol=1e-5)
    assert_eq(getattr(m, how)(skipna=False), getattr(num, how)(skipna=False), rtol=1e-5)
    for col in NUMERIC:
        assert_eq(getattr(m[col], how)(), getattr(num[col], how)(), rtol=1e-5)
    with pytest.raises(TypeError):
        getattr(md.DataFrame(df, chunk_size=6), how)()


def test_moments_are_stable_and_degenerate_like_pandas():
    rs = np.random.RandomState(3)
    frame = pd.DataFrame({"big": 1e9 + rs.rand(50), "const": 7.0, "two": [1.0, 2.0] + [np.nan] * 48,
                          "three": [1.0, 5.0, 2.0] + [np.nan] * 47})
    m = md.DataFrame(frame, chunk_size=3)
    for how in ("skew", "kurt", "sem"):  # (pandas 2.2's two-pass skew of "big" is off by 5e-6)
        assert_eq(getattr(m, how)(), getattr(frame, how)(), rtol=1e-5)
    old = options.combine_size
    try:
        options.combine_size = 2
        assert_eq(m.skew(), frame.skew(), rtol=1e-5)
    finally:
        options.combine_size = old
    assert_eq(m["const"].sem(ddof=0), frame["const"].sem(ddof=0))
    assert_eq(m["two"].sem(ddof=2), frame["two"].sem(ddof=2))


def test_memory_usage(df):
    m = md.DataFrame(df, chunk_size=7)
    assert_eq(m.memory_usage(), df.memory_usage())
    assert_eq(m.memory_usage(index=False, deep=True), df.memory_usage(index=False, deep=True))
    assert_eq(m["s"].memory_usage(deep=True), df["s"].memory_usage(deep=True))
    assert_eq(m["b"].memory_usage(index=False), df["b"].memory_usage(index=False))
    assert_eq(m.index.memory_usage(), df.index.memory_usage())
    plain = df.reset_index(drop=True)  # a RangeIndex split into chunks is still one RangeIndex
    mp = md.DataFrame(plain, chunk_size=7)
    assert_eq(mp.memory_usage(), plain.memory_usage())
    assert_eq(mp["a"].memory_usage(), plain["a"].memory_usage())
    flt = mp[mp["a"] > 0][NUMERIC]  # (the bytes of filtered arrow strings depend on their buffers)
    assert_eq(flt.memory_usage(deep=True), plain[plain["a"] > 0][NUMERIC].memory_usage(deep=True))


def test_index_min_max(df):
    m = md.DataFrame(df, chunk_size=7)
    assert _value(m.index.min()) == df.index.min() == "r00"
    assert _value(m.index.max()) == df.index.max() == "r36"
    s = pd.Series(range(9), index=[5, 3, 9, -2, 8, 1, 0, 4, 4])
    ms = md.Series(s, chunk_size=4)
    assert_eq(ms.index.min(), s.index.min())
    assert_eq(ms.index.max(), s.index.max())


# --- quantile / median ------------------------------------------------------------------------

@pytest.fixture
def qdf():
    rs = np.random.RandomState(1)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41) * 100, "n": np.nan,
                          "z": np.repeat([0.0, 1.0], [30, 11]), "s": "x"},
                         index=[f"r{i % 37:02d}" for i in range(41)])
    frame.iloc[[3, 17], 1] = np.nan
    return frame


QNUM = ["a", "b", "n", "z"]


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("q", [0.5, 0.0, 1.0, 0.37, [0.1, 0.5, 0.99], [0.25], []], ids=repr)
def test_quantile(qdf, q, interpolation):
    num = qdf[QNUM]
    m = md.DataFrame(num, chunk_size=7)
    assert_eq(m.quantile(q, interpolation=interpolation), num.quantile(q, interpolation=interpolation))
    for col in QNUM:
        assert_eq(m[col].quantile(q, interpolation=interpolation),
                  num[col].quantile(q, interpolation=interpolation))


def test_quantile_numeric_only_axis_and_errors(qdf):
    m = md.DataFrame(qdf, chunk_size=6)
    assert_eq(m.quantile([0.3, 0.6], numeric_only=True), qdf.quantile([0.3, 0.6], numeric_only=True))
    num = qdf[QNUM]
    assert_eq(md.DataFrame(num, chunk_size=6).quantile(0.3, axis=1), num.quantile(0.3, axis=1))
    _raises_like(lambda: qdf.quantile(0.5), lambda: m.quantile(0.5))  # pandas 3: arrow's error
    with pytest.raises(ValueError):
        m.quantile(1.5, numeric_only=True)
    with pytest.raises(ValueError):
        m["a"].quantile([0.5, -0.1])
    with pytest.raises(ValueError):
        m["a"].quantile(0.5, interpolation="cubic")


def test_median(qdf):
    num = qdf[QNUM]
    m = md.DataFrame(num, chunk_size=7)
    assert_eq(m.median(), num.median())
    assert_eq(m.median(skipna=False), num.median(skipna=False))
    assert_eq(md.DataFrame(qdf, chunk_size=5).median(numeric_only=True), qdf.median(numeric_only=True))
    assert_eq(m.median(axis=1), num.median(axis=1))
    for col in QNUM:
        assert_eq(m[col].median(), num[col].median())
    assert_eq(m["b"].median(skipna=False), num["b"].median(skipna=False))
    with pytest.raises(TypeError):
        md.DataFrame(qdf, chunk_size=5).median()


def test_quantile_of_extension_and_filtered_data():
    rs = np.random.RandomState(2)
    frame = pd.DataFrame({"i": pd.array(rs.randint(0, 50, 60), dtype="Int64"), "f": rs.randn(60)})
    frame.loc[[4, 40], "i"] = pd.NA
    m = md.DataFrame(frame, chunk_size=9)
    for interp in ("linear", "lower", "nearest"):
        assert_eq(m.quantile([0.2, 0.8], interpolation=interp), frame.quantile([0.2, 0.8], interpolation=interp))
    assert_eq(m.median(), frame.median())
    flt, expected = m[m["f"] > 0.5], frame[frame["f"] > 0.5]
    assert_eq(flt.quantile(0.4), expected.quantile(0.4))
    assert_eq(flt["f"].median(), expected["f"].median())
    single = md.DataFrame(frame, chunk_size=100)
    assert_eq(single.quantile([0.5, 0.1]), frame.quantile([0.5, 0.1]))
    empty = frame.iloc[:0]
    assert_eq(md.DataFrame(empty, chunk_size=3)[["f"]].quantile(0.5), empty[["f"]].quantile(0.5))


@pytest.mark.parametrize("interpolation", ["linear", "lower", "nearest", "midpoint"])
def test_quantile_of_datetimes(interpolation):
    rs = np.random.RandomState(8)
    frame = pd.DataFrame({"t": pd.Timestamp("2020-01-01") + pd.to_timedelta(rs.randint(0, 10**6, 41), unit="s"),
                          "x": rs.rand(41)})
    frame.loc[[3, 7], "t"] = pd.NaT
    frame["d"] = frame["t"] - pd.Timestamp("2019-01-01")
    m = md.DataFrame(frame, chunk_size=7)
    for q in (0.3, [0.1, 0.5, 0.77]):
        assert_eq(m.quantile(q, interpolation=interpolation), frame.quantile(q, interpolation=interpolation))
    for col in ("t", "d"):
        assert_eq(m[col].quantile([0.2, 0.9], interpolation=interpolation),
                  frame[col].quantile([0.2, 0.9], interpolation=interpolation))
        assert _value(m[col].quantile(0.3, interpolation=interpolation)) == \
            frame[col].quantile(0.3, interpolation=interpolation)


def test_median_quantile_of_bool_nullable_and_float32():
    rs = np.random.RandomState(10)
    frame = pd.DataFrame({"c": rs.rand(40) > 0.3, "i": pd.array(rs.randint(0, 9, 40), dtype="Int64"),
                          "f32": rs.rand(40).astype("float32")})
    m = md.DataFrame(frame, chunk_size=7)
    assert_eq(m.median(), frame.median())
    for col in frame.columns:
        assert_eq(m[col].median(), frame[col].median())
    assert_eq(m.quantile(0.4, interpolation="lower"), frame.quantile(0.4, interpolation="lower"))
    assert_eq(m[["f32"]].quantile([0.4, 0.6]), frame[["f32"]].quantile([0.4, 0.6]))
    assert_eq(m["f32"].quantile(0.4), frame["f32"].quantile(0.4))
    _raises_like(lambda: frame.quantile(0.5), lambda: m.quantile(0.5))  # numpy can't subtract bools


def _tiled_ops(obj):
    from mars_on_ray.core.graph import topo_order

    tiled = LocalExecutor().tile(obj.data)
    return topo_order(tiled.flat)


def test_quantile_gathers_only_the_needed_ranges():
    from mars_on_ray.dataframe.quantile import QExtract, QFinal

    rs = np.random.RandomState(5)
    s = pd.Series(np.concatenate([rs.randn(3000), np.zeros(2000)]))[rs.permutation(5000)]
    m = md.Series(s, chunk_size=250)
    for q in ([0.1, 0.5, 0.9], 0.3):
        assert_eq(m.quantile(q), s.quantile(q))
    assert_eq(m.median(), s.median())
    # the final chunk receives only the values of the ranges holding the needed ranks
    executor = LocalExecutor()
    tiled = executor.tile(m.quantile([0.1, 0.9]).data)
    executor._run(tiled.flat)
    final = tiled.flat[0]
    assert isinstance(final.op, QFinal) and all(isinstance(c.op, QExtract) for c in final.inputs)
    gathered = sum(len(piece) for c in final.inputs for col in executor.values[c.key] for piece in col)
    assert 0 < gathered < 5000 // 4
    # the median falls on the value 0.0 shared by 2000 rows: no value is gathered for it
    tiled = executor.tile(m.median().data)
    executor._run(tiled.flat)
    assert sum(len(p) for c in tiled.flat[0].inputs for col in executor.values[c.key] for p in col) == 0


# --- corr / cov ---------------------------------------------------------------------------------

@pytest.fixture
def cdf():
    rs = np.random.RandomState(4)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41) * 100 + 1e6, "c": rs.rand(41) > 0.3,
                          "n": np.nan, "k": 3.0, "d": rs.randn(41)},
                         index=[f"r{i % 37:02d}" for i in range(41)])
    frame.iloc[[3, 17], 1] = np.nan
    frame.iloc[[5, 6, 7, 30], 5] = np.nan
    return frame


def test_corr_and_cov_pearson(cdf):
    m = md.DataFrame(cdf, chunk_size=7)
    assert_eq(m.corr(), cdf.corr())
    assert_eq(m.corr(min_periods=38), cdf.corr(min_periods=38))
    assert_eq(m.cov(), cdf.cov())
    assert_eq(m.cov(ddof=3, min_periods=39), cdf.cov(ddof=3, min_periods=39))
    full = cdf[["a", "c", "k"]]  # no missing values: pandas uses np.cov (ddof counts)
    mf = md.DataFrame(full, chunk_size=7)
    assert_eq(mf.cov(ddof=0), full.cov(ddof=0))
    assert_eq(mf.cov(min_periods=50), full.cov(min_periods=50))
    assert_eq(mf.corr(), full.corr())
    old = options.combine_size
    try:
        options.combine_size = 2
        assert_eq(m.corr(), cdf.corr())
    finally:
        options.combine_size = old


@pytest.mark.parametrize("method", ["spearman", "kendall"])
def test_corr_rank_methods(cdf, method):
    m = md.DataFrame(cdf, chunk_size=7)
    assert_eq(m.corr(method=method), cdf.corr(method=method))
    assert_eq(m["a"].corr(m["d"], method=method), cdf["a"].corr(cdf["d"], method=method))


def test_corr_numeric_only_and_errors(cdf):
    frame = cdf.assign(s="x")
    m = md.DataFrame(frame, chunk_size=9)
    assert_eq(m.corr(numeric_only=True), frame.corr(numeric_only=True))
    assert_eq(m.cov(numeric_only=True), frame.cov(numeric_only=True))
    _raises_like(lambda: frame.corr(), lambda: m.corr())
    _raises_like(lambda: frame.cov(), lambda: m.cov())
    _raises_like(lambda: frame.corr(method="foo"), lambda: m.corr(method="foo"))
    empty = cdf.iloc[:0]
    assert_eq(md.DataFrame(empty, chunk_size=3).corr(), empty.corr())


def test_series_corr_cov_autocorr(cdf):
    m = md.DataFrame(cdf, chunk_size=7)
    for x, y in (("a", "b"), ("a", "k"), ("d", "b"), ("n", "a"), ("c", "d")):
        assert_eq(m[x].corr(m[y]), cdf[x].corr(cdf[y]))
        assert_eq(m[x].cov(m[y]), cdf[x].cov(cdf[y]))
    assert_eq(m["d"].cov(m["b"], ddof=0, min_periods=5), cdf["d"].cov(cdf["b"], ddof=0, min_periods=5))
    assert_eq(m["d"].corr(m["b"], min_periods=40), cdf["d"].corr(cdf["b"], min_periods=40))
    other = md.DataFrame(cdf, chunk_size=5)["b"]  # other chunking: rows are lined up
    assert_eq(m["d"].corr(other), cdf["d"].corr(cdf["b"]))
    for lag in (1, 3, -2, 0, 50):
        assert_eq(m["d"].autocorr(lag), cdf["d"].autocorr(lag))
    assert_eq(m["a"].autocorr(), cdf["a"].autocorr())
    relabelled = cdf["b"].reset_index(drop=True)  # other labels: pandas pairs the rows by label
    assert_eq(m["a"].corr(md.Series(relabelled, chunk_size=7)), cdf["a"].corr(relabelled))
    shifted = cdf["b"].iloc[::-1].iloc[3:]
    assert_eq(m["a"].cov(md.Series(shifted, chunk_size=4)), cdf["a"].cov(shifted))
    assert_eq(m.corrwith(md.Series(shifted, chunk_size=4)), cdf.corrwith(shifted))


def test_corrwith(cdf):
    m = md.DataFrame(cdf, chunk_size=7)
    assert_eq(m.corrwith(m["d"]), cdf.corrwith(cdf["d"]))
    other = cdf[["d", "a", "b"]].assign(zz=1.0) * 2 + 1  # a column only on one side
    mo = md.DataFrame(other, chunk_size=5)
    assert_eq(m.corrwith(mo), cdf.corrwith(other))
    assert_eq(m.corrwith(mo, drop=True), cdf.corrwith(other, drop=True))
    assert_eq(m.corrwith(mo, method="spearman"), cdf.corrwith(other, method="spearman"))
    with pytest.raises(TypeError):
        m.corrwith(1)


def test_corrwith_rows():
    rs = np.random.RandomState(9)
    frame = pd.DataFrame(rs.randn(41, 4), columns=list("abcd"), index=[f"r{i % 37}" for i in range(41)])
    frame.iloc[3, 1] = np.nan
    other = frame * 2 + rs.randn(41, 4)
    m, mo = md.DataFrame(frame, chunk_size=7), md.DataFrame(other, chunk_size=5)
    assert_eq(m.corrwith(mo, axis=1), frame.corrwith(other, axis=1))
    assert_eq(m.corrwith(mo, axis=1, method="kendall"), frame.corrwith(other, axis=1, method="kendall"))
    weights = pd.Series([1.0, 2.0, 0.5, 3.0], index=list("abcd"))
    assert_eq(m.corrwith(md.Series(weights), axis=1), frame.corrwith(weights, axis=1))


# --- describe -----------------------------------------------------------------------------------

@pytest.fixture
def ddf():
    rs = np.random.RandomState(6)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41) * 100, "c": rs.rand(41) > 0.3,
                          "s": [f"x{i % 4}" if i % 5 else "" for i in range(41)], "n": np.nan,
                          "o": pd.Series([None] * 41, dtype=object),
                          "t": ["q", "p"] * 20 + ["q"]},  # tie broken by first appearance
                         index=[f"r{i % 37:02d}" for i in range(41)])
    frame.iloc[[3, 17], 1] = np.nan
    return frame


@pytest.mark.parametrize("kw", [{}, {"percentiles": [0.1, 0.9]}, {"percentiles": [0.05, 0.5, 0.333]},
                                {"include": "all"}, {"exclude": [np.number]}, {"include": [bool]},
                                {"include": "all", "percentiles": []}], ids=repr)
def test_describe(ddf, kw):
    m = md.DataFrame(ddf, chunk_size=7)
    assert_eq(m.describe(**kw), ddf.describe(**kw))


def test_describe_series_and_edge_cases(ddf):
    m = md.DataFrame(ddf, chunk_size=7)
    for col in ddf.columns:
        assert_eq(m[col].describe(), ddf[col].describe())
    assert_eq(m["b"].describe(percentiles=[0.2]), ddf["b"].describe(percentiles=[0.2]))
    empty = ddf.iloc[:0][["a", "b"]]
    assert_eq(md.DataFrame(empty, chunk_size=3).describe(), empty.describe())
    dated = ddf.assign(d=pd.date_range("2020-01-01", periods=41, freq="D"))  # gathered to pandas
    assert_eq(md.DataFrame(dated, chunk_size=7).describe(include="all"), dated.describe(include="all"))
    with pytest.raises(ValueError):
        m.describe(percentiles=[1.5])
    _raises_like(lambda: ddf[["a"]].describe(include=[object]), lambda: m[["a"]].describe(include=[object]))


# --- cut / qcut ---------------------------------------------------------------------------------

@pytest.fixture
def xs():
    rs = np.random.RandomState(7)
    s = pd.Series(rs.randn(41) * 10, index=[f"r{i % 37:02d}" for i in range(41)], name="x")
    s.iloc[[3, 9]] = np.nan
    return s


def _assert_binned(lazy, expected):
    """Edges from the data: the declared dtype is 'category' until they are known; the chunks
    and the computed result carry pandas' exact categories."""
    assert_eq(lazy, expected, check_dtype=False)
    pd.testing.assert_series_equal(_value(lazy), expected)


@pytest.mark.parametrize("kw", [{}, {"right": False}, {"labels": ["lo", "mid", "hi", "top"]},
                                {"include_lowest": True, "precision": 1}, {"labels": False},
                                {"ordered": False, "labels": list("abcd")}], ids=repr)
def test_cut_with_given_edges(xs, kw):
    m = md.Series(xs, chunk_size=7)
    edges = [-30, -5, 0, 5, 30]
    expected = pd.cut(xs, edges, **kw)
    if kw.get("labels") is False:  # pandas gives float codes when a value falls in no bin
        _assert_binned(md.cut(m, edges, **kw), expected)
    else:
        assert_eq(md.cut(m, edges, **kw), expected)
    ii = pd.IntervalIndex.from_breaks([-20, 0, 20])
    assert_eq(md.cut(m, ii), pd.cut(xs, ii))
    res, bins = md.cut(m, edges, retbins=True)
    np.testing.assert_array_equal(bins, pd.cut(xs, edges, retbins=True)[1])


@pytest.mark.parametrize("kw", [{}, {"right": False, "precision": 1}, {"labels": False},
                                {"labels": ["a", "b", "c", "d"]}, {"include_lowest": True}], ids=repr)
def test_cut_with_a_number_of_bins(xs, kw):
    m = md.Series(xs, chunk_size=7)
    _assert_binned(md.cut(m, 4, **kw), pd.cut(xs, 4, **kw))
    res, bins = md.cut(m, 4, retbins=True, **kw)
    expected, expected_bins = pd.cut(xs, 4, retbins=True, **kw)
    pd.testing.assert_series_equal(_value(res), expected)
    np.testing.assert_array_equal(_value(bins), expected_bins)
    flt = m[m > 0]
    _assert_binned(md.cut(flt, 4, **kw), pd.cut(xs[xs > 0], 4, **kw))
    ints = pd.Series(np.arange(41) % 9, name="i")
    _assert_binned(md.cut(md.Series(ints, chunk_size=6), 4, **kw), pd.cut(ints, 4, **kw))


@pytest.mark.parametrize("q", [4, [0, 0.1, 0.5, 1.0], 10], ids=repr)
def test_qcut(xs, q):
    m = md.Series(xs, chunk_size=7)
    _assert_binned(md.qcut(m, q), pd.qcut(xs, q))
    _assert_binned(md.qcut(m, q, labels=False), pd.qcut(xs, q, labels=False))
    res, bins = md.qcut(m, q, retbins=True, precision=2)
    expected, expected_bins = pd.qcut(xs, q, retbins=True, precision=2)
    pd.testing.assert_series_equal(_value(res), expected)
    np.testing.assert_allclose(_value(bins), expected_bins)


def test_cut_qcut_errors_and_duplicates(xs):
    m = md.Series(xs, chunk_size=7)
    many = pd.Series(np.repeat([1.0, 2.0, 3.0], [30, 5, 6]))
    mm = md.Series(many, chunk_size=8)
    _assert_binned(md.qcut(mm, 4, duplicates="drop"), pd.qcut(many, 4, duplicates="drop"))
    with pytest.raises(ValueError):
        _value(md.qcut(mm, 4))  # duplicate edges: pandas' ValueError once the edges are known
    with pytest.raises(ValueError):
        md.cut(m, [3, 1, 2])
    with pytest.raises(ValueError):
        md.cut(m, 0)
    with pytest.raises(ValueError):
        md.cut(m, 3, labels=["a", "b"])
    with pytest.raises(ValueError):
        md.qcut(m, 4, labels=["a"])
    pd.testing.assert_extension_array_equal(md.cut(xs.to_numpy(), 3), pd.cut(xs.to_numpy(), 3))  # pandas


def test_memory_usage_counts_the_index_once_without_lookup_hashtables():
    # a label lookup builds pandas' hashtable on the index, which pandas' memory_usage then
    # counts: the count is that of an index no lookup touched (the user's object's state, or
    # our chunks' own lookups, do not change it), once for the whole index
    frame = pd.DataFrame({"a": np.arange(23.0), "s": [f"x{i}" for i in range(23)]},
                         index=[f"r{i:02d}" for i in range(23)])
    frame.loc[["r03"], "a"] = np.nan  # builds the user's index's hashtable
    m = md.DataFrame(frame, chunk_size=5)
    fresh = frame.set_axis(frame.index.copy(deep=True))
    for deep in (False, True):
        assert_eq(m.memory_usage(deep=deep), fresh.memory_usage(deep=deep))
        assert_eq(m["a"].memory_usage(deep=deep), fresh["a"].memory_usage(deep=deep))
        assert_eq(m.index.memory_usage(deep=deep), fresh.index.memory_usage(deep=deep))
    ints = frame.set_axis(np.arange(23) * 3)
    looked_up = md.DataFrame(ints, chunk_size=5).loc[[15, 21, 33, 57]]  # chunks' lookups build hashtables
    expected = ints.loc[[15, 21, 33, 57]].copy()
    expected.index = pd.Index(expected.index.to_numpy())  # a fresh index: no hashtable
    assert_eq(looked_up.memory_usage(), expected.memory_usage())
