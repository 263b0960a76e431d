"""TaskService: runs a submitted tileable graph: optimize, tile stage by stage, fuse, schedule."""
from __future__ import annotations

import asyncio
import time
import traceback
import uuid
from dataclasses import dataclass, field

import numpy as np

from ..config import options, using
from ..core.entity import ChunkData, TileableData
from ..core.chunk_sizes import whole_chunks
from ..core.small_data import peak_bytes, plan_stage, whole_chunks_reason
from . import graph_payload
from ..core.graph import FlatGraph, topo_order
from ..core.optimizer import Plan, abort_all, optimize
from ..core.tiling import TileContext, ValuesRequest, tile_graph
from ..core.graph_view import plan_graph
from .batching import SMALL_BYTES
from .progress import CANCELLED, DONE, FAILED, error_info
from .registry import Service
from .scheduling import SubtaskFailed, unwrap_error
from .subtask import SubtaskPayload


@dataclass
class TaskState:
    task_id: str
    session_id: str
    roots: list[TileableData]
    hold: list[str]
    started: float = field(default_factory=time.time)
    made: set[str] = field(default_factory=set)  # chunk keys computed by this task
    metas: dict[str, tuple] = field(default_factory=dict)  # key -> (shape, nbytes) known so far
    stages: int = 0
    subtasks: int = 0
    timings: dict[str, float] = field(default_factory=lambda: {"tile": 0.0, "fuse": 0.0, "run": 0.0})
    future: asyncio.Task | None = None
    plan: Plan | None = None
    paths: list[str] = field(default_factory=list)  # per stage: small-data or distributed, why
    node_cpus: int = 1
    cluster_cpus: int = 1
    nodes: dict[str, int] = field(default_factory=dict)  # node id -> subtasks run there
    persisted: set[str] | None = None  # chunk keys found under options.checkpoint
    loaded: int = 0  # chunks loaded from the checkpoint instead of computed


_CPUS_TTL = 10.0  # seconds a reading of the cluster's CPUs is reused (a GCS call per task is waste)
_cpus_seen: list = [0.0, 1, 1]  # when, cluster CPUs, CPUs of the largest node


def _cpu_counts() -> tuple[int, int]:
    """(CPUs of the cluster, CPUs of its largest node: the most one subtask may ask for, since
    a task asking for more than any node has would never run)."""
    import ray

    now = time.monotonic()
    if now - _cpus_seen[0] > _CPUS_TTL:
        nodes = [n["Resources"].get("CPU", 0) for n in ray.nodes() if n.get("Alive")]
        _cpus_seen[:] = [now, int(sum(nodes)) or 1, int(max(nodes, default=1)) or 1]
    return _cpus_seen[1], _cpus_seen[2]


def _submitted_graph(roots: list[TileableData]) -> dict:
    """The tileable graph as submitted (shown until the optimized one replaces it)."""
    return plan_graph(topo_order(roots))


def _declared_memory(specs, chunks: list[ChunkData], known: set[str]) -> tuple[list[int], list[bool]]:
    """Per subtask, the memory it declares to Ray (storage/memory.py), and whether it is
    small enough to share a Ray task with others (batching.py)."""
    from ..storage.memory import declared_bytes, largest_node_memory

    cap = largest_node_memory()
    nodes = {c.key: c for c in topo_order(chunks, stop=lambda c: c.key in known)}
    peaks = [peak_bytes(spec.steps, nodes, set(spec.output_keys)) for spec in specs]
    return ([declared_bytes(peak, cap) for peak in peaks],
            [peak is not None and peak < SMALL_BYTES for peak in peaks])


def _next_request(driver, reply):
    """The next chunks tiling asks to know (None when tiling is done)."""
    try:
        return driver.send(reply)
    except StopIteration:
        return None


@dataclass
class TileableResult:
    """What a client needs to fetch one executed tileable."""

    key: str
    chunk_keys: np.ndarray  # object array in chunk-grid layout
    nsplits: tuple
    shape: tuple


#: results with at most this many chunks come back with their refs when the task is done
INLINE_REFS_MAX_CHUNKS = 1024


