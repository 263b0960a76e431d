"""Starting the services once per cluster and finding them by name.

As in Mars' supervisor (one actor pool process hosting every supervisor service), all services
live in one detached named Ray actor, the *supervisor*: a resting cluster pays for one service
process, not eight (about 65 MB each), and services call each other by plain awaits instead of
Ray round trips. Each service keeps its own class, state and name; callers reach it through a
``ServiceHandle`` whose ``.method.remote(...)`` reads like an actor call and returns an
ObjectRef (from a client) or an awaitable (inside the supervisor).
"""
from __future__ import annotations

import importlib
import inspect
import os
import time
import uuid

import ray

NAMESPACE = "mars_on_ray"
SUPERVISOR_NAME = "mars_on_ray.supervisor"
#: service name -> "module:Class"
SERVICE_NAMES = {
    "session": "session:SessionService",
    "cluster": "cluster:ClusterService",
    "meta": "meta:MetaService",
    "storage": "storage:StorageService",
    "lifecycle": "lifecycle:LifecycleService",
    "scheduling": "scheduling:SchedulingService",
    "task": "task:TaskService",
    "progress": "progress:ProgressService",
    "web": "web:WebService",
}
_supervisor: list = []  # the cached handle of the supervisor actor (per process)
_local: dict[str, "Service"] = {}  # inside the supervisor: the service objects by name


class _RemoteMethod:
    __slots__ = ("_call", "_service", "_method")

    def __init__(self, call, service: str, method: str):
        self._call, self._service, self._method = call, service, method

    def remote(self, *args, **kwargs):
        return self._call(self._service, self._method, args, kwargs)


class ServiceHandle:
    """A service by name: ``handle.method.remote(*args)`` calls ``method`` of that service."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        if name not in SERVICE_NAMES:
            raise KeyError(f"no service named {name!r}; services are {sorted(SERVICE_NAMES)}")
        self.name = name

    def __getattr__(self, method: str) -> _RemoteMethod:
        if method.startswith("_"):
            raise AttributeError(method)
        service = _local.get(self.name)
        if service is not None:  # we are the supervisor: a direct call, awaited by the caller
            return _RemoteMethod(_call_local, self.name, method)
        return _RemoteMethod(_call_remote, self.name, method)

    def __repr__(self):
        return f"ServiceHandle({self.name!r})"


def _call_local(name: str, method: str, args: tuple, kwargs: dict):
    result = getattr(_local[name], method)(*args, **kwargs)
    return result if inspect.isawaitable(result) else _done(result)


async def _done(value):
    return value


def _call_remote(name: str, method: str, args: tuple, kwargs: dict) -> ray.ObjectRef:
    return supervisor().call.remote(name, method, *args, **kwargs)


#: how long a client waits for a restarting supervisor before giving up on a call
RESTART_WAIT_S = 120.0


def ask(name: str, method: str, *args, **kwargs):
    """Call ``method`` of service ``name`` from a client and wait for the answer.

    While the supervisor restarts after a failure Ray answers ``ActorUnavailableError``; the
    call is sent again until the restarted supervisor answers (which then says the session
    was lost) or ``RESTART_WAIT_S`` pass.
    """
    deadline = time.monotonic() + RESTART_WAIT_S
    while True:
        try:
            return ray.get(_call_remote(name, method, args, kwargs))
        except ray.exceptions.ActorUnavailableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
        except ray.exceptions.RayTaskError as exc:  # a service's own error: without Ray's frames
            cause = exc.cause
            if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
                raise cause from None
            raise


def supervisor() -> ray.actor.ActorHandle:
    """The handle of the running supervisor actor (cached per process)."""
    if not _supervisor:
        _supervisor.append(ray.get_actor(SUPERVISOR_NAME, namespace=NAMESPACE))
    return _supervisor[0]


def get_service(name: str) -> ServiceHandle:
    """The handle of a running service."""
    return ServiceHandle(name)


class Supervisor:
    """The Ray actor hosting every service object; ``call`` dispatches to one of them."""

    def __init__(self):
        self._incarnation = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        for name, target in SERVICE_NAMES.items():
            module, cls_name = target.split(":")
            cls = getattr(importlib.import_module(f"{__package__}.{module}"), cls_name)
            _local[name] = cls()

    async def call(self, service: str, method: str, *args, **kwargs):
        result = getattr(_local[service], method)(*args, **kwargs)
        return await result if inspect.isawaitable(result) else result

    async def ready(self) -> bool:
        return True

    async def incarnation(self) -> str:
        """Which start of the actor answers: it changes when Ray restarts the supervisor."""
        return self._incarnation


def ensure_services() -> ray.actor.ActorHandle:
    """Start the supervisor (with every service) unless it runs, and wait until it answers."""
    # on the head node: the scheduler owns every chunk, and an owner's data dies with its node
    head = {"node:__internal_head__": 0.001} if "node:__internal_head__" in ray.cluster_resources() else {}
    handle = ray.remote(Supervisor).options(
        name=SUPERVISOR_NAME, namespace=NAMESPACE, lifetime="detached", get_if_exists=True,
        num_cpus=0, max_restarts=-1, max_concurrency=1000, resources=head,
    ).remote()
    ray.get(handle.ready.remote())
    _supervisor[:] = [handle]
    return handle


def reset_handles() -> None:
    """Forget the cached handle (after ray.shutdown())."""
    _supervisor.clear()


class Service:
    """Base of the services: a readiness probe and handles to the other services."""

    async def ready(self) -> bool:
        return True

    async def incarnation(self) -> str:
        """Which start of the actor answers: it changes when Ray restarts the supervisor."""
        return self._incarnation

    @staticmethod
    def service(name: str) -> ServiceHandle:
        return ServiceHandle(name)
