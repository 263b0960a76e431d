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


def _outcomes(ready: list) -> list[tuple]:
    """(value, None) or (None, exception) of each ready ref, after a failure among them."""
    out = []
    for ref in ready:
        try:
            out.append((ray.get(ref), None))
        except Exception as exc:
            out.append((None, exc))
    return out


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
        # meta ref -> (label, memory declared, CPUs held)
        self.about: dict[ray.ObjectRef, tuple[str, int, int]] = {}


class _StageRun:
    """One stage's subtasks as submitted: their groups (Ray tasks), the ref of each group's
    metas, and the re-run of a group Ray's memory monitor killed (services/memory_rerun.py)."""

    def __init__(self, task: _TaskRefs, specs: list[SubtaskPayload], groups: list[list[int]],
                 max_retries: int):
        self.task, self.payloads, self.groups = task, list(specs), groups
        self.max_retries = max_retries
        self.members: dict[ray.ObjectRef, list[int]] = {}  # meta ref -> subtask positions
        self.group_of: dict[ray.ObjectRef, int] = {}

    def submit(self, g: int, positions: list[int]) -> ray.ObjectRef:
        """Submit the subtasks at ``positions`` (of group ``g``) as one Ray task; their output
        refs replace any earlier ones in the task's refs."""
        task, batch = self.task, [self.payloads[i] for i in positions]
        out = submit_batch(batch, [[task.refs[k] for k in s.input_keys] for s in batch],
                           self.max_retries)
        outputs = iter(out[1:])
        for spec in batch:
            task.refs.update(zip(spec.output_keys, outputs))
        task.about[out[0]] = (batch[0].label, batch[0].memory, batch[0].cpus)
        self.members[out[0]], self.group_of[out[0]] = positions, g
        return out[0]

    def rerun(self, killed: list[ray.ObjectRef], finished: set[int]) -> tuple[set, dict] | None:
        """Submit the killed subtasks again alone on the largest node, and what read their
        outputs after them; returns (the replaced refs, {new ref: its positions}), or None
        when a killed subtask already ran alone."""
        from ..storage.memory import largest_node
        from .memory_rerun import groups_to_resubmit, with_more_room

        node_cpus = largest_node()[0]
        killed_groups = {self.group_of[r] for r in killed}
        for ref in killed:
            for i in self.members[ref]:
                roomier = with_more_room(self.payloads[i], node_cpus)
                if roomier is None:
                    return None
                self.payloads[i] = roomier
        done = {g for g, group in enumerate(self.groups) if set(group) <= finished}
        again = groups_to_resubmit(self.groups, self.payloads, killed_groups, done)
        dropped = {r for r, g in self.group_of.items() if g in again}
        fresh = {}
        for g in again:
            # a killed batch's members each run alone: one Ray task per member
            parts = [[i] for i in self.groups[g]] if g in killed_groups else [self.groups[g]]
            for part in parts:
                ref = self.submit(g, part)
                fresh[ref] = part
        return dropped, fresh


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
        run = _StageRun(task, specs, plan_batches(specs, small or [False] * len(specs), cpus),
                        max_retries)
        meta_refs = [run.submit(g, group) for g, group in enumerate(run.groups)]
        task.meta_refs.extend(meta_refs)
        task.total += len(specs)
        results = await self._gather(task, meta_refs, task_id, stage, run.members, run.rerun)
        if self._tasks.get(task_id) is not task:
            raise asyncio.CancelledError(f"task {task_id} was cancelled")
        metas: dict[str, tuple] = {}
        for i, spec in enumerate(specs):
            result = results[i]
            metas.update(zip(spec.output_keys, result))
            node = result.run[0]  # where the subtask ran (Metas.run: node, started, ended)
            task.nodes[node] = task.nodes.get(node, 0) + 1
        await self.service("meta").set.remote(session_id, metas)
        return metas

    async def _gather(self, task: _TaskRefs, refs: list[ray.ObjectRef], task_id: str = "",
                      stage: tuple = (-1, -1), members: dict | None = None,
                      rerun=None) -> dict[int, object]:
        """The meta values of ``refs`` by subtask position, polled in bulk (a future per ref
        costs more than the task itself for tiny subtasks). Each finished subtask is reported
        to the progress service (``stage``: its numbers there; ``members``: the positions a
        batched ref stands for, else its index). A subtask Ray's memory monitor killed is
        handed to ``rerun`` (``_StageRun.rerun``); any other failure fails the task, the
        stage's other subtasks finishing unobserved."""
        position = {ref: (members or {}).get(ref, [i]) for i, ref in enumerate(refs)}
        results: dict[int, object] = {}
        progress = self.service("progress")
        pending = refs
        while pending:
            ready, pending = await asyncio.to_thread(
                ray.wait, pending, num_returns=len(pending), timeout=0.05, fetch_local=True)
            if not ready:
                continue
            try:
                got = await asyncio.to_thread(ray.get, ready)
            except Exception:
                ready, got, pending = await self._after_failure(
                    task, ready, pending, position, rerun, set(results), (task_id, *stage))
            runs = []
            for ref, value in zip(ready, got):
                results.update(zip(position[ref], _members(value)))
                runs += _runs(position[ref], value)
            task.done += len(runs)
            await progress.subtasks_finished.remote(task_id, *stage, runs)
        return results

    async def _after_failure(self, task: _TaskRefs, ready: list, pending: list, position: dict,
                             rerun, finished: set[int], where: tuple) -> tuple[list, list, list]:
        """Sort out a round with a failure: the subtasks Ray's memory monitor killed go to
        ``rerun`` (their refs, and those of what read them, are replaced); any other failure,
        or a kill ``rerun`` cannot give more room, fails the task. Returns the round's
        succeeded refs, their values, and the refs still to wait for."""
        outcomes = await asyncio.to_thread(_outcomes, ready)
        killed = [r for r, (_, e) in zip(ready, outcomes)
                  if isinstance(e, ray.exceptions.OutOfMemoryError)]
        dropped, fresh = set(), {}
        if killed and rerun is not None:
            again = rerun(killed, finished)
            if again is not None:
                dropped, fresh = again
        failed = [(r, e) for r, (_, e) in zip(ready, outcomes) if e is not None and r not in dropped]
        if failed:
            runs = [run for r, (v, e) in zip(ready, outcomes)
                    for run in _runs(position[r], v, ok=e is None)]
            await self.service("progress").subtasks_finished.remote(*where, runs)
            ref, exc = failed[0]
            if isinstance(exc, ray.exceptions.OutOfMemoryError):
                raise SubtaskFailed(self._memory_error(task, ref, exc)) from None
            raise SubtaskFailed(unwrap_error(exc)) from None
        position.update(fresh)
        task.meta_refs.extend(fresh)
        ok = [(r, v) for r, (v, e) in zip(ready, outcomes) if e is None]
        return ([r for r, _ in ok], [v for _, v in ok],
                [r for r in pending if r not in dropped] + list(fresh))

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
        values = await self._gather(task, meta_refs)
        metas = {key: values[i] for i, key in enumerate(keys)}
        await self.service("meta").set.remote(session_id, metas)
        return metas

    @staticmethod
    def _memory_error(task: _TaskRefs, ref: ray.ObjectRef, exc: BaseException) -> MemoryError:
        """A MemoryError naming the operation whose subtask Ray's memory monitor killed."""
        from ..storage.memory import killed_for_memory, largest_node

        label, memory, cpus = task.about.get(ref, ("a subtask", 0, 1))
        return killed_for_memory(label, memory, exc, cpus if cpus >= largest_node()[0] else 0)

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
