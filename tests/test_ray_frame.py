"""Frame methods, Index methods and iteration on a local Ray (each operation family once)."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt


@pytest.fixture(scope="module")
def frame():
    rs = np.random.RandomState(0)
    return pd.DataFrame({"a": rs.randint(-5, 5, 41), "b": rs.rand(41),
                         "s": [f"x{i % 4}" for i in range(41)]},
                        index=[f"r{i % 37:02d}" for i in range(41)])


def test_labels_and_columns_on_ray(session, frame):
    m = md.DataFrame(frame, chunk_size=7)
    result = (m.rename(columns={"a": "A"}).drop(["r01", "r02"]).assign(c=lambda x: x["A"] * 2)
              .add_prefix("p_").select_dtypes("number"))
    expected = (frame.rename(columns={"a": "A"}).drop(["r01", "r02"]).assign(c=lambda x: x["A"] * 2)
                .add_prefix("p_").select_dtypes("number"))
    pd.testing.assert_frame_equal(result.fetch(), expected)
    with pytest.raises(KeyError, match="not found in axis"):
        m.drop(["zz"]).execute()


def test_index_rows_on_ray(session, frame):
    m = md.DataFrame(frame, chunk_size=7)
    flt, expected = m[m["a"] > -2], frame[frame["a"] > -2]
    pd.testing.assert_frame_equal(flt.reset_index().fetch(), expected.reset_index())
    pd.testing.assert_frame_equal(flt.set_index("s", append=True).fetch(), expected.set_index("s", append=True))
    labels = np.arange(len(expected)) * 10
    pd.testing.assert_series_equal(flt["b"].set_axis(labels).fetch(), expected["b"].set_axis(labels))


def test_where_isin_on_ray(session, frame):
    m = md.DataFrame(frame, chunk_size=7)
    pd.testing.assert_series_equal(m["a"].where(m["a"] > 0, m["b"]).fetch(),
                                   frame["a"].where(frame["a"] > 0, frame["b"]))
    pd.testing.assert_frame_equal(m.isin({"s": ["x1"], "a": [0]}).fetch(), frame.isin({"s": ["x1"], "a": [0]}))
    pd.testing.assert_series_equal(m["a"].isin(md.Series([1, 2], chunk_size=1)).fetch(), frame["a"].isin([1, 2]))


def test_index_methods_on_ray(session, frame):
    idx, p = md.DataFrame(frame, chunk_size=7).index, frame.index
    pd.testing.assert_index_equal(idx.map(str.upper).fetch(), p.map(str.upper))
    pd.testing.assert_frame_equal(idx.to_frame(index=False).fetch(), p.to_frame(index=False))
    assert idx.max().fetch() == p.max()
    assert idx.memory_usage().fetch() == pd.Index(list(p)).memory_usage()
    np.testing.assert_array_equal(md.isna(idx).fetch(), pd.isna(p))
    mixed = md.DataFrame(pd.DataFrame({"x": range(4)}, index=pd.Index([1, "a", 2.5, None], dtype=object)),
                         chunk_size=3).index
    assert mixed.inferred_type == pd.Index([1, "a", 2.5, None], dtype=object).inferred_type


def test_iteration_fetches_batches_on_ray(session, frame):
    m = md.DataFrame(frame, chunk_size=7)
    flt, expected = m[m["a"] > 0], frame[frame["a"] > 0]
    rows = list(flt.iterrows(batch_size=4))
    assert [k for k, _ in rows] == list(expected.index)
    for (_, got), (_, want) in zip(rows, expected.iterrows()):
        pd.testing.assert_series_equal(got, want)
    assert list(flt.itertuples(batch_size=5)) == list(expected.itertuples())
    assert list(flt.itertuples(index=False, name=None)) == list(expected.itertuples(index=False, name=None))
    assert list(m["b"].items(batch_size=6)) == list(frame["b"].items())
    assert list(m["b"].iteritems()) == list(frame["b"].items())
    assert [k for k, _ in m.iteritems()] == list(frame.columns)


def test_constructors_on_ray(session):
    records = np.array([(i, i * 0.5) for i in range(13)], dtype=[("a", "i8"), ("b", "f8")])
    pd.testing.assert_frame_equal(md.from_records(mt.tensor(records, chunk_size=4)).fetch(),
                                  pd.DataFrame.from_records(records))
    x = np.arange(12.0).reshape(6, 2)
    pd.testing.assert_frame_equal(md.dataframe_from_tensor(mt.tensor(x, chunk_size=4), index=list("abcdef")).fetch(),
                                  pd.DataFrame(x, index=list("abcdef")))
    pd.testing.assert_series_equal(md.series_from_tensor(mt.tensor(x[:, 0], chunk_size=4), name="v").fetch(),
                                   pd.Series(x[:, 0], name="v"))


def test_index_constructor_and_lazy_labels_on_ray(session):
    x = np.arange(14.0).reshape(7, 2)
    labels = md.Index(mt.arange(7, chunk_size=3) * 2)
    pd.testing.assert_index_equal(labels.fetch(), pd.Index(np.arange(7) * 2))
    pd.testing.assert_frame_equal(md.DataFrame(mt.tensor(x, chunk_size=4), index=labels).fetch(),
                                  pd.DataFrame(x, index=np.arange(7) * 2))
    s = md.Series(pd.Series(x[:, 0]), chunk_size=5)
    pd.testing.assert_series_equal(s.set_axis(md.Index(list("abcdefg"), chunk_size=2)).fetch(),
                                   pd.Series(x[:, 0], index=list("abcdefg")))


def test_multi_index_loc_on_ray(session):
    index = pd.MultiIndex.from_product([[1, 2, 3], list("ab"), range(3)], names=["o", "m", "i"])
    df = pd.DataFrame({"x": np.arange(18.0)}, index=index)
    m = md.DataFrame(df, chunk_size=4)
    pd.testing.assert_frame_equal(m.loc[2].fetch(), df.loc[2])
    pd.testing.assert_series_equal(m.loc[(3, "b", 1)].fetch(), df.loc[(3, "b", 1)])
    with pytest.raises(KeyError):
        m.loc[9].execute()
    pd.testing.assert_frame_equal(m.loc[([3, 1], "a", slice(1, 2)), :].fetch(), df.loc[([3, 1], "a", slice(1, 2)), :])
    pd.testing.assert_frame_equal(m.loc[2:3].fetch(), df.loc[2:3])


def test_array_operands_and_ufuncs_on_ray(session):
    s = pd.Series(np.arange(10.0), index=list("aabbccddee"))
    m = md.Series(s, chunk_size=3)
    pd.testing.assert_series_equal((np.arange(10) + m).fetch(), np.arange(10) + s)
    pd.testing.assert_series_equal(np.exp(m * mt.tensor(np.ones(10), chunk_size=4)).fetch(), np.exp(s))
