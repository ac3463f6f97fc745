"""A lost connection is said at once (a status line, not only when a move is tried) and the line
and any error it caused go away when the page is connected again; a move sent on a new
connection is not offered again by the snapshot that answers its hello."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

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


def test_a_snapshot_before_a_moves_answer_does_not_offer_the_turn_again(
    page: Page, tmp_path: Path
) -> None:
    """After a reconnection the page may send a move before the hello's snapshot comes (the
    socket is open, the old view still shown); that snapshot, of the version the move was sent
    at, must not show the seat's turn again while the move's answer is on its way. Here the
    page's connection holds the move back and hands the page the last snapshot first (one
    seat's name changed in it, to see that the page has shown it)."""
    server = Server(tmp_path / "data", None, "--bot-delay", "0.02").start()
    held: list[str] = []
    snapshots: list[dict[str, Any]] = []
    upstreams: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        upstreams.append(upstream)

        def from_page(message: str | bytes) -> None:
            if json.loads(message).get("type") == "intent":
                held.append(str(message))  # on its way: the server has not seen it yet
                snapshot = copy.deepcopy(snapshots[-1])
                snapshot["seats"][0]["name"] = "Zed"
                ws.send(json.dumps(snapshot))
            else:
                upstream.send(message)

        def from_server(message: str | bytes) -> None:
            if json.loads(message).get("type") == "snapshot":
                snapshots.append(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket("**/ws", route)
    try:
        table_id, token = table_against_bots(server, seed=4)
        seat_at(page, server, table_id, 0, token)
        wait_turn(page)
        version = int(table(page).get_attribute("data-version") or "0")
        page.get_by_role("button", name="Pass", exact=True).click()
        expect(table(page).get_by_text("Zed").first).to_be_visible()
        assert len(held) == 1
        expect(table(page)).to_have_attribute("data-state", "sending")
        expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)

        upstreams[-1].send(held[0])  # the move reaches the server: its answer comes
        expect(table(page)).not_to_have_attribute("data-version", str(version))
        expect(table(page)).not_to_have_attribute("data-state", "sending")
        assert int(table(page).get_attribute("data-version") or "0") > version
    finally:
        server.stop()
