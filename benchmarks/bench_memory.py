"""Peak memory of a process tree, sampled in a background thread.

What is measured: the sum of RSS of this process and all its descendants (Ray's gcs_server,
raylet, dashboard agent and worker processes; Dask's nannies and workers; the subprocess of a
cold-session run and everything it starts), every ``interval`` seconds. RSS counts a shared page
in every process that maps it, so the sum over-counts shared memory (Ray's object store in
/dev/shm read by several workers, shared libraries). A proportional-set-size (PSS) sum, which
splits shared pages between their users, is sampled too but less often (it is ~5x costlier to
read), so its peak may miss short spikes.
"""
from __future__ import annotations

import os
import threading
import time

import psutil

MiB = 1024**2


def _tree() -> list[psutil.Process]:
    me = psutil.Process()
    try:
        return [me, *me.children(recursive=True)]
    except psutil.Error:
        return [me]


def shm_used() -> int:
    """Bytes used in /dev/shm (where Ray's object store lives), machine-wide; 0 if absent."""
    try:
        return psutil.disk_usage("/dev/shm").used if os.path.isdir("/dev/shm") else 0
    except OSError:
        return 0


def tree_memory(pss: bool = False) -> tuple[int, int, int]:
    """(sum of RSS, sum of PSS or 0, number of processes) of this process and its descendants."""
    rss = pss_sum = n = 0
    for proc in _tree():
        try:
            rss += proc.memory_info().rss
            if pss:
                pss_sum += proc.memory_full_info().pss
            n += 1
        except psutil.Error:  # a worker exited between listing and reading
            continue
    return rss, pss_sum, n


class TreeMemorySampler:
    """Tracks the peak (and the value at start) of the tree's summed RSS and PSS."""

    # reading PSS walks every page a process maps: ~50 ms of CPU per sample of a Ray process
    # tree holding GBs in its object store; taken every 0.2 s it slowed the measured work by
    # ~15% on 2 cores. RSS every 0.1 s, PSS once a second.
    def __init__(self, interval: float = 0.1, pss_every: int = 10):
        self.interval = interval
        self.pss_every = pss_every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "TreeMemorySampler":
        self.base_rss, self.base_pss, self.base_procs = tree_memory(pss=True)
        self.peak_rss, self.peak_pss, self.peak_procs = self.base_rss, self.base_pss, self.base_procs
        self.base_shm = self.peak_shm = shm_used()
        self.samples = 0
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="memory-sampler", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._sample(pss=self.samples % self.pss_every == 0)
            self._stop.wait(self.interval)

    def _sample(self, pss: bool) -> None:
        rss, pss_sum, n = tree_memory(pss)
        self.samples += 1
        self.peak_rss = max(self.peak_rss, rss)
        self.peak_procs = max(self.peak_procs, n)
        self.peak_shm = max(self.peak_shm, shm_used())
        if pss:
            self.peak_pss = max(self.peak_pss, pss_sum)

    def stop(self) -> dict:
        """Stop sampling (after one last sample) and return the figures in MiB."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._sample(pss=True)
        return {
            "peak_rss_mib": round(self.peak_rss / MiB, 1),
            "base_rss_mib": round(self.base_rss / MiB, 1),
            "peak_pss_mib": round(self.peak_pss / MiB, 1),
            "base_pss_mib": round(self.base_pss / MiB, 1),
            "peak_shm_mib": round(self.peak_shm / MiB, 1),
            "base_shm_mib": round(self.base_shm / MiB, 1),
            "max_processes": self.peak_procs,
            "samples": self.samples,
        }


if __name__ == "__main__":  # a quick self-check: allocate 200 MiB while sampling
    import numpy as np

    s = TreeMemorySampler().start()
    a = np.ones(200 * MiB // 8)
    time.sleep(0.3)
    del a
    print(s.stop())
