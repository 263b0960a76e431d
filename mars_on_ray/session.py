"""The client side: sessions, ``execute``, ``fetch`` and progress.

This is the only client module that talks to the services. Data moves directly between this
process and Ray's object store: pieces of in-memory inputs are ``ray.put`` once, results are
``ray.get`` from the refs the storage service lists.
"""
from __future__ import annotations

import atexit
import gc
import sys
import threading
import time
import uuid
import warnings
import weakref
from typing import Any

import numpy as np
import ray

from .config import options
from .core.entity import TileableData
from .core.execution import value_meta
from .core.graph import FlatGraph, topo_order
from .core.merge import merge_chunks
from .core.stored import stored_node
from .core.tiling import TileContext
from .core.user import ClientData, Tileable, set_runner
from .services import ensure_services, get_service
from .services.registry import ask, reset_handles, supervisor
from .services import graph_payload
from .ray_settings import warn_if_missing_in_local_raylet
from .storage.tuning import WorkerTuning

_default_session: "Session | None" = None
#: how long the call that submits a task also waits for it (most tasks end within it)
_FIRST_WAIT_S = 0.3


class Session:
    """A connection to the services with its own isolated data."""

    def __init__(self, session_id: str):
        self.session_id = session_id
        self._results: dict[str, Any] = {}  # tileable key -> TileableResult
        # tileable key -> its chunks' ObjectRefs, for results the task service sent them with
        self._result_refs: dict[str, list] = {}
        self._held: dict[str, int] = {}  # tileable key -> live nodes holding it
        self._tracked: "weakref.WeakSet[TileableData]" = weakref.WeakSet()
        self._released: list[str] = []
        # re-entrant: a finalizer can run (gc) in a thread that already holds it
        self._lock = threading.RLock()
        self._flusher: threading.Thread | None = None  # sends releases in the background
        self._flush_wanted = threading.Event()
        self._send_lock = threading.Lock()
        # every decref sent and not yet known applied: the supervisor runs calls concurrently,
        # so a later one can finish before an earlier one and waiting on the last is not enough
        self._pending_decrefs: list = []
        self._decref_keys: dict = {}  # each pending decref -> the keys it releases
        self.closed = False
        #: subtask and stage counts of the last task this session ran; "nodes": node id ->
        #: subtasks that ran on that node
        self.last_task: dict = {}
        self._web_url: str | None = None
        self._attached_url: str | None = None  # the dashboard URL new_session attached by

    # -- execution -------------------------------------------------------------------------
    def execute(self, *objs: Tileable, show_progress: bool | None = None,
                checkpoint: str | None = None) -> None:
        """Run the graphs behind ``objs`` as one task (shared work is computed once).

        ``checkpoint``: a URL or path (any filesystem fsspec opens) where every computed chunk
        is also persisted by its key; running the same graph again, even after the driver or
        the cluster died, loads those chunks instead of computing them."""
        self._check_open()
        task_options = options.snapshot()
        if checkpoint is not None:
            from .storage.checkpoint import check_url

            check_url(checkpoint)
            task_options["checkpoint"] = checkpoint
        graph_keys = set()
        for node in topo_order([o.data for o in objs]):
            graph_keys.add(node.key)
            if node.key in self._results:
                self._track(node)  # this node object now also keeps the stored result alive
        # a key released a moment ago may be executed again now: its release must land first
        self._flush_released(wait=self._releasing_any(graph_keys))
        nodes = [o.data for o in objs if o.data.key not in self._results]
        nodes = list({n.key: n for n in nodes}.values())
        if not nodes:
            return
        self._upload_sources(nodes)
        hold = [n.key for n in nodes if n.key not in self._held]
        graph = self._graph_of(nodes)
        started, task_id = time.time(), uuid.uuid4().hex[:16]
        try:
            status = ask("task", "run", self.session_id, graph_payload.dumps(graph), hold,
                         task_options, graph_payload.user_modules(nodes), _FIRST_WAIT_S, task_id)
        except KeyboardInterrupt:
            ask("task", "cancel", task_id)
            raise
        if not status["done"]:
            status = self._wait(task_id, nodes, show_progress, started)
        self.last_task = {"subtasks": status["subtasks_total"], "stages": status["stages"],
                          "seconds": status.get("timings", {}), "paths": status.get("paths", []),
                          "nodes": status.get("nodes", {}), "loaded": status.get("loaded", 0)}
        if "error" in status:
            raise status["error"]
        self._results.update((n.key, r) for n, r in zip(nodes, status["results"]))
        self._result_refs.update(status.get("refs", {}))
        for obj in objs:  # every object passed in, also several with one key, holds its result
            if obj.data.has_unknown_shape:
                obj.data.refresh_shape(self._results[obj.data.key].shape)
            self._track(obj.data)

    def _graph_of(self, roots: list[TileableData]) -> FlatGraph:
        """The graph to run: results this session holds stand in for what computed them."""
        stored = {}
        for node in topo_order(roots, stop=lambda n: n.key in self._results):
            result = self._results.get(node.key)
            if result is not None:
                stored[node.key] = stored_node(node, result.chunk_keys, result.nsplits)
            else:
                node.op.check_distributable()
        return FlatGraph(roots, stored)

    def fetch(self, *objs: Tileable) -> Any:
        """The values of ``objs`` (executing what has not run yet); one value for one object."""
        self._check_open()
        missing = [o for o in objs if o.data.key not in self._results]
        if missing:
            self.execute(*missing)
        values = []
        for obj in objs:
            result = self._results[obj.data.key]
            try:
                chunks = ray.get(self._refs_of(obj.data.key))
            except ray.exceptions.ObjectLostError:
                # refs kept from the task's status whose owner died (a restarted supervisor):
                # the services say what became of them (e.g. SessionLostError)
                if self._result_refs.pop(obj.data.key, None) is None:
                    raise
                chunks = ray.get(self._refs_of(obj.data.key))
            grid = np.empty(result.chunk_keys.shape, dtype=object)
            for pos, value in zip(np.ndindex(grid.shape), chunks):
                grid[pos] = value
            values.append(merge_chunks(obj.data.meta, grid))
        return values[0] if len(values) == 1 else values

    def chunk_refs(self, obj: Tileable) -> list:
        """The ObjectRefs of ``obj``'s chunks in grid order (executing it first if needed),
        to hand its data to other Ray libraries without fetching it."""
        self._check_open()
        if obj.data.key not in self._results:
            self.execute(obj)
        return self._refs_of(obj.data.key)

    def _refs_of(self, key: str) -> list:
        refs = self._result_refs.get(key)
        if refs is None:
            refs = ask("storage", "get_refs", self.session_id,
                       list(self._results[key].chunk_keys.flat))
        return refs

    def chunk_layout(self, obj: Tileable) -> tuple[np.ndarray, tuple]:
        """``obj``'s chunk ObjectRefs laid out as its chunk grid, with its real ``nsplits``
        (executing it first if needed): what a Ray library needs to read it shard by shard."""
        refs = self.chunk_refs(obj)
        result = self._results[obj.data.key]
        grid = np.empty(result.chunk_keys.shape, dtype=object)
        for pos, ref in zip(np.ndindex(grid.shape), refs):
            grid[pos] = ref
        return grid, tuple(tuple(int(s) for s in axis) for axis in result.nsplits)

    def storage_stats(self) -> dict:
        """What this session keeps in Ray's object store: ``held_bytes`` and ``objects`` of its
        chunks; ``spilled_bytes`` / ``restored_bytes`` so far (Ray counts them per node, for
        every session); ``nodes``: the same per node id (with the node's store counters)."""
        self._check_open()
        self.flush_releases(collect=False)
        return ask("storage", "usage", self.session_id)

    def _wait(self, task_id: str, nodes, show_progress: bool | None, started: float) -> dict:
        bar = None
        try:
            while True:
                status = ask("task", "wait", task_id, 0.3)
                if status["done"]:
                    return status
                if bar is None and _wants_bar(show_progress, time.time() - started):
                    from tqdm.auto import tqdm

                    names = ", ".join(dict.fromkeys(n.op.name for n in nodes))
                    bar = tqdm(total=1.0, desc=names[:40], unit="", bar_format=(
                        "{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}"),
                               disable=None if show_progress is None else False)
                if bar is not None and status["subtasks_total"]:
                    # the numbers the dashboard shows for this task (the progress service's)
                    bar.n = status["subtasks_done"] / status["subtasks_total"]
                    bar.set_postfix_str(f"{status['subtasks_done']}/{status['subtasks_total']} "
                                        f"subtasks, stage {status['stages']}", refresh=False)
                    bar.refresh()
        except KeyboardInterrupt:
            ask("task", "cancel", task_id)
            raise
        finally:
            if bar is not None:
                bar.n = 1.0
                bar.close()

    @property
    def web_url(self) -> str | None:
        """The address of the cluster's dashboard (None when none runs): the URL this session
        attached by, else where the web service serves now (``mars-on-ray web`` may move it)."""
        if self._attached_url or self.closed:
            return self._attached_url or self._web_url
        try:
            self._web_url = ray.get(get_service("web").address.remote())
        except Exception:  # the cluster is going away: the last address known
            pass
        return self._web_url

    # -- inputs held by the client ---------------------------------------------------------
    def _upload_sources(self, roots: list[TileableData]) -> None:
        """Put every in-memory source's chunk pieces into the object store, once."""
        refs: dict[str, list] = {}
        metas: dict[str, tuple] = {}
        held: dict[str, list[str]] = {}
        for node in topo_order(roots, stop=lambda n: n.key in self._results):
            if not isinstance(node.op, ClientData) or node.key in self._results:
                continue
            if node.op.data is None:
                continue
            tiled = node.op.tile(TileContext(), node)
            for chunk in tiled.flat:
                data = chunk.op.data
                if isinstance(data, ray.ObjectRef):  # already in the object store (Ray Data)
                    refs[chunk.key], metas[chunk.key] = [data], chunk.op.data_meta
                    continue
                refs[chunk.key] = [ray.put(data)]
                metas[chunk.key] = value_meta(data)
            held[node.key] = [c.key for c in tiled.flat]
            self._results[node.key] = _source_result(node, tiled)
            self._track(node)
        if refs:
            ray.get([get_service("storage").put.remote(self.session_id, refs),
                     get_service("meta").set.remote(self.session_id, metas),
                     get_service("lifecycle").incref.remote(self.session_id, held)])

    # -- lifecycle ---------------------------------------------------------------------------
    def _track(self, node: TileableData) -> None:
        """Hold ``node``'s chunks while this node object lives."""
        if node in self._tracked:
            return
        self._tracked.add(node)
        with self._lock:
            self._held[node.key] = self._held.get(node.key, 0) + 1
        weakref.finalize(node, self._release, node.key)

    def _release(self, key: str) -> None:
        with self._lock:
            count = self._held.get(key, 0) - 1
            if count > 0:
                self._held[key] = count
                return
            self._held.pop(key, None)
            self._results.pop(key, None)
            self._result_refs.pop(key, None)
            self._released.append(key)
            if not self.closed:
                if self._flusher is None:
                    self._flusher = threading.Thread(target=self._flush_in_background,
                                                     name="mars-on-ray-releases", daemon=True)
                    self._flusher.start()
                self._flush_wanted.set()

    def _flush_in_background(self) -> None:
        while True:
            self._flush_wanted.wait()
            if self.closed:
                return
            time.sleep(0.05)  # one flush for the releases of one statement
            self._flush_wanted.clear()
            self._flush_released()

    def _releasing_any(self, keys: set[str]) -> bool:
        """Whether a release of one of ``keys`` is unsent or not yet known applied."""
        with self._lock:
            if not keys.isdisjoint(self._released):
                return True
            return any(not keys.isdisjoint(k) for k in self._decref_keys.values())

    def flush_releases(self, collect: bool = True, timeout: float = 60.0) -> None:
        """Apply now every release of result objects that were garbage-collected: when this
        returns, their chunks are out of the session's storage (``collect``: run the garbage
        collector first, so objects in reference cycles count too). TimeoutError if the
        services do not confirm within ``timeout`` seconds."""
        if collect:
            gc.collect()
        self._flush_released(wait=True, timeout=timeout)

    def _flush_released(self, wait: bool = False, timeout: float = 60.0) -> None:
        """Send pending releases; ``wait``: until the services have applied them all."""
        with self._send_lock:  # releases reach the lifecycle service in the order they happened
            with self._lock:
                keys, self._released = self._released, []
            if keys and not self.closed and ray.is_initialized():
                try:
                    ref = get_service("lifecycle").decref.remote(self.session_id, keys)
                except Exception:  # the cluster is going away
                    return
                with self._lock:
                    self._pending_decrefs.append(ref)
                    self._decref_keys[ref] = set(keys)
            pending = self._pending_decrefs
            if pending and (wait or len(pending) > 16):  # else: forget the applied ones later
                _, not_ready = ray.wait(pending, num_returns=len(pending),
                                        timeout=timeout if wait else 0)
                with self._lock:
                    self._pending_decrefs = not_ready
                    self._decref_keys = {r: self._decref_keys[r] for r in not_ready}
                if wait and not_ready:
                    raise TimeoutError(f"{len(not_ready)} releases were not applied in {timeout} s")

    # -- closing -----------------------------------------------------------------------------
    def close(self) -> None:
        """Free every chunk of this session; the session cannot be used afterwards."""
        global _default_session
        if self.closed:
            return
        self.closed = True
        self._flush_wanted.set()  # the background flusher ends
        self._results.clear()
        self._result_refs.clear()
        if ray.is_initialized():
            try:
                ray.get(get_service("session").close.remote(self.session_id))
            except Exception:
                pass
        if _default_session is self:
            _default_session = None

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"session {self.session_id} is closed")

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Session {self.session_id}{' closed' if self.closed else ''}>"


