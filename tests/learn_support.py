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
