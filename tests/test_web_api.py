"""The dashboard's JSON API against a running session: progress, graphs, workers, security."""
from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np
import pytest

from support import fill, map_chunks, sleep_then_add_one

import mars_on_ray as mr
from mars_on_ray.config import using


def _get(url: str, token: str | None = None, method: str = "GET", body: bytes | None = None):
    request = urllib.request.Request(url, data=body, method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response) if "json" in response.headers.get(
                "Content-Type", "") else response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def _api(session, path: str):
    status, data = _get(session.web_url + path)
    assert status == 200, (path, data)
    return data


def _task_of(session, name: str) -> dict:
    tasks = _api(session, f"/api/sessions/{session.session_id}/tasks")
    return [t for t in tasks if t["name"] == name][-1]


def test_session_knows_its_dashboard_on_loopback(session):
    assert session.web_url.startswith("http://127.0.0.1:")
    status, page = _get(session.web_url + "/")
    assert status == 200 and b"<title>mars_on_ray dashboard</title>" in page
    connect = _api(session, "/api/connect")
    import ray

    assert connect["ray_address"] == ray.get_runtime_context().gcs_address
    assert connect["namespace"] == "mars_on_ray"


def test_task_progress_and_graphs_match_the_execution(session):
    t = map_chunks(fill((30, 20), chunk_size=(7, 6)), label="plus_one").sum()
    with using({"small_data_bytes": 0}):  # distributed chunks: one subtask per chunk
        value = t.execute().fetch()
    assert value == pytest.approx(np.full((30, 20), 2.0).sum())
    task = _task_of(session, "mt.sum")
    assert task["state"] == "done" and task["error"] is None
    # the same numbers the session's progress bar got from the services
    assert task["subtasks_total"] == session.last_task["subtasks"] > 20  # 5 x 4 chunks + reduction
    assert task["subtasks_done"] == task["subtasks_total"]
    assert len(task["stages"]) == session.last_task["stages"]
    assert sum(s["subtasks_total"] for s in task["stages"]) == task["subtasks_total"]
    assert task["elapsed"] > 0

    detail = _api(session, f"/api/tasks/{task['task_id']}")
    ops = [n["op"] for n in detail["tileable_graph"]["nodes"]]
    assert ops == ["fill", "plus_one", "mt.sum"]
    assert detail["tileable_graph"]["edges"] == [[0, 1], [1, 2]]
    # the tileable graph is the one mr.explain gives for the same objects
    assert mr.explain(t, show=False).graph()["tileable_graph"]["edges"] == detail["tileable_graph"]["edges"]
    nodes = detail["subtask_graph"]["nodes"]
    assert len(nodes) == task["subtasks_total"]
    assert {n["state"] for n in nodes} == {"done"}
    cluster_nodes = {n["node_id"] for n in _api(session, "/api/cluster")["nodes"]}
    assert {n["node_id"] for n in nodes} <= cluster_nodes
    assert all(n["duration"] >= 0 for n in nodes)
    edges = detail["subtask_graph"]["edges"]
    assert edges and all(0 <= a < b < len(nodes) for a, b in edges)  # inputs come first
    # the reduction's last subtask reads other subtasks' outputs
    assert any(b == len(nodes) - 1 for _, b in edges)


def test_explain_graph_and_dashboard_agree_on_subtasks(session):
    t = map_chunks(fill((12,), chunk_size=5), label="explained")
    with using({"small_data_bytes": 0}):
        planned = mr.explain(t, show=False).graph()["subtask_graph"]
        t.execute()
    detail = _api(session, f"/api/tasks/{_task_of(session, 'explained')['task_id']}")
    assert [n["label"] for n in planned["nodes"]] == [n["label"] for n in detail["subtask_graph"]["nodes"]]
    assert planned["edges"] == detail["subtask_graph"]["edges"]