def _source_result(node: TileableData, tiled):
    from .services.task import TileableResult

    keys = np.empty(tiled.chunks.shape, dtype=object)
    for pos, chunk in np.ndenumerate(tiled.chunks):
        keys[pos] = chunk.key
    return TileableResult(node.key, keys, tiled.nsplits, node.shape)


def _wants_bar(show_progress: bool | None, elapsed: float) -> bool:
    if show_progress is not None:
        return show_progress
    return options.progress_bar_after is not None and elapsed >= options.progress_bar_after


#: ray.init failures an overloaded machine causes, worth one more try
_TRANSIENT_START_ERRORS = ("timed out during startup",  # the raylet missed Ray's 30 s wait
                           # ray://: the head's per-client server did not start in time, or
                           # exited while Ray's proxier was still looking at it
                           "Starting Ray client server failed", "ZombieProcess")


def init_ray(address=None, attempts: int = 3, **kwargs) -> None:
    """``ray.init``, started again (up to ``attempts`` times) after a start-up failure an
    overloaded machine causes: the local raylet missing Ray's fixed 30 s registration wait, or,
    for a ``ray://`` address, the head's per-client server not starting in time. Tests and
    benchmarks start their Ray through it too."""
    for attempt in range(attempts):
        try:
            ray.init(address=address, **kwargs)
            return
        except Exception as exc:
            if attempt + 1 == attempts or not any(t in str(exc) for t in _TRANSIENT_START_ERRORS):
                raise
            ray.shutdown()


