"""``thousand serve`` says where the page is, ``--open`` opens it, and the real server serves
the page, the API and the reference (a real process on a free port)."""

from __future__ import annotations

import stat
import time
from pathlib import Path

import pytest

from thousand.cli.main import build_parser
from thousand.server.serve import page_url

from .server_support import running


def wait_for_text(path: Path, text: str, limit_s: float = 30) -> str:
    deadline = time.monotonic() + limit_s
    while True:
        found = path.read_text(encoding="utf-8") if path.exists() else ""
        if text in found:
            return found
        assert time.monotonic() < deadline, f"{path} never said {text!r}:\n{found}"
        time.sleep(0.05)


def test_serve_says_where_the_page_is_and_serves_it(tmp_path: Path) -> None:
    with running(tmp_path / "data") as server:
        line = f"thousand: open http://127.0.0.1:{server.port}/ in a browser"
        log = wait_for_text(server.log, line)
        assert log.count("thousand: open") == 1
        page = server.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert server.get("/api/languages").json()["default"] == "en"
        assert server.get("/reference/ru/").status_code == 200
        assert server.get("/health").status_code == 200


def test_open_starts_the_browser_at_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n', encoding="utf-8")
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("BROWSER", f"{browser} %s")
    monkeypatch.delenv("DISPLAY", raising=False)
    with running(tmp_path / "data", None, "--open") as server:
        url = f"http://127.0.0.1:{server.port}/"
        assert wait_for_text(opened, url).splitlines() == [url]


def test_serve_keeps_its_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.bot_delay, args.open) == ("127.0.0.1", 8000, 0.5, False)
    assert build_parser().parse_args(["serve", "--open"]).open is True


@pytest.mark.parametrize(
    ("host", "port", "url"),
    [
        ("127.0.0.1", 8000, "http://127.0.0.1:8000/"),
        ("0.0.0.0", 9000, "http://127.0.0.1:9000/"),
        ("::", 8000, "http://127.0.0.1:8000/"),
        ("::1", 8000, "http://[::1]:8000/"),
        ("example.org", 80, "http://example.org:80/"),
    ],
)
def test_page_url(host: str, port: int, url: str) -> None:
    assert page_url(host, port) == url
