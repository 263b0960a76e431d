"""registry.ask: a client's service call rides out a supervisor restart."""
import pytest
import ray

from mars_on_ray.services import registry


def _unavailable():
    return ray.exceptions.ActorUnavailableError("The actor was restarted.", None)


def test_actor_unavailable_during_a_supervisor_restart_is_retried(monkeypatch):
    """CI saw ActorUnavailableError reach the user from a fetch sent while the supervisor
    restarted; the call is sent again and the restarted service's answer comes back."""
    answers = [_unavailable(), _unavailable(), "the answer"]
    calls = []

    def fake_call(name, method, args, kwargs):
        calls.append((name, method, args, kwargs))
        return answers.pop(0)

    def fake_get(answer):
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(registry, "_call_remote", fake_call)
    monkeypatch.setattr(registry.ray, "get", fake_get)
    monkeypatch.setattr(registry.time, "sleep", lambda s: None)
    assert registry.ask("storage", "get_refs", "sid", ["k"]) == "the answer"
    assert calls == [("storage", "get_refs", ("sid", ["k"]), {})] * 3


def test_a_supervisor_that_stays_away_fails_the_call_after_the_wait(monkeypatch):
    clock = iter(range(0, 10_000, 50))
    monkeypatch.setattr(registry, "_call_remote", lambda *a: None)
    monkeypatch.setattr(registry.ray, "get", lambda ref: (_ for _ in ()).throw(_unavailable()))
    monkeypatch.setattr(registry.time, "sleep", lambda s: None)
    monkeypatch.setattr(registry.time, "monotonic", lambda: next(clock))
    with pytest.raises(ray.exceptions.ActorUnavailableError):
        registry.ask("task", "wait", "tid", 0.3)


def test_other_actor_errors_are_not_retried(monkeypatch):
    calls = []

    def fake_get(ref):
        calls.append(ref)
        raise ray.exceptions.ActorDiedError()

    monkeypatch.setattr(registry, "_call_remote", lambda *a: None)
    monkeypatch.setattr(registry.ray, "get", fake_get)
    with pytest.raises(ray.exceptions.ActorDiedError):
        registry.ask("task", "wait", "tid", 0.3)
    assert len(calls) == 1
