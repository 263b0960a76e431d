"""Label alignment (binary operations, align, reindex) and concat / append against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.align import LabelAligned
from mars_on_ray.dataframe.merge import KeyShuffleMap
from mars_on_ray.testing import assert_eq

OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow"]


def _run(obj):
    return LocalExecutor().compute(obj.data)[0]


def _ops(obj):
    tiled = LocalExecutor().tile(obj.data)
    seen, stack, found = set(), list(tiled.flat), set()
    while stack:
        c = stack.pop()
        found.add(type(c.op))
        for i in c.inputs:
            if i.key not in seen:
                seen.add(i.key)
                stack.append(i)
    return found


@pytest.fixture
def series():
    rs = np.random.RandomState(0)
    a = pd.Series(rs.randint(1, 10, 20), index=rs.permutation(20) + 3, name="x")
    b = pd.Series(rs.rand(15) + 0.5, index=rs.permutation(15), name="y")
    b.iloc[[2, 9]] = np.nan
    return a, b


@pytest.fixture
def frames():
    rs = np.random.RandomState(1)
    left = pd.DataFrame({"a": rs.rand(13), "b": rs.randint(1, 5, 13)}, index=rs.permutation(13))
    right = pd.DataFrame({"b": rs.rand(9) + 1, "c": rs.rand(9)}, index=rs.permutation(9) + 6)
    return left, right


@pytest.mark.parametrize("op", OPS)
def test_series_ops_align_labels(series, op):
    a, b = series
    ma, mb = md.Series(a, chunk_size=6), md.Series(b, chunk_size=4)
    assert_eq(getattr(ma, op)(mb), getattr(a, op)(b))
    assert_eq(getattr(ma, op)(mb, fill_value=2), getattr(a, op)(b, fill_value=2))
    assert_eq(getattr(mb, "r" + op)(ma), getattr(b, "r" + op)(a))


def test_operators_and_comparisons(series):
    a, b = series
    ma, mb = md.Series(a, chunk_size=6), md.Series(b, chunk_size=4)
    assert_eq(ma + mb, a + b)
    assert_eq(ma * mb - ma, a * b - a)
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        assert_eq(getattr(ma, op)(mb), getattr(a, op)(b))
    with pytest.raises(ValueError):
        ma == mb  # noqa: B015 - pandas' operators need identical labels
    with pytest.raises(ValueError):
        ma > mb  # noqa: B015
    same = md.Series(a * 2, chunk_size=7)
    assert_eq(ma == same, a == a * 2)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "truediv"])
def test_frame_ops_align_rows_and_columns(frames, op):
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    assert_eq(getattr(ml, op)(mr), getattr(left, op)(right))
    assert_eq(getattr(ml, op)(mr, fill_value=1), getattr(left, op)(right, fill_value=1))


def test_frame_with_series_along_rows(frames):
    left, _ = frames
    s = pd.Series(np.arange(10.0), index=np.random.RandomState(2).permutation(10) + 4)
    ml, ms = md.DataFrame(left, chunk_size=5), md.Series(s, chunk_size=3)
    assert_eq(ml.sub(ms, axis=0), left.sub(s, axis=0))
    assert_eq(ml.mul(ms, axis="index"), left.mul(s, axis="index"))
    assert_eq(ml.add(md.Series(left["a"], chunk_size=4), axis=0), left.add(left["a"], axis=0))
    try:
        expected = left.add(s, axis=0, level=0)
    except Exception as exc:  # noqa: BLE001 - whatever pandas raises, we must too
        with pytest.raises(type(exc)):
            _run(ml.add(ms, axis=0, level=0))
    else:
        assert_eq(ml.add(ms, axis=0, level=0), expected)


def test_same_index_stays_blockwise(frames):
    left, right = frames
    ml = md.DataFrame(left, chunk_size=5)
    res = ml["a"] + ml["b"] * 2
    assert LabelAligned not in _ops(res) and KeyShuffleMap not in _ops(res)
    assert_eq(res, left["a"] + left["b"] * 2)
    # equal pandas indexes, different chunks: lined up by position, dtypes kept
    other = md.DataFrame(left * 3, chunk_size=4)
    assert KeyShuffleMap not in _ops(ml + other)
    assert_eq(ml + other, left + left * 3)


def test_alignment_of_unknown_indexes(frames):
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    fl, el = ml[ml["a"] > 0.3], left[left["a"] > 0.3]
    assert_eq(fl + mr, el + right)
    assert_eq(fl["a"].add(ml["a"], fill_value=0), el["a"].add(left["a"], fill_value=0))
    # equal indexes found when tiling: blockwise (declared dtype holds missing values)
    both = ml[ml["b"] > 0]
    assert_eq(both["b"] + ml["b"], (left["b"] + left["b"]).astype(float))
    with pytest.raises(ValueError):
        _run(fl["a"] == ml["a"])
    assert_eq(both["a"] == ml["a"], left["a"] == left["a"])


def test_duplicate_labels(series):
    a = pd.Series([1.0, 2, 3, 4, 5], index=[1, 1, 2, 3, 3])
    b = pd.Series([10.0, 20, 30], index=[3, 1, 4])
    assert_eq(md.Series(a, chunk_size=2) + md.Series(b, chunk_size=2), a + b)


@pytest.mark.parametrize("join", ["outer", "inner", "left", "right"])
def test_align(series, frames, join):
    a, b = series
    x, y = md.Series(a, chunk_size=6).align(md.Series(b, chunk_size=4), join=join)
    ex, ey = a.align(b, join=join)
    assert_eq(x, ex)
    assert_eq(y, ey)
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    for kw in (dict(), dict(fill_value=0), dict(axis=0), dict(axis=1)):
        x, y = ml.align(mr, join=join, **kw)
        ex, ey = left.align(right, join=join, **kw)
        assert_eq(x, ex)
        assert_eq(y, ey)


def test_reindex(series, frames):
    a, _ = series
    ma = md.Series(a, chunk_size=6)
    labels = [5, 3, 100, 7, 22, 4]
    assert_eq(ma.reindex(labels), a.reindex(labels))
    assert_eq(ma.reindex(labels, fill_value=0), a.reindex(labels, fill_value=0))
    assert_eq(ma.reindex(pd.Index([], dtype=np.int64)), a.reindex(pd.Index([], dtype=np.int64)))
    left, right = frames
    ml = md.DataFrame(left, chunk_size=5)
    assert_eq(ml.reindex(labels), left.reindex(labels))
    assert_eq(ml.reindex(index=labels, columns=["b", "z", "a"], fill_value=-1),
              left.reindex(index=labels, columns=["b", "z", "a"], fill_value=-1))
    assert_eq(ml.reindex(["c", "a"], axis=1), left.reindex(["c", "a"], axis=1))
    assert_eq(ml.reindex_like(md.DataFrame(right, chunk_size=3)), left.reindex_like(right))


def test_reindex_to_labels_that_all_exist_keeps_int_and_bool_dtypes():
    rs = np.random.RandomState(0)
    df = pd.DataFrame({"a": rs.randint(-5, 5, 23), "t": rs.rand(23) > 0.5, "f": rs.rand(23)},
                      index=np.arange(23) * 2)
    m = md.DataFrame(df, chunk_size=5)
    for labels in ([4, 2, 44, 4], [4, 3], [], pd.RangeIndex(0, 10, 2), pd.RangeIndex(0, 10)):
        assert_eq(m.reindex(labels), df.reindex(labels))
        assert_eq(m["a"].reindex(labels), df["a"].reindex(labels))
        assert_eq(m.reindex(labels, fill_value=0.5), df.reindex(labels, fill_value=0.5))
    for labels in ([3, 5, 1], [-3, 5, 1]):  # filled by the method, or not all
        assert_eq(m.reindex(labels, method="ffill"), df.reindex(labels, method="ffill"))
    kept = m[m["a"] > 0]
    assert_eq(m.reindex(kept.index), df.reindex(df.index[df["a"] > 0]))
    assert_eq(m.reindex_like(kept), df.reindex_like(df[df["a"] > 0]))
    shifted = md.DataFrame(df.set_axis(df.index + 1), chunk_size=4)
    assert_eq(m.reindex(shifted[shifted["a"] > 0].index), df.reindex(df.index[df["a"] > 0] + 1))
    other = pd.DataFrame({"a": 1, "f": 0.5}, index=pd.RangeIndex(20, -2, -2))  # stays a RangeIndex
    assert_eq(m.reindex_like(md.DataFrame(other, chunk_size=4)), df.reindex_like(other))
    assert_eq(kept.reindex([df.index[df["a"] > 0][0]]), df[df["a"] > 0].reindex([df.index[df["a"] > 0][0]]))


@pytest.mark.parametrize("labels, level", [(["c", "a", "zz"], 0), ([3, 1], 1), ([3, 1], "n")],
                         ids=["level 0, one missing", "level 1", "by name"])
def test_reindex_on_a_level_is_pandas(labels, level):
    index = pd.MultiIndex.from_product([["a", "b", "c"], [1, 2, 3]], names=["k", "n"])
    df = pd.DataFrame({"x": np.arange(9), "y": np.arange(9.0)}, index=index).sample(frac=1, random_state=2)
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.reindex(labels, level=level), df.reindex(labels, level=level))
    assert_eq(m["y"].reindex(labels, level=level), df["y"].reindex(labels, level=level))


def test_concat_rows(frames):
    left, right = frames
    third = pd.DataFrame({"b": [1, 2, 3, 4, 5, 6, 7], "z": list("abcdefg")}, index=list("pqrstuv"))
    objs = [md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4),
            md.DataFrame(third, chunk_size=3)]
    for kw in (dict(), dict(ignore_index=True), dict(join="inner"), dict(keys=["p", "q", "r"]),
               dict(keys=["p", "q", "r"], names=["src", "row"]), dict(sort=True)):
        assert_eq(md.concat(objs, **kw), pd.concat([left, right, third], **kw))
    assert_eq(md.concat({"one": objs[0], "two": objs[1]}), pd.concat({"one": left, "two": right}))
    assert_eq(md.concat([objs[0], None, objs[1]]), pd.concat([left, None, right]))
    filtered = objs[0][objs[0]["a"] > 0.5]
    assert_eq(md.concat([filtered, objs[1]], ignore_index=True),
              pd.concat([left[left["a"] > 0.5], right], ignore_index=True))
    empty = left.iloc[:0]
    assert_eq(md.concat([md.DataFrame(empty), objs[0]]), pd.concat([empty, left]))


def test_concat_series_and_append(series, frames):
    a, b = series
    ma, mb = md.Series(a, chunk_size=6), md.Series(b, chunk_size=4)
    assert_eq(md.concat([ma, mb]), pd.concat([a, b]))
    assert_eq(md.concat([ma, ma], ignore_index=True), pd.concat([a, a], ignore_index=True))
    assert_eq(ma.append(mb), pd.concat([a, b]))
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    assert_eq(ml.append(mr), pd.concat([left, right]))
    assert_eq(ml.append([mr, ml], ignore_index=True), pd.concat([left, right, left], ignore_index=True))


def test_concat_columns(frames):
    left, right = frames
    ml = md.DataFrame(left, chunk_size=5)
    assert_eq(md.concat([ml, ml["a"] * 2], axis=1), pd.concat([left, left["a"] * 2], axis=1))
    assert_eq(md.concat({"x": ml, "y": md.DataFrame(left + 1, chunk_size=4)}, axis=1),
              pd.concat({"x": left, "y": left + 1}, axis=1))
    assert_eq(md.concat([ml, ml[["b"]]], axis=1, join="inner"), pd.concat([left, left[["b"]]], axis=1, join="inner"))
    assert_eq(md.concat([ml, ml["a"]], axis=1, ignore_index=True),
              pd.concat([left, left["a"]], axis=1, ignore_index=True))


@pytest.mark.parametrize("join", ["outer", "inner"])
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("kw", [{}, {"keys": ["p", "q", "r"]}, {"ignore_index": True},
                                {"keys": ["p", "q", "r"], "names": ["src"]}])
def test_concat_columns_of_differently_indexed_objects_is_pandas(frames, series, join, sort, kw):
    """pandas reindexes every object to the union (first appearance order) or intersection
    of the indexes; this was a NotImplementedError."""
    left, right = frames
    a, _ = series
    objs = [left, right, a.rename("s")]
    lazy = [md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4), md.Series(a.rename("s"), chunk_size=6)]
    assert_eq(md.concat(lazy, axis=1, join=join, sort=sort, **kw),
              pd.concat(objs, axis=1, join=join, sort=sort, **kw))


def test_concat_columns_of_aggregations_known_to_differ_only_when_run():
    """Two groupby results: whether their indexes are equal is known only from the data."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"k": rng.integers(0, 30, 200), "v": rng.random(200)})
    m = md.DataFrame(df, chunk_size=33)
    assert_eq(md.concat([m.groupby("k").v.sum(), m[m.v > 0.5].groupby("k").v.count().rename("n")], axis=1),
              pd.concat([df.groupby("k").v.sum(), df[df.v > 0.5].groupby("k").v.count().rename("n")], axis=1))
    same = md.concat([m.groupby("k").v.sum(), m.groupby("k").v.max().rename("top")], axis=1)
    assert_eq(same, pd.concat([df.groupby("k").v.sum(), df.groupby("k").v.max().rename("top")], axis=1))


