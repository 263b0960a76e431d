"""``Series.cat`` against pandas (23 values in chunks of 5, missing values, a filter)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def s():
    values = ["b", "a", None, "c", "a", "b", "b"] * 3 + ["a", "c"]
    cats = pd.CategoricalDtype(["d", "c", "b", "a", "e"], ordered=False)
    return pd.Series(values, dtype=cats, name="x", index=[i % 7 for i in range(23)])


def test_cat_properties_come_from_the_dtype(s):
    m = md.Series(s, chunk_size=5)
    pd.testing.assert_index_equal(m.cat.categories, s.cat.categories)
    assert m.cat.ordered is False
    assert md.Series(s.cat.as_ordered()).cat.ordered is True
    assert_eq(m.cat.codes, s.cat.codes)
    flt = m[m.cat.codes > 1]
    assert_eq(flt.cat.codes, s[s.cat.codes > 1].cat.codes)


@pytest.mark.parametrize("call", [
    lambda c: c.rename_categories(list("VWXYZ")),
    lambda c: c.rename_categories({"a": "A", "e": "E"}),
    lambda c: c.add_categories(["f", "g"]),
    lambda c: c.remove_categories(["b", "e"]),
    lambda c: c.set_categories(["a", "b", "z"]),
    lambda c: c.set_categories(["b", "a"], ordered=True),
    lambda c: c.set_categories(list("PQRST"), rename=True),
    lambda c: c.reorder_categories(list("abcde"), ordered=True),
    lambda c: c.as_ordered(),
    lambda c: c.as_unordered(),
], ids=["rename-list", "rename-dict", "add", "remove", "set", "set-ordered", "set-rename",
        "reorder", "as_ordered", "as_unordered"])
def test_cat_methods_match_pandas(s, call):
    m = md.Series(s, chunk_size=5)
    assert_eq(call(m.cat), call(s.cat))
    assert_eq(call(m[m.notna()].cat), call(s[s.notna()].cat))


def test_remove_unused_categories_uses_the_whole_column(s):
    m = md.Series(s, chunk_size=5)
    assert_eq(m.cat.remove_unused_categories(), s.cat.remove_unused_categories())
    flt, expected = m[m != "c"], s[s != "c"]
    assert_eq(flt.cat.remove_unused_categories(), expected.cat.remove_unused_categories())
    empty = s.iloc[:0]
    assert_eq(md.Series(empty).cat.remove_unused_categories(), empty.cat.remove_unused_categories())


def test_cat_errors_match_pandas(s):
    m = md.Series(s, chunk_size=5)
    with pytest.raises(AttributeError, match="Can only use .cat accessor with a 'category' dtype"):
        md.Series(pd.Series([1, 2])).cat
    with pytest.raises(ValueError):
        m.cat.add_categories(["a"])
    with pytest.raises(ValueError):
        m.cat.remove_categories(["zz"])
    with pytest.raises(ValueError):
        m.cat.reorder_categories(["a", "b"])
    with pytest.raises(ValueError):
        m.cat.rename_categories(["x"])
    assert not hasattr(md.Series(pd.Series(["a"])), "cat")


def test_cat_of_numeric_categories(s):
    num = pd.Series(pd.Categorical([3, 1, np.nan, 2, 1] * 5, categories=[1, 2, 3, 4]))
    m = md.Series(num, chunk_size=4)
    assert_eq(m.cat.remove_unused_categories(), num.cat.remove_unused_categories())
    assert_eq(m.cat.codes, num.cat.codes)
    assert_eq(m.cat.rename_categories(lambda c: c * 10), num.cat.rename_categories(lambda c: c * 10))


def test_astype_category_learns_the_categories_of_the_whole_data():
    """Each block used to get its own categories: the blocks concatenated to str / object and
    ``cat.codes`` counted per block."""
    p = pd.Series(list("xyzxwvu") * 3 + [None, "a"], index=[f"r{i % 20}" for i in range(23)])
    frame = pd.DataFrame({"s": p, "i": np.arange(23) % 7 * 3, "f": np.arange(23.0)})
    s, m = md.Series(p, chunk_size=5), md.DataFrame(frame, chunk_size=5)
    assert_eq(s.astype("category"), p.astype("category"))
    assert_eq(s.astype("category").cat.codes, p.astype("category").cat.codes)
    assert_eq(m.astype({"s": "category", "i": "category"}), frame.astype({"s": "category", "i": "category"}))
    assert_eq(m.astype("category"), frame.astype("category"))
    ordered = pd.CategoricalDtype(ordered=True)
    flt, pflt = m[m["f"] > 4], frame[frame["f"] > 4]
    assert_eq(flt.astype({"i": ordered}), pflt.astype({"i": ordered}))
    assert_eq(flt["s"].astype("category").astype(ordered), pflt["s"].astype("category").astype(ordered))
    assert_eq(m.index.astype("category"), frame.index.astype("category"))
    fixed = pd.CategoricalDtype(["x", "y"])
    assert_eq(s.astype(fixed), p.astype(fixed))
    empty = md.Series(pd.Series([None, None], dtype=object), chunk_size=1)
    assert_eq(empty.astype("category"), pd.Series([None, None], dtype=object).astype("category"))
