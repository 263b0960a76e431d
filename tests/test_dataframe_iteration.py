"""Iterating lazy frames as pandas users do (``for col in df``, ``list(s)``, ``x in s``) and
``DataFrame.map``. Chunks do not divide the data; a filtered frame has unknown extents."""
import numpy as np
import pandas as pd
import pytest
import learn_support

import mars_on_ray.dataframe as md
from mars_on_ray.testing import assert_eq

local_session = learn_support.local_session  # the fixture: iteration computes



@pytest.fixture
def pdf():
    rs = np.random.RandomState(0)
    frame = pd.DataFrame({"i": rs.randint(0, 6, 23), "f": rs.rand(23), "s": [f"k{i % 3}" for i in range(23)]},
                         index=[f"r{i % 20:02d}" for i in range(23)])  # duplicate labels
    frame.loc["r03", "f"] = np.nan
    return frame


def test_iterating_a_frame_gives_its_column_labels_without_computing(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    assert list(m) == list(pdf)
    assert [k for k, _ in m.items()] == list(pdf)


def test_iterating_a_series_fetches_its_values_instead_of_looping_forever(pdf, local_session):
    m = md.DataFrame(pdf, chunk_size=5)
    got = list(m["f"])
    assert pd.Series(got).equals(pd.Series(list(pdf["f"])))
    flt = m[m["i"] > 2]
    assert list(flt["s"]) == list(pdf[pdf["i"] > 2]["s"])
    assert list(m[m["i"] > 100]["i"]) == []


def test_iterating_an_index_and_tolist(pdf, local_session):
    m = md.DataFrame(pdf, chunk_size=5)
    assert list(m.index) == list(pdf.index)
    assert m.index.tolist() == pdf.index.tolist() == m.index.to_list()


def test_in_checks_columns_of_a_frame_and_labels_of_a_series_or_index(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    assert ("f" in m, "zz" in m) == (True, False)
    assert ("r21" in m["f"], "r02" in m["f"], 1.0 in m["f"]) == ("r21" in pdf["f"], True, False)
    with_nan = md.Index(pd.Index([1.0, np.nan, 3.0]), chunk_size=2)
    assert np.nan in with_nan and 3.0 in with_nan and 2.0 not in with_nan


@pytest.mark.parametrize("na_action", [None, "ignore"])
def test_frame_map_is_elementwise_block_by_block(pdf, na_action):
    m = md.DataFrame(pdf, chunk_size=5)
    assert_eq(m[["i", "f"]].map(lambda x: x * 2, na_action=na_action),
              pdf[["i", "f"]].map(lambda x: x * 2, na_action=na_action))
    assert_eq(m.map(lambda x: str(x)[:2], na_action=na_action),
              pdf.map(lambda x: str(x)[:2], na_action=na_action))
    flt = m[m["i"] > 2]
    assert_eq(flt.map(lambda x, k: len(str(x)) + k, k=1), pdf[pdf["i"] > 2].map(lambda x, k: len(str(x)) + k, k=1))


def test_frame_map_bad_arguments_raise_like_pandas(pdf):
    m = md.DataFrame(pdf, chunk_size=5)
    with pytest.raises(ValueError):
        pdf.map(str, na_action="all")
    with pytest.raises(ValueError):
        m.map(str, na_action="all")
    for obj in (pdf, m):
        with pytest.raises(TypeError):
            obj.map(5)


def test_assigning_columns_and_index_relabels_the_frame(pdf):
    """``df.columns = [...]`` / ``df.index = ...`` raised 'property has no setter'."""
    m, want = md.DataFrame(pdf, chunk_size=5), pdf.copy()
    m.columns, want.columns = ["A", "B", "C"], ["A", "B", "C"]
    m.index, want.index = np.arange(23) * 2, np.arange(23) * 2
    assert_eq(m, want)
    s, ps = m["A"], want["A"].copy()
    s.index, ps.index = md.Index(pd.Index(list(pdf.index), name="q"), chunk_size=4), pd.Index(list(pdf.index), name="q")
    assert_eq(s, ps)
    with pytest.raises(ValueError):
        m.columns = ["A"]
    with pytest.raises(ValueError):
        m.index = [1, 2]
    assert list(m.keys()) == list(want.keys())
    assert_eq(s.keys(), ps.keys())
    assert list(m.axes[1]) == list(want.axes[1])
    assert_eq(m.axes[0], want.axes[0])


def test_setting_index_names_renames_the_frames_index_and_series_name(pdf):
    m, want = md.DataFrame(pdf, chunk_size=5), pdf.copy()
    m.index.name, want.index.name = "q", "q"
    assert_eq(m, want)
    idx = m.index
    idx.name = "r"
    want.index.name = "r"
    assert_eq(m, want)
    assert_eq(idx, want.index)
    s, ps = m["f"], want["f"].copy()
    s.name, ps.name = "zz", "zz"
    assert_eq(s, ps)
    mm, pm = m.set_index("i", append=True), want.set_index("i", append=True)
    mm.index.names, pm.index.names = ["x", "y"], ["x", "y"]
    assert_eq(mm, pm)
    mm.index.name = "ignored"  # pandas keeps a MultiIndex's names
    pm.index.name = "ignored"
    assert_eq(mm, pm)
