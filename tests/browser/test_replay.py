"""The replay of a finished match: step through the moves with the buttons and the keys, every
hand open, the scoresheet so far."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from ..server_support import SHORT_MATCH, Server
from .support import open_page, shot


def finished_bot_match(server: Server, seed: int) -> str:
    bot = {"kind": "bot", "level": "easy"}
    table = server.new_table([bot, bot, bot], rules=SHORT_MATCH, seed=seed)
    deadline = time.monotonic() + 120
    while server.get(f"/tables/{table['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.1)
    return str(table["id"])


def test_watching_the_replay_of_a_finished_match(page: Page, server: Server) -> None:
    game_id = finished_bot_match(server, seed=11)
    replay = server.get(f"/api/games/{game_id}/replay").json()
    open_page(page, server, "/")
    expect(page.locator("#finished-games")).to_contain_text("Russian: Easy bot, seat 1")
    page.locator(f'#finished-games a[href="#/replay/{game_id}"]').click()
    view = page.locator("#replay")
    expect(view).to_have_attribute("data-step", "0")
    first = replay["deals"][0]
    # every hand is open at the deal as dealt
    for seat, cards in enumerate(first["steps"][0]["view"]["hands"]):
        hand = page.locator(f'#replay .seat[data-seat="{seat}"] .hand .card')
        expect(hand).to_have_count(len(cards))
    expect(page.locator("#replay .talon .card")).to_have_count(3)
    shot(page, "replay-start")

    page.get_by_role("button", name="Forward").click()
    expect(view).to_have_attribute("data-step", "1")
    first_move = first["steps"][1]
    # three easy bots: each is named by its level and seat, as in the lobby's list
    who = f"Easy bot, seat {first_move['seat'] + 1}"
    expect(page.locator(".replay-move")).to_contain_text(who)
    page.get_by_role("button", name="Back").click()
    expect(view).to_have_attribute("data-step", "0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(view).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    last = len(first["steps"]) - 1
    expect(view).to_have_attribute("data-step", str(last))
    expect(page.get_by_role("button", name="Forward")).to_be_disabled()
    expect(page.locator(".scoresheet tr.deal-row")).to_have_count(1)
    expect(page.locator(".scoresheet td.result")).to_have_text(
        re.compile(first["report"]["result"].replace("-", " "))
    )
    shot(page, "replay-end-of-deal")
    page.get_by_label("Deal", exact=True).select_option(str(len(replay["deals"]) - 1))
    expect(view).to_have_attribute("data-deal", str(len(replay["deals"]) - 1))
    page.keyboard.press("End")
    expect(page.locator(".scoresheet tr.deal-row")).to_have_count(len(replay["deals"]))
    page.get_by_role("button", name="First").click()
    expect(view).to_have_attribute("data-step", "0")
