"""Mars worker tuning as one object, rendered for every way a Ray node starts.

Mars workers took ``cache_mem`` (shared memory for chunk data: a size or a share of memory),
``phy_mem`` (the memory the worker may use; its soft and hard limits are 75% and 90% of it),
``min_mem`` (refuse to start with less available) and ``spill_dirs``. Here Ray's object store
holds the chunks, so:

=============  ============================================================================
cache_mem      the object store's size (``object_store_memory`` / ``--object-store-memory``)
spill_dirs     the directories Ray spills objects to (``object_spilling_config``)
phy_mem        hard limit (90%) -> Ray's memory monitor threshold; soft limit (75%) minus
               the object store -> Ray's logical ``memory`` resource, which the memory
               subtasks declare is admitted against; a subtask killed for memory is retried
               OOM_RETRIES times, then once alone on a node, then the task fails
               (MemoryError naming the operation)
min_mem        checked where the node starts (MemoryError); on Kubernetes the pod's memory
               request, so it is only scheduled where that much is free
=============  ============================================================================

One ``WorkerTuning`` renders ``ray.init`` arguments (``ray_init_kwargs``), ``ray start``
flags and environment (``ray_start_args``, ``ray_start_env``), and KubeRay's
``rayStartParams``, container env, resources and spill volumes (``kuberay_start_params``,
``kuberay_env``, ``kuberay_resources``, ``kuberay_volumes``).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field

import psutil

from ..ray_settings import OOM_RETRIES  # Ray's retries of a subtask killed for memory

SOFT_LIMIT = 0.75  # Mars: share of phy_mem under which work is admitted
HARD_LIMIT = 0.90  # Mars: share of phy_mem at which a worker is killed
DEFAULT_CACHE_SHARE = 0.3  # object store share of phy_mem when only phy_mem is given (Ray's own)
MIN_OBJECT_STORE = 75 * 1024**2  # Ray refuses a smaller object store
SEVERAL_DIRS_STORAGE_TYPE = "mock_distributed_fs"  # see WorkerTuning.spilling_config

_UNITS = {"": 1, "b": 1}
for _i, _p in enumerate("kmgtp", start=1):
    for _suffix in (_p, _p + "b", _p + "i", _p + "ib"):
        _UNITS[_suffix] = 1024**_i

_SIZE = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(%|[a-zA-Z]*)\s*")
_K8S_UNITS = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15,
              "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50}


@dataclass(frozen=True)
class Size:
    """A parsed size: a number of bytes, or a share of the memory where the node runs."""

    nbytes: int | None = None
    share: float | None = None

    def resolve(self, total: int | None = None) -> int:
        """Bytes; a share is taken of ``total`` (default: this machine's memory)."""
        if self.nbytes is not None:
            return self.nbytes
        total = total if total is not None else psutil.virtual_memory().total
        return int(total * self.share)


def parse_size_spec(value, name: str = "size") -> Size | None:
    """A ``Size`` from Mars' forms: bytes (int), ``"4g"``, ``"512MiB"``, ``"80%"``, or a float
    in (0, 1] meaning a share. ValueError for negatives, shares over 100% and unknown units."""
    if value is None:
        return None
    if isinstance(value, Size):
        return value
    if isinstance(value, bool):
        raise ValueError(f"{name}: {value!r} is not a size")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"{name}: {value!r} is negative")
        if isinstance(value, float) and value <= 1:
            return Size(share=float(value))
        return Size(nbytes=int(value))
    match = _SIZE.fullmatch(str(value))
    if not match:
        raise ValueError(f"{name}: cannot read a size from {value!r} "
                         "(use e.g. '4g', '512m', '30%' or a number of bytes)")
    number, unit = float(match.group(1)), match.group(2)
    if number < 0:
        raise ValueError(f"{name}: {value!r} is negative")
    if unit == "" and "." in match.group(1) and number <= 1:
        return Size(share=number)  # "0.3" as Mars read it: a share
    if unit == "%":
        if number > 100:
            raise ValueError(f"{name}: {value!r} is over 100%")
        return Size(share=number / 100)
    if unit.lower() not in _UNITS:
        raise ValueError(f"{name}: unknown unit {unit!r} in {value!r} "
                         f"(known: k, m, g, t, p, optionally with 'b' or 'ib'; or '%')")
    return Size(nbytes=int(number * _UNITS[unit.lower()]))


def parse_size(value, total: int | None = None) -> int | None:
    """Bytes from ``value`` in any form ``parse_size_spec`` reads; a share is of ``total``."""
    spec = parse_size_spec(value)
    return None if spec is None else spec.resolve(total)


def parse_k8s_quantity(value) -> int:
    """Bytes of a Kubernetes memory quantity (``8Gi``, ``8G`` = 8e9, ``512Mi``) or an int."""
    if isinstance(value, int):
        return value
    match = re.fullmatch(r"\s*(\d+\.?\d*)\s*([a-zA-Z]*)\s*", str(value))
    if not match or match.group(2) not in _K8S_UNITS:
        raise ValueError(f"cannot read a Kubernetes memory quantity from {value!r}")
    return int(float(match.group(1)) * _K8S_UNITS[match.group(2)])