def test_concat_columns_with_missing_and_text_labels_is_pandas():
    x = pd.Series([1.0, 2, 3], index=["p", np.nan, "q"], name="x")
    y = pd.Series([7.0, 8], index=[np.nan, "r"], name="y")
    assert_eq(md.concat([md.Series(x, chunk_size=2), md.Series(y)], axis=1), pd.concat([x, y], axis=1))


def test_reindex_and_concat_of_repeated_labels_raise_value_error_as_pandas():
    """These gave a row per repeat silently; pandas refuses to reindex repeated labels."""
    d = pd.Series([1, 2, 3], index=[1, 1, 2])
    e = pd.Series([1], index=[5])
    with pytest.raises(ValueError, match="duplicate labels"):
        md.concat([md.Series(d), md.Series(e)], axis=1)  # known when the graph is built
    with pytest.raises(ValueError, match="duplicate labels"):
        md.Series(d, chunk_size=2).reindex([1, 2])
    with pytest.raises(ValueError, match="duplicate labels"):
        _run(md.concat([md.Series(d, chunk_size=2) * 2, md.Series(e) * 1], axis=1))  # known when run
    with pytest.raises(ValueError, match="duplicate labels"):
        _run((md.Series(d, chunk_size=2) * 2).reindex([1, 2]))
    assert_eq(md.Series(d, chunk_size=2).reindex([1, 1, 2]), d.reindex([1, 1, 2]))  # nothing to do


