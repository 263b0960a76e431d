"""ClusterService: the nodes of the Ray cluster, their resources and the worker tuning."""
from __future__ import annotations

import ray

from .registry import Service


class ClusterService(Service):
    def __init__(self):
        self._tuning: dict = {}
        self._web_address: str | None = None

    async def nodes(self) -> list[dict]:
        return [
            {"node_id": n["NodeID"], "address": n["NodeManagerAddress"], "alive": n["Alive"],
             "resources": n.get("Resources", {})}
            for n in ray.nodes()
        ]

    async def total_cpus(self) -> float:
        return ray.cluster_resources().get("CPU", 0.0)

    async def set_tuning(self, tuning: dict) -> None:
        self._tuning.update(tuning)

    async def tuning(self) -> dict:
        return dict(self._tuning)

    async def set_web_address(self, address: str) -> None:
        self._web_address = address

    async def web_address(self) -> str | None:
        return self._web_address
