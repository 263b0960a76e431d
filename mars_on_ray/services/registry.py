"""Starting the service actors once per cluster and finding them by name."""
from __future__ import annotations

import importlib

import ray

NAMESPACE = "mars_on_ray"
#: service name -> "module:Class"
SERVICE_NAMES = {
    "session": "session:SessionService",
    "cluster": "cluster:ClusterService",
    "meta": "meta:MetaService",
    "storage": "storage:StorageService",
    "lifecycle": "lifecycle:LifecycleService",
    "scheduling": "scheduling:SchedulingService",
    "task": "task:TaskService",
    "web": "web:WebService",
}
_handles: dict[str, ray.actor.ActorHandle] = {}


def _actor_name(name: str) -> str:
    return f"mars_on_ray.{name}"


def get_service(name: str) -> ray.actor.ActorHandle:
    """The handle of a running service (cached per process)."""
    handle = _handles.get(name)
    if handle is None:
        handle = _handles[name] = ray.get_actor(_actor_name(name), namespace=NAMESPACE)
    return handle


def ensure_services() -> dict[str, ray.actor.ActorHandle]:
    """Start every service that is not running yet (concurrently) and wait until all answer."""
    handles = {}
    # on the head node: the scheduler owns every chunk, and an owner's data dies with its node
    head = {"node:__internal_head__": 0.001} if "node:__internal_head__" in ray.cluster_resources() else {}
    for name, target in SERVICE_NAMES.items():
        module, cls_name = target.split(":")
        cls = getattr(importlib.import_module(f"{__package__}.{module}"), cls_name)
        handles[name] = ray.remote(cls).options(
            name=_actor_name(name), namespace=NAMESPACE, lifetime="detached",
            get_if_exists=True, num_cpus=0, max_restarts=-1, max_concurrency=1000, resources=head,
        ).remote()
    ray.get([h.ready.remote() for h in handles.values()])
    _handles.clear()
    _handles.update(handles)
    return handles


def reset_handles() -> None:
    """Forget cached handles (after ray.shutdown())."""
    _handles.clear()


class Service:
    """Base of the service actors: a readiness probe and lazy handles to the other services."""

    async def ready(self) -> bool:
        return True

    @staticmethod
    def service(name: str) -> ray.actor.ActorHandle:
        return get_service(name)