def test_concat_series_with_frames_along_rows_is_pandas(frames):
    """A Series is a column named by it (0 without a name); this was a NotImplementedError."""
    left, _ = frames
    s, s0 = pd.Series([3.0, 4], name="b"), pd.Series([5, 6])
    ml = md.DataFrame(left, chunk_size=5)
    assert_eq(md.concat([ml, md.Series(s)]), pd.concat([left, s]))
    assert_eq(md.concat([md.Series(s0), ml], ignore_index=True), pd.concat([s0, left], ignore_index=True))


def test_concat_bad_input():
    with pytest.raises(ValueError):
        md.concat([])
    with pytest.raises(TypeError):
        md.concat(md.Series([1, 2]))
    with pytest.raises(TypeError):
        md.concat([md.Series([1, 2]), 3])


def test_relabelled_rows_are_aligned_by_label():
    s = pd.Series(np.arange(10.0), index=pd.date_range("2020-01-01", periods=10))
    m = md.Series(s, chunk_size=3)
    assert_eq(m + m.shift(2, freq="D"), s + s.shift(2, freq="D"))


def test_concat_verify_integrity_raises_pandas_value_error(frames):
    """Overlapping row labels (known when built, or only when run) and repeated columns;
    verify_integrity=True was a NotImplementedError."""
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    extra = pd.DataFrame({"a": [1.0]}, index=[99])
    assert_eq(md.concat([ml, md.DataFrame(extra)], verify_integrity=True),
              pd.concat([left, extra], verify_integrity=True))
    with pytest.raises(ValueError, match="overlapping values"):
        _run(md.concat([ml, mr], verify_integrity=True))
    with pytest.raises(ValueError, match="overlapping values"):
        _run(md.concat([ml * 1, mr * 1], verify_integrity=True))
    with pytest.raises(ValueError, match="overlapping values"):
        md.concat([ml, ml], axis=1, verify_integrity=True)
    with pytest.raises(ValueError, match="levels supported only when keys"):
        md.concat([ml, mr], levels=[["x"]])


