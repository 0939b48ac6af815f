"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright against live_server."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
# around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("AKGEN_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("AKGEN_SCREENSHOTS", Path(__file__).resolve().parents[2] / "var" / "screenshots"))

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(autouse=True)
def anonymous_pages_unthrottled(settings):
    """A journey reads pages (and HTMX partials) anonymously from one address faster than a
    person: the anonymous page limit (accounts.pagelimit) is out of its way."""
    settings.AKGEN_RATE_ANON_PAGE_PER_MIN = 1_000_000


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (scripts/test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    user_data = tempfile.mkdtemp(prefix="akgen-chromium-")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()
    shutil.rmtree(user_data, ignore_errors=True)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: console_errors.append(str(exc)))
    page.console_errors = console_errors
    yield page
    context.close()


@pytest.fixture
def screenshot():
    def take(page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
