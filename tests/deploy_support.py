"""The deployment recipe's parts for the tests: HAProxy run from docs/deploy/haproxy.cfg with
the test's ports, and Redis found. Without them a test is skipped; with CI=true it fails."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from .server_support import ROOT, free_port

HAPROXY_CFG = ROOT / "docs" / "deploy" / "haproxy.cfg"
REDIS = "redis://127.0.0.1:6379/0"


def missing(what: str) -> None:
    """Skip the test for lack of ``what``; fail it under CI=true."""
    if os.environ.get("CI") == "true":
        raise AssertionError(f"CI=true and {what}")
    pytest.skip(what)


def proxy_config(listen: int, processes: dict[str, int]) -> str:
    """docs/deploy/haproxy.cfg with the proxy on ``listen`` and one ``server`` line per
    process (name: port) in place of the docs' two."""
    text = HAPROXY_CFG.read_text(encoding="utf-8")
    text, binds = re.subn(r"(?m)^(\s*bind) 127\.0\.0\.1:8000$", rf"\1 127.0.0.1:{listen}", text)
    servers = re.findall(r"(?m)^\s*server \w+ 127\.0\.0\.1:\d+ check\n", text)
    assert binds == 1 and len(servers) == 2, "docs/deploy/haproxy.cfg is not as the test reads it"
    lines = "".join(f"    server {n} 127.0.0.1:{p} check\n" for n, p in processes.items())
    text = text.replace(servers[0], lines).replace(servers[1], "")
    return text


@contextmanager
def haproxy(folder: Path, processes: dict[str, int]) -> Iterator[str]:
    """HAProxy with the docs' configuration in front of ``processes``; its address. Its log
    (each request, each process going down or up) is ``folder/haproxy.log``."""
    binary = shutil.which("haproxy")
    if binary is None:
        missing("haproxy is not installed (apt-get install haproxy)")
    assert binary is not None
    port = free_port()
    config = folder / "haproxy.cfg"
    config.write_text(proxy_config(port, processes), encoding="utf-8")
    log = folder / "haproxy.log"
    with log.open("ab") as out:
        proc = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=out, stderr=out)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(url + "/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def redis_up() -> None:
    try:
        socket.create_connection(("127.0.0.1", 6379), 2).close()
    except OSError:
        missing("Redis is not running on 127.0.0.1:6379")
