"""The small-data path: a small stage runs as one subtask with all of a node's CPUs, with the
same answers as the distributed plan."""
from __future__ import annotations

import numpy as np
import pandas as pd

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.small_data import chunk_nbytes, cpus_per_subtask, peak_bytes, plan_stage


def _both_paths(obj):
    small = LocalExecutor(small_data=True)
    distributed = LocalExecutor(small_data=False)
    return small.compute(obj.data)[0], distributed.compute(obj.data)[0], small, distributed


def test_seed_example_is_one_subtask_with_the_same_answer():
    a = mt.ones((2000, 2000), chunk_size=200)
    small, distributed, s, d = _both_paths(mt.inner(a, a).sum())
    assert small == distributed == 2000.0 ** 3
    assert s.subtask_count == 1 and d.subtask_count > 50


def test_dataframe_groupby_both_paths_agree():
    rs = np.random.RandomState(0)
    df = pd.DataFrame({"k": rs.randint(0, 7, 500), "v": rs.rand(500)})
    small, distributed, s, d = _both_paths(md.DataFrame(df, chunk_size=47).groupby("k").sum())
    pd.testing.assert_frame_equal(small, distributed)
    pd.testing.assert_frame_equal(small, df.groupby("k").sum())
    assert s.subtask_count < d.subtask_count


def test_big_or_unknown_stages_stay_distributed():
    big = mt.ones((6000, 6000), chunk_size=1000) + 1  # 288 MB
    stage = plan_stage(LocalExecutor().tile(big.data).flat, set(), 2)
    assert len(stage.specs) == 36 and stage.path.startswith("distributed")
    mr.options.small_data_bytes, old = 0, mr.options.small_data_bytes
    try:
        small = mt.ones((10, 10), chunk_size=3) + 1
        stage = plan_stage(LocalExecutor().tile(small.data).flat, set(), 2)
        assert "off" in stage.path and len(stage.specs) == 16
    finally:
        mr.options.small_data_bytes = old


def test_peak_estimate_frees_intermediates():
    x = mt.ones((1000, 1000), chunk_size=250)  # 16 chunks of 0.5 MB
    chunks = LocalExecutor().tile((x + 1).sum().data).flat
    from mars_on_ray.core.fusion import build_steps
    from mars_on_ray.core.graph import topo_order

    steps = build_steps(chunks, set())
    nodes = {c.key: c for c in topo_order(chunks)}
    peak = peak_bytes(steps, nodes, {c.key for c in chunks})
    assert 0.5 * 2**20 <= peak < 8 * 2**20  # never all 16 sources and 16 sums at once
    assert chunk_nbytes(nodes[steps[0].outputs[0]]) == 250 * 250 * 8


def test_narrow_stage_levels_share_the_cpus():
    a = mt.ones((4, 4), chunk_size=2)
    mr.options.small_data_bytes, old = 0, mr.options.small_data_bytes
    try:
        stage = plan_stage(LocalExecutor().tile(a.sum().data).flat, set(), 4)
    finally:
        mr.options.small_data_bytes = old
    # four chunk partials (one CPU each), then one final sum with all four CPUs
    assert sorted(stage.cpus) == [1, 1, 1, 1, 4]
    assert cpus_per_subtask(stage.specs, 1) == [1] * len(stage.specs)


