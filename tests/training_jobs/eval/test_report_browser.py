"""The HTML report in a real browser: headless Chromium (Debian's, at /usr/bin/chromium) driven
by Playwright opens report.html from disk with every network request refused, and the charts,
tables and failure links are all there. Skipped only outside CI on a machine without Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.testing.browser import TIMEOUT_MS, launch_chromium, require_chromium

require_chromium()

from playwright.sync_api import Route, sync_playwright  # noqa: E402


@pytest.mark.timeout(1200)  # it may run the shared evaluation first (46 s-6 min)
def test_the_report_renders_offline_with_every_chart_and_link(evaluated: Any) -> None:
    requested: list[str] = []

    def refuse(route: Route) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
            return
        requested.append(route.request.url)
        route.abort()

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.route("**/*", refuse)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(evaluated.html.as_uri(), wait_until="load")
            title = page.title()
            charts = page.locator("svg.chart")
            sizes = charts.evaluate_all(
                "svgs => svgs.map(s => [s.getBoundingClientRect().width,"
                " s.getBoundingClientRect().height])"
            )
            bars = page.locator("svg.chart rect.bar").count()
            histograms = page.locator("svg.histogram").count()
            policy_rows = page.locator("table.policies tbody tr").count()
            comparison = page.locator("table.comparisons tbody tr").first.inner_text()
            apps = page.locator("table.apps tbody tr").count()
            page.locator("details summary").first.click()
            links = page.locator("a.failure").evaluate_all("links => links.map(a => a.href)")
            first_link_visible = page.locator("a.failure").first.is_visible()
        finally:
            browser.close()
    report = evaluated.report
    assert requested == []  # nothing outside the file
    assert errors == []
    assert title == "PhoneBuddy evaluation: tiny-eval"
    assert len(sizes) == 2
    assert all(width > 300 and height > 100 for width, height in sizes)
    groups = 1 + len(report["policies"][1]["by_category"]) + len(report["splits"])
    assert bars == groups * len(report["policies"])  # overall, categories and splits, each
    assert histograms == policy_rows == len(report["policies"])
    assert "teacher vs tiny" in comparison
    assert "teacher is better" in comparison
    assert apps == len({app for p in report["policies"] for app in p["by_app"]})
    assert links == [f["url"] for p in report["policies"] for f in p["failures"]]
    assert first_link_visible
