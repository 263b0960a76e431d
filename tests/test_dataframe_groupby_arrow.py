"""The pyarrow partial of groupby aggregations: pandas' answer, or pandas runs."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.dataframe.groupby_arrow import arrow_partial
from mars_on_ray.testing import assert_eq


@pytest.fixture
def frame():
    rs = np.random.default_rng(5)
    n = 1003
    out = pd.DataFrame({"k": rs.integers(-20, 40, n), "i": rs.integers(-9, 9, n),
                        "f": rs.random(n), "s": rs.choice(list("abc"), n),
                        "u": rs.integers(0, 5, n).astype("uint64")})
    out.loc[out.k == 7, "f"] = np.nan  # a group with no value at all
    out.loc[::5, "f"] = np.nan
    return out


PARTIALS = (("f", "sum"), ("f", "count"), (None, "size"), ("i", "min"), ("f", "max"),
            ("i", "sum"), ("f", "min"), ("i", "max"), ("i", "count"))


def _pandas_partial(frame, key, partials):
    g = frame.groupby(key)
    return pd.DataFrame({f"p{n}": g.size() if how == "size" else g[col].agg(how)
                         for n, (col, how) in enumerate(partials)})


@pytest.mark.parametrize("key", ["k", "u"])
def test_arrow_partial_is_pandas_partial(frame, key):
    got = arrow_partial(frame, (key,), PARTIALS)
    pd.testing.assert_frame_equal(got, _pandas_partial(frame, key, PARTIALS))
    if key == "k":
        assert got.loc[7, "p0"] == 0.0 and np.isnan(got.loc[7, "p4"])  # pandas' all-NaN group


def test_arrow_partial_of_an_empty_chunk(frame):
    empty = frame.iloc[:0]
    pd.testing.assert_frame_equal(arrow_partial(empty, ("k",), PARTIALS),
                                  _pandas_partial(empty, "k", PARTIALS), check_index_type=False)


@pytest.mark.parametrize("by, partials", [
    (("s",), (("f", "sum"),)),            # a string key
    (("f",), (("i", "sum"),)),            # a float key (NaN keys, dropna)
    (("k", "i"), (("f", "sum"),)),        # two keys
    (("k",), (("s", "min"),)),            # a string value
    (("k",), (("u", "sum"),)),            # a uint64 value (pandas keeps uint64)
    (("k",), (("f", "prod"),)),           # an aggregation pyarrow does not do like pandas
    (("k",), (("k", "sum"),)),            # the key as a value
])
def test_arrow_partial_leaves_the_rest_to_pandas(frame, by, partials):
    assert arrow_partial(frame, by, partials) is None


@pytest.mark.parametrize("chunk", [97, 1003])
def test_groupby_agg_over_the_arrow_partials_matches_pandas(frame, chunk):
    mdf = md.DataFrame(frame, chunk_size=chunk)
    aggs = ["sum", "mean", "count", "min", "max", "size"]  # size: by .size() below
    assert_eq(mdf.groupby("k")[["f", "i"]].agg(aggs[:-1]),
              frame.groupby("k")[["f", "i"]].agg(aggs[:-1]))
    assert_eq(mdf.groupby("k").size(), frame.groupby("k").size())
    assert_eq(mdf.groupby("u")["f"].sum(), frame.groupby("u")["f"].sum())
