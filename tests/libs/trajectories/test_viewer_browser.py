"""The viewer in a real browser: headless Chromium (Debian's, at /usr/bin/chromium) driven by
Playwright, against the viewer served by uvicorn on a free port.

Skipped only on a machine without Chromium (or Playwright) outside CI; in CI it must run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from phonebuddy.testing.browser import TIMEOUT_MS, launch_chromium, require_chromium

require_chromium()

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from phonebuddy.storage import LocalStore  # noqa: E402
from phonebuddy.testing import serve_asgi_in_thread  # noqa: E402
from phonebuddy.trajectories import TrajectoryStore  # noqa: E402
from phonebuddy.trajectories.viewer import create_viewer  # noqa: E402

SCREENSHOT = Path("/tmp/viewer-episode.png")


@pytest.fixture(scope="module")
def viewer_url(stored_demo) -> Iterator[str]:
    root, _ = stored_demo
    with serve_asgi_in_thread(create_viewer(TrajectoryStore(LocalStore(root)))) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        yield page
    finally:
        context.close()


def listed(page: Page) -> set[str]:
    return set(page.locator("table.episodes tbody tr td:first-child a").all_inner_texts())


def test_every_screenshot_of_an_episode_loads(page: Page, viewer_url: str, stored_demo) -> None:
    _, run = stored_demo
    episode = run.episodes["marks"]
    page.goto(f"{viewer_url}/runs/demo/episodes/marks", wait_until="load")
    images = page.locator(".shot img")
    assert images.count() == len(episode.steps) + 1  # every step, and the final screen
    widths = images.evaluate_all("imgs => imgs.map(i => [i.complete, i.naturalWidth])")
    assert widths == [[True, 1080]] * images.count()
    # The raw answer with a <script> is shown as text, never run.
    raw = page.locator("#step-2 pre.raw").inner_text()
    assert raw == '<script>alert("pwned")</script><b>bold?</b> & done'
    assert page.locator("main script").count() == 0
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    assert SCREENSHOT.stat().st_size > 10_000


def _centre(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_marks_are_drawn_where_the_actions_were(page: Page, viewer_url: str, stored_demo) -> None:
    _, run = stored_demo
    episode = run.episodes["marks"]
    page.goto(f"{viewer_url}/runs/demo/episodes/marks", wait_until="load")
    checked = 0
    for step in episode.steps:
        card = page.locator(f"#step-{step.index}")
        image = card.locator("img").bounding_box()
        assert image is not None

        def on_screen(x: int, y: int, image: dict[str, float] = image) -> tuple[float, float]:
            return image["x"] + x / 1000 * image["width"], image["y"] + y / 1000 * image["height"]

        action = step.action
        if action is None or action.action not in ("click", "long_press", "swipe"):
            assert card.locator("svg.overlay .mark").count() == 0
            continue
        mark = card.locator("svg.overlay .mark")
        assert mark.get_attribute("data-action") == action.action
        if action.action == "swipe":
            (x1, y1), (x2, y2) = action.endpoints()
            line = mark.locator("line")
            attrs = [line.get_attribute(name) for name in ("x1", "y1", "x2", "y2")]
            assert attrs == [str(v) for v in (x1, y1, x2, y2)]
            start = _centre(mark.locator("ellipse.swipe-start").bounding_box())
            assert start == pytest.approx(on_screen(x1, y1), abs=1.5)
            tip = mark.locator("polygon").evaluate("p => [p.points[0].x, p.points[0].y]")
            assert tip == pytest.approx([x2, y2], abs=0.1)
        else:
            x, y = action.coordinate
            ellipse = mark.locator("ellipse").first
            assert [ellipse.get_attribute("cx"), ellipse.get_attribute("cy")] == [str(x), str(y)]
            box = ellipse.bounding_box()
            assert box is not None
            assert _centre(box) == pytest.approx(on_screen(x, y), abs=1.5)
            assert box["width"] == pytest.approx(box["height"], rel=0.05)  # round on screen
            kind = "ring" if action.action == "long_press" else "tap"
            assert mark.locator(f"ellipse.{kind}").count() == 1
        checked += 1
    assert checked == 4  # tap, long press, two swipes


def test_filters_change_the_listed_episodes(page: Page, viewer_url: str, stored_demo) -> None:
    _, run = stored_demo
    page.goto(f"{viewer_url}/runs/demo", wait_until="load")
    assert listed(page) == set(run.episodes)
    page.select_option("select[name=source]", "real")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**/runs/demo?*source=real*")
    assert listed(page) == {"real-ok", "real-err"}
    page.select_option("select[name=outcome]", "judge_error")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**outcome=judge_error*")
    assert listed(page) == {"real-err"}
    page.click("text=clear")
    page.wait_for_url(f"{viewer_url}/runs/demo")
    assert listed(page) == set(run.episodes)
    page.click("a[href='/runs/demo/episodes/real-ok']")
    assert page.locator("table.rubric tbody tr").count() == 2
