"""The lazy Index (``df.index``) against pandas: label-by-label methods, whole-index facts
(tree reductions), properties. Chunk sizes do not divide the data; some indexes come from a
filter (unknown chunk extents), some hold duplicates or missing labels."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.index_methods import inferred_type_of
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


def _lazy_index(labels, chunk_size=7, name=None):
    """A lazy Index of ``labels`` (as ``df.index``) and a fresh pandas twin."""
    index = pd.Index(labels, name=name)
    frame = pd.DataFrame({"x": np.arange(len(index))}, index=index)
    return md.DataFrame(frame, chunk_size=chunk_size).index, pd.Index(labels, name=name)


STRINGS = [f"r{i % 37:02d}" for i in range(41)]
FLOATS = [1.5, np.nan, 3.0, -2.0, np.nan, 7.25, 0.0] * 5 + [4.0]
INTS = list(np.random.RandomState(0).randint(-20, 20, 41))


@pytest.mark.parametrize("labels", [STRINGS, FLOATS, INTS, list(range(41))], ids=["str", "float", "int", "range"])
def test_label_methods(labels):
    idx, p = _lazy_index(labels, name="k")
    assert_eq(idx, p)
    assert_eq(idx.rename("new"), p.rename("new"))
    assert_eq(idx.set_names("other"), p.set_names("other"))
    assert_eq(idx.dropna(), p.dropna())
    assert_eq(idx.isna(), p.isna())
    assert_eq(idx.notna(), p.notna())
    assert_eq(idx.to_series(), p.to_series())
    assert_eq(idx.to_series(name="v"), p.to_series(name="v"))
    assert_eq(idx.to_frame(), p.to_frame())
    assert_eq(idx.to_frame(index=False, name="col"), p.to_frame(index=False, name="col"))
    assert_eq(idx.astype(object), p.astype(object))
    assert_eq(idx.astype(str), p.astype(str))
    assert_eq(md.isna(idx), pd.isna(p))
    assert idx.T is idx
    assert idx.size == p.size and idx.ndim == p.ndim
    assert list(idx.names) == list(p.names)


def test_fillna_and_dropna():
    idx, p = _lazy_index(FLOATS)
    assert_eq(idx.fillna(0.5), p.fillna(0.5))
    assert_eq(idx.fillna(-1), p.fillna(-1))
    assert_eq(idx.dropna(how="all"), p.dropna(how="all"))
    with pytest.raises(TypeError):
        idx.fillna([1, 2])
    with pytest.raises(ValueError):
        idx.dropna(how="some")
    sidx, sp = _lazy_index(["a", None, "c", None, "e"], chunk_size=2)
    assert_eq(sidx.fillna("z"), sp.fillna("z"))
    assert_eq(sidx.dropna(), sp.dropna())


def test_astype_errors():
    idx, p = _lazy_index(STRINGS)
    with pytest.raises((TypeError, ValueError)) as expected:
        p.astype("int64")
    with pytest.raises(expected.type):  # when run: the empty metadata casts fine
        _value(idx.astype("int64"))


def test_map():
    idx, p = _lazy_index(STRINGS, name="k")
    assert_eq(idx.map(str.upper), p.map(str.upper))
    assert_eq(idx.map(len), p.map(len))
    assert_eq(idx.map(lambda x: int(x[1:]) * 1.5, dtype="float64"), p.map(lambda x: int(x[1:]) * 1.5))
    with pytest.raises(ValueError, match="dtype="):  # the sample label "a" has no digits
        idx.map(lambda x: int(x[1:]))
    mapping = {label: i for i, label in enumerate(sorted(set(STRINGS)))}
    assert_eq(idx.map(mapping), p.map(mapping))
    series = pd.Series(mapping)
    assert_eq(idx.map(series), p.map(series))
    iidx, ip = _lazy_index(INTS)
    assert_eq(iidx.map(lambda x: x * 2), ip.map(lambda x: x * 2))
    assert_eq(iidx.map(lambda x: x / 4, dtype="float64"), ip.map(lambda x: x / 4))
    fidx, fp = _lazy_index(FLOATS)
    assert_eq(fidx.map(lambda x: x + 1, na_action="ignore"), fp.map(lambda x: x + 1, na_action="ignore"))


def test_drop():
    idx, p = _lazy_index(STRINGS)
    assert_eq(idx.drop(["r01", "r20"]), p.drop(["r01", "r20"]))
    assert_eq(idx.drop("r00"), p.drop("r00"))
    assert_eq(idx.drop(["zz", "r05"], errors="ignore"), p.drop(["zz", "r05"], errors="ignore"))
    with pytest.raises(KeyError, match="not found in axis"):
        _value(idx.drop(["zz", "r05"]))


@pytest.mark.parametrize("labels", [FLOATS, INTS, STRINGS, list(range(41))], ids=["float", "int", "str", "range"])
def test_max_min(labels):
    idx, p = _lazy_index(labels)
    if p.dtype.kind in "iuf":
        assert_eq(idx.max(), p.max())
        assert_eq(idx.min(), p.min())
    else:  # a string scalar: an object tensor holding pandas' value
        assert _value(idx.max()) == p.max() and _value(idx.min()) == p.min()
    if p.dtype.kind == "f":
        assert np.isnan(_value(idx.max(skipna=False))) and np.isnan(p.max(skipna=False))


def test_all_any():
    for labels in ([1, 0, 3, 4, 2, 5, 6], [1, 2, 3, 4, 5, 6, 7], [0, 0, 0, 0, 0], [True, False, True]):
        idx, p = _lazy_index(labels, chunk_size=2)
        assert_eq(idx.all(), p.all())
        assert_eq(idx.any(), p.any())
    filtered = md.DataFrame(pd.DataFrame({"x": range(10)}, index=range(10)), chunk_size=3)
    flt = filtered[filtered["x"] > 100].index  # no rows at all
    assert_eq(flt.all(), pd.Index([], dtype="int64").all())
    assert_eq(flt.any(), pd.Index([], dtype="int64").any())
    fidx, fp = _lazy_index(FLOATS)
    try:
        expected = fp.all()
    except TypeError:  # pandas 2.2: no truth values of float labels
        with pytest.raises(TypeError):
            fidx.all()
    else:
        assert_eq(fidx.all(), expected)
        assert_eq(fidx.any(), fp.any())


@pytest.mark.parametrize("labels", [STRINGS, FLOATS, INTS, list(range(41))], ids=["str", "float", "int", "range"])
def test_memory_usage(labels):
    idx, p = _lazy_index(labels)
    assert_eq(idx.memory_usage(), p.memory_usage())
    assert_eq(idx.memory_usage(deep=True), pd.Index(labels).memory_usage(deep=True))


def test_memory_usage_of_a_range_index_after_a_filter():
    frame = pd.DataFrame({"x": np.arange(41) % 3})
    m = md.DataFrame(frame, chunk_size=7)
    expected = frame[frame["x"] > 0].index
    assert_eq(m[m["x"] > 0].index.memory_usage(), pd.Index(expected).memory_usage())
    assert_eq(m.index.memory_usage(), pd.RangeIndex(41).memory_usage())


@pytest.mark.parametrize("labels", [
    ["a", "b", "c"], [1, "a", 2.5], [1, 2, None], ["a", np.nan, "b"], [1.5, 2, 3], [b"x", b"y"],
    [pd.Timestamp("2020-01-01"), pd.Timestamp("2021-01-01")], [True, False, None], [1, 2, 3],
], ids=repr)
def test_inferred_type_of_object_labels(labels):
    idx, _ = _lazy_index(pd.Index(labels, dtype=object), chunk_size=2)
    assert _value(inferred_type_of(idx)) == pd.Index(labels, dtype=object).inferred_type


@pytest.mark.parametrize("labels", [STRINGS, FLOATS, INTS, [True, False], pd.date_range("2020", periods=5),
                                    pd.timedelta_range("1D", periods=3), pd.Categorical(["a", "b"])],
                         ids=["str", "float", "int", "bool", "datetime", "timedelta", "category"])
def test_inferred_type_from_the_dtype(labels):
    idx, p = _lazy_index(labels, chunk_size=2)
    if p.dtype == object:  # pandas 2.2 strings: the property would compute it (on Ray)
        assert _value(inferred_type_of(idx)) == p.inferred_type
    else:
        assert idx.inferred_type == p.inferred_type


def test_index_of_a_filtered_frame():
    frame = pd.DataFrame({"x": np.arange(41)}, index=STRINGS)
    m = md.DataFrame(frame, chunk_size=7)
    flt, exp = m[m["x"] % 3 == 0].index, frame[frame["x"] % 3 == 0].index
    assert np.isnan(flt.size)
    assert_eq(flt.to_frame(index=False), exp.to_frame(index=False))
    assert_eq(flt.map(str.upper), exp.map(str.upper))
    assert_eq(flt.drop(exp[:2]), exp.drop(exp[:2]))
    assert_eq(flt.isin(["r03", "r06"]), exp.isin(["r03", "r06"]))


def test_multiindex_names():
    frame = pd.DataFrame({"a": [1, 1, 2, 2, 3], "b": list("xyxyx"), "v": range(5)}).set_index(["a", "b"])
    idx = md.DataFrame(frame, chunk_size=2).index
    assert list(idx.names) == ["a", "b"]
    assert_eq(idx.set_names(["A", "B"]), frame.index.set_names(["A", "B"]))
    assert_eq(idx.set_names("B", level=1), frame.index.set_names("B", level=1))
    assert_eq(idx.to_frame(index=False), frame.index.to_frame(index=False))


def test_rename_inplace():
    idx, p = _lazy_index(INTS)
    assert idx.rename("z", inplace=True) is None
    assert_eq(idx, p.rename("z"))
    assert idx.set_names("w", inplace=True) is None
    assert_eq(idx, p.rename("w"))


def test_to_series_with_other_labels():
    idx, p = _lazy_index(list("abcdefg"), chunk_size=3, name="k")
    assert_eq(idx.to_series(index=range(10, 17)), p.to_series(index=range(10, 17)))
    assert_eq(idx.to_series(index=list("ABCDEFG"), name="v"), p.to_series(index=list("ABCDEFG"), name="v"))
    assert_eq(idx.copy(), p.copy())