@pytest.mark.parametrize("kw", [dict(keys=["p", "q"], levels=[["q", "r", "p"]]),
                                dict(keys=["p", "q"], levels=[["q", "r", "p"]], names=["k", None]),
                                dict(keys=[("p", 1), ("q", 2)], levels=[["q", "p"], [2, 1, 0]]),
                                dict(keys=["p", "q"], levels=[["q", "p", "s"]], axis=1),
                                dict(keys=["p", "q"], levels=[["q", "p"]], join="inner")])
def test_concat_with_levels(kw):
    # was a NotImplementedError: the keys' levels are the given ones, unused values included
    a = pd.DataFrame({"x": np.arange(5.0), "y": list("abcde")}, index=[3, 1, 4, 0, 5])
    b = pd.DataFrame({"x": np.arange(4.0), "z": [1, 2, 3, 4]})
    expected = pd.concat([a, b], **kw)
    got = md.concat([md.DataFrame(a, chunk_size=2), md.DataFrame(b, chunk_size=3)], **kw)
    assert_eq(got, expected)
    labels = (lambda f: f.columns) if kw.get("axis") == 1 else (lambda f: f.index)
    for mine, theirs in zip(labels(LocalExecutor().compute(got.data)[0]).levels, labels(expected).levels):
        pd.testing.assert_index_equal(mine, theirs)
    with pytest.raises(ValueError, match="not found in passed level"):
        md.concat([md.DataFrame(a), md.DataFrame(b)], keys=["p", "t"], levels=[["p", "q"]])


