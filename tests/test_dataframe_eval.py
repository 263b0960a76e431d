"""eval / query / md.eval and value-by-value operations (round, replace, between) against pandas."""
import warnings

import numpy as np
import pandas as pd
import pytest
from pandas.errors import UndefinedVariableError

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 5, 23), "b": rs.rand(23) * 10, "c": rs.rand(23) > 0.5,
                          "s": [f"x{i % 4}" for i in range(23)], "n": np.nan},
                         index=pd.Index([f"r{i:02d}" for i in range(23)], name="key"))
    frame.loc[["r03", "r17"], "b"] = np.nan
    return frame


EXPRS = ["a + b * 2", "a > 0", "a > 0 and b < 5", "(a * b) ** 2 - n", "c | (a == 1)", "-a",
         "abs(a) + sin(b)", "s == 'x1'", "d = a + b", "d = a + b\ne = d * 2", "a = a * 10",
         "`a` + 1", "key == 'r04'"]


@pytest.mark.parametrize("expr", EXPRS)
def test_eval(df, expr):
    assert_eq(md.DataFrame(df, chunk_size=4).eval(expr), df.eval(expr))


def test_eval_local_variables(df):
    m = md.DataFrame(df, chunk_size=5)
    factor, limit = 2.5, 3

    def inner():
        shift = 7
        return m.eval("a * 2 + @shift"), df.eval("a * 2 + @shift")
    assert_eq(*inner())
    assert_eq(m.eval("a * @factor"), df.eval("a * @factor"))
    assert_eq(m.eval("b > @limit"), df.eval("b > @limit"))
    assert_eq(m.eval("a + @v", local_dict={"v": 4}), df.eval("a + @v", local_dict={"v": 4}))
    factor = 100  # resolved when built: the lazy result keeps 2.5
    before = m.eval("a * @factor")
    factor = -1
    assert_eq(before, df.eval("a * 100"))


@pytest.mark.filterwarnings("ignore:The inplace keyword")
def test_eval_inplace_and_errors(df):
    m = md.DataFrame(df, chunk_size=4)
    expected = df.copy()
    assert m.eval("z = a - b", inplace=True) is None
    with warnings.catch_warnings():  # pandas 3.1 deprecates inplace
        warnings.simplefilter("ignore")
        expected.eval("z = a - b", inplace=True)
    assert_eq(m, expected)
    with pytest.raises(ValueError):
        df.eval("a + 1", inplace=True)
    with pytest.raises(ValueError):
        m.eval("a + 1", inplace=True)
    with pytest.raises(UndefinedVariableError):
        df.eval("zz + 1")
    with pytest.raises(UndefinedVariableError):
        m.eval("zz + 1")
    with pytest.raises(UndefinedVariableError):
        m.eval("a + @not_defined_anywhere")
    with pytest.raises(SyntaxError):
        m.eval("a +* b")


QUERIES = ["a > 0", "a > 0 and b < 5", "s in ['x1', 'x3']", "c", "not c", "b != b", "a > 100",
           "key > 'r10'", "a == a.max()" if False else "a >= -5"]


@pytest.mark.parametrize("expr", QUERIES)
def test_query(df, expr):
    m = md.DataFrame(df, chunk_size=4)
    res = m.query(expr)
    assert np.isnan(res.shape[0])
    assert_eq(res, df.query(expr))


def test_query_locals_inplace_and_errors(df):
    m = md.DataFrame(df, chunk_size=6)
    lo, names = -2, ["x0", "x2"]
    assert_eq(m.query("a > @lo and s in @names"), df.query("a > @lo and s in @names"))
    assert_eq(m.query("a > @lo").query("b < 5"), df.query("a > @lo").query("b < 5"))
    m2, expected = md.DataFrame(df, chunk_size=6), df.copy()
    assert m2.query("c", inplace=True) is None
    with warnings.catch_warnings():  # pandas 3.1 deprecates inplace
        warnings.simplefilter("ignore")
        expected.query("c", inplace=True)
    assert_eq(m2, expected)
    with pytest.raises(UndefinedVariableError):
        m.query("zz > 1")
    with pytest.raises(ValueError):
        m.query(3)
    with pytest.raises(ValueError):
        df.query(3)


def test_md_eval(df):
    m = md.DataFrame(df, chunk_size=4)
    other = md.DataFrame(df[["a", "b"]] * 2, chunk_size=7)
    half = 0.5
    assert_eq(md.eval("m.a + m.b * half"), pd.eval("df.a + df.b * half"))
    frame2 = df[["a", "b"]] * 2
    assert_eq(md.eval("m.a - other.b"), pd.eval("df.a - frame2.b"))
    assert md.eval("1 + 2") == 3
    with pytest.raises(ValueError):
        md.eval(3)


