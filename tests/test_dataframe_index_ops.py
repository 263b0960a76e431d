"""The lazy Index's positional and set methods and datetime-like label methods against
pandas: 23 labels in chunks of 5, duplicates, NaN, indexes after a filter (unknown extents)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


@pytest.fixture
def pdf():
    rs = np.random.RandomState(0)
    return pd.DataFrame({"i": rs.randint(0, 6, 23), "f": rs.rand(23)},
                        index=pd.Index([f"r{i % 20:02d}" for i in rs.permutation(23)], name="rid"))


def _both(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    return [(m.index, pdf.index), (m[m["i"] > 1].index, pdf[pdf["i"] > 1].index)]


def test_index_getitem_by_position(pdf):
    for got, want in _both(pdf):
        assert_eq(got[2:9], want[2:9])
        assert_eq(got[::-3], want[::-3])
        assert_eq(got[[4, 0, 2]], want[[4, 0, 2]])
        assert_eq(got[3], want[3], check_dtype=False)  # a str scalar: NumPy says <U3
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(m.index[(m["i"] > 2).to_numpy()], pdf.index[(pdf["i"] > 2).to_numpy()])
    with pytest.raises(IndexError):
        m.index[1, 2]


def test_index_to_numpy_and_values_are_lazy_tensors(pdf):
    for got, want in _both(pdf):
        assert_eq(got.to_numpy(), want.to_numpy())
        assert_eq(got.values, want.values)


@pytest.mark.parametrize("other", [pd.Index(["z1", "z2"], name="rid"), pd.Index([1, 2]),
                                   [pd.Index(["a"], name="rid"), pd.Index(["b"], name="rid")]],
                         ids=["same-name", "ints-no-name", "list"])
def test_index_append_keeps_common_names_and_dtypes(pdf, other):
    for got, want in _both(pdf):
        lazy = [md.Index(o) for o in other] if isinstance(other, list) else md.Index(other)
        assert_eq(got.append(lazy), want.append(other))
        assert_eq(got.append(other), want.append(other))


def test_concat_declares_the_inputs_index_not_the_samples(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(md.concat([m["f"], m["f"].iloc[:4]]), pd.concat([pdf["f"], pdf["f"].iloc[:4]]))
    assert md.concat([m, m]).data.meta.index.dtype == pdf.index.dtype


@pytest.mark.parametrize("loc", [0, 2, 7, -1, -4])
def test_index_insert(pdf, loc):
    for got, want in _both(pdf):
        assert_eq(got.insert(loc, "new"), want.insert(loc, "new"))
    assert_eq(md.Index(pdf.index, chunk_size=5).insert(23, "end"), pdf.index.insert(23, "end"))


def test_index_repeat_argsort_argmin_argmax_factorize(pdf):
    unique = pd.Index(np.random.RandomState(1).permutation(23) * 1.5, name="u")
    m = md.Index(unique, chunk_size=5)
    assert_eq(m.argsort(), unique.argsort())
    assert_eq(m.argmin(), unique.argmin())
    assert_eq(m.argmax(), unique.argmax())
    for got, want in _both(pdf):
        assert_eq(got.repeat(2), want.repeat(2))
        assert_eq(got.argsort(), want.argsort(kind="stable"))  # ties in their order
        assert_eq(got.argmax(), want.argmax())
        codes, uniques = got.factorize()
        want_codes, want_uniques = want.factorize()
        assert_eq(codes, want_codes)
        assert_eq(uniques, want_uniques)


def test_index_equals_is_computed_when_called(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    assert m.index.equals(md.Index(pdf.index, chunk_size=7))
    assert m.index.equals(pdf.index)
    assert not m.index.equals(pdf.index[::-1])
    assert not m.index.equals(pdf.index[:5])
    assert not m.index.equals(list(pdf.index))
    nan = pd.Index([1.0, np.nan, 3.0])
    assert md.Index(nan, chunk_size=2).equals(nan) and nan.equals(nan)
    assert md.Index(pd.Index([1, 2, 3]), chunk_size=2).equals(pd.Index([1.0, 2.0, 3.0]))


def test_index_get_indexer(pdf):
    unique = pdf.index.unique()
    m = md.Index(unique, chunk_size=4)
    target = ["r01", "zz", "r19", "r05"]
    assert_eq(m.get_indexer(target), unique.get_indexer(target))
    assert_eq(m.get_indexer(md.Index(pd.Index(target))), unique.get_indexer(target))
    with pytest.raises(NotImplementedError):
        m.get_indexer(target, method="pad")


OTHERS = [pd.Index(["r01", "r05", "q", "r05"]), pd.Index([], dtype=str), pd.Index(["r19", "a"], name="rid")]


@pytest.mark.parametrize("other", OTHERS, ids=["dups", "empty", "named"])
@pytest.mark.parametrize("how", ["union", "intersection", "difference", "symmetric_difference"])
def test_index_set_operations_like_pandas(pdf, other, how):
    for got, want in _both(pdf):
        assert_eq(getattr(got, how)(other), getattr(want, how)(other))
        assert_eq(getattr(got, how)(md.Index(other, chunk_size=2)), getattr(want, how)(other))


@pytest.mark.parametrize("how", ["intersection", "difference", "symmetric_difference"])
def test_index_set_operations_sort_false_keep_first_order(pdf, how):
    other = pd.Index(["r07", "zz", "r01", "r07"])
    for got, want in _both(pdf):
        assert_eq(getattr(got, how)(other, sort=False), getattr(want, how)(other, sort=False))
    with pytest.raises(ValueError):
        md.Index(pdf.index).difference(other, sort="yes")


def test_index_union_counts_duplicates_and_nan_as_pandas():
    a, b = pd.Index([3.0, 1.0, np.nan, 1.0, 7.0]), pd.Index([1.0, 1.0, 1.0, np.nan, 2.0, np.nan])
    for x, y in [(a, b), (b, a), (a, a), (a, a[::-1])]:
        assert_eq(md.Index(x, chunk_size=2).union(md.Index(y, chunk_size=3)), x.union(y))
        assert_eq(md.Index(x, chunk_size=2).intersection(y), x.intersection(y))
        assert_eq(md.Index(x, chunk_size=2).difference(y), x.difference(y))
    ints, floats = pd.Index([5, 1, 3]), pd.Index([1.5, 3.0])
    assert_eq(md.Index(ints, chunk_size=2).union(floats), ints.union(floats))
    assert_eq(md.Index(ints, chunk_size=2).symmetric_difference(floats), ints.symmetric_difference(floats))
    with pytest.raises(NotImplementedError):
        md.Index(ints).union(floats, sort=False)


def test_datetime_index_label_methods():
    idx = pd.date_range("2020-01-01 03:17", periods=23, freq="17h", name="t")
    m = md.Index(idx, chunk_size=5)
    assert_eq(m.year, idx.year)
    assert_eq(m.is_month_end, idx.is_month_end)
    assert_eq(m.floor("D"), idx.floor("D"))
    assert_eq(m.strftime("%Y-%m"), idx.strftime("%Y-%m"))
    assert_eq(m.day_name(), idx.day_name())
    assert_eq(m.shift(2, freq="h"), idx.shift(2, freq="h"))
    assert_eq(m.to_period("M"), idx.to_period("M"))
    assert_eq(m.isocalendar(), idx.isocalendar())
    local = m.tz_localize("UTC").tz_convert("Asia/Tokyo")
    assert_eq(local, idx.tz_localize("UTC").tz_convert("Asia/Tokyo"))
    assert str(local.tz) == "Asia/Tokyo"
    td = idx - idx[0]
    assert_eq(md.Index(td, chunk_size=5).total_seconds(), td.total_seconds())
    assert_eq(md.Index(td, chunk_size=5).days, td.days)
    with pytest.raises(AttributeError):
        md.Index(pd.Index(["a"])).year


def test_index_comparisons_are_lazy_boolean_arrays_not_python_bools(pdf):
    """``df.index != 'x'`` was Python's identity comparison (a bool): a mask of every row."""
    for got, want in _both(pdf):
        assert_eq(got != "r01", want != "r01")
        assert_eq(got >= "r10", want >= "r10")
        assert_eq(got == list(want[::-1]), want == list(want[::-1]))
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(m[m.index != "r01"], pdf[pdf.index != "r01"])
    assert_eq(m.index == md.Index(pdf.index[::-1], chunk_size=4), pdf.index == pdf.index[::-1])
    assert hash(m.index) == hash(m.index)