@pytest.mark.parametrize("kw", [dict(method="ffill"), dict(method="bfill"), dict(method="nearest"),
                                dict(method="pad", limit=1), dict(method="backfill", limit=2),
                                dict(method="nearest", tolerance=3), dict(method="ffill", fill_value=-1.0)])
def test_reindex_with_a_fill_method(kw):
    # was a NotImplementedError: labels go to the chunk whose label range holds them
    rs = np.random.RandomState(0)
    src = pd.DataFrame({"a": np.arange(40.0), "b": rs.rand(40)}, index=np.sort(rs.choice(200, 40, replace=False)))
    unordered = pd.Index(rs.randint(-10, 215, 60))
    for target in (unordered, pd.Index(np.arange(-5, 210, 7)), pd.Index([], dtype=int)):
        if "limit" in kw and target is unordered:  # pandas' ValueError: both must increase
            with pytest.raises(ValueError, match="monotonic"):
                src.reindex(target, **kw)
            with pytest.raises(ValueError, match="monotonic"):
                LocalExecutor().compute(md.DataFrame(src, chunk_size=7).reindex(target, **kw).data)
            continue
        assert_eq(md.DataFrame(src, chunk_size=7).reindex(target, **kw), src.reindex(target, **kw))
        assert_eq(md.Series(src["a"], chunk_size=9).reindex(target, **kw), src["a"].reindex(target, **kw))
        backwards = src.iloc[::-1]  # a decreasing index
        if "limit" in kw and len(target):
            with pytest.raises(ValueError, match="monotonic"):
                backwards.reindex(target, **kw)
            with pytest.raises(ValueError, match="monotonic"):
                LocalExecutor().compute(md.DataFrame(backwards, chunk_size=6).reindex(target, **kw).data)
        else:
            assert_eq(md.DataFrame(backwards, chunk_size=6).reindex(target, **kw), backwards.reindex(target, **kw))
    wanted = [3, 7, 60, 150] if "limit" in kw else [3, 60, 7, 150]
    lazy = md.Series(pd.Series(0, index=wanted), chunk_size=3).index
    assert_eq(md.Series(src["b"], chunk_size=9).reindex(lazy, **kw), src["b"].reindex(wanted, **kw))


