"""The dashboard's costs: page load of a ~1,000-subtask task in headless Chromium, the API's
answer time and size for it, and the supervisor's extra memory with the web server at rest.

    python benchmarks/bench_web.py [--out benchmarks/results/web] [--screenshots docs]

Needs Debian's ``chromium`` and ``playwright`` (pip); writes results.json (and screenshots).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
import urllib.request

import psutil
import ray

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))


def supervisor_rss() -> int:
    from mars_on_ray.services.registry import SUPERVISOR_NAME

    for actor in ray._private.state.actors().values():
        if actor.get("Name") == SUPERVISOR_NAME and actor.get("State") == "ALIVE":
            return psutil.Process(actor["Pid"]).memory_info().rss
    raise RuntimeError("no supervisor")


def timed_get(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url) as response:
        size = len(response.read())
    return time.perf_counter() - started, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="benchmarks/results/web")
    parser.add_argument("--screenshots", default=None, help="folder for the dashboard screenshots")
    parser.add_argument("--chunks", type=int, default=750, help="chunks of the job (about 4/3 as many subtasks)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import support

    import mars_on_ray as mr
    from mars_on_ray.config import using
    from mars_on_ray.services import get_service

    from mars_on_ray.session import init_ray  # retries a start-up a loaded machine misses

    init_ray(address="local", num_cpus=2, include_dashboard=False, object_store_memory=300 * 1024**2)
    ray.cloudpickle.register_pickle_by_value(support)
    session = mr.new_session(web=False)
    time.sleep(3)
    rss_before = supervisor_rss()
    url = ray.get(get_service("web").start.remote())
    for path in ("/api/cluster", "/api/sessions", "/"):  # serve once: imports and app built
        timed_get(url + path)
    time.sleep(3)
    rss_after = supervisor_rss()

    job = support.map_chunks(support.fill((args.chunks,), chunk_size=1), label="page_load").sum()
    with using({"small_data_bytes": 0}):
        job.execute()
    task = [t for t in json.load(urllib.request.urlopen(f"{url}/api/sessions/{session.session_id}/tasks"))
            if t["name"] == "mt.sum"][-1]
    api_times, api_size = [], 0
    for _ in range(5):
        seconds, api_size = timed_get(f"{url}/api/tasks/{task['task_id']}")
        api_times.append(seconds)

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    loads = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for _ in range(5):
            started = time.perf_counter()
            page.goto(f"{url}/task/{task['task_id']}")
            page.wait_for_selector(f"#subtask-canvas[data-nodes='{task['subtasks_total']}']")
            loads.append(time.perf_counter() - started)
        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            page.screenshot(path=os.path.join(args.screenshots, "dashboard-task.png"), full_page=True)
            page.goto(url + "/")
            page.wait_for_selector("#tasks table")
            page.screenshot(path=os.path.join(args.screenshots, "dashboard.png"), full_page=True)
        browser.close()
    results = {
        "subtasks": task["subtasks_total"],
        "page_load_seconds_median": statistics.median(loads), "page_load_seconds": loads,
        "api_task_seconds_median": statistics.median(api_times), "api_task_bytes": api_size,
        "supervisor_rss_without_web": rss_before, "supervisor_rss_with_web_at_rest": rss_after,
        "web_extra_rss_bytes": rss_after - rss_before,
        "chromium": chromium, "ray": ray.__version__,
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(json.dumps(results, indent=1))
    session.close()
    ray.shutdown()


if __name__ == "__main__":
    main()