def new_session(address: str | None = None, *, session_id: str | None = None, default: bool = True,
                cache_mem=None, spill_dirs=None, phy_mem=None, min_mem=None,
                token: str | None = None, web: bool = True, **ray_init_kwargs) -> Session:
    """Open a session: attach to the running Ray (or ``address``), else start a local one.

    ``address`` may be a dashboard's URL (``"http://host:port"``, as in Mars): the session
    attaches to the cluster behind it; ``token`` (or ``MARS_ON_RAY_WEB_TOKEN``) is the
    dashboard's token when it has one. ``session_id`` attaches to an existing session.
    ``cache_mem``, ``spill_dirs``, ``phy_mem`` and ``min_mem`` are Mars worker tuning, applied
    when this call starts Ray. ``web``: start the dashboard (on 127.0.0.1) if none runs; its
    address is printed and is ``session.web_url``.
    """
    global _default_session
    web_url = None
    from .web.client import connect_info, is_web_url

    if is_web_url(address):
        info = connect_info(address, token)
        address, web_url = info["ray_address"], info["web_url"]
    tuning = WorkerTuning(cache_mem, spill_dirs, phy_mem, min_mem)  # bad values raise here
    if not ray.is_initialized():
        kwargs = {"include_dashboard": False, "log_to_driver": True, **tuning.ray_init_kwargs(),
                  **ray_init_kwargs}
        if "_system_config" in ray_init_kwargs:  # the caller's settings join the tuning's
            kwargs["_system_config"] = {**tuning.ray_init_kwargs().get("_system_config", {}),
                                        **ray_init_kwargs["_system_config"]}
        reset_handles()
        init_ray(address, **kwargs)
    else:
        warn_if_missing_in_local_raylet()
    try:
        supervisor()
    except ValueError:  # the first session of this cluster starts the services
        ensure_services()
    session = Session(ask("session", "create", session_id))
    session._attached_url = web_url
    session._web_url = web_url or (_start_dashboard() if web else None)
    if session._web_url:
        print(f"mars_on_ray session {session.session_id}: dashboard at {session._web_url}",
              file=sys.stderr)
    if session_id is None:
        _created.append(weakref.ref(session))
    if default:
        _default_session = session
    return session


