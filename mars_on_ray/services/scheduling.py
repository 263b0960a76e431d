"""SchedulingService: submits subtasks as Ray tasks and owns the ObjectRefs of their outputs.

Being the owner matters: Ray reconstructs a lost object only through its owner, so the refs of
a running task live here (detached) rather than in a driver that may exit.
"""
from __future__ import annotations

import asyncio
import os

import ray

from .batching import plan_batches
from .registry import Service
from .subtask import BatchMetas, SubtaskPayload, submit_batch


def unwrap_error(exc: BaseException) -> BaseException:
    """The user's exception inside a RayTaskError (its type and notes kept)."""
    cause = getattr(exc, "cause", None)
    return cause if isinstance(cause, BaseException) else exc


def _members(value) -> tuple:
    """The Metas of each subtask a ready meta ref stands for (several for a batch)."""
    return tuple(value) if isinstance(value, BatchMetas) else (value,)


def _runs(positions: list[int], value, ok: bool = True) -> list[tuple]:
    """(position, node, started, ended, ok) of the subtasks behind one meta ref."""
    if not ok:
        return [(i, None, None, None, False) for i in positions]
    return [(i, *getattr(m, "run", (None, None, None)), True)
            for i, m in zip(positions, _members(value))]


def _failed_runs(ready: list, positions: dict) -> list[tuple]:
    """The runs of each ready subtask, after a failure among them."""
    runs = []
    for ref in ready:
        try:
            runs += _runs(positions[ref], ray.get(ref))
        except Exception:
            runs += _runs(positions[ref], None, ok=False)
    return runs


class SubtaskFailed(Exception):
    """A subtask raised ``args[0]`` (the user's exception); anything else is our own fault."""


class _TaskRefs:
    def __init__(self, session_id: str):
        self.session_id = session_id
        self.refs: dict[str, ray.ObjectRef] = {}
        self.meta_refs: list[ray.ObjectRef] = []
        self.done = 0
        self.total = 0  # subtasks submitted (a batched Ray task runs several)
        self.nodes: dict[str, int] = {}  # node id -> subtasks that ran there
        self.about: dict[ray.ObjectRef, tuple[str, int]] = {}  # meta ref -> (label, memory)


