"""The driver side of ``mr.map``: streams inputs into Ray tasks, collects outcomes, retries,
re-submits stragglers, and hands results back in input order (or as they finish).

One ``Attempt`` is one Ray task running a ``Batch`` of inputs; a batch has several attempts
only when a straggler was copied or a worker died. Inputs are read from the iterable only as
room frees up, results stay in the object store until they are yielded, and everything the
job made is cancelled and dropped when the generator ends or is closed.
"""
from __future__ import annotations

import itertools
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

import ray
from ray.exceptions import RayError, TaskCancelledError

from .status import MapStatus, publish
from .worker import run_batch

#: a batch of trivial inputs aims at this many seconds of work per Ray task
TARGET_TASK_SECONDS = 0.2
MIN_TASK_SECONDS = 0.02
MAX_BATCH = 10_000
#: a task is a straggler after this many times the median of its finished peers ...
STRAGGLER_FACTOR = 3.0
#: ... once this many inputs have finished, and never before this many seconds
STRAGGLER_MIN_FINISHED = 3
STRAGGLER_MIN_SECONDS = 1.0
#: a batch lost with its worker this many times (beyond Ray's own retries) fails for good
MAX_SYSTEM_FAILURES = 3
_POLL = 0.2


@dataclass
class Batch:
    indices: list[int]
    items: list[Any]  # what the task receives: inputs, or ObjectRefs of large ones
    keys: list[str | None]
    user_attempts: list[int]  # attempts so far of each input (retries after it raised)
    attempts: list["Attempt"] = field(default_factory=list)
    system_failures: int = 0
    copied: bool = False
    done: bool = False


@dataclass
class Attempt:
    batch: Batch
    outcomes: ray.ObjectRef
    results: ray.ObjectRef
    submitted: float
    started: float | None = None


@dataclass
class _FromBatch:  # a computed result, still in the object store with its batch's others
    results: ray.ObjectRef
    position: int


@dataclass
class _Stored:  # a result read back from the checkpoint when it is yielded
    key: str


@dataclass
class _Failed:
    error: BaseException