def parse_dirs(value) -> list[str]:
    """Spill directories from a list, or a string of paths separated by ':' as Mars took them."""
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        value = [p for p in os.fspath(value).split(os.pathsep) if p]
    dirs = [os.path.expanduser(os.fspath(p)) for p in value]
    if any(not d for d in dirs):
        raise ValueError(f"spill_dirs: empty directory name in {value!r}")
    return list(dict.fromkeys(dirs))


def check_writable_dirs(dirs: list[str]) -> None:
    """Create each directory and write a probe file in it; ValueError naming the one that fails."""
    for d in dirs:
        try:
            os.makedirs(d, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=d, prefix=".mars-probe-"):
                pass
        except OSError as exc:
            raise ValueError(f"spill_dirs: {d!r} cannot be created or written: {exc}") from None


@dataclass
class WorkerTuning:
    """Mars worker options; bad values raise ValueError when this object is made."""

    cache_mem: str | int | float | None = None
    spill_dirs: list[str] | str | None = field(default_factory=list)
    phy_mem: str | int | float | None = None
    min_mem: str | int | float | None = None

    def __post_init__(self):
        self.spill_dirs = parse_dirs(self.spill_dirs)
        self._cache = parse_size_spec(self.cache_mem, "cache_mem")
        self._phy = parse_size_spec(self.phy_mem, "phy_mem")
        self._min = parse_size_spec(self.min_mem, "min_mem")

    # -- sizes, resolved against the memory of the node they apply to ----------------------
    def object_store_bytes(self, total: int | None = None) -> int | None:
        """The object store's size (None: Ray's default)."""
        if self._cache is None:
            if self._phy is None:
                return None
            store = int(self._phy.resolve(total) * DEFAULT_CACHE_SHARE)
        else:
            store = self._cache.resolve(total)
        if store < MIN_OBJECT_STORE:
            raise ValueError(f"cache_mem: {self.cache_mem!r} gives {store} bytes; Ray's object "
                             f"store needs at least {MIN_OBJECT_STORE} (75m)")
        return store

    def limits(self, total: int | None = None) -> dict[str, int] | None:
        """Mars' soft and hard limits in bytes (None without ``phy_mem``)."""
        if self._phy is None:
            return None
        phy = self._phy.resolve(total)
        store = self.object_store_bytes(total)
        if store > phy:
            raise ValueError(f"cache_mem ({store} bytes) is larger than phy_mem ({phy} bytes)")
        if self._min is not None and self._min.resolve(total) > phy:
            raise ValueError(f"min_mem ({self.min_mem!r}) is larger than phy_mem ({self.phy_mem!r})")
        return {"phy": phy, "soft": int(phy * SOFT_LIMIT), "hard": int(phy * HARD_LIMIT)}

    def worker_memory_bytes(self, total: int | None = None) -> int | None:
        """Ray's logical ``memory`` resource: the soft limit minus the object store."""
        limits = self.limits(total)
        if limits is None:
            return None
        return max(limits["soft"] - self.object_store_bytes(total), 0)

    def memory_usage_threshold(self, total: int | None = None) -> float | None:
        """Ray's memory monitor threshold: the hard limit as a share of the node's memory."""
        limits = self.limits(total)
        if limits is None:
            return None
        total = total if total is not None else psutil.virtual_memory().total
        return round(min(0.99, max(0.05, limits["hard"] / total)), 4)

    def spilling_config(self) -> str | None:
        """Ray's ``object_spilling_config`` JSON for the spill directories (None: Ray's default)."""
        if not self.spill_dirs:
            return None
        # Ray 2.60's raylet keeps only the first directory of a "filesystem" config (files
        # appear in the first directory only; tests/test_storage_spilling.py shows it). Its
        # "mock_distributed_fs" type is the same FileSystemStorage (round robin over the list)
        # and keeps the whole list, so several directories are given under that name.
        kind = "filesystem" if len(self.spill_dirs) == 1 else SEVERAL_DIRS_STORAGE_TYPE
        return json.dumps({"type": kind, "params": {"directory_path": self.spill_dirs}})

    def _check_local(self) -> None:
        """Checks only the machine that starts the node can make: free memory, writable dirs."""
        self.spill_dirs = [os.path.abspath(d) for d in self.spill_dirs]
        check_writable_dirs(self.spill_dirs)
        if self._min is not None:
            available = psutil.virtual_memory().available
            need = self._min.resolve()
            if available < need:
                raise MemoryError(f"only {available} bytes of memory are available; "
                                  f"min_mem is {self.min_mem!r} ({need} bytes)")

    # -- (a) ray.init, the embedded default -----------------------------------------------------
    def ray_init_kwargs(self) -> dict:
        """Arguments for ``ray.init`` starting a local Ray with this tuning."""
        self._check_local()
        kwargs: dict = {}
        system_config: dict = {}
        store = self.object_store_bytes()
        if store is not None:
            kwargs["object_store_memory"] = store
        if self.spill_dirs:
            system_config["object_spilling_config"] = self.spilling_config()
        if self._phy is not None:
            kwargs["_memory"] = self.worker_memory_bytes()
            system_config["memory_usage_threshold"] = self.memory_usage_threshold()
            system_config["task_oom_retries"] = OOM_RETRIES
        if system_config:
            kwargs["_system_config"] = system_config
        return kwargs

    # -- (b) `ray start` on a bare host (the CLI) -----------------------------------------------
    def ray_start_args(self, head: bool = True) -> list[str]:
        """``ray start`` flags for a node on this machine (sizes resolved against its memory).

        Spilling goes in the head's environment (``ray_start_env``): Ray gives every node the
        head's spill directories, so the same paths must be writable on every host.
        """
        self._check_local()
        args = []
        store = self.object_store_bytes()
        if store is not None:
            args.append(f"--object-store-memory={store}")
        if self._phy is not None:
            args.append(f"--memory={self.worker_memory_bytes()}")
        return args

    def ray_start_env(self, head: bool = True) -> dict[str, str]:
        """Environment variables for ``ray start`` (merged into the node's environment)."""
        env = {}
        if self._phy is not None:
            env["RAY_memory_usage_threshold"] = str(self.memory_usage_threshold())
            env["RAY_task_oom_retries"] = str(OOM_RETRIES)
        if head and self.spill_dirs:
            # several directories need the spilling config (the --object-spilling-directory
            # flag takes one); a worker node given its own would keep only its first directory
            env["RAY_object_spilling_config"] = self.spilling_config()
        return env

    # -- (c) KubeRay --------------------------------------------------------------------------
    def _container_total(self, memory_limit) -> int | None:
        if memory_limit is not None:
            return parse_k8s_quantity(memory_limit)
        if any(s is not None and s.share is not None for s in (self._cache, self._phy, self._min)):
            raise ValueError("a size given as a share (e.g. '80%') needs the container's "
                             "memory_limit to be rendered for KubeRay")
        return None

    def kuberay_start_params(self, memory_limit=None) -> dict[str, str]:
        """``rayStartParams`` (all values strings); shares are of ``memory_limit`` (the
        container's memory limit, bytes or a Kubernetes quantity such as ``"8Gi"``)."""
        total = self._container_total(memory_limit)
        params = {}
        store = self.object_store_bytes(total)
        if store is not None:
            params["object-store-memory"] = str(store)
        if self._phy is not None:
            params["memory"] = str(self.worker_memory_bytes(total))
        return params

    def kuberay_env(self, memory_limit=None, head: bool = True) -> list[dict[str, str]]:
        """The container's ``env`` entries (``[{"name": ..., "value": ...}]``). Ray's memory
        monitor reads the container's cgroup limit, so ``phy_mem`` defaults to it there."""
        total = self._container_total(memory_limit)
        env = {}
        if self._phy is not None:
            env["RAY_memory_usage_threshold"] = str(self.memory_usage_threshold(total))
        if head and self.spill_dirs:
            self._check_absolute()
            env["RAY_object_spilling_config"] = self.spilling_config()
        if self._phy is not None:
            env["RAY_task_oom_retries"] = str(OOM_RETRIES)
        return [{"name": k, "value": v} for k, v in env.items()]

    def kuberay_resources(self, memory_limit=None) -> dict:
        """Container ``resources``: ``min_mem`` as the memory request, ``phy_mem`` (or the
        given ``memory_limit``) as the limit."""
        total = self._container_total(memory_limit)
        resources: dict = {}
        if self._min is not None:
            resources.setdefault("requests", {})["memory"] = str(self._min.resolve(total))
        limit = total if total is not None else (self._phy.resolve() if self._phy else None)
        if limit is not None:
            resources.setdefault("limits", {})["memory"] = str(limit)
        return resources

    def kuberay_volumes(self, size_limit: str | None = None) -> dict[str, list[dict]]:
        """``{"volumes": [...], "volumeMounts": [...]}``: an ``emptyDir`` per spill directory
        (deleted with the pod, as spill files should be), mounted at its path, in every pod."""
        self._check_absolute()
        volumes, mounts = [], []
        for i, path in enumerate(self.spill_dirs):
            empty_dir = {"sizeLimit": size_limit} if size_limit else {}
            volumes.append({"name": f"mars-spill-{i}", "emptyDir": empty_dir})
            mounts.append({"name": f"mars-spill-{i}", "mountPath": path})
        return {"volumes": volumes, "volumeMounts": mounts}

    def _check_absolute(self) -> None:
        relative = [d for d in self.spill_dirs if not os.path.isabs(d)]
        if relative:
            raise ValueError(f"spill_dirs: {relative} must be absolute paths inside the pod")
