"""Test helpers of the learn estimators: the in-process session they fit in."""
from __future__ import annotations

import pytest

from mars_on_ray.core.local_session import LocalSession


@pytest.fixture
def local_session():
    """A LocalSession as the default session while the test runs (estimators execute in fit)."""
    import mars_on_ray.session as session_mod

    old = session_mod._default_session
    session_mod._default_session = LocalSession()
    yield session_mod._default_session
    session_mod._default_session = old


def compute(t):
    """``t``'s value, computed in this process."""
    from mars_on_ray.core.local import LocalExecutor

    return LocalExecutor().compute(t.data)[0]


def kinds(a, chunk=7):
    """The same values as a tensor, a mars Series/DataFrame, pandas and NumPy."""
    import pandas as pd

    import mars_on_ray.dataframe as md
    import mars_on_ray.tensor as mt

    yield mt.tensor(a, chunk_size=chunk)
    if a.ndim == 1:
        yield md.Series(pd.Series(a), chunk_size=chunk + 3)
        yield pd.Series(a)
    else:
        yield md.DataFrame(pd.DataFrame(a), chunk_size=chunk + 3)
    yield a


def inputs(a, frame=None):
    """``a`` as a tensor and as NumPy; ``frame`` (its pandas form) also as pandas and mars."""
    import mars_on_ray.dataframe as md
    import mars_on_ray.tensor as mt

    yield mt.tensor(a, chunk_size=(8, 3))
    yield a
    if frame is not None:
        yield frame
        yield md.DataFrame(frame, chunk_size=10)
