"""The solver beside the replay (every legal card's value at a move, the cards that gave points
away, the declarer's open-card best) and a hint at a table against bots."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import open_page, seat_at, shot, table_against_bots, wait_turn
from .test_replay import finished_bot_match


def analysis_of(server: Server, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer = server.get(f"/api/games/{game_id}/analysis")
        if answer.status_code == 200:
            found: dict[str, Any] = answer.json()
            return found
        assert answer.status_code == 202 and time.monotonic() < deadline, answer.text
        time.sleep(0.3)


def test_the_replay_shows_the_solvers_value_of_every_card(page: Page, server: Server) -> None:
    game_id = finished_bot_match(server, seed=12)
    open_page(page, server, f"/replay/{game_id}")
    view = page.locator("#replay")
    expect(view).to_have_attribute("data-step", "0")
    panel = page.get_by_role("region", name="The solver's analysis")
    panel.get_by_role("button", name="Show the solver's analysis").click()
    expect(panel.get_by_role("status")).to_have_count(0, timeout=120_000)
    found = analysis_of(server, game_id)  # (kept: answered at once now)
    index, deal = next((i, d) for i, d in enumerate(found["deals"]) if d["moves"])
    page.get_by_label("Deal", exact=True).select_option(str(index))
    expect(view).to_have_attribute("data-deal", str(index))
    expect(panel).to_contain_text(f"could take {deal['open_value']} points")
    move = deal["moves"][0]
    page.keyboard.press("Home")
    for _ in range(move["step"]):
        page.keyboard.press("ArrowRight")
    expect(view).to_have_attribute("data-step", str(move["step"]))
    values = panel.get_by_role("table", name=re.compile("Every card's worth"))
    expect(values).to_be_visible()
    expect(values.get_by_role("rowheader")).to_have_count(len(move["values"]))
    for v in move["values"]:
        row = values.locator(f'tr[data-move="{v["move"]}"]')
        expect(row.get_by_role("cell").first).to_have_text(str(v["value"]))
    played = values.locator(f'tr[data-move="{move["played"]}"]')
    expect(played).to_contain_text("played")
    shot(page, "replay-analysis")
    # the cards that gave points away, each a way to its move
    slips = [m for m in deal["moves"] if m["cost"] > 0]
    listed = panel.get_by_role("list", name="Cards that gave points away")
    if slips:
        expect(listed.get_by_role("button")).to_have_count(len(slips))
        listed.get_by_role("button").last.click()
        expect(view).to_have_attribute("data-step", str(slips[-1]["step"]))
        slip = values.locator(f'tr[data-move="{slips[-1]["played"]}"]')
        expect(slip).to_contain_text(re.compile(r"gave \d+ points? away"))
    else:
        expect(panel).to_contain_text("Every card was as good as the solver's.")
    # in another language
    page.get_by_label("Language").select_option("ru")
    expect(page.get_by_role("region", name="Разбор решателя")).to_be_visible()
    expect(page.get_by_role("table", name=re.compile("Цена каждой карты"))).to_be_visible()


def test_a_hint_at_a_table_against_bots(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=8)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    page.get_by_role("button", name="Hint", exact=True).click()
    answer = page.locator(".hint-box").get_by_role("status")
    expect(answer).not_to_have_text("The expert bot is thinking…", timeout=60_000)
    expect(answer).to_have_text(re.compile(r"^Hint: [^.]+\. \S"))
    assert server.get(f"/tables/{table_id}").json()["hints"][0] == 1
    shot(page, "table-hint")
