"""Quick play in the browser: two players click "Play now" for a two-player game and land at one
table together; a player who leaves the queue is back in the lobby and out of the queue."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from thousand.rules import TEMPLATES

from ..server_support import Server
from .support import open_page, shot

TWO = "tysiac-2p"


def play_now(page: Page, server: Server, name: str, wait: str) -> None:
    open_page(page, server, "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Wait for people").select_option(wait)
    page.locator(f'.quick-templates button[data-template="{TWO}"]').click()


def test_two_players_play_now_and_sit_at_one_table(
    browser: Browser, page: Page, server: Server
) -> None:
    play_now(page, server, "Ann", "300")
    expect(page).to_have_url(re.compile(r"#/queue/\w+$"))
    expect(page.locator("#queue-wait")).to_contain_text("then bots take the empty seats")
    expect(page.get_by_role("button", name="Leave the queue")).to_be_visible()
    shot(page, "quickplay-waiting")

    friend = browser.new_context(locale="en-US").new_page()
    try:
        play_now(friend, server, "Boris", "300")
        expect(friend).to_have_url(re.compile(r"#/table/\w+$"))
        expect(page).to_have_url(re.compile(r"#/table/\w+$"))
        table_id = page.url.rsplit("/", 1)[-1]
        assert friend.url.rsplit("/", 1)[-1] == table_id
        seats = server.get(f"/tables/{table_id}").json()["seats"]
        assert sorted(s["name"] for s in seats) == ["Ann", "Boris"]
        assert all(s["kind"] == "human" for s in seats)
        expect(page.get_by_role("region", name="Boris")).to_be_visible()
        expect(friend.get_by_role("region", name="Ann")).to_be_visible()
        for player in (page, friend):
            expect(player.locator(".hand.mine button.card")).to_have_count(10)
        shot(page, "quickplay-seated")
    finally:
        friend.context.close()


def test_leaving_the_queue_goes_back_to_the_lobby(page: Page, server: Server) -> None:
    open_page(page, server, "/")
    # a Play now button for every template (each playable), named for it
    expect(page.locator(".quick-templates button")).to_have_count(len(TEMPLATES))
    expect(page.get_by_role("button", name="Play now: Russian", exact=True)).to_be_visible()
    play_now(page, server, "Cleo", "300")
    expect(page).to_have_url(re.compile(r"#/queue/\w+$"))
    ticket = page.url.rsplit("/", 1)[-1]
    page.get_by_role("button", name="Leave the queue").click()
    expect(page.get_by_role("heading", name="Play now")).to_be_visible()
    assert server.get(f"/quickplay/{ticket}").status_code == 404
