"""A user's function from a module the cluster cannot import: a clear error naming the
operation and how to ship the module, then the fix it suggests works (services/graph_payload.py)."""
from __future__ import annotations

import importlib
import sys

import pandas as pd
import pytest
import ray.cloudpickle

import mars_on_ray.dataframe as md


@pytest.fixture()
def local_module(tmp_path):
    """A module importable in this driver only (its folder is on this process's path)."""
    (tmp_path / "only_here_helpers.py").write_text("def triple(x):\n    return x * 3\n")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("only_here_helpers")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("only_here_helpers", None)


def test_a_function_from_a_module_the_cluster_lacks_names_the_operation(session, local_module):
    s = md.Series(pd.Series(range(10)), chunk_size=3)
    with pytest.raises(ModuleNotFoundError) as info:
        s.map(local_module.triple).execute(show_progress=False)
    text = str(info.value)
    assert "only_here_helpers" in text and "md.Series.map" in text, text
    assert "Supervisor" not in text, text  # the user's error, not Ray's frames
    assert "register_pickle_by_value" in text, text
    ray.cloudpickle.register_pickle_by_value(local_module)
    try:
        result = s.map(local_module.triple).execute(show_progress=False).fetch()
    finally:
        ray.cloudpickle.unregister_pickle_by_value(local_module)
    pd.testing.assert_series_equal(result, pd.Series(range(10)).map(local_module.triple))