@pytest.mark.parametrize("labels", [["a", "b", "a", "c"], ["a", "a", "b", "c"], list("abcd")], ids=str)
def test_index_get_loc_gives_pandas_int_slice_or_mask(labels):
    want_index = pd.Index(labels * 3 if len(set(labels)) < 4 else labels)
    got_index = md.Index(want_index, chunk_size=3)
    for key in set(labels):
        got, want = got_index.get_loc(key), want_index.get_loc(key)
        assert type(got) is type(want)
        assert np.array_equal(got, want) if isinstance(want, np.ndarray) else got == want
    with pytest.raises(KeyError):
        got_index.get_loc("zz")
    monotonic = pd.Index(sorted(labels))
    assert md.Index(monotonic, chunk_size=2).get_loc("a") == monotonic.get_loc("a")


def test_index_where_by_position(pdf):
    import mars_on_ray.tensor as mt

    for got, want in _both(pdf):
        assert_eq(got.where(got != "r01", "zz"), want.where(want != "r01", "zz"))
        assert_eq(got.where(got > "r05"), want.where(want > "r05"))
    m = md.Index(pdf.index, chunk_size=5)
    assert_eq(m.where(np.arange(23) > 3, 1), pdf.index.where(np.arange(23) > 3, 1))
    assert_eq(m.where(mt.arange(23, chunk_size=7) % 2 == 0), pdf.index.where(np.arange(23) % 2 == 0))


