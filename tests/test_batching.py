"""Batching of tiny subtasks (services/batching.py): grouping rules, and that batched stages
give the same answers, progress and errors on Ray."""
from types import SimpleNamespace

import numpy as np
import pytest

from mars_on_ray.services.batching import MAX_BATCH, MIN_TASKS_PER_CPU, plan_batches


def _payload(inputs=(), outputs=("o",), cpus=1, memory=0, checkpoint=None):
    return SimpleNamespace(input_keys=list(inputs), output_keys=list(outputs), cpus=cpus,
                           memory=memory, checkpoint=checkpoint)


def test_many_small_independent_subtasks_share_ray_tasks():
    payloads = [_payload(outputs=[f"o{i}"]) for i in range(1000)]
    groups = plan_batches(payloads, [True] * 1000, cpus=2)
    assert [i for g in groups for i in g] == list(range(1000))  # every one, in order
    assert max(map(len, groups)) == MAX_BATCH
    assert len(groups) >= MIN_TASKS_PER_CPU * 2


def test_few_subtasks_keep_one_ray_task_each():
    payloads = [_payload(outputs=[f"o{i}"]) for i in range(30)]
    assert plan_batches(payloads, [True] * 30, cpus=2) == [[i] for i in range(30)]
    # enough for 2 CPUs, not for 64: the batches leave every CPU MIN_TASKS_PER_CPU tasks
    assert plan_batches(payloads * 20, [True] * 600, cpus=64) == [[i] for i in range(600)]


def test_big_declared_multi_cpu_or_checkpointed_subtasks_run_alone():
    payloads = [_payload(outputs=[f"o{i}"]) for i in range(400)]
    payloads[5] = _payload(outputs=["o5"], memory=1 << 30)
    payloads[6] = _payload(outputs=["o6"], cpus=2)
    payloads[7] = _payload(outputs=["o7"], checkpoint="file:///tmp/x")
    small = [True] * 400
    small[8] = False
    groups = plan_batches(payloads, small, cpus=2)
    for i in (5, 6, 7, 8):
        assert [i] in groups


def test_a_subtask_reading_a_member_output_starts_a_new_batch():
    payloads = [_payload(outputs=[f"o{i}"]) for i in range(400)]
    payloads[3] = _payload(inputs=["o1"], outputs=["o3"])
    groups = plan_batches(payloads, [True] * 400, cpus=2)
    batch_of = {i: n for n, g in enumerate(groups) for i in g}
    assert batch_of[3] != batch_of[1]


def test_batched_stages_on_ray_give_numpy_answers_and_count_every_subtask(session):
    import mars_on_ray.tensor as mt
    from mars_on_ray.config import using

    with using({"small_data_bytes": 0}):
        data = np.arange(997.0)
        result = (mt.tensor(data, chunk_size=3) * 2 + 1).sum()
        assert result.fetch(session=session) == ((data * 2 + 1).sum())
    assert session.last_task["subtasks"] > 300


def test_an_error_inside_a_batch_names_the_operation(session):
    from mars_on_ray.config import using

    import mars_on_ray.dataframe as md

    def fail_on_seven(value):
        if value == 7:
            raise ValueError("seven")
        return value

    with using({"small_data_bytes": 0}):
        lazy = md.Series(np.arange(600), chunk_size=1).apply(fail_on_seven)
        with pytest.raises(ValueError, match="seven") as info:
            lazy.execute(session=session)
    assert any("apply" in note for note in info.value.__notes__)


def test_a_lone_subtask_reading_an_open_batch_comes_after_it():
    """test_describe_on_ray: a big subtask read a member of a batch still being filled and
    was submitted first (KeyError on the member's output ref)."""
    payloads = [_payload(outputs=[f"o{i}"]) for i in range(400)]
    payloads[2] = _payload(inputs=["o1"], outputs=["o2"], memory=1 << 30)
    groups = plan_batches(payloads, [True] * 400, cpus=2)
    assert [i for g in groups for i in g] == list(range(400))