_created: list[weakref.ref] = []


def _start_dashboard() -> str | None:
    """The running dashboard's URL, starting one on 127.0.0.1 when none runs."""
    web_service = get_service("web")
    try:
        return ray.get(web_service.address.remote()) or ray.get(web_service.start.remote())
    except Exception as exc:  # the dashboard is an extra: a session works without it
        warnings.warn(f"the dashboard did not start: {exc}", RuntimeWarning, stacklevel=3)
        return None


@atexit.register
def _close_created_sessions() -> None:
    for ref in _created:
        session = ref()
        if session is not None:
            session.close()


def get_default_session(create: bool = False) -> Session | None:
    """The default session (``create=True``: open one if there is none)."""
    if (_default_session is None or _default_session.closed) and create:
        return new_session()
    return _default_session


def _session_for(session: Session | None) -> Session:
    return session or get_default_session(create=True)


def execute(*objs: Tileable, session: Session | None = None, **kwargs) -> Any:
    """Execute several objects in one graph; returns the object, or a list for several."""
    _session_for(session).execute(*objs, **kwargs)
    return objs[0] if len(objs) == 1 else list(objs)


def fetch(*objs: Tileable, session: Session | None = None) -> Any:
    """Fetch several objects' values (executing them first if needed)."""
    return _session_for(session).fetch(*objs)


set_runner(execute, fetch)
