"""The page under the server's Content-Security-Policy: the lobby, a table, the replay and the
reference break none of it; and the lobby shows the first page of a long list, saying there is
more."""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect

from ..server_support import BOT, HUMAN, SHORT_MATCH, Server
from .support import open_page, table_against_bots, wait_turn

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def violations(page: Page) -> list[str]:
    """What the policy blocked on the page shown now (the list starts again on each load)."""
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_the_page_keeps_to_the_policy(page: Page, server: Server) -> None:
    page.add_init_script(WATCH)
    response = page.goto(f"{server.http}/?pace=0#/")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
    assert violations(page) == []
    table_id, token = table_against_bots(server, seed=3)
    value = f'{{"seat": 0, "token": "{token}"}}'
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"thousand.seat.{table_id}", value])
    open_page(page, server, f"/table/{table_id}")
    page.reload()
    wait_turn(page)  # the WebSocket is open: connect-src lets it
    expect(page.locator(".hand.mine button.card").first).to_be_visible()
    assert violations(page) == []
    bots = server.new_table([BOT, BOT, BOT], SHORT_MATCH, seed=random.randrange(100))
    open_page(page, server, f"/watch/{bots['id']}")
    expect(page.locator(".watching")).to_be_visible()
    assert violations(page) == []
    page.goto(f"{server.http}/reference/en/")
    expect(page.locator("h1").first).to_be_visible()
    assert violations(page) == []


def test_the_lobby_shows_the_first_page_and_says_there_is_more(page: Page, server: Server) -> None:
    for _ in range(51):
        server.new_table([HUMAN, BOT, BOT])
    assert len(server.get("/tables").json()) == 50
    open_page(page, server, "/")
    expect(page.locator("#open-tables li")).to_have_count(50)
    expect(page.locator("#lobby-lists")).to_contain_text("More than these; the first are shown.")
