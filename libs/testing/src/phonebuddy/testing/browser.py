"""Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by Playwright.

`require_chromium()` at the top of a test module skips it on a machine without Chromium or
Playwright, except in CI (CI=1), where the browser tests must run."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
TIMEOUT_MS = 30_000


def require_chromium() -> None:
    if not os.environ.get("CI") and (
        not CHROMIUM.exists() or importlib.util.find_spec("playwright") is None
    ):
        pytest.skip(
            "needs /usr/bin/chromium (apt-get install chromium) and playwright (pip)",
            allow_module_level=True,
        )


def launch_chromium(playwright: Any) -> Any:
    """A headless Chromium browser from a running `sync_playwright()`."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), timeout=TIMEOUT_MS
    )
