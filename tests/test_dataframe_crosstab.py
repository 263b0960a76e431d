"""pivot_table(margins=True) and crosstab against pandas (23 rows in chunks of 5, NaN,
duplicate index labels, after a filter)."""
import warnings

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import _compute, assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"k": rs.choice(list("abc"), 23), "c": rs.choice(["x", "y", "z"], 23),
                          "d": rs.choice([1, 2], 23), "v": rs.rand(23), "w": rs.randint(0, 9, 23)},
                         index=[i % 7 for i in range(23)])
    frame.loc[3, "v"] = np.nan
    return frame


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return func(*args, **kwargs)


MARGINS = [dict(values="v", index="k", columns="c", aggfunc="mean"),
           dict(values=["v", "w"], index="k", columns="c", aggfunc="sum"),
           dict(values="w", index=["k", "d"], columns="c", aggfunc="max"),
           dict(values="v", index="k", columns=["c", "d"], aggfunc="mean"),
           dict(values="v", index="k", aggfunc="mean"),
           dict(index="k", columns="c", aggfunc="count"),
           dict(values="w", index="k", columns="c", aggfunc="sum", fill_value=0),
           dict(values="v", index="k", columns="c", aggfunc="mean", margins_name="Total"),
           dict(values="v", index="k", columns="c", aggfunc=len),
           dict(values="v", index="k", columns="c", aggfunc="mean", dropna=False)]


@pytest.mark.parametrize("kwargs", MARGINS, ids=repr)
def test_pivot_table_margins_aggregate_the_data_as_pandas(df, kwargs):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(_quiet(m.pivot_table, margins=True, **kwargs), _quiet(df.pivot_table, margins=True, **kwargs))


def test_pivot_table_margins_of_a_mean_are_not_sums_of_cells(df):
    m = md.DataFrame(df, chunk_size=5)
    res = _quiet(m.pivot_table, values="v", index="k", columns="c", aggfunc="mean", margins=True)
    expected = df["v"].mean()
    assert np.isclose(_compute(res).loc["All", "All"], expected)


def test_pivot_table_margins_after_a_filter_and_bad_names(df):
    m = md.DataFrame(df, chunk_size=5)
    kw = dict(values="w", index="k", columns="c", aggfunc="sum", margins=True)
    assert_eq(m[m["w"] > 2].pivot_table(**kw), df[df["w"] > 2].pivot_table(**kw))
    with pytest.raises(ValueError, match="Conflicting name"):
        m.pivot_table(values="w", index="k", columns="c", aggfunc="sum", margins=True, margins_name="a")
    with pytest.raises(NotImplementedError):
        m.pivot_table(values="w", index="k", columns="c", aggfunc=lambda x: x.sum(), margins=True)


@pytest.mark.parametrize("kwargs", [{}, {"margins": True}, {"normalize": True}, {"normalize": "index"},
                                    {"normalize": "columns", "margins": True}, {"normalize": "all", "margins": True},
                                    {"margins": True, "margins_name": "T"}, {"rownames": ["R"], "colnames": ["C"]}],
                         ids=repr)
def test_crosstab_matches_pandas(df, kwargs):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(md.crosstab(m["k"], m["c"], **kwargs), pd.crosstab(df["k"], df["c"], **kwargs))


def test_crosstab_of_several_keys_values_and_pandas_series(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(md.crosstab([m["k"], m["d"]], m["c"]), pd.crosstab([df["k"], df["d"]], df["c"]))
    assert_eq(md.crosstab(m["k"], [m["c"], m["d"]], margins=True), pd.crosstab(df["k"], [df["c"], df["d"]], margins=True))
    assert_eq(md.crosstab(m["k"], m["c"], values=m["v"], aggfunc="mean"),
              pd.crosstab(df["k"], df["c"], values=df["v"], aggfunc="mean"))
    assert_eq(md.crosstab(m["k"], m["c"], values=m["w"], aggfunc="sum", margins=True),
              pd.crosstab(df["k"], df["c"], values=df["w"], aggfunc="sum", margins=True))
    assert_eq(md.crosstab(df["k"], df["c"]), pd.crosstab(df["k"], df["c"]))
    unique = df.reset_index(drop=True)  # pandas refuses repeated labels of two filter results
    m = md.DataFrame(unique, chunk_size=5)
    flt, expected = m[m["w"] > 2], unique[unique["w"] > 2]
    assert_eq(md.crosstab(flt["k"], flt["c"], margins=True), pd.crosstab(expected["k"], expected["c"], margins=True))


def test_crosstab_bad_arguments_raise_like_pandas(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(ValueError):
        md.crosstab(m["k"], m["c"], aggfunc="sum")
    with pytest.raises(ValueError):
        md.crosstab(m["k"], m["c"], values=m["v"])
    with pytest.raises(ValueError):
        md.crosstab(m["k"], m["c"], normalize="bad")