def test_index_arithmetic_label_by_label_and_by_position():
    p = pd.Index([3, 1, 2, 5, 4, -1, 7], name="n")
    m = md.Index(p, chunk_size=3)
    for f in (lambda x: x + 1, lambda x: 2 * x, lambda x: x / 2, lambda x: 10 - x, lambda x: -x,
              lambda x: abs(x), lambda x: x ** 2, lambda x: x % 3, lambda x: 7 // x):
        assert_eq(f(m), f(p))
    q = pd.Index(np.arange(7.0), name="n")
    assert_eq(m + md.Index(q, chunk_size=2), p + q)
    assert_eq(m * q.rename("z"), p * q.rename("z"))
    assert_eq(m - list(range(7)), p - list(range(7)))
    t = pd.date_range("2020", periods=7, freq="h", name="t")
    assert_eq(md.Index(t, chunk_size=3) + pd.Timedelta("1D"), t + pd.Timedelta("1D"))
    with pytest.raises(TypeError):  # at build time under pandas 3 (str labels), when computed under 2.2
        LocalExecutor().compute((md.Index(pd.Index(["a"])) - 1).data)


def test_index_take_delete_has_duplicates_empty_identical(pdf):
    for got, want in _both(pdf):
        assert_eq(got.take([3, 0, 2]), want.take([3, 0, 2]))
        assert_eq(got.delete(2), want.delete(2))
        assert_eq(got.delete([0, -1]), want.delete([0, -1]))
        assert got.has_duplicates == want.has_duplicates
        assert got.empty is want.empty is False
        assert got.identical(want) and not got.identical(want.rename("other"))
    m = md.DataFrame(pdf, chunk_size=5)
    assert m[m["i"] > 100].index.empty
    assert not md.Index(pdf.index.unique()).has_duplicates


@pytest.mark.parametrize("kwargs", [{}, {"ascending": False, "na_position": "first"}], ids=repr)
def test_index_sort_values_return_indexer(kwargs):
    p = pd.Index([3.0, 1, np.nan, 5, 4, -1, 7, 1], name="n")
    m = md.Index(p, chunk_size=3)
    got, got_indexer = m.sort_values(return_indexer=True, **kwargs)
    want, want_indexer = p.sort_values(return_indexer=True, **kwargs)
    assert_eq(got, want)
    assert_eq(got_indexer, want_indexer)
    assert_eq(m.sort_values(**kwargs), p.sort_values(**kwargs))
