"""Shared fixtures: one local Ray per test module that asks for it, and a session on it."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import support  # noqa: E402  (test-only operands, pickled by value into Ray workers)


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray for this module, stopped afterwards (2 CPUs, a small object store).

    ``MARS_ON_RAY_SKIP_RAY=1`` skips the tests that need it (in-process work while another
    engineer's Ray runs on the same machine)."""
    if os.environ.get("MARS_ON_RAY_SKIP_RAY") == "1":
        pytest.skip("MARS_ON_RAY_SKIP_RAY=1")
    import ray
    import ray.cloudpickle

    import mars_on_ray.session as session_mod
    from mars_on_ray.session import init_ray
    from mars_on_ray.services.registry import reset_handles

    if ray.is_initialized():
        ray.shutdown()
    ray.cloudpickle.register_pickle_by_value(support)
    # address="local": a fresh Ray for the module, never a `ray start` cluster that another test
    # (the slow ones) left running; init_ray starts again when an overloaded machine misses
    # Ray's fixed 30 s raylet registration wait
    init_ray(address="local", num_cpus=2, object_store_memory=512 * 1024**2,
             include_dashboard=False, log_to_driver=False)
    reset_handles()
    yield ray
    if session_mod._default_session is not None:
        session_mod._default_session.close()
    ray.shutdown()
    reset_handles()


@pytest.fixture(scope="module")
def session(ray_cluster):
    """A mars_on_ray session on the module's Ray, the default while the module runs."""
    import mars_on_ray as mr

    s = mr.new_session()
    yield s
    s.close()