class MapScheduler:
    """Runs one map job; ``run()`` is the generator handed to the user."""

    def __init__(self, iterable, *, job_id: str, payload: bytes, options: dict,
                 slots: int, in_flight: int, retries: int, store, speculation: bool,
                 ordered: bool, errors: str, status: MapStatus, total: int | None,
                 show_progress: bool | None):
        self.inputs: Iterator = enumerate(iterable)
        self.job_id = job_id
        self.payload = payload
        self.payload_ref = None
        self.task = run_batch.options(**options)
        self.slots = max(1, slots)
        self.in_flight_cap = max(1, in_flight)
        self.retries = retries
        self.store = store
        self.speculation = speculation
        self.ordered = ordered
        self.errors = errors
        self.status = status
        self.total = total
        self.show_progress = show_progress
        self.inputs_left = True
        self.read = 0  # inputs taken from the iterable
        self.attempts: dict[ray.ObjectRef, Attempt] = {}  # outcome ref -> attempt, submit order
        self.queue: list[Batch] = []  # batches to submit before new inputs (retries)
        self.ready: dict[int, Any] = {}  # input index -> _FromBatch / _Stored / _Failed / value
        self.inputs_of: dict[int, Any] = {}  # index -> input, while unfinished (error messages)
        self.fetched: dict[ray.ObjectRef, list] = {}  # results fetched, with unyielded counts
        self.unyielded: dict[ray.ObjectRef, int] = {}
        self.next_index = 0
        self.stored_keys: set[str] = set()
        self.failure: BaseException | None = None
        self.bar = None

    # -- the generator -----------------------------------------------------------------------
    def run(self):
        state = "closed"
        try:
            self._start()
            while True:
                self._fill()
                yield from self._drain()
                if not self.attempts and not self.queue and not self._can_read():
                    yield from self._drain()
                    if self.ready:
                        raise RuntimeError(f"mr.map: results {sorted(self.ready)[:5]} were never "
                                           f"yielded (input {self.next_index} is missing)")
                    break
                self._collect()
                self._copy_stragglers()
                self._report()
            state = "finished"
        except BaseException:
            state = "failed" if self.failure is not None else "closed"
            raise
        finally:
            self._clean_up(state)

    def _start(self) -> None:
        self.payload_ref = ray.put(self.payload)
        if self.store is not None:
            self.store.open_job({"function": self.status.func_name})
            self.stored_keys = self.store.stored_keys()
        if self.show_progress is not False:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=self.total, desc=f"mr.map {self.status.func_name}"[:40],
                            disable=None if self.show_progress is None else False, unit="task")

    def _can_read(self) -> bool:
        return self.inputs_left and (self.failure is None or self.errors == "return")

    # -- submitting ----------------------------------------------------------------------------
    def _batch_size(self) -> int:
        recent = self.status.durations[-200:]
        if not recent:  # nothing measured yet: one input a task (it may take hours)
            return 1
        seconds = max(statistics.median(recent), 1e-7)
        size = int(TARGET_TASK_SECONDS / seconds)
        if self.total is not None:  # smaller batches at the end keep every worker busy ...
            tail = -(-(self.total - self.read) // (2 * self.slots))
            size = min(size, max(tail, int(MIN_TASK_SECONDS / seconds)))  # ... within reason
        return max(1, min(MAX_BATCH, size))

    def _window_full(self) -> bool:
        """Results wait to be yielded (behind a slow head-of-line input, or a slow consumer):
        stop reading ahead at some point, so a long iterable is never read in whole."""
        window = max(1024, 4 * self.in_flight_cap * self.status.batch_size)
        waiting = self.read - self.next_index if self.ordered else len(self.ready)
        return waiting >= window

    def _fill(self) -> None:
        while len(self.attempts) < self.in_flight_cap:
            if self.queue:
                batch = self.queue.pop(0)
                if not batch.done:
                    self._submit(batch)
                continue
            if not self._can_read() or self._window_full():
                return
            batch = self._read_batch(self._batch_size())
            if batch is not None:
                self._submit(batch)

    def _read_batch(self, size: int) -> Batch | None:
        indices, items, keys = [], [], []
        taken = 0
        for index, item in itertools.islice(self.inputs, size):
            taken += 1
            self.read += 1
            key = self.store.key(item) if self.store is not None else None
            if key is not None and key in self.stored_keys:
                self.ready[index] = _Stored(key)
                self.status.done += 1
                self.status.from_checkpoint += 1
                continue
            indices.append(index)
            items.append(item)
            keys.append(key)
            self.inputs_of[index] = item
        if taken < size:
            self.inputs_left = False
        if not indices:
            return None
        self.status.submitted += len(indices)
        if len(items) == 1:  # an expensive input: into the object store once, for every attempt
            items = [ray.put(items[0])]
        return Batch(indices, items, keys, [0] * len(indices))

    def _submit(self, batch: Batch) -> None:
        if len(batch.items) == 1:
            outcomes, results = self.task.remote(self.job_id, self.payload_ref, batch.keys,
                                                 self.store, None, batch.items[0])
        else:
            outcomes, results = self.task.remote(self.job_id, self.payload_ref, batch.keys,
                                                 self.store, batch.items)
        attempt = Attempt(batch, outcomes, results, time.time())
        batch.attempts.append(attempt)
        self.attempts[outcomes] = attempt
        self.status.tasks += 1
        self.status.batch_size = len(batch.indices)

    # -- collecting ----------------------------------------------------------------------------
    def _collect(self) -> None:
        refs = list(self.attempts)
        if not refs:
            return
        done, _ = ray.wait(refs, num_returns=1, timeout=_POLL, fetch_local=True)
        if done:
            done, _ = ray.wait(refs, num_returns=len(refs), timeout=0, fetch_local=True)
        for ref in done:
            attempt = self.attempts.pop(ref, None)
            if attempt is None:  # a copy whose twin finished in the same poll: cancelled already
                continue
            try:
                outcomes = ray.get(ref)
            except TaskCancelledError:
                continue
            except RayError as exc:  # the worker or its node died (after Ray's own retries)
                self._lost(attempt, exc)
                continue
            if not attempt.batch.done:
                self._finish(attempt, outcomes)

    def _lost(self, attempt: Attempt, exc: BaseException) -> None:
        batch = attempt.batch
        if batch.done or any(a.outcomes in self.attempts for a in batch.attempts):
            return  # another attempt is still on it
        batch.system_failures += 1
        self.status.worker_deaths += 1
        if batch.system_failures <= MAX_SYSTEM_FAILURES:
            self.queue.append(batch)
            return
        batch.done = True
        batch.attempts.clear()
        for index in batch.indices:
            self._fail(index, exc, batch.system_failures, None)

    def _finish(self, attempt: Attempt, outcomes: list) -> None:
        batch = attempt.batch
        batch.done = True
        self._cancel_others(attempt)
        self.status.add_durations([outcome[1] for outcome in outcomes])
        computed = 0
        for pos, (index, outcome) in enumerate(zip(batch.indices, outcomes)):
            if outcome[0]:
                self.ready[index] = _FromBatch(attempt.results, pos)
                self.inputs_of.pop(index, None)
                computed += 1
                continue
            tries = batch.user_attempts[pos] + 1
            if tries <= self.retries:  # again in a task of its own: a retry is expensive anyway
                self.status.retried += 1
                self.queue.append(Batch([index], [batch.items[pos]], [batch.keys[pos]], [tries]))
            else:
                self._fail(index, outcome[2], tries, outcome[3])
        if computed:
            self.unyielded[attempt.results] = computed
            self.status.done += computed

    def _fail(self, index: int, exc: BaseException, attempts: int, remote_tb: str | None) -> None:
        item = self.inputs_of.pop(index, None)
        exc.add_note(f"mr.map: input {index} ({_short(item)}) failed after {attempts} attempt(s)")
        if remote_tb:
            exc.add_note(f"remote traceback:\n{remote_tb}")
        exc.map_index, exc.map_input = index, item
        self.ready[index] = _Failed(exc)
        self.status.failed += 1
        self.status.done += 1
        self.status.errors.append({"index": index, "input": _short(item),
                                   "error": f"{type(exc).__name__}: {exc}"})
        if self.errors == "raise" and self.failure is None:
            self.failure = exc

    def _cancel_others(self, winner: Attempt) -> None:
        for other in winner.batch.attempts:
            if other is not winner and other.outcomes in self.attempts:
                del self.attempts[other.outcomes]
                _cancel(other)
        winner.batch.attempts.clear()  # no batch <-> attempt cycle keeps results alive

    # -- stragglers ----------------------------------------------------------------------------
    def _copy_stragglers(self) -> None:
        now = time.time()
        # Ray starts tasks roughly in submission order: the oldest `slots` attempts are running
        for attempt in itertools.islice(self.attempts.values(), self.slots):
            if attempt.started is None:
                attempt.started = now
        if not self.speculation or len(self.status.durations) < STRAGGLER_MIN_FINISHED:
            return
        median = statistics.median(self.status.durations[-500:])
        for attempt in list(self.attempts.values()):
            batch = attempt.batch
            if batch.copied or batch.done or attempt.started is None:
                continue
            limit = max(STRAGGLER_FACTOR * median * len(batch.indices), STRAGGLER_MIN_SECONDS)
            if now - attempt.started > limit:
                batch.copied = True
                self.status.resubmitted += 1
                self.queue.insert(0, batch)  # first in line, within max_simultaneous
        self._fill()

    # -- yielding ------------------------------------------------------------------------------
    def _drain(self):
        if self.ordered:
            while self.next_index in self.ready:
                entry = self.ready.pop(self.next_index)
                self.next_index += 1
                yield self._value(entry)
        else:
            while self.ready:
                index = next(iter(self.ready))
                entry = self.ready.pop(index)
                self.next_index += 1
                yield self._value(entry)

    def _value(self, entry):
        if self.bar is not None:
            self.bar.update(1)
        if isinstance(entry, _FromBatch):
            values = self.fetched.get(entry.results)
            if values is None:
                values = self.fetched[entry.results] = ray.get(entry.results)
            left = self.unyielded[entry.results] - 1
            if left:
                self.unyielded[entry.results] = left
            else:  # every result of this task was yielded: let Ray free it
                del self.unyielded[entry.results], self.fetched[entry.results]
            return values[entry.position]
        if isinstance(entry, _Stored):
            return self.store.load(entry.key)
        if isinstance(entry, _Failed):
            if self.errors == "return":
                return entry.error
            raise entry.error
        return entry

    # -- reporting and clean-up ---------------------------------------------------------------
    def _report(self) -> None:
        self.status.running = sum(len(a.batch.indices) for a in self.attempts.values()
                                  if a.started is not None)
        if self.bar is not None:
            self.bar.set_postfix_str(f"running {self.status.running}, failed {self.status.failed}",
                                     refresh=False)
        self.status.maybe_write(self.store)

    def _clean_up(self, state: str) -> None:
        cancelled = list(self.attempts.values())
        for attempt in cancelled:
            _cancel(attempt)
            attempt.batch.attempts.clear()
        if cancelled:  # let cancelled writers stop before removing what they left
            ray.wait([a.outcomes for a in cancelled], num_returns=len(cancelled), timeout=10)
        self.attempts.clear()
        self.queue.clear()
        self.ready.clear()
        self.fetched.clear()
        self.unyielded.clear()
        self.inputs_of.clear()
        self.payload_ref = None
        self.status.state = state
        self.status.finished = time.time()
        self.status.running = 0
        if self.bar is not None:
            self.bar.close()
        if self.store is not None:
            try:
                self.store.remove_temporaries()
            except Exception:
                pass
            self.status.maybe_write(self.store, force=True)
        publish(self.job_id, None)


def _cancel(attempt: Attempt) -> None:
    try:
        ray.cancel(attempt.outcomes)
    except Exception:  # already finished or gone
        pass


def _short(item: Any, limit: int = 200) -> str:
    try:
        text = repr(item)
    except Exception:
        text = f"<{type(item).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."
