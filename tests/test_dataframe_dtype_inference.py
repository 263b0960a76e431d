"""infer_objects, convert_dtypes and md.to_timedelta against pandas: the dtype pandas infers
from a whole column, when its blocks alone would infer others (23 rows in chunks of 5)."""
import datetime as dt

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

N = 23


@pytest.fixture
def pdf():
    return pd.DataFrame({
        "ints": pd.Series(list(range(N)), dtype=object),
        "late_float": pd.Series(list(range(20)) + [1.5, 2, 3], dtype=object),  # last block decides
        "late_none": pd.Series(list(range(21)) + [None, 4], dtype=object),
        "late_str": pd.Series(list(range(20)) + ["a", "b", "c"], dtype=object),
        "strs": pd.Series([f"s{i}" for i in range(22)] + [None], dtype=object),
        "bools": pd.Series([True, False] * 11 + [None], dtype=object),
        "dates": pd.Series([dt.datetime(2020, 1, 1 + i % 28) for i in range(N)], dtype=object),
        "big": pd.Series([2 ** 63 + i if i == 22 else i for i in range(N)], dtype=object),
        "f_integral": [float(i) for i in range(22)] + [np.nan],
        "f_late_frac": [float(i) for i in range(20)] + [0.5, 1, 2],
        "early_nan": [np.nan] * 5 + [float(i) for i in range(18)],
        "i": np.arange(N),
    }, index=[f"r{i % 19}" for i in range(N)])


def test_infer_objects_gives_the_whole_columns_dtypes(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    assert_eq(df.infer_objects(), pdf.infer_objects())
    for c in pdf.columns:
        assert_eq(df[c].infer_objects(), pdf[c].infer_objects())
    flt, expected = df[df["i"] > 4], pdf[pdf["i"] > 4]
    assert_eq(flt.infer_objects(), expected.infer_objects())
    assert_eq(md.DataFrame(pdf.iloc[:0]).infer_objects(), pdf.iloc[:0].infer_objects())


@pytest.mark.parametrize("kwargs", [{}, {"convert_string": False}, {"convert_floating": False},
                                    {"infer_objects": False}, {"convert_boolean": False}], ids=repr)
def test_convert_dtypes_gives_the_whole_columns_dtypes(pdf, kwargs):
    df = md.DataFrame(pdf, chunk_size=5)
    assert_eq(df.convert_dtypes(**kwargs), pdf.convert_dtypes(**kwargs))
    for c in ("late_float", "late_str", "f_integral", "f_late_frac", "early_nan", "bools"):
        assert_eq(df[c].convert_dtypes(**kwargs), pdf[c].convert_dtypes(**kwargs))
    flt, expected = df[df["i"] > 4], pdf[pdf["i"] > 4]
    assert_eq(flt.convert_dtypes(**kwargs), expected.convert_dtypes(**kwargs))


def test_convert_dtypes_refuses_pandas_bad_options(pdf):
    with pytest.raises((TypeError, ValueError)):
        md.DataFrame(pdf, chunk_size=5).convert_dtypes(dtype_backend="bogus")


def test_to_timedelta_learns_the_resolution_of_the_whole_data():
    td = pd.Series(["1 day", "2 hours", None, "3s"] * 5 + ["1us", "5 min", "1ns"], index=[f"r{i % 7}" for i in range(N)])
    assert_eq(md.to_timedelta(md.Series(td, chunk_size=5)), pd.to_timedelta(td))
    assert_eq(md.to_timedelta(md.Series(td.iloc[:20], chunk_size=5)), pd.to_timedelta(td.iloc[:20]))
    ints = pd.Series(np.arange(N))
    assert_eq(md.to_timedelta(md.Series(ints, chunk_size=5), unit="s"), pd.to_timedelta(ints, unit="s"))
    assert_eq(md.to_timedelta(md.Series(ints * 1.5, chunk_size=5), unit="ms"), pd.to_timedelta(ints * 1.5, unit="ms"))
    assert_eq(md.to_timedelta(list(td)), pd.to_timedelta(list(td)))
    assert_eq(md.to_timedelta(pd.Index(td, name="n")), pd.to_timedelta(pd.Index(td, name="n")))
    assert md.to_timedelta("1 day") == pd.to_timedelta("1 day")
    with pytest.raises(TypeError):
        md.to_timedelta(md.DataFrame({"a": [1]}))
    with pytest.raises(ValueError):
        md.to_timedelta(md.Series(["1 day", "bogus"]))
