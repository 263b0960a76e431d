"""dropna / fillna along the columns (and dropna's other keywords) against pandas."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from learn_support import local_session  # noqa: F401  (in-process session: dropna(axis=1) computes now)
from mars_on_ray.testing import assert_eq


@pytest.fixture
def frame():
    return pd.DataFrame({"a": [1, np.nan, 3, 4, 5], "b": [np.nan] * 5, "c": [1.0, 2, 3, np.nan, 5],
                         "d": list("vwxyz")}, index=list("pqrst"))


@pytest.mark.parametrize("kw", [dict(axis=1), dict(axis="columns", how="all"), dict(axis=1, thresh=4),
                                dict(axis=1, subset=["p", "r"]), dict(how="all"), dict(thresh=3),
                                dict(ignore_index=True), dict(subset=["c"], ignore_index=True)], ids=repr)
def test_dropna_is_pandas(local_session, frame, kw):
    assert_eq(md.DataFrame(frame, chunk_size=2).dropna(**kw), frame.dropna(**kw))


def test_dropna_in_place(local_session, frame):
    m = md.DataFrame(frame, chunk_size=2)
    assert m.dropna(axis=1, inplace=True) is None
    assert_eq(m, frame.dropna(axis=1))


@pytest.mark.parametrize("kw", [dict(how="any", thresh=2), dict(axis=2), dict(subset=["zz"])], ids=repr)
def test_dropna_bad_arguments_raise_pandas_errors(frame, kw):
    with pytest.raises(Exception) as expected:
        frame.dropna(**kw)
    with pytest.raises(type(expected.value)):
        md.DataFrame(frame, chunk_size=2).dropna(**kw)


@pytest.mark.parametrize("kw", [dict(value=0), dict(value=-1.5, limit=1)], ids=repr)
def test_fillna_along_the_columns_is_pandas(frame, kw):
    num = frame[["a", "b", "c"]]
    assert_eq(md.DataFrame(num, chunk_size=2).fillna(axis=1, **kw), num.fillna(axis=1, **kw))
