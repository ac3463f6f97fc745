"""A timed table on the page: the player's time left counts down while it is their turn (the
bots' seats have no clock), and the replay marks the moves a bot made when the time ran out."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from ..server_support import SHORT_MATCH, Server
from .support import open_page, seat_at, shot, wait_turn

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}


def timed(server: Server, clock: dict[str, float], **rules: object) -> tuple[str, str]:
    body = {"seats": [HUMAN, BOT, BOT], "rules": rules, "seed": 4, "clock": clock}
    answer = server.post("/tables", body)
    assert answer.status_code == 201, answer.text
    table_id = str(answer.json()["id"])
    return table_id, str(server.sit(table_id, "Ann", 0)["token"])


def test_the_players_time_left_counts_down_on_the_page(page: Page, server: Server) -> None:
    table_id, token = timed(server, {"move": 300, "bank": 60, "grace": 600})
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    mine = page.locator(".seat.me .seat-clock")
    expect(mine).to_have_class("seat-clock running")
    expect(mine).to_contain_text("Time left: ")
    first = mine.inner_text()
    expect(mine).not_to_have_text(first)  # it ticks between messages
    # the bots have no clock
    expect(page.locator(".seat-clock")).to_have_count(1)
    shot(page, "clock-running")


def test_the_replay_marks_the_moves_a_bot_made_when_time_ran_out(
    page: Page, server: Server
) -> None:
    table_id, _ = timed(server, {"move": 0.05, "bank": 0, "grace": 600}, **SHORT_MATCH)
    deadline = time.monotonic() + 120
    while server.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the match did not finish"
        time.sleep(0.1)
    marked = server.get(f"/api/games/{table_id}/replay").json()["played_for"][0]
    assert marked["deal"] == 1
    open_page(page, server, f"/replay/{table_id}")
    view = page.locator("#replay")
    expect(view).to_have_attribute("data-step", "0")
    for _ in range(marked["step"] + 1):
        page.get_by_role("button", name="Forward").click()
    expect(view).to_have_attribute("data-step", str(marked["step"] + 1))
    expect(page.locator(".replay-move .played-for")).to_have_text(
        " (played by the bot: time ran out)"
    )
    page.get_by_role("button", name="Back").click()
    expect(page.locator(".replay-move .played-for")).to_have_count(0)
    shot(page, "replay-played-for")


def test_a_table_created_with_a_clock_from_the_lobby(page: Page, server: Server) -> None:
    open_page(page, server, "/")
    page.get_by_label("Your name").fill("Ann")
    expect(page.get_by_label("Clock")).to_have_value("0")  # untimed unless chosen
    page.get_by_label("Clock").select_option(label="30 s a move + 5 min")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"#/table/\w+$"))
    table_id = page.url.rsplit("/", 1)[-1]
    assert server.get(f"/tables/{table_id}").json()["clock"] == {
        "move": 30,
        "bank": 300,
        "grace": 60,
    }
    expect(page.locator(".seat.me .seat-clock")).to_contain_text("Time left: ")
