"""groupby keys beyond column labels, against pandas: index levels (``level=``), functions and
dicts of the index labels, pandas / lazy Series, and lists mixing them, through aggregations,
per-row methods and apply."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq


@pytest.fixture
def df():
    rs = np.random.RandomState(1)
    n = 37
    index = pd.MultiIndex.from_arrays([rs.randint(0, 4, n), rs.choice(list("abc"), n)],
                                      names=["outer", None])
    frame = pd.DataFrame({"v": rs.rand(n), "w": rs.randint(0, 9, n), "s": rs.choice(list("pq"), n)},
                         index=index)
    frame.iloc[[2, 9], 0] = np.nan
    return frame


@pytest.fixture
def flat():
    rs = np.random.RandomState(2)
    n = 29
    return pd.DataFrame({"v": rs.rand(n), "w": rs.randint(0, 5, n)},
                        index=pd.Index(rs.randint(0, 40, n), name="id"))  # repeated labels


LEVELS = [0, "outer", 1, -1, [0, 1], ["outer", 1]]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("sort", [True, False])
def test_groupby_level_aggregates_as_pandas(df, level, sort):
    m = md.DataFrame(df, chunk_size=8)
    assert_eq(m.groupby(level=level, sort=sort).sum(), df.groupby(level=level, sort=sort).sum())
    assert_eq(m.groupby(level=level, sort=sort)[["v", "w"]].agg(["mean", "max"]),
              df.groupby(level=level, sort=sort)[["v", "w"]].agg(["mean", "max"]))
    assert_eq(m.groupby(level=level, sort=sort).size(), df.groupby(level=level, sort=sort).size())


@pytest.mark.parametrize("level", [0, [0, 1]])
def test_groupby_level_as_index_false_inserts_the_levels_as_pandas(df, level):
    m = md.DataFrame(df, chunk_size=8)
    assert_eq(m.groupby(level=level, as_index=False)[["v", "w"]].sum(),
              df.groupby(level=level, as_index=False)[["v", "w"]].sum())


@pytest.mark.parametrize("level", [0, "outer", [0, 1]])
def test_groupby_level_per_row_methods_keep_the_row_order(df, level):
    m = md.DataFrame(df, chunk_size=8)
    num = ["v", "w"]
    assert_eq(m[num].groupby(level=level).cumsum(), df[num].groupby(level=level).cumsum())
    assert_eq(m.groupby(level=level)["v"].transform("mean"),
              df.groupby(level=level)["v"].transform("mean"))
    assert_eq(m.groupby(level=level).cumcount(), df.groupby(level=level).cumcount())
    assert_eq(m.groupby(level=level).head(2), df.groupby(level=level).head(2))
    assert_eq(m.groupby(level=level)["v"].shift(1), df.groupby(level=level)["v"].shift(1))


def test_groupby_level_apply_in_group_order(df):
    m = md.DataFrame(df, chunk_size=8)
    assert_eq(m.groupby(level=0)["w"].apply(lambda s: s.max() - s.min()),
              df.groupby(level=0)["w"].apply(lambda s: s.max() - s.min()))


def test_series_groupby_level_and_functions(df, flat):
    s = df["v"]
    ms = md.Series(s, chunk_size=6)
    assert_eq(ms.groupby(level=0).sum(), s.groupby(level=0).sum())
    assert_eq(ms.groupby(level=[0, 1]).max(), s.groupby(level=[0, 1]).max())
    assert_eq(ms.groupby(level=1).cumsum(), s.groupby(level=1).cumsum())
    f = flat["w"]
    mf = md.Series(f, chunk_size=4)
    assert_eq(mf.groupby(lambda label: label % 3).sum(), f.groupby(lambda label: label % 3).sum())
    assert_eq(mf.groupby(level="id").count(), f.groupby(level="id").count())


def test_groupby_by_a_function_or_a_dict_of_the_labels(flat):
    m = md.DataFrame(flat, chunk_size=6)
    assert_eq(m.groupby(lambda label: label % 4).sum(), flat.groupby(lambda label: label % 4).sum())
    assert_eq(m.groupby(lambda label: label % 4, sort=False).mean(),
              flat.groupby(lambda label: label % 4, sort=False).mean())
    mapping = {label: ("low" if label < 20 else "high") for label in flat.index[:-3]}
    # labels missing from the dict map to NaN: left out (dropna) or their own group
    for dropna in (True, False):  # the groups' dtype is the dict's values' for the labels the data has
        assert_eq(m.groupby(mapping, dropna=dropna).sum(), flat.groupby(mapping, dropna=dropna).sum(),
                  check_index_meta=False)
    assert_eq(m.groupby(lambda label: label % 4).cumsum(), flat.groupby(lambda label: label % 4).cumsum())


def test_groupby_by_a_pandas_series_aligns_it_by_label(flat):
    key = pd.Series(np.arange(len(flat)) % 3, index=flat.index, name="third")
    m = md.DataFrame(flat, chunk_size=6)
    assert_eq(m.groupby(key).sum(), flat.groupby(key).sum())
    distinct = flat.reset_index(drop=True)
    shuffled = pd.Series(np.arange(len(distinct)) % 4, name="q").sample(frac=1, random_state=0)
    assert_eq(md.DataFrame(distinct, chunk_size=7).groupby(shuffled).w.max(),
              distinct.groupby(shuffled).w.max())


def test_groupby_by_a_list_mixing_labels_series_and_functions(flat):
    m = md.DataFrame(flat, chunk_size=6)
    key = flat["w"] > 2
    assert_eq(m.groupby(["w", m["w"] > 2]).v.sum(), flat.groupby(["w", key]).v.sum())
    assert_eq(m.groupby([m["w"] > 2, lambda label: label % 2]).v.mean(),
              flat.groupby([key, lambda label: label % 2]).v.mean())
    assert_eq(m.groupby([m["w"] > 2, lambda label: label % 2]).v.cumsum(),
              flat.groupby([key, lambda label: label % 2]).v.cumsum())
    big = (m["w"] > 2).rename("big")
    assert_eq(m.groupby(["w", big], as_index=False).v.sum(),
              flat.groupby(["w", key.rename("big")], as_index=False).v.sum())


def test_groupby_key_errors_are_pandas_at_build_time(df, flat):
    m = md.DataFrame(df, chunk_size=8)
    for call in (lambda o: o.groupby(level=2), lambda o: o.groupby(level="nope"),
                 lambda o: o.groupby()):
        with pytest.raises(Exception) as raised:
            call(df)
        with pytest.raises(type(raised.value)):
            call(m)
    with pytest.raises(ValueError, match="same length"):
        md.DataFrame(flat).groupby(np.arange(5))


def test_groupby_by_arrays_and_tensors_groups_by_position(flat):
    """Was a NotImplementedError ("groupby by ... an array"): pandas groups by an array's (an
    Index's, a tensor's) values position by position, whatever the labels."""
    import mars_on_ray.tensor as mt

    frame = flat.set_axis([f"r{i % 7}" for i in range(len(flat))])  # repeated labels
    m = md.DataFrame(frame, chunk_size=5)
    arr = np.arange(len(frame)) % 4
    assert_eq(m.groupby(arr).sum(), frame.groupby(arr).sum())
    assert_eq(m.groupby(mt.tensor(arr, chunk_size=6)).max(), frame.groupby(arr).max())
    assert_eq(m.groupby(pd.Index(arr % 3)).size(), frame.groupby(pd.Index(arr % 3)).size())
    first = frame.columns[0]
    assert_eq(m.groupby([first, arr]).sum(), frame.groupby([first, arr]).sum())
    assert_eq(m[first].groupby(arr).cumsum(), frame[first].groupby(arr).cumsum())
    kept = m[m[first] > m[first].min()]
    expected = frame[frame[first] > frame[first].min()]
    arr2 = np.arange(len(expected)) % 3  # unknown chunk extents
    assert_eq(kept.groupby(arr2).sum(), expected.groupby(arr2).sum())


def test_groupby_level_on_ray(session, df):
    m = md.DataFrame(df, chunk_size=8)
    pd.testing.assert_frame_equal(m.groupby(level=[0, 1]).sum().fetch(), df.groupby(level=[0, 1]).sum())
    pd.testing.assert_series_equal(m.groupby(lambda t: t[0] % 2)["v"].cumsum().fetch(),
                                   df.groupby(lambda t: t[0] % 2)["v"].cumsum())


def test_groupby_by_index_level_names_and_columns(df):
    m = md.DataFrame(df, chunk_size=8)
    assert_eq(m.groupby("outer").sum(), df.groupby("outer").sum())
    assert_eq(m.groupby(["outer", "s"]).w.sum(), df.groupby(["outer", "s"]).w.sum())
    assert_eq(m.groupby(["s", "outer"], sort=False).v.mean(), df.groupby(["s", "outer"], sort=False).v.mean())
    assert_eq(m.v.groupby("outer").max(), df.v.groupby("outer").max())
    assert_eq(m.groupby("outer").w.cumsum(), df.groupby("outer").w.cumsum())
