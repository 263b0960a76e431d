"""ProgressService: what every task did, stage by stage and subtask by subtask.

TaskService records a task's start, its tileable graph and its end; SchedulingService records
each stage's subtasks as it submits them and each subtask as it finishes (which node ran it,
when). The terminal progress bar, the dashboard and scripts (``/api/``) all read these records,
so they show the same numbers. Finished tasks are kept (the newest ``KEEP_TASKS``) for the
dashboard.
"""
from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field

from ..core.graph_view import link_subtasks
from .registry import Service

KEEP_TASKS = 200  # finished tasks kept for the dashboard
KEEP_SUBTASKS = 200_000  # ... and at most about this many subtask records among them (~100 B each)
KEEP_RUNS_PER_NODE = 200  # recent subtasks kept per node
MAX_SUBTASK_DETAIL = 50_000  # subtasks of one task kept one by one (beyond: counts only)

# subtask states; "running" means submitted with every input done (queued on or running in a worker)
WAITING, RUNNING, DONE, FAILED, CANCELLED = "waiting", "running", "done", "failed", "cancelled"


@dataclass(slots=True)
class SubtaskRecord:
    label: str
    inputs: list[int]  # indices (in the task) of the subtasks whose outputs this one reads
    stage: int
    cpus: int = 1
    state: str = WAITING
    node_id: str | None = None
    started: float | None = None
    ended: float | None = None


@dataclass
class TaskRecord:
    task_id: str
    session_id: str
    name: str
    graph: dict  # the optimized tileable graph: {"nodes": [...], "edges": [[src, dst], ...]}
    started: float = field(default_factory=time.time)
    ended: float | None = None
    state: str = RUNNING
    error: dict | None = None
    paths: list[str] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    subtasks: list[SubtaskRecord] = field(default_factory=list)
    stages: list[list[int]] = field(default_factory=list)  # per stage: [done, total]
    producer: dict[str, int] = field(default_factory=dict)  # output chunk key -> subtask index

    @property
    def subtasks_done(self) -> int:
        return sum(done for done, _ in self.stages)

    @property
    def subtasks_total(self) -> int:
        return sum(total for _, total in self.stages)

    def summary(self) -> dict:
        end = self.ended if self.ended is not None else time.time()
        return {"task_id": self.task_id, "session_id": self.session_id, "name": self.name,
                "state": self.state, "subtasks_done": self.subtasks_done,
                "subtasks_total": self.subtasks_total,
                "stages": [{"stage": i + 1, "subtasks_done": d, "subtasks_total": t}
                           for i, (d, t) in enumerate(self.stages)],
                "started": self.started, "ended": self.ended, "elapsed": end - self.started,
                "error": self.error, "paths": list(self.paths)}

    def detail(self) -> dict:
        out = self.summary()
        out["timings"] = dict(self.timings)
        out["tileable_graph"] = self.graph
        done_or_absent = {DONE}
        nodes = []
        for i, s in enumerate(self.subtasks):
            state = s.state
            if state == WAITING and all(self.subtasks[j].state in done_or_absent for j in s.inputs):
                state = RUNNING
            nodes.append({"id": i, "label": s.label, "stage": s.stage + 1, "state": state,
                          "node_id": s.node_id, "cpus": s.cpus, "started": s.started,
                          "duration": None if s.ended is None or s.started is None
                          else s.ended - s.started})
        out["subtask_graph"] = {"nodes": nodes,
                                "edges": [[j, i] for i, s in enumerate(self.subtasks) for j in s.inputs],
                                "truncated": len(self.subtasks) < self.subtasks_total}
        return out


def error_info(exc: BaseException) -> dict:
    """A failed task's error for people: type, message and the notes naming the user operation."""
    notes = [str(n) for n in getattr(exc, "__notes__", ())]
    operation = next((n for n in notes if "operation" in n.lower()), None)
    return {"type": type(exc).__name__, "message": str(exc), "notes": notes, "operation": operation}


