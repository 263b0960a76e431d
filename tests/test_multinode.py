"""Several Ray nodes on this machine: chunks on a lost node are recomputed from lineage."""
from __future__ import annotations

import numpy as np
import pytest

from support import fill, map_chunks

pytestmark = pytest.mark.slow


@pytest.fixture
def two_node_cluster():
    import ray
    import ray.cloudpickle
    from ray.cluster_utils import Cluster

    import support
    from mars_on_ray.services.registry import reset_handles

    if ray.is_initialized():
        ray.shutdown()
    ray.cloudpickle.register_pickle_by_value(support)
    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "object_store_memory": 256 * 1024**2, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=2, object_store_memory=256 * 1024**2)
    ray.init(address=cluster.address, log_to_driver=False)
    reset_handles()
    yield cluster, worker
    ray.shutdown()
    reset_handles()
    cluster.shutdown()


def test_chunks_of_a_lost_node_are_recomputed(two_node_cluster):
    import mars_on_ray as mr

    cluster, worker = two_node_cluster
    session = mr.new_session()
    t = map_chunks(fill((400, 400), chunk_size=100)).execute()  # 16 chunks, all on the worker
    cluster.remove_node(worker)
    cluster.add_node(num_cpus=2, object_store_memory=256 * 1024**2)
    np.testing.assert_array_equal(map_chunks(t).fetch(), np.full((400, 400), 3.0))
    np.testing.assert_array_equal(t.fetch(), np.full((400, 400), 2.0))
    session.close()
