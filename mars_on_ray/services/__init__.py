"""The control plane: the Mars services, hosted by one detached named Ray actor (the supervisor,
``mars_on_ray.supervisor`` in the namespace ``mars_on_ray``) and reached by name with
``get_service(name).method.remote(...)``.

| name        | class             | owns                                                  |
| ----------- | ----------------- | ----------------------------------------------------- |
| session     | SessionService    | sessions: create, attach, close                        |
| cluster     | ClusterService    | nodes, resources, worker tuning, web address           |
| task        | TaskService       | optimize, tile stage by stage, fuse, progress, errors  |
| scheduling  | SchedulingService | submits subtasks as Ray tasks, owns their ObjectRefs   |
| meta        | MetaService       | chunk shapes and sizes                                 |
| storage     | StorageService    | chunk key -> ObjectRef catalog per session             |
| lifecycle   | LifecycleService  | reference counts; frees chunks at zero                 |
| web         | WebService        | the dashboard (a stub until its issue)                 |
"""
from .registry import NAMESPACE, SERVICE_NAMES, ensure_services, get_service

__all__ = ["NAMESPACE", "SERVICE_NAMES", "ensure_services", "get_service"]
