"""clip against pandas: scalars, per-column lists, per-row arrays (by position), Series and
DataFrames lined up by label (missing labels give missing rows), 23 rows in chunks of 5."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rs.randint(-5, 6, 23), "b": rs.rand(23) * 4 - 2},
                         index=[f"r{i:02d}" for i in range(23)])
    frame.loc[frame.index[[2, 7]], "b"] = np.nan
    return frame


def test_clip_with_scalars_swaps_reversed_bounds_and_ignores_nan(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.clip(-1, 2), df.clip(-1, 2))
    assert_eq(m.clip(2, -1), df.clip(2, -1))
    assert_eq(m.clip(upper=1.5), df.clip(upper=1.5))
    assert_eq(m.clip(np.nan, 1), df.clip(np.nan, 1))
    assert_eq(m["b"].clip(lower=0), df["b"].clip(lower=0))


def test_clip_with_per_column_lists_and_series(df):
    m = md.DataFrame(df, chunk_size=5)
    assert_eq(m.clip([0, -1], [3, 0.5], axis=1), df.clip([0, -1], [3, 0.5], axis=1))
    assert_eq(m.clip([0, -1]), df.clip([0, -1]))
    assert_eq(m.clip([np.nan, 0.5], axis=1), df.clip([np.nan, 0.5], axis=1))
    bounds = pd.Series({"a": 0, "b": -0.5})
    assert_eq(m.clip(bounds, axis=1), df.clip(bounds, axis=1))


def test_clip_with_per_row_arrays_pairs_by_position(df):
    m = md.DataFrame(df, chunk_size=5)
    arr = np.random.RandomState(1).randint(-3, 3, 23)
    assert_eq(m.clip(arr, axis=0), df.clip(arr, axis=0))
    assert_eq(m["a"].clip(arr), df["a"].clip(arr))
    assert_eq(m["a"].clip(upper=arr * 0.5), df["a"].clip(upper=arr * 0.5))
    assert_eq(m["a"].clip(mt.tensor(arr, chunk_size=4)), df["a"].clip(arr))


def test_clip_with_series_bounds_aligned_by_label(df):
    m = md.DataFrame(df, chunk_size=5)
    rs = np.random.RandomState(2)
    partial = pd.Series(rs.randint(-3, 3, 20), index=[f"r{i:02d}" for i in range(3, 23)][::-1])
    assert_eq(m.clip(partial, axis=0), df.clip(partial, axis=0))
    assert_eq(m["a"].clip(upper=partial), df["a"].clip(upper=partial))
    assert_eq(m["a"].clip(md.Series(partial, chunk_size=6), 3), df["a"].clip(partial, 3))
    same = pd.Series(rs.randint(-3, 3, 23), index=df.index)
    assert_eq(m["a"].clip(md.Series(same, chunk_size=7)), df["a"].clip(same))
    assert_eq(m.clip(lower=same, upper=same + 2, axis=0), df.clip(lower=same, upper=same + 2, axis=0))


def test_clip_with_a_dataframe_bound_aligns_rows_and_columns(df):
    m = md.DataFrame(df, chunk_size=5)
    bound = df[["b"]].iloc[::-1] * 0.5
    assert_eq(m.clip(md.DataFrame(bound, chunk_size=4)), df.clip(bound))
    assert_eq(m.clip(upper=df * 0.5), df.clip(upper=df * 0.5))


def test_clip_after_a_filter_and_of_empty_frames(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["b"] > 0], df[df["b"] > 0]
    assert np.isnan(flt.shape[0])
    assert_eq(flt.clip(-1, 1), expected.clip(-1, 1))
    part = pd.Series(1, index=df.index[::2])
    assert_eq(flt["a"].clip(part), expected["a"].clip(part))
    assert_eq(md.DataFrame(df.iloc[:0]).clip(0, 1), df.iloc[:0].clip(0, 1))


def test_clip_inplace_rebinds_the_object(df):
    m = md.DataFrame(df, chunk_size=5)
    assert m.clip(0, 1, inplace=True) is None
    assert_eq(m, df.clip(0, 1))


def test_clip_errors_at_build_time(df):
    m = md.DataFrame(df, chunk_size=5)
    with pytest.raises(ValueError, match="axis=0 or 1"):
        m.clip(pd.Series([1, 2]))
    with pytest.raises(ValueError, match="length"):
        m["a"].clip([1, 2])
    with pytest.raises(ValueError):
        m.clip([1, 2, 3], axis=0)
    with pytest.raises(NotImplementedError, match="per-column"):
        m.clip(-1, md.Series(pd.Series({"a": 1, "b": 2})), axis=1)


def test_clip_by_lazy_scalars():
    """A lazy scalar bound (``s.median()``) is a scalar, not bounds per row (a ValueError
    "Data must be 1-dimensional" before)."""
    frame = pd.DataFrame({"b": np.arange(23.0) * 1.5}, index=[f"r{i % 19}" for i in range(23)])
    m = md.DataFrame(frame, chunk_size=5)
    assert_eq(m["b"].clip(2, m["b"].median()), frame["b"].clip(2, frame["b"].median()))
    assert_eq(m.clip(upper=m["b"].mean()), frame.clip(upper=frame["b"].mean()))


@pytest.mark.parametrize("lower, upper", [(-2.5, 3.0), (-2.0, 3.5), (0.5, None), (None, 1000.0), (-9.5, 9.5)])
def test_clip_of_int_columns_keeps_int_unless_a_non_whole_bound_replaces_a_value(lower, upper):
    rs = np.random.RandomState(1)
    pdf = pd.DataFrame({"a": rs.randint(-5, 5, 23), "b": rs.randint(0, 9, 23), "f": rs.rand(23),
                        "t": rs.rand(23) > 0.5, "i8": rs.randint(0, 9, 23).astype("int8")},
                       index=[i % 7 for i in range(23)])
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(m.clip(lower, upper), pdf.clip(lower, upper))
    assert_eq(m[m["a"] > 0].clip(lower, upper), pdf[pdf["a"] > 0].clip(lower, upper))
    assert_eq(m[m["a"] > 100].clip(lower, upper), pdf[pdf["a"] > 100].clip(lower, upper))
    for c in pdf:
        assert_eq(m[c].clip(lower, upper), pdf[c].clip(lower, upper))
    if lower is not None:  # a lazy bound is computed first when the dtype depends on it
        assert_eq(m["a"].clip(mt.tensor(np.array(lower)).sum(), upper), pdf["a"].clip(lower, upper))