class ProgressService(Service):
    def __init__(self):
        self._tasks: "collections.OrderedDict[str, TaskRecord]" = collections.OrderedDict()
        self._node_runs: dict[str, collections.deque] = {}

    # -- written by TaskService ----------------------------------------------------------------
    async def task_started(self, task_id: str, session_id: str, name: str, graph: dict) -> None:
        self._tasks[task_id] = TaskRecord(task_id, session_id, name, graph)
        self._trim()

    async def task_graph(self, task_id: str, graph: dict) -> None:
        """The tileable graph after optimization (replaces the submitted one)."""
        record = self._tasks.get(task_id)
        if record is not None:
            record.graph = graph

    async def task_path(self, task_id: str, path: str) -> None:
        record = self._tasks.get(task_id)
        if record is not None:
            record.paths.append(path)

    async def task_ended(self, task_id: str, state: str, error: dict | None = None,
                         timings: dict | None = None) -> None:
        record = self._tasks.get(task_id)
        if record is None:
            return
        record.state, record.error, record.ended = state, error, time.time()
        record.producer = {}  # only needed to link the subtasks of later stages
        record.timings = dict(timings or {})
        for sub in record.subtasks:
            if sub.state in (WAITING, RUNNING):
                sub.state = CANCELLED if state != DONE else DONE
        for stage in record.stages:
            if state == DONE:
                stage[0] = stage[1]
        operation = (error or {}).get("operation") or ""
        for node in record.graph.get("nodes", ()):
            if state == FAILED:  # the operation the error names failed; the rest did not finish
                node["state"] = FAILED if node["op"] and node["op"] in operation else CANCELLED
            else:
                node["state"] = state
        self._trim()

    # -- written by SchedulingService ----------------------------------------------------------
    async def stage_submitted(self, task_id: str, subtasks: list[tuple]) -> tuple[int, int]:
        """``subtasks``: (label, input_keys, output_keys, cpus) in submission order; returns
        (stage number, index of its first subtask in the task)."""
        record = self._tasks.get(task_id)
        if record is None:
            return -1, -1
        stage, first = len(record.stages), len(record.subtasks)
        record.stages.append([0, len(subtasks)])
        if first + len(subtasks) > MAX_SUBTASK_DETAIL:
            return stage, -1
        links = link_subtasks([(ins, outs) for _, ins, outs, _ in subtasks], record.producer, first)
        for (label, _, _, cpus), inputs in zip(subtasks, links):
            record.subtasks.append(SubtaskRecord(label, inputs, stage, cpus))
        return stage, first

    async def subtasks_finished(self, task_id: str, stage: int, first: int,
                                runs: list[tuple]) -> None:
        """``runs``: (position in the stage, node_id, started, ended, ok) of finished subtasks."""
        record = self._tasks.get(task_id)
        if record is None or stage < 0:
            return
        record.stages[stage][0] += sum(1 for *_, ok in runs if ok)
        for pos, node_id, started, ended, ok in runs:
            if first >= 0:
                sub = record.subtasks[first + pos]
                sub.state = DONE if ok else FAILED
                sub.node_id, sub.started, sub.ended = node_id, started, ended
                label = sub.label
            else:
                label = ""
            if node_id is not None:
                self._node_runs.setdefault(node_id, collections.deque(maxlen=KEEP_RUNS_PER_NODE)).append(
                    {"task_id": task_id, "session_id": record.session_id, "label": label,
                     "started": started, "ended": ended, "ok": ok})

    # -- read by the session's progress bar, the dashboard and scripts ---------------------------
    async def counts(self, task_id: str) -> tuple[int, int, int]:
        """(subtasks done, subtasks submitted, stages) of a task."""
        record = self._tasks.get(task_id)
        if record is None:
            return 0, 0, 0
        return record.subtasks_done, record.subtasks_total, len(record.stages)

    async def tasks(self, session_id: str | None = None) -> list[dict]:
        return [r.summary() for r in self._tasks.values()
                if session_id is None or r.session_id == session_id]

    async def task(self, task_id: str) -> dict | None:
        record = self._tasks.get(task_id)
        return None if record is None else record.detail()

    async def node_runs(self, node_id: str) -> list[dict]:
        return list(self._node_runs.get(node_id, ()))

    def _trim(self) -> None:
        """Forget the oldest finished tasks beyond KEEP_TASKS or KEEP_SUBTASKS."""
        finished = [k for k, r in self._tasks.items() if r.state != RUNNING]
        kept = sum(len(r.subtasks) for r in self._tasks.values())
        for i, key in enumerate(finished):
            if len(finished) - i <= KEEP_TASKS and kept <= KEEP_SUBTASKS:
                break
            kept -= len(self._tasks.pop(key).subtasks)
