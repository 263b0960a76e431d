"""The subtask: one fused group of chunk operations, run as a Ray task on input ObjectRefs."""
from __future__ import annotations

import functools
import sys
import time
from typing import NamedTuple

import cloudpickle
import ray

from ..core.execution import run_steps, value_meta
from ..core.fusion import SubtaskSpec


class SubtaskPayload(NamedTuple):
    """A subtask as the scheduler handles it: keys to wire refs, the spec pickled once, and
    the CPUs it runs with (its kernels' thread pools are sized to them)."""

    input_keys: list[str]
    output_keys: list[str]
    label: str
    spec: bytes
    cpus: int = 1
    checkpoint: str | None = None  # URL the outputs are also persisted under (storage/checkpoint)
    memory: int = 0  # bytes declared to Ray (storage/memory.py); 0: none

    @classmethod
    def of(cls, spec: SubtaskSpec, cpus: int = 1, checkpoint: str | None = None,
           memory: int = 0) -> "SubtaskPayload":
        # pickled once by the task service; the scheduler forwards bytes, which Ray
        # serializes far faster than operand objects on every submission
        return cls(spec.input_keys, spec.output_keys, spec.label, cloudpickle.dumps(spec), cpus,
                   checkpoint, memory)


class Metas(list):
    """The outputs' metas of a subtask, and ``run``: (node_id, started, ended) for progress."""

    run: tuple = (None, None, None)

    def __reduce__(self):
        return _metas, (list(self), self.run)


def _metas(values: list, run: tuple) -> "Metas":
    out = Metas(values)
    out.run = run
    return out


_node_id: list = []  # this worker's node id, looked up once


def _this_node() -> str | None:
    if not _node_id:
        try:
            _node_id.append(ray.get_runtime_context().get_node_id())
        except Exception:  # not in a Ray worker (LocalExecutor tests)
            _node_id.append(None)
    return _node_id[0]


def _run_subtask(spec: bytes, cpus: int, *inputs, checkpoint: str | None = None):
    """Returns ``(metas, *outputs)``: the tiny meta list first (with where and when it ran),
    then each output chunk."""
    started = time.time()
    spec = cloudpickle.loads(spec)
    if cpus > 1:  # Ray's workers start with one BLAS / OpenMP thread; this subtask has more CPUs
        with _thread_pools().limit(limits=cpus):
            outputs = run_steps(spec, inputs)
    else:
        outputs = run_steps(spec, inputs)
    if checkpoint is not None:
        from ..storage.checkpoint import save_chunk

        for key, value in zip(spec.output_keys, outputs):
            save_chunk(checkpoint, key, value)
    metas = _metas([value_meta(v) for v in outputs], (_this_node(), started, time.time()))
    return (metas, *outputs)


run_subtask = ray.remote(_run_subtask)

_pools: list = []  # (modules loaded when it looked, threadpoolctl's controller)


def _thread_pools():
    """This worker's BLAS / OpenMP thread pools; looked up again only after new imports
    (a fresh lookup scans every loaded library: ~1 ms a subtask, as long as a small kernel)."""
    if not _pools or _pools[0][0] != len(sys.modules):
        from threadpoolctl import ThreadpoolController

        _pools[:] = [(len(sys.modules), ThreadpoolController())]
    return _pools[0][1]


class BatchMetas(tuple):
    """The ``Metas`` of each member of a batch (services/batching.py), in member order."""


def _run_batch(specs: list[bytes], n_inputs: list[int], *inputs):
    """Run the members of a batch one after the other; returns ``(BatchMetas, *outputs)``
    with every member's outputs in member order."""
    metas, outputs, at = [], [], 0
    for spec, n in zip(specs, n_inputs):
        member = _run_subtask(spec, 1, *inputs[at:at + n])
        at += n
        metas.append(member[0])
        outputs.extend(member[1:])
    return (BatchMetas(metas), *outputs)


run_batch = ray.remote(_run_batch)


@functools.lru_cache(maxsize=1024)
def _remote_with(num_returns: int, max_retries: int, name: str, cpus: int, memory: int = 0):
    # .options() builds a new remote function each call: costly next to a tiny subtask
    extra = {"memory": memory} if memory else {}
    return run_subtask.options(num_returns=num_returns, max_retries=max_retries,
                               retry_exceptions=False, name=name, num_cpus=cpus, **extra)


@functools.lru_cache(maxsize=1024)
def _batch_with(num_returns: int, max_retries: int, name: str):
    return run_batch.options(num_returns=num_returns, max_retries=max_retries,
                             retry_exceptions=False, name=name, num_cpus=1)


def submit_batch(payloads: list[SubtaskPayload], input_refs: list[list], max_retries: int
                 ) -> list[ray.ObjectRef]:
    """Submit small subtasks as one Ray task; returns [batch_meta_ref, *every output ref]."""
    if len(payloads) == 1:
        return submit_subtask(payloads[0], input_refs[0], max_retries)
    outputs = sum(len(p.output_keys) for p in payloads)
    name = f"{payloads[0].label} (+{len(payloads) - 1} batched)"
    remote = _batch_with(1 + outputs, max_retries, name)
    return list(remote.remote([p.spec for p in payloads], [len(r) for r in input_refs],
                              *(ref for refs in input_refs for ref in refs)))


def submit_subtask(payload: SubtaskPayload, input_refs: list, max_retries: int) -> list[ray.ObjectRef]:
    """Submit one subtask; returns [meta_ref, *output_refs]. User exceptions are not retried."""
    remote = _remote_with(1 + len(payload.output_keys), max_retries, payload.label, payload.cpus,
                          payload.memory)
    if payload.checkpoint is not None:
        return list(remote.remote(payload.spec, payload.cpus, *input_refs,
                                  checkpoint=payload.checkpoint))
    return list(remote.remote(payload.spec, payload.cpus, *input_refs))
