"""Every layout gets through a deal in the browser: whatever the rules ask (a talon to choose,
cards to lay aside, face-down cards, a stock, four players, two), the page offers the legal
actions and a click makes them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import deal_rows, play_deal, seat_at, shot, table_against_bots, wait_turn

TEMPLATES = [
    "tysiac-2p",
    "two-player-a",
    "two-player-b",
    "four-player-b",
    "estonian",
    "soviet-book",
]


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_deal_of_each_layout_by_clicking(page: Page, server: Server, template: str) -> None:
    about = server.get("/api/templates").json()["templates"]
    players = next(t["players"] for t in about if t["name"] == template)
    table_id, token = table_against_bots(server, 5, template=template, players=players)
    seat_at(page, server, table_id, 0, token)
    expect(page.locator(".opponents .seat")).to_have_count(players - 1)
    # a deal in which this seat sits out (dealer-sits-out) is played without it: count from
    # this seat's first turn
    wait_turn(page)
    rows = deal_rows(page).count()
    play_deal(page, bid=True)
    expect(deal_rows(page)).not_to_have_count(rows)
    # at this seat's next turn nothing can be scored without it: the page and the server agree
    wait_turn(page)
    totals = server.get(f"/tables/{table_id}").json()["totals"]
    cells = deal_rows(page).last.locator("td.score")
    assert [int(c.get_attribute("data-total") or "") for c in cells.all()] == totals
    expect(page.get_by_role("alert")).to_be_hidden()
    shot(page, f"deal-{template}")
