"""Fixtures of the browser tests: a real ``thousand serve`` on a free port, Debian's Chromium
(skipped where it is missing, except under CI=true, where that fails), a fresh page per test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from ..server_support import Server
from .support import ARTIFACTS, CHROMIUM, LAUNCH_ARGS


# Playwright's sync API runs an event loop for as long as it is started, and asyncio.run()
# refuses to run beside it: so it is started per module of browser tests, never for the session
# (the other tests run asyncio.run()).
@pytest.fixture(scope="module")
def playwright_session() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            raise AssertionError(f"CI=true and Chromium is missing at {CHROMIUM}")
        pytest.skip(f"Chromium is missing at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("browser"), None, "--bot-delay", "0.02").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="en-US")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"the page threw: {errors}"