class TaskService(Service):
    def __init__(self):
        self._tasks: dict[str, TaskState] = {}

    async def submit(self, session_id: str, graph: FlatGraph | bytes, hold: list[str],
                     client_options: dict | None = None,
                     user_modules: dict[str, list[str]] | None = None,
                     task_id: str | None = None) -> str:
        """Start running ``graph`` (or its pickled bytes, graph_payload.py); ``hold`` are
        root keys the client keeps alive afterwards; ``client_options``: the client's
        ``options``, in force while this task runs; ``task_id``: the client's own (new) id."""
        await self.service("session").check.remote(session_id)
        if isinstance(graph, bytes):
            graph = await asyncio.to_thread(graph_payload.loads, graph, user_modules)
        state = TaskState(task_id or uuid.uuid4().hex[:16], session_id, graph.roots, hold)
        name = ", ".join(dict.fromkeys(r.op.name for r in graph.roots))
        await self.service("progress").task_started.remote(
            state.task_id, session_id, name, await asyncio.to_thread(_submitted_graph, graph.roots))
        # a task's coroutine runs in its own context: these options are this task's alone
        state.future = asyncio.ensure_future(self._run_with(state, client_options))
        self._tasks[state.task_id] = state
        return state.task_id

    async def run(self, session_id: str, graph: FlatGraph | bytes, hold: list[str],
                  client_options: dict | None = None,
                  user_modules: dict[str, list[str]] | None = None, timeout: float = 0.3,
                  task_id: str | None = None) -> dict:
        """``submit`` and ``wait`` in one call (one round trip less for every execution): the
        status after up to ``timeout`` s, with the ``task_id`` to wait on."""
        task_id = await self.submit(session_id, graph, hold, client_options, user_modules, task_id)
        return {"task_id": task_id, **await self.wait(task_id, timeout)}

    async def wait(self, task_id: str, timeout: float) -> dict:
        """Wait up to ``timeout`` s; returns status, progress and, when done, results or error."""
        state = self._tasks[task_id]
        await asyncio.wait([state.future], timeout=timeout)
        if not state.future.done():  # the numbers the dashboard shows
            done_subtasks, total, _ = await self.service("progress").counts.remote(task_id)
            return {"done": False, "subtasks_done": done_subtasks, "subtasks_total": total,
                    "stages": state.stages}
        self._tasks.pop(task_id, None)
        status = {"done": True, "subtasks_done": state.subtasks, "subtasks_total": state.subtasks,
                  "stages": state.stages, "timings": state.timings, "paths": state.paths,
                  "nodes": state.nodes, "loaded": state.loaded}
        if state.future.cancelled():
            status["error"] = asyncio.CancelledError("the task was cancelled")
        elif state.future.exception() is not None:
            status["error"] = state.future.exception()
        else:
            status["results"] = state.future.result()
            status["refs"] = await self._small_result_refs(state.session_id, status["results"])
        return status

    async def _small_result_refs(self, session_id: str, results: list[TileableResult]) -> dict:
        """The chunk refs of results with few chunks, so fetching them needs no ``get_refs``
        round trip (the client drops them with the result)."""
        small = [r for r in results if r.chunk_keys.size <= INLINE_REFS_MAX_CHUNKS]
        keys = [k for r in small for k in r.chunk_keys.flat]
        if not keys:
            return {}
        refs = iter(await self.service("storage").get_refs.remote(session_id, keys))
        return {r.key: [next(refs) for _ in range(r.chunk_keys.size)] for r in small}

    async def cancel(self, task_id: str) -> None:
        state = self._tasks.get(task_id)
        if state is not None:
            state.future.cancel()

    async def cancel_session(self, session_id: str) -> None:
        for state in list(self._tasks.values()):
            if state.session_id == session_id:
                state.future.cancel()

    async def _run_with(self, state: TaskState, client_options: dict | None):
        progress = self.service("progress")
        try:
            with using(client_options):
                result = await self._run(state)
        except asyncio.CancelledError:
            await progress.task_ended.remote(state.task_id, CANCELLED, None, state.timings)
            raise
        except BaseException as exc:
            await progress.task_ended.remote(state.task_id, FAILED, error_info(exc), state.timings)
            raise
        await progress.task_ended.remote(state.task_id, DONE, None, state.timings)
        return result

    async def _run(self, state: TaskState) -> list[TileableResult]:
        try:
            return await self._run_stages(state)
        except SubtaskFailed as failed:  # the user's own exception, reported as it is
            raise failed.args[0] from None
        except Exception as exc:  # a fault of ours or a tiling error: keep where it happened
            exc.add_note("raised in the task service:\n" + traceback.format_exc(limit=-8))
            raise

    async def _run_stages(self, state: TaskState) -> list[TileableResult]:
        keep: list[str] = []
        cancelled = False
        try:
            state.cluster_cpus, state.node_cpus = await asyncio.to_thread(_cpu_counts)
            ctx = TileContext(cpus=state.cluster_cpus)
            started = time.perf_counter()
            plan = state.plan = await asyncio.to_thread(optimize, state.roots)
            await self.service("progress").task_graph.remote(
                state.task_id, await asyncio.to_thread(plan_graph, plan.order))
            small = whole_chunks_reason(plan)
            if small:
                state.paths.append(small)
                await self.service("progress").task_path.remote(state.task_id, small)
            with whole_chunks(small is not None):
                await self._tile(state, plan, ctx, started)
            results, result_chunks = [], []
            for planned in plan.roots:
                tiled = ctx[planned]
                result_chunks.extend(tiled.flat)
                results.append(tiled)
            metas = await self._compute(state, result_chunks)
            out = [self._describe(root, tiled, metas) for root, tiled in zip(state.roots, results)]
            keep = [c.key for c in result_chunks]
            state.nodes = await self.service("scheduling").finish_task.remote(state.task_id, keep)
            hold = set(state.hold)
            held = {r.key: list(r.chunk_keys.flat) for r in out if r.key in hold}
            if held:
                await self.service("lifecycle").incref.remote(state.session_id, held)
            return out
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            if not keep:  # failed or cancelled: free everything the task made
                await self.service("scheduling").finish_task.remote(state.task_id, [], cancelled)
                if state.plan is not None:
                    await asyncio.to_thread(abort_all, state.plan)

    async def _tile(self, state: TaskState, plan, ctx: TileContext, started: float) -> None:
        """Tile ``plan`` into ``ctx``, computing the stages tiling needs to see."""
        driver = tile_graph(list(plan.order), ctx)
        reply = None
        while True:
            # tiling a large graph takes a while: off the event loop, which keeps serving
            # progress, waits and other sessions (the thread sees this task's context)
            request = await asyncio.to_thread(_next_request, driver, reply)
            state.timings["tile"] += time.perf_counter() - started
            if request is None:
                return
            metas = await self._compute(state, request)
            if isinstance(request, ValuesRequest):
                reply = await self.service("scheduling").values.remote(
                    state.session_id, state.task_id, [c.key for c in request])
            else:
                reply = [metas[c.key][0] for c in request]
            started = time.perf_counter()

    async def _compute(self, state: TaskState, chunks: list[ChunkData]) -> dict[str, tuple]:
        """Make ``chunks`` exist (computing only what is not stored); returns known metas."""
        targets = {c.key for c in chunks}
        closure = await asyncio.to_thread(
            lambda: [c.key for c in topo_order(chunks) if c.key not in state.made])
        stored = await self.service("storage").stored.remote(state.session_id, closure)
        if options.checkpoint:
            await self._load_checkpointed(state, chunks, set(stored))
        started = time.perf_counter()
        stage = await asyncio.to_thread(plan_stage, chunks, state.made | set(stored), state.node_cpus,
                                        one_node=state.cluster_cpus == state.node_cpus)
        if stage is not None:
            state.stages += 1
            state.paths.append(stage.path)
            await self.service("progress").task_path.remote(state.task_id, stage.path)
            specs = stage.specs
            checkpoint = options.checkpoint
            memory, small = await asyncio.to_thread(_declared_memory, specs, chunks,
                                                    state.made | set(stored))
            payloads = await asyncio.to_thread(
                lambda: [SubtaskPayload.of(s, c, checkpoint, m)
                         for s, c, m in zip(specs, stage.cpus, memory)])
            state.timings["fuse"] += time.perf_counter() - started
            started = time.perf_counter()
            state.subtasks += len(specs)
            used = {k for s in specs for k in s.input_keys}
            try:
                metas = await self.service("scheduling").run_stage.remote(
                    state.session_id, state.task_id, payloads, [k for k in stored if k in used],
                    options.subtask_max_retries, small, state.cluster_cpus)
            except Exception as exc:
                raise unwrap_error(exc) from None
            state.timings["run"] += time.perf_counter() - started
            state.made.update(metas)
            state.metas.update(metas)
        missing = [k for k in targets if k not in state.metas]
        if missing:
            found = await self.service("meta").get.remote(state.session_id, missing)
            state.metas.update({k: m for k, m in zip(missing, found) if m is not None})
        return state.metas

    async def _load_checkpointed(self, state: TaskState, chunks: list[ChunkData],
                                 stored: set[str]) -> None:
        """Load the chunks persisted under ``options.checkpoint`` that ``chunks`` need."""
        from ..storage.checkpoint import persisted_keys, resumable

        url = options.checkpoint
        if state.persisted is None:
            state.persisted = await asyncio.to_thread(persisted_keys, url)
        keys = await asyncio.to_thread(resumable, chunks, state.made | stored, state.persisted)
        if keys:
            metas = await self.service("scheduling").load_checkpointed.remote(
                state.session_id, state.task_id, url, keys)
            state.made.update(metas)
            state.metas.update(metas)
            state.loaded += len(keys)

    @staticmethod
    def _describe(root: TileableData, tiled, metas: dict[str, tuple]) -> TileableResult:
        keys = np.empty(tiled.chunks.shape, dtype=object)
        shapes = {}
        for pos, chunk in np.ndenumerate(tiled.chunks):
            keys[pos] = chunk.key
            shapes[pos] = metas[chunk.key][0]
        nsplits = []
        for axis in range(tiled.chunks.ndim):
            sizes = []
            for i in range(tiled.chunks.shape[axis]):
                pos = tuple(i if a == axis else 0 for a in range(tiled.chunks.ndim))
                sizes.append(shapes[pos][axis] if axis < len(shapes[pos]) else 1)
            nsplits.append(tuple(sizes))
        shape = tuple(sum(s) for s in nsplits[: len(root.shape)])
        return TileableResult(root.key, keys, tuple(nsplits), shape)