def test_failed_task_names_the_user_operation(session):
    bad = map_chunks(map_chunks(fill((6,), chunk_size=2)), fail_at=(1,), label="my_transform")
    with using({"small_data_bytes": 0}), pytest.raises(ZeroDivisionError):
        bad.execute()
    task = _task_of(session, "my_transform")
    assert task["state"] == "failed"
    assert task["error"]["type"] == "ZeroDivisionError"
    assert "planned failure" in task["error"]["message"]
    assert "my_transform" in task["error"]["operation"]
    detail = _api(session, f"/api/tasks/{task['task_id']}")
    assert "failed" in {n["state"] for n in detail["subtask_graph"]["nodes"]}
    states = {n["op"]: n["state"] for n in detail["tileable_graph"]["nodes"]}
    assert states == {"fill": "cancelled", "map_chunks": "cancelled", "my_transform": "failed"}


def test_running_task_shows_progress_before_it_ends(session, capsys):
    import threading
    import time

    t = map_chunks(fill((8,), chunk_size=1), func=sleep_then_add_one, label="slow_map")
    done = threading.Event()

    def run():
        with using({"small_data_bytes": 0}):
            t.execute(show_progress=True)
        done.set()

    runner = threading.Thread(target=run)
    runner.start()
    seen = []
    deadline = time.time() + 120
    while not done.is_set() and time.time() < deadline:
        tasks = [x for x in _api(session, f"/api/sessions/{session.session_id}/tasks")
                 if x["name"] == "slow_map" and x["state"] == "running"]
        if tasks:
            seen.append(tasks[0]["subtasks_done"])
        time.sleep(0.2)
    runner.join()
    assert seen, "the task was never seen running"
    assert min(seen) < 8
    assert _task_of(session, "slow_map")["subtasks_done"] == 8
    # the terminal bar showed the same counts as the dashboard
    bar = capsys.readouterr().err
    shown = {int(n) for n in re.findall(r"(\d+)/8 subtasks, stage 1", bar)}
    assert shown and shown <= set(range(9))


def test_worker_page_data(session):
    shout = lambda x: (print("web-log-marker-4711", flush=True), x + 1)[1]  # noqa: E731
    with using({"small_data_bytes": 0}):
        map_chunks(fill((4,), chunk_size=2), func=shout, label="on_a_worker").execute()
    task_id = _task_of(session, "on_a_worker")["task_id"]
    node_id = _api(session, f"/api/tasks/{task_id}")["subtask_graph"]["nodes"][0]["node_id"]
    worker = _api(session, f"/api/workers/{node_id}")
    assert worker["node"]["node_id"] == node_id and worker["node"]["alive"]
    assert task_id in {r["task_id"] for r in worker["recent_subtasks"]}
    assert worker["memory"] and 0 < worker["memory"][-1]["memory_used"] < worker["memory"][-1]["memory_total"]
    # what the subtask printed is in the node's log tails, without Ray's marker lines
    lines = [line for log in worker["logs"] for line in log["lines"]]
    assert "web-log-marker-4711" in lines
    assert not any(line.startswith(":task_name:") for line in lines)


def test_cluster_lists_nodes_and_services(session):
    cluster = _api(session, "/api/cluster")
    import ray

    assert {n["node_id"] for n in cluster["nodes"]} == {n["NodeID"] for n in ray.nodes()}
    node = cluster["nodes"][0]
    assert node["cpus"] == 2 and node["object_store_memory"] > 0
    assert "object_store_used" in node and "spilled_bytes" in node
    assert {s["name"]: s["state"] for s in cluster["services"]}["task"] == "ready"
    held = map_chunks(fill((10,), chunk_size=5), label="held").execute()
    stats = session.storage_stats()  # (settles releases of earlier tests' objects first)
    mine = {s["session_id"]: s for s in _api(session, "/api/sessions")}[session.session_id]
    # the storage numbers are session.storage_stats()'s
    assert stats["objects"] >= 1 and held is not None
    assert mine["open"] and mine["objects"] == stats["objects"] and mine["held_bytes"] == stats["held_bytes"]