# -- round / replace / between --------------------------------------------------------------------
@pytest.mark.parametrize("decimals", [0, 1, -1, {"b": 2}, pd.Series({"b": 0, "a": -1})], ids=repr)
def test_round(df, decimals):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.round(decimals), df.round(decimals))
    if not isinstance(decimals, (dict, pd.Series)):
        assert_eq(md.Series(df["b"], chunk_size=5).round(decimals), df["b"].round(decimals))


def test_round_errors(df):
    with pytest.raises(TypeError):
        df.round("x")
    with pytest.raises(TypeError):
        md.DataFrame(df).round("x")


REPLACES = [((1, 100), {}), ((1, "one"), {}), ((-5, np.nan), {}), (([1, 2], [10, 20]), {}),
            (({"a": {1: 5}},), {}), (({1: -1, "x0": "y"},), {}), ((r"x(\d)", r"y\1"), {"regex": True}),
            ((), {"to_replace": "x1", "value": "q"}), ((np.nan, 0),  {}), ((True, "t"), {}),
            (({"a": 1, "s": "x2"}, 0), {}), ((["x0", "x3"], "z"), {})]


@pytest.mark.parametrize("args,kwargs", REPLACES, ids=repr)
def test_replace(df, args, kwargs):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m.replace(*args, **kwargs), df.replace(*args, **kwargs))


def test_series_replace_and_inplace(df):
    s = md.Series(df["a"], chunk_size=4)
    assert_eq(s.replace(1, 2.5), df["a"].replace(1, 2.5))  # int64 -> float64 as a whole
    assert_eq(s.replace(100, 2.5), df["a"].replace(100, 2.5))  # nothing replaced: int64 kept
    assert_eq(md.Series(df["s"], chunk_size=4).replace({"x1": "one"}), df["s"].replace({"x1": "one"}))
    m, expected = md.DataFrame(df, chunk_size=4), df.copy()
    assert m.replace(1, 7, inplace=True) is None
    with warnings.catch_warnings():  # pandas 3.1 deprecates inplace
        warnings.simplefilter("ignore")
        expected.replace(1, 7, inplace=True)
    assert_eq(m, expected)
    with pytest.raises(NotImplementedError):
        s.replace(1, limit=2)


@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
def test_between(df, inclusive):
    s = md.Series(df["b"], chunk_size=4)
    assert_eq(s.between(2, 7, inclusive=inclusive), df["b"].between(2, 7, inclusive=inclusive))
    assert_eq(md.Series(df["s"], chunk_size=5).between("x1", "x2", inclusive=inclusive),
              df["s"].between("x1", "x2", inclusive=inclusive))


def test_between_series_bounds_and_errors(df):
    m = md.DataFrame(df, chunk_size=4)
    assert_eq(m["b"].between(m["a"], m["a"] + 5), df["b"].between(df["a"], df["a"] + 5))
    with pytest.raises(ValueError):
        df["b"].between(1, 2, inclusive="all")
    with pytest.raises(ValueError):
        m["b"].between(1, 2, inclusive="all")
    empty = md.Series(df["b"].iloc[:0], chunk_size=4)
    assert_eq(empty.between(1, 2), df["b"].iloc[:0].between(1, 2))


def test_lazy_local_variables(df):
    m = md.DataFrame(df, chunk_size=4)
    mu, shifted = m["b"].mean(), m["a"] * 2
    mu_value, shifted_value = df["b"].mean(), df["a"] * 2
    assert_eq(m.query("b > @mu"), df.query("b > @mu_value"))
    assert_eq(m.eval("a + @shifted"), df.eval("a + @shifted_value"))
    assert_eq(m.eval("z = b - @mu"), df.eval("z = b - @mu_value"))
    assert_eq(m.query("a < @shifted and b > @mu"), df.query("a < @shifted_value and b > @mu_value"))


def test_replace_learns_dtypes_only_when_they_can_change(df, monkeypatch):
    import mars_on_ray.dataframe.accessors as accessors
    learned = []
    real = accessors.learn_dtypes
    monkeypatch.setattr(accessors, "learn_dtypes", lambda *a: learned.append(1) or real(*a))
    m = md.DataFrame(df[["a", "b"]], chunk_size=4)
    assert_eq(m.replace(1, 100), df[["a", "b"]].replace(1, 100))
    assert_eq(m.replace(np.nan, 0), df[["a", "b"]].replace(np.nan, 0))
    assert learned == []
    assert_eq(m.replace(1, 2.5), df[["a", "b"]].replace(1, 2.5))
    assert learned == [1]
