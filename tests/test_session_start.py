"""``init_ray``: start-up failures an overloaded machine causes are tried again, others raise."""
from __future__ import annotations

import pytest

from mars_on_ray import session


def _fake_ray(monkeypatch, failures: list[Exception]):
    calls = []

    def init(address=None, **kwargs):
        calls.append(address)
        if failures:
            raise failures.pop(0)

    monkeypatch.setattr(session.ray, "init", init)
    monkeypatch.setattr(session.ray, "shutdown", lambda: None)
    return calls


def test_ray_client_server_exiting_during_start_zombie_process_is_retried(monkeypatch):
    # CI, stop 21: Ray's proxier read the command line of a per-client server that had just
    # exited: "Initialization failure from server ... psutil.ZombieProcess"
    error = ConnectionAbortedError("Initialization failure from server:\n... raise ZombieProcess("
                                   "self.pid, self._name, self._ppid)\npsutil.ZombieProcess: PID "
                                   "still exists but it's a zombie (pid=21796)")
    calls = _fake_ray(monkeypatch, [error])
    session.init_ray("ray://127.0.0.1:1")
    assert calls == ["ray://127.0.0.1:1"] * 2


def test_init_ray_gives_up_after_the_last_attempt(monkeypatch):
    calls = _fake_ray(monkeypatch, [RuntimeError("The current node timed out during startup")] * 3)
    with pytest.raises(RuntimeError, match="timed out during startup"):
        session.init_ray("local", attempts=3)
    assert len(calls) == 3


def test_init_ray_raises_other_errors_at_once(monkeypatch):
    calls = _fake_ray(monkeypatch, [ConnectionError("Could not find any running Ray instance")])
    with pytest.raises(ConnectionError, match="running Ray instance"):
        session.init_ray("auto")
    assert len(calls) == 1