def _stored_stage(cpus, rows=2000, one_node=False, **options):
    x = mt.ones((rows, 1000), chunk_size=(rows // 8, 1000))  # 8 stored chunks (2000 rows: 16 MB)
    stored = {c.key for c in LocalExecutor().tile(x.data).flat}
    with mr.config.using(options):
        return plan_stage(LocalExecutor().tile((x + 1).sum().data).flat, stored, cpus, one_node=one_node)


def test_small_stage_over_stored_chunks_runs_as_one_lane_per_cpu():
    stage = _stored_stage(2)
    assert "2 lanes of 1 CPU then their combine" in stage.path
    assert stage.cpus == [1, 1, 2]
    lanes, tail = stage.specs[:2], stage.specs[2]
    assert [len(s.input_keys) for s in lanes] == [4, 4]  # contiguous runs of the stored chunks
    assert set(tail.input_keys) == {k for s in lanes for k in s.output_keys}
    assert len(tail.output_keys) == 1


def test_small_stage_under_the_lane_bound_or_on_one_cpu_is_one_subtask():
    assert _stored_stage(2, small_data_lane_bytes=64 * 2**20).path.startswith("small data: one subtask")
    assert _stored_stage(1).path.startswith("small data: one subtask")


def test_stored_inputs_past_the_bound_use_lanes_only_on_one_node():
    # 160 MB stored, a few KB computed: no locality to lose on one node, lanes of 80 MB
    stage = _stored_stage(2, rows=20_000, one_node=True)
    assert "2 lanes" in stage.path and "153 MiB stored on this one node" in stage.path
    assert _stored_stage(2, rows=20_000).path.startswith("distributed")
    assert _stored_stage(2, rows=20_000, one_node=True,
                         small_data_bytes=64 * 2**20).path.startswith("distributed")  # 80 MB a lane


def test_second_pass_over_stored_data_is_not_left_to_a_one_process_tail():
    # KMeans chains Lloyd iterations in one graph: the second iteration reads the stored
    # chunks again, after the first one's combine. As lanes + tail, the tail did every later
    # iteration in one process (4.6 s instead of 0.3 s on 400k rows)
    x = mt.ones((20_000, 1000), chunk_size=(2500, 1000))
    stored = {c.key for c in LocalExecutor().tile(x.data).flat}
    twice = (x * x.sum()).sum()
    stage = plan_stage(LocalExecutor().tile(twice.data).flat, stored, 2, one_node=True)
    assert stage.path.startswith("distributed")
    assert "2 lanes" in _stored_stage(2, rows=20_000, one_node=True).path  # one pass: lanes


def test_lanes_on_ray_give_the_answer_in_two_rounds(session):
    x = mt.tensor(np.arange(2_000_000, dtype=float).reshape(2000, 1000), chunk_size=(250, 1000)).execute()
    assert (x * 2).sum().execute().fetch() == np.arange(2_000_000, dtype=float).sum() * 2
    assert session.last_task["subtasks"] == 3
    assert "2 lanes of 1 CPU then their combine" in session.last_task["paths"][-1]


def test_small_path_on_ray_reports_itself(session):
    a = mt.ones((500, 500), chunk_size=100)
    result = mt.inner(a, a).sum().execute()
    assert result.fetch() == 500.0 ** 3
    assert session.last_task["subtasks"] == 1
    assert session.last_task["paths"][0].startswith("small data: whole-array chunks")
    assert session.last_task["paths"][1].startswith("small data: one subtask with 2 CPU")


def test_client_options_reach_the_task_service(session):
    a = mt.ones((400, 400), chunk_size=100)
    mr.options.small_data_bytes, old = 0, mr.options.small_data_bytes
    try:
        assert mt.inner(a, a).sum().execute().fetch() == 400.0 ** 3
        assert session.last_task["subtasks"] > 1 and "off" in session.last_task["paths"][0]
    finally:
        mr.options.small_data_bytes = old


def test_random_values_do_not_depend_on_the_path():
    """Random sources draw per chunk: the small-data path keeps their chunking."""
    x = mt.random.rand(100, 10, chunk_size=7, seed=3)
    small, distributed, _, _ = _both_paths(x * 2)
    np.testing.assert_array_equal(small, distributed)


def test_explain_names_the_path():
    a = mt.ones((200, 200), chunk_size=50)
    assert mr.explain(a + 1, show=False).path.startswith("small data: whole-array chunks")
    big = mt.ones((8000, 8000), chunk_size=1000)
    assert mr.explain(big + 1, show=False).path.startswith("distributed")


def test_lanes_are_contiguous_runs_of_similar_bytes():
    from mars_on_ray.core.small_data import _even_runs

    assert _even_runs(list(range(9)), [1.0] * 9, 2) == [[0, 1, 2, 3, 4], [5, 6, 7, 8]]
    assert _even_runs(list(range(16)), [1.0] * 8 + [3.0] * 8, 2) == [list(range(11)), list(range(11, 16))]
    assert _even_runs([0, 1, 2], [10.0, 1.0, 1.0], 2) == [[0], [1, 2]]
    assert _even_runs([0, 1, 2], [0.0, 0.0, 0.0], 3) == [[0], [1], [2]]  # sizes unknown: by count
