"""One Ray node as a child process (``ray start --block``), stopped with all it spawned.

``ray stop`` would stop every Ray node of the machine; ``RayNode.stop`` ends only this node:
SIGTERM to its ``ray start --block`` process (which drains the node and terminates the GCS,
raylet, dashboard... it started), then SIGKILL to any process of this node's tree still alive.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import deque

import psutil

_STARTED = "Ray runtime started"


class NodeStartError(RuntimeError):
    """The node did not come up; whatever it had started is stopped."""


class RayNode:
    """``ray start --block`` run as a child; ``start()`` waits until the node is up."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None, echo=None):
        self.command = command
        self.env = {**os.environ, **(env or {})}
        self.echo = echo  # called with each output line of the node (None: kept, not shown)
        self.output: deque[str] = deque(maxlen=400)
        self.process: subprocess.Popen | None = None
        self._tree: dict[int, psutil.Process] = {}
        self._reader: threading.Thread | None = None

    def start(self, timeout: float = 180.0) -> None:
        """Start the node and wait for Ray's "started" line; on failure nothing is left."""
        started = threading.Event()
        # its own session: a Ctrl-C at the terminal reaches our command, which stops the node
        self.process = subprocess.Popen(
            self.command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, text=True, bufsize=1, start_new_session=True)
        self._reader = threading.Thread(target=self._read, args=(started,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while not started.is_set():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self._reader.join(2)
                self.stop()
                tail = "\n".join(list(self.output)[-25:])
                raise NodeStartError(f"`ray start` did not start the node:\n{tail}")
            started.wait(0.2)
        self._remember_tree()

    def _read(self, started: threading.Event) -> None:
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.output.append(line)
            if self.echo is not None:
                self.echo(line)
            if _STARTED in line:
                started.set()

    def _remember_tree(self) -> None:
        try:
            root = psutil.Process(self.process.pid)
            for proc in [root, *root.children(recursive=True)]:
                self._tree.setdefault(proc.pid, proc)
        except psutil.NoSuchProcess:
            pass

    def pids(self) -> set[int]:
        """This node's processes alive now (the ``ray start`` process and its descendants)."""
        self._remember_tree()
        return {pid for pid, proc in self._tree.items() if _alive(proc)}

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 60.0) -> int | None:
        """SIGTERM the node, wait ``timeout`` s for its processes, SIGKILL what remains."""
        if self.process is None:
            return None
        self._remember_tree()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        deadline = time.monotonic() + 10
        while any(_alive(p) for p in self._tree.values()) and time.monotonic() < deadline:
            time.sleep(0.2)
        for proc in self._tree.values():
            if _alive(proc):
                try:
                    proc.kill()
                except psutil.NoSuchProcess:
                    pass
        if self._reader is not None:
            self._reader.join(5)
        return self.process.returncode


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