def test_unknown_ids_are_404(session):
    for path in ["/api/tasks/nope", "/api/sessions/nope/tasks", "/api/workers/nope"]:
        status, body = _get(session.web_url + path)
        assert status == 404 and "not found" in body["error"]


def test_openapi_lists_the_endpoints(session):
    paths = _api(session, "/api/openapi.json")["paths"]
    assert {"/api/cluster", "/api/sessions", "/api/sessions/{session_id}/tasks",
            "/api/tasks/{task_id}", "/api/workers/{node_id}", "/api/connect"} <= set(paths)
    assert all(set(ops) == {"get"} for ops in paths.values())


class _Marker:
    """Unpickling this creates a file: proof that a body was (not) unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_no_endpoint_takes_a_body(session, tmp_path):
    marker = tmp_path / "unpickled"
    body = pickle.dumps(_Marker(str(marker)))
    code = b"import os; os.system('touch " + str(marker).encode() + b"')"
    routes = ["/", "/api/connect", "/api/cluster", "/api/sessions",
              f"/api/sessions/{session.session_id}/tasks", "/api/tasks/x", "/api/workers/x",
              "/api/execute", "/api/run"]
    for path in routes:
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            for payload in (body, code):
                status, answer = _get(session.web_url + path, method=method, body=payload)
                assert status == 405, (method, path, status)
                assert answer == {"error": "the dashboard is read-only"}
    assert not marker.exists()


def test_exposed_dashboard_needs_a_token():
    from mars_on_ray.web.server import WebServer

    with pytest.raises(ValueError, match="token"):
        WebServer("0.0.0.0", 0, token=None)
    WebServer("0.0.0.0", 0, token="secret")  # with a token it may be exposed


def test_token_is_checked_on_every_api_call(session):
    import ray

    from mars_on_ray.services import get_service

    web = get_service("web")
    url = ray.get(web.start.remote("127.0.0.1", 0, "s3cret-token"))
    try:
        for path in ["/api/connect", "/api/cluster", "/api/sessions", "/api/tasks/x",
                     f"/api/sessions/{session.session_id}/tasks", "/api/workers/x", "/api/openapi.json"]:
            assert _get(url + path)[0] == 401
            assert _get(url + path, token="wrong")[0] == 401
            assert _get(url + path, token="s3cret-token")[0] in (200, 404)
        assert _get(url + "/api/sessions?token=s3cret-token")[0] == 200
        assert _get(url + "/")[0] == 200  # the page holds no data; it asks for the token
        from mars_on_ray.web.client import connect_info

        with pytest.raises(PermissionError, match="token"):
            connect_info(url)
        assert connect_info(url, token="s3cret-token")["ray_address"]
        assert connect_info(url + "/#token=s3cret-token")["web_url"] == url
    finally:
        assert ray.get(web.start.remote()).startswith("http://127.0.0.1:")
    assert _get(session.web_url + "/api/sessions")[0] == 200  # tokenless on loopback again
    assert session.web_url != url


def _cli_env(tmp_path) -> dict:
    # HOME stays: these processes are clients of this module's Ray, whose auth token is there
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    env.pop("MARS_ON_RAY_WEB_TOKEN", None)
    return env


def test_web_command_serves_the_cluster_and_new_session_attaches_by_url(session, tmp_path):
    import ray

    env = _cli_env(tmp_path)
    gcs = ray.get_runtime_context().gcs_address
    proc = subprocess.Popen([sys.executable, "-m", "mars_on_ray", "web", "-s", gcs, "-p", "0",
                             "--token", "cli-token", "--log-level", "warning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Dashboard: http://127.0.0.1:"), (line, proc.stderr.read() if proc.poll() is not None else "")
        url = line.split()[1]
        assert "new_session" in proc.stdout.readline()
        assert _get(url + "/api/sessions")[0] == 401
        client = ("import mars_on_ray as mr, numpy as np\n"
                  f"s = mr.new_session({url!r}, token='cli-token')\n"
                  "import mars_on_ray.tensor as mt\n"
                  "print('RESULT', (mt.arange(10, chunk_size=3) * 2).sum().execute().fetch(), s.web_url)\n")
        out = subprocess.run([sys.executable, "-c", client], env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
        assert f"RESULT 90 {url}" in out.stdout
        assert f"dashboard at {url}" in out.stderr  # new_session printed the URL
        refused = subprocess.run([sys.executable, "-c", f"import mars_on_ray as mr; mr.new_session({url!r})"],
                                 env=env, capture_output=True, text=True, timeout=300)
        assert refused.returncode != 0 and "PermissionError" in refused.stderr
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == 0
    from mars_on_ray.services import get_service

    assert ray.get(get_service("web").address.remote()) is None  # stopped with the command
    restarted = ray.get(get_service("web").start.remote())
    assert restarted.startswith("http://127.0.0.1:") and session.web_url == restarted
    assert _get(session.web_url + "/api/sessions")[0] == 200


def test_progress_records_are_bounded_and_link_stages(monkeypatch):
    import asyncio

    from mars_on_ray.services import progress as progress_mod

    monkeypatch.setattr(progress_mod, "KEEP_TASKS", 3)
    monkeypatch.setattr(progress_mod, "KEEP_SUBTASKS", 10)
    service = progress_mod.ProgressService()

    async def run_task(task_id: str, n: int):
        await service.task_started(task_id, "s", "op", {"nodes": [], "edges": []})
        stage, first = await service.stage_submitted(task_id, [("a", [], [f"{task_id}-{i}"], 1) for i in range(n)])
        # a second stage reads every output of the first
        stage2, first2 = await service.stage_submitted(task_id, [("b", [f"{task_id}-{i}" for i in range(n)], ["out"], 1)])
        assert (stage, first, stage2, first2) == (0, 0, 1, n)
        await service.subtasks_finished(task_id, stage, first, [(i, "node", 1.0, 2.0, True) for i in range(n)])
        assert (await service.counts(task_id))[:2] == (n, n + 1)
        detail = await service.task(task_id)
        assert detail["subtask_graph"]["nodes"][-1]["state"] == "running"  # its inputs are done
        assert sorted(detail["subtask_graph"]["edges"]) == [[i, n] for i in range(n)]
        await service.task_ended(task_id, "done")

    async def main():
        for i in range(5):
            await run_task(f"t{i}", 2)
        assert [t["task_id"] for t in await service.tasks()] == ["t2", "t3", "t4"]
        for i in range(5, 8):
            await run_task(f"t{i}", 4)  # 5 records a task: only two fit in 10
        assert [t["task_id"] for t in await service.tasks()] == ["t6", "t7"]
        assert len(await service.node_runs("node")) == 2 * 5 + 4 * 3

    asyncio.run(main())


def test_running_map_jobs_are_listed(session):
    from mars_on_ray import remote

    # a lambda: pickled by value (Ray's workers cannot import this test module)
    slow_square = lambda x: (__import__("time").sleep(1.0), x * x)[1]  # noqa: E731
    results = remote.map(slow_square, range(8), job_name="web_listed", show_progress=False)
    seen, values = [], []
    try:
        for value in results:  # the job publishes its status as it goes
            values.append(value)
            seen += [j for j in _api(session, "/api/map_jobs") if j["job_name"] == "web_listed"]
    finally:
        results.close()
    assert values == [x * x for x in range(8)]
    assert seen and {j["state"] for j in seen} == {"running"} and {j["total"] for j in seen} == {8}
    assert max(j["done"] for j in seen) >= 1  # progress, not only the job's start
