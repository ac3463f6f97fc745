"""A lost connection is said at once (a status line, not only when a move is tried) and the line
and any error it caused go away when the page is connected again."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import play_turn, seat_at, table, table_against_bots, wait_turn

LOST = "The connection to the table is lost; reconnecting…"


def test_the_connection_state_is_shown_at_once_and_cleared(page: Page, tmp_path: Path) -> None:
    server = Server(tmp_path / "data", None, "--bot-delay", "0.02").start()
    try:
        table_id, token = table_against_bots(server, seed=4)
        seat_at(page, server, table_id, 0, token)
        wait_turn(page)
        line = page.get_by_role("status", name="Connection")
        expect(line).to_have_text("")

        server.stop()
        expect(line).to_have_text(LOST)  # without trying a move
        page.get_by_role("button", name="Pass", exact=True).click()
        expect(page.get_by_role("alert")).to_be_visible()

        server.start()
        expect(line).to_have_text("", timeout=30_000)
        expect(page.get_by_role("alert")).to_be_hidden()
        wait_turn(page)
        play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
        expect(line).to_have_text("")
    finally:
        server.stop()
