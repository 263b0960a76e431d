"""Properties and conversions that compute, against pandas: is_unique, hasnans, size, empty,
tolist, to_dict, to_records, equals, first/last_valid_index.

23 rows in chunks of 5; frames after a filter have unknown chunk extents; duplicate labels.
"""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md


@pytest.fixture
def pdf():
    return pd.DataFrame({"a": [1, 2, 2] + list(range(20)), "b": [np.nan] * 3 + list(np.arange(20.0)),
                         "s": [f"x{i % 4}" for i in range(23)]},
                        index=[f"r{i % 19:02d}" for i in range(23)])


def _cases(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    yield df, pdf
    yield df[df["a"] > 3], pdf[pdf["a"] > 3]
    yield df[df["a"] > 100], pdf[pdf["a"] > 100]
    yield md.DataFrame(pdf.iloc[:0]), pdf.iloc[:0]


def test_computed_properties_are_plain_python_values_equal_to_pandas(pdf):
    for df, expected in _cases(pdf):
        assert df.size == expected.size and type(df.size) is int
        assert df.empty is expected.empty
        for col in ("a", "b", "s"):
            s, e = df[col], expected[col]
            assert s.is_unique is e.is_unique, col
            assert s.hasnans is e.hasnans, col
            assert s.size == e.size and s.empty is e.empty
    assert md.DataFrame(pdf[[]], chunk_size=5).empty is True and md.DataFrame(pdf[[]]).size == 0


def test_is_unique_counts_nan_as_a_value():
    s = pd.Series([1.0, np.nan, 2.0, np.nan, 3.0])
    assert md.Series(s, chunk_size=2).is_unique is s.is_unique is False
    assert md.Series(s.iloc[:3], chunk_size=2).is_unique is True


def test_valid_index_finds_the_first_and_last_rows_with_a_value(pdf):
    frame = pdf.copy()
    frame.iloc[:7, :] = np.nan
    frame.iloc[-4:, :] = np.nan
    for df, expected in _cases(frame):
        assert df.first_valid_index() == expected.first_valid_index()
        assert df.last_valid_index() == expected.last_valid_index()
        assert df["b"].first_valid_index() == expected["b"].first_valid_index()
        assert df["b"].last_valid_index() == expected["b"].last_valid_index()
    assert md.Series([np.nan] * 7, chunk_size=3).first_valid_index() is None


def test_conversions_return_pandas_in_memory_results(pdf):
    for df, expected in _cases(pdf):
        assert df["a"].tolist() == expected["a"].tolist() == df["a"].to_list()
        for orient in ("dict", "list", "records", "index", "split", "tight"):
            if orient == "index" and not expected.index.is_unique:
                with pytest.raises(ValueError):
                    df.to_dict(orient=orient)
                continue
            assert repr(df.to_dict(orient=orient)) == repr(expected.to_dict(orient=orient))  # NaN != NaN
        assert repr(df["b"].to_dict()) == repr(expected["b"].to_dict())
        records, want = df.to_records(), expected.to_records()
        assert records.dtype == want.dtype and repr(records.tolist()) == repr(want.tolist())
        assert df.to_records(index=False).dtype == expected.to_records(index=False).dtype


def test_to_dict_bad_orient_raises_before_computing(pdf):
    with pytest.raises(ValueError):
        md.DataFrame(pdf, chunk_size=5).to_dict(orient="bogus")


def test_equals_as_pandas_with_nan_dtypes_labels_and_chunking(pdf):
    df = md.DataFrame(pdf, chunk_size=5)
    assert df.equals(pdf) is True
    assert df.equals(md.DataFrame(pdf, chunk_size=7)) is True
    assert df[df["a"] > 3].equals(pdf[pdf["a"] > 3]) is True
    assert df[df["a"] > 3].equals(md.DataFrame(pdf[pdf["a"] > 3], chunk_size=4)) is True
    changed = pdf.copy()
    changed.iloc[21, 1] = -1.0
    assert df.equals(changed) is pdf.equals(changed) is False
    relabelled = pdf.rename(index={"r02": "zz"})
    assert df.equals(relabelled) is pdf.equals(relabelled) is False
    assert df.equals(pdf.astype({"a": float})) is pdf.equals(pdf.astype({"a": float})) is False
    assert df.equals(pdf.iloc[:-1]) is False and df.equals(pdf[["a", "b"]]) is False
    assert df["a"].equals(pdf["a"]) is True and df["a"].equals(pdf) is False
    assert df.equals(pdf.values) is False
