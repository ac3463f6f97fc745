"""The page behind the deployment recipe's proxy (docs/deploy.md): its process is stopped
(SIGTERM), its WebSocket is closed with 1012, and it reconnects through the proxy to the other
process, resyncs and plays on, the bots with it."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from ..deploy_support import REDIS, haproxy, redis_up
from ..server_support import Server, postgres_database
from .support import play_turn, table, table_against_bots, wait_turn

DRAIN = "2"


def proxy_says(log: Path, what: str) -> None:
    """Wait until the proxy's log says ``what``."""
    deadline = time.monotonic() + 30
    while what not in log.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"the proxy's log does not say {what!r}"
        time.sleep(0.2)


def test_the_page_moves_to_the_other_process_when_its_own_stops(page: Page, tmp_path: Path) -> None:
    """Only the first process runs when the page opens, so its WebSocket is there; the second
    starts, the first is stopped, and the page goes on through the proxy."""
    redis_up()
    with postgres_database() as url:
        extra = ("--bus", REDIS, "--drain", DRAIN, "--bot-delay", "0.02")
        one = Server(tmp_path / "one", url, *extra).start()
        two = Server(tmp_path / "two", url, *extra)
        try:
            with haproxy(tmp_path, {"one": one.port, "two": two.port}) as proxy:
                table_id, token = table_against_bots(one, seed=5)
                page.goto(f"{proxy}/?pace=0#/")
                value = json.dumps({"seat": 0, "token": token})
                key = f"thousand.seat.{table_id}"
                page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
                page.goto(f"{proxy}/?pace=0#/table/{table_id}")
                page.reload()
                play_turn(page)
                wait_turn(page)

                proxy_says(tmp_path / "haproxy.log", "processes/two is DOWN")
                two.start()
                proxy_says(tmp_path / "haproxy.log", "processes/two is UP")
                assert one.proc is not None
                os.kill(one.proc.pid, signal.SIGTERM)
                one.proc.wait(30)

                line = page.get_by_role("status", name="Connection")
                for _ in range(4):  # the page's moves, and the bots' after each, on "two"
                    play_turn(page)
                    expect(table(page)).not_to_have_attribute("data-state", "sending")
                expect(line).to_have_text("")
        finally:
            one.stop()
            two.stop()
