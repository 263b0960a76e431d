"""The dashboard in a real browser: headless Chromium (Debian's package) driven by Playwright.

.ci/run installs ``chromium`` and, when that worked, sets ``MARS_ON_RAY_REQUIRE_BROWSER=1``:
then a missing browser fails the test; elsewhere it skips when no Chromium is found.
"""
from __future__ import annotations

import os
import re
import shutil
import threading
import time

import pytest

from support import fill, map_chunks, sleep_then_add_one

from mars_on_ray.config import using


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None or not _has_playwright():
        if os.environ.get("MARS_ON_RAY_REQUIRE_BROWSER"):
            pytest.fail("chromium was installed (MARS_ON_RAY_REQUIRE_BROWSER) but chromium or playwright "
                        "is not usable")
        pytest.skip("no chromium or playwright here")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                    args=["--disable-gpu", "--disable-dev-shm-usage"])
        yield browser
        browser.close()


def _has_playwright() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


def test_dashboard_follows_a_running_job_to_done_and_draws_its_graph(session, browser, tmp_path):
    job = map_chunks(fill((16,), chunk_size=1), func=sleep_then_add_one, label="slow_map")
    finished = threading.Event()
    failure: list = []

    def run():
        try:
            with using({"small_data_bytes": 0}):
                job.execute()
        except BaseException as exc:  # reported by the test below
            failure.append(exc)
        finally:
            finished.set()

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    script_errors: list = []
    page.on("pageerror", lambda exc: script_errors.append(str(exc)))
    page.goto(session.web_url + "/")
    page.wait_for_selector("#nodes table")
    runner = threading.Thread(target=run)
    runner.start()
    row = page.locator("#tasks tr", has_text="slow_map")
    row.wait_for(timeout=120_000)
    seen = set()
    deadline = time.time() + 180
    while time.time() < deadline:
        text = row.first.inner_text()
        match = re.search(r"(\d+)/16", text)
        if match:
            seen.add(int(match.group(1)))
        if "done" in text and match and match.group(1) == "16":
            break
        time.sleep(0.2)
    runner.join(timeout=60)
    assert not failure, failure
    assert finished.is_set()
    assert 16 in seen, seen
    assert min(seen) < 16, f"progress was never seen before the end: {seen}"
    assert len(seen) >= 2  # it advanced while the page watched
    page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)

    row.first.locator("a").first.click()
    page.wait_for_selector("#task-summary[data-state=done]", timeout=60_000)
    assert page.locator("#tileable-svg .tileable-node").count() == 2  # fill -> slow_map
    assert page.locator("#tileable-svg .tileable-node[data-state=done]").count() == 2
    page.wait_for_selector("#subtask-canvas[data-nodes='16']")
    assert "16/16" in page.inner_text("#task-summary")
    # the canvas is drawn: some pixel has the colour of done subtasks
    drawn = page.evaluate("""() => {
        const c = document.getElementById('subtask-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 92 && d[i+1] === 184 && d[i+2] === 92) return true;
        return false; }""")
    assert drawn
    assert page.locator("#per-node table tbody tr").count() >= 1
    shot = tmp_path / "task.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # the node that ran the subtasks: its recent subtasks name this job
    page.locator("#per-node a").first.click()
    page.locator("#recent tr", has_text="slow_map").first.wait_for(timeout=60_000)
    # the session's own task list
    page.goto(f"{session.web_url}/?session={session.session_id}")
    page.locator("#tasks tr", has_text="slow_map").first.wait_for()
    assert script_errors == []
    page.close()
