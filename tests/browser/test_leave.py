"""Leaving a table from the page: the Leave button asks first; during the match a medium bot
takes the seat, and the table of the last person leaves "Being played now"."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import open_page, seat_at, shot, table_against_bots, wait_turn


def test_leaving_with_a_friend_there_leaves_a_bot_in_the_seat(page: Page, server: Server) -> None:
    bot = {"kind": "bot", "level": "easy"}
    table_id = server.new_table([{"kind": "human"}, {"kind": "human"}, bot], seed=6)["id"]
    token = server.sit(table_id, "Ann", 0)["token"]
    server.sit(table_id, "Boris", 1)
    seat_at(page, server, table_id, 0, token)
    expect(page.locator(".hand.mine button.card").first).to_be_visible()
    page.get_by_role("button", name="Leave the table").click()
    dialog = page.get_by_role("dialog", name="Leave the table?")
    expect(dialog).to_contain_text("a medium bot plays your seat on")
    shot(page, "leave-dialog")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    assert server.get(f"/tables/{table_id}").json()["seats"][0]["kind"] == "human"
    page.get_by_role("button", name="Leave the table").click()
    page.get_by_role("dialog").get_by_role("button", name="Leave", exact=True).click()
    expect(page).to_have_url(re.compile(r"#/$"))
    seat = server.get(f"/tables/{table_id}").json()["seats"][0]
    assert (seat["kind"], seat["level"]) == ("bot", "medium")
    # Boris plays on: the table is still being played, Ann's seat is the bot's
    expect(page.locator(f'#live-tables li:has(a[href="#/watch/{table_id}"])')).to_contain_text(
        "Medium bot, Boris, Easy bot"
    )
    # the seat is forgotten here: the table is only to watch
    open_page(page, server, f"/table/{table_id}")
    expect(page.locator("#table .problem")).to_be_visible()


def test_the_last_person_leaving_closes_the_table(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=8)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    page.get_by_role("button", name="Leave the table").click()
    page.get_by_role("dialog").get_by_role("button", name="Leave", exact=True).click()
    expect(page).to_have_url(re.compile(r"#/$"))
    assert server.get(f"/tables/{table_id}").json()["status"] == "closed"
    expect(page.locator("#lobby-lists")).to_be_visible()
    expect(page.locator(f'#live-tables a[href="#/watch/{table_id}"]')).to_have_count(0)
    # a spectator of the closed table is told so
    open_page(page, server, f"/watch/{table_id}")
    expect(page.locator("#table .closed")).to_have_text(
        "This table is closed: everyone left it, or nobody was at it for a long time."
    )
    expect(page.get_by_role("button", name="Leave the table")).to_have_count(0)