class SchedulingService(Service):
    def __init__(self):
        self._tasks: dict[str, _TaskRefs] = {}
        # our ray.get of ready metas runs in a worker thread, not on the event loop
        os.environ["RAY_WARN_BLOCKING_GET_INSIDE_ASYNC"] = "0"

    async def run_stage(self, session_id: str, task_id: str, specs: list[SubtaskPayload],
                        stored_inputs: list[str], max_retries: int = 3,
                        small: list[bool] | None = None, cpus: int = 1) -> dict[str, tuple]:
        """Run one stage's subtasks (specs in dependency order); returns output metas by key.

        ``stored_inputs`` are keys the session's storage holds from earlier tasks;
        ``max_retries``: retries of a subtask whose worker died (the client's option);
        ``small``: which subtasks may share a Ray task (batching.py) on ``cpus`` CPUs.
        """
        task = self._tasks.setdefault(task_id, _TaskRefs(session_id))
        missing = [k for k in stored_inputs if k not in task.refs]
        if missing:
            refs = await self.service("storage").get_refs.remote(session_id, missing)
            task.refs.update(zip(missing, refs))
        progress = self.service("progress")
        stage = await progress.stage_submitted.remote(
            task_id, [(s.label, s.input_keys, s.output_keys, s.cpus) for s in specs])
        meta_refs, members = [], {}
        for group in plan_batches(specs, small or [False] * len(specs), cpus):
            batch = [specs[i] for i in group]
            out = submit_batch(batch, [[task.refs[k] for k in s.input_keys] for s in batch],
                               max_retries)
            outputs = iter(out[1:])
            for spec in batch:
                task.refs.update(zip(spec.output_keys, outputs))
            meta_refs.append(out[0])
            members[out[0]] = group
            task.about[out[0]] = (batch[0].label, batch[0].memory)
        task.meta_refs.extend(meta_refs)
        task.total += len(specs)
        results: list = [None] * len(specs)
        for ref, value in zip(meta_refs, await self._gather(task, meta_refs, task_id, stage, members)):
            for i, member in zip(members[ref], _members(value)):
                results[i] = member
        if self._tasks.get(task_id) is not task:
            raise asyncio.CancelledError(f"task {task_id} was cancelled")
        metas: dict[str, tuple] = {}
        for spec, result in zip(specs, results):
            metas.update(zip(spec.output_keys, result))
            node = result.run[0]  # where the subtask ran (Metas.run: node, started, ended)
            task.nodes[node] = task.nodes.get(node, 0) + 1
        await self.service("meta").set.remote(session_id, metas)
        return metas

    async def _gather(self, task: _TaskRefs, refs: list[ray.ObjectRef], task_id: str = "",
                      stage: tuple = (-1, -1), members: dict | None = None) -> list:
        """The meta values of ``refs``, polled in bulk (a future per ref costs more than the
        task itself for tiny subtasks); on the first failure the task's subtasks are cancelled.
        Each finished subtask is reported to the progress service (``stage``: its numbers there;
        ``members``: the subtask positions a batched ref stands for)."""
        values: dict[ray.ObjectRef, object] = {}
        members = members or {}
        position = {ref: members.get(ref, [i]) for i, ref in enumerate(refs)}
        progress = self.service("progress")
        pending = refs
        while pending:
            ready, pending = await asyncio.to_thread(
                ray.wait, pending, num_returns=len(pending), timeout=0.05, fetch_local=True)
            if not ready:
                continue
            try:
                got = await asyncio.to_thread(ray.get, ready)
            except Exception as exc:  # the stage's other subtasks finish; their results are dropped
                failed = await asyncio.to_thread(_failed_runs, ready, position)
                await progress.subtasks_finished.remote(task_id, *stage, failed)
                if isinstance(exc, ray.exceptions.OutOfMemoryError):
                    raise SubtaskFailed(self._memory_error(task, ready, exc)) from None
                raise SubtaskFailed(unwrap_error(exc)) from None
            values.update(zip(ready, got))
            runs = [run for r, v in zip(ready, got) for run in _runs(position[r], v)]
            task.done += len(runs)
            await progress.subtasks_finished.remote(task_id, *stage, runs)
        return [values[r] for r in refs]

    async def load_checkpointed(self, session_id: str, task_id: str, url: str,
                                keys: list[str]) -> dict[str, tuple]:
        """Load persisted chunks (storage/checkpoint) into the task as if it had computed them;
        returns their metas by key."""
        from ..storage.checkpoint import load_task

        task = self._tasks.setdefault(task_id, _TaskRefs(session_id))
        meta_refs = []
        for key in keys:
            meta_ref, ref = load_task.options(name=f"load_checkpoint:{key[:12]}").remote(url, key)
            task.refs[key] = ref
            meta_refs.append(meta_ref)
        task.meta_refs.extend(meta_refs)
        task.total += len(keys)
        metas = dict(zip(keys, await self._gather(task, meta_refs)))
        await self.service("meta").set.remote(session_id, metas)
        return metas

    @staticmethod
    def _memory_error(task: _TaskRefs, ready: list, exc: BaseException) -> MemoryError:
        """A MemoryError naming the operation whose subtask Ray's memory monitor killed."""
        from ..storage.memory import killed_for_memory

        for ref in ready:
            try:
                ray.get(ref, timeout=0)
            except ray.exceptions.OutOfMemoryError:
                label, memory = task.about.get(ref, ("a subtask", 0))
                return killed_for_memory(label, memory, exc)
            except Exception:
                continue
        return killed_for_memory("a subtask", 0, exc)

    async def values(self, session_id: str, task_id: str, keys: list[str]) -> list:
        """The values of (small) chunks a task computed or the session stores, for tiling."""
        task = self._tasks.get(task_id)
        refs = {k: task.refs[k] for k in keys if k in task.refs} if task is not None else {}
        missing = [k for k in keys if k not in refs]
        if missing:
            found = await self.service("storage").get_refs.remote(session_id, missing)
            refs.update(zip(missing, found))
        return await asyncio.to_thread(ray.get, [refs[k] for k in keys])

    async def progress(self, task_id: str) -> tuple[int, int]:
        task = self._tasks.get(task_id)
        if task is None:
            return 0, 0
        return task.done, task.total

    async def finish_task(self, task_id: str, keep: list[str], cancel: bool = False) -> dict[str, int]:
        """Hand the kept refs to storage and drop every other ref the task made (``cancel``:
        the user cancelled the task, stop its running subtasks too); returns how many
        subtasks ran on each node (by node id)."""
        task = self._tasks.pop(task_id, None)
        if task is None:
            return {}
        kept = {k: [task.refs[k]] for k in keep if k in task.refs}
        if kept:
            await self.service("storage").put.remote(task.session_id, kept)
        elif cancel:
            self._cancel(task)
        return task.nodes

    @staticmethod
    def _cancel(task: _TaskRefs) -> None:
        """Cancel the task's unfinished subtasks. Only for a user's cancel: Ray 2.60 can abort
        the supervisor when a cancel races with a subtask's completion (ray-project/ray
        #54527 fixed one such race, not all: 'Tried to complete task that was not
        pending'), so a failed task lets its stage's other subtasks finish instead."""
        if not task.meta_refs:
            return
        ready, _ = ray.wait(task.meta_refs, num_returns=len(task.meta_refs), timeout=0, fetch_local=False)
        done = set(ready)
        for ref in task.meta_refs:
            if ref not in done:
                ray.cancel(ref)