def test_reindex_with_a_fill_method_errors_as_pandas():
    dates = pd.Series(np.arange(6.0), index=pd.date_range("2024-01-01", periods=6, freq="2D"))
    wanted = pd.date_range("2023-12-30", periods=9, freq="D")
    assert_eq(md.Series(dates, chunk_size=4).reindex(wanted, method="nearest", tolerance="1D"),
              dates.reindex(wanted, method="nearest", tolerance="1D"))
    unordered = pd.Series(np.arange(6.0), index=[0, 5, 3, 9, 12, 20])
    with pytest.raises(ValueError, match="monotonic"):
        unordered.reindex([1, 2], method="ffill")
    with pytest.raises(ValueError, match="monotonic"):
        LocalExecutor().compute(md.Series(unordered, chunk_size=2).reindex([1, 2], method="ffill").data)
    repeated = pd.Series(np.arange(6.0), index=[0, 1, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="duplicate"):
        repeated.reindex([1, 2], method="ffill")
    with pytest.raises(ValueError, match="duplicate"):
        LocalExecutor().compute(md.Series(repeated, chunk_size=2).reindex([1, 2], method="ffill").data)
    with pytest.raises(ValueError):
        md.Series(dates, chunk_size=4).reindex(wanted, method="sideways")


def _level_cases():
    ks = pd.Series([1.0, 2.0, 3.0, 5.0], index=["a", "b", "c", "z"], name="k")
    ns = pd.Series([10.0, 20.0], index=[0, 3])
    return [(lambda d, o: d.sub(o, level="k", axis=0), ks),
            (lambda d, o: d.mul(o, level=1, axis=0, fill_value=1.0), ns),
            (lambda d, o: d["x"].add(o, level=0), ks),
            (lambda d, o: d["x"].add(o, level="n", fill_value=0), ns),
            (lambda d, o: d.div(o, level=0, axis="index"), ks)]


@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("lazy", [False, True])
def test_binary_operations_with_level(case, lazy):
    # was a NotImplementedError: every row block matches the other's labels to its level
    rs = np.random.RandomState(0)
    index = pd.MultiIndex.from_arrays([np.repeat(list("abcdef"), 5), np.tile(np.arange(5), 6)], names=["k", "n"])
    pdf = pd.DataFrame({"x": rs.rand(30), "y": rs.randint(0, 9, 30)}, index=index).iloc[rs.permutation(30)]
    func, other = _level_cases()[case]
    m = md.DataFrame(pdf, chunk_size=7)
    lazy_other = md.Series(other, chunk_size=2) if lazy else other
    try:
        expected = func(pdf, other)
    except NotImplementedError:  # pandas 2.2: no fill_value with level= along the rows
        with pytest.raises(NotImplementedError):
            func(m, lazy_other)
        return
    assert_eq(func(m, lazy_other), expected)


def test_binary_operations_with_a_columns_level():
    rs = np.random.RandomState(1)
    pdf = pd.DataFrame(rs.rand(7, 4), columns=pd.MultiIndex.from_product([["u", "v"], [1, 2]]))
    factors = pd.Series([1.0, 100.0], index=["u", "v"])
    m = md.DataFrame(pdf, chunk_size=3)
    assert_eq(m.mul(factors, level=0), pdf.mul(factors, level=0))
    assert_eq(m.mul(md.Series(factors), level=0, axis=1), pdf.mul(factors, level=0, axis=1))


@pytest.mark.parametrize("join", ["outer", "left", "inner", "right"])
def test_align_with_level(join):
    # was a NotImplementedError
    rs = np.random.RandomState(0)
    index = pd.MultiIndex.from_arrays([np.repeat(list("abcdef"), 5), np.tile(np.arange(5), 6)], names=["k", "n"])
    pdf = pd.DataFrame({"x": rs.rand(30), "y": rs.randint(0, 9, 30)}, index=index).iloc[rs.permutation(30)]
    ks = pd.Series([1.0, 2.0, 3.0, 5.0], index=["a", "b", "c", "z"], name="k")
    m = md.DataFrame(pdf, chunk_size=7)
    for other in (ks, md.Series(ks, chunk_size=2)):
        for got, expected in [(m.align(other, join=join, axis=0, level="k"), pdf.align(ks, join=join, axis=0, level="k")),
                              (m["x"].align(other, join=join, level=0), pdf["x"].align(ks, join=join, level=0))]:
            assert_eq(got[0], expected[0])
            assert_eq(got[1], expected[1])
    flat = pd.Series([1.0, 2.0], index=[1, 2])  # on a flat index level= changes nothing
    got, expected = md.Series(flat).align(md.Series(flat.iloc[1:] * 3), join=join, level=0), \
        flat.align(flat.iloc[1:] * 3, join=join, level=0)
    assert_eq(got[0], expected[0])
    assert_eq(got[1], expected[1])
