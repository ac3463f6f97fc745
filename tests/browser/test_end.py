"""The end of a match: who won, the totals, a rematch at a new table, and the way back to the
lobby. A short match (to 100, no barrel) is played out by clicking."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import deal_rows, play_turn, seat_at, shot, shown_names, table, table_against_bots

TO_100 = {"game.target": 100, "barrel.threshold": None, "scoring.failed_contract": "each-defender"}


def test_the_end_of_the_match_and_a_rematch(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=8, rules=TO_100)
    seat_at(page, server, table_id, 0, token)
    for _ in range(400):
        if play_turn(page, bid=True) == "finished":
            break
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    expect(table(page)).to_have_attribute("data-state", "finished")
    summary = server.get(f"/tables/{table_id}").json()
    assert summary["status"] == "finished"
    winner = summary["winner"]
    names = shown_names(summary["seats"])
    over = page.get_by_role("region", name=re.compile("win"))
    expect(over).to_be_visible()
    expect(over.get_by_role("heading")).to_have_text(
        "You win the match!" if winner == 0 else f"{names[winner]} wins the match"
    )
    for seat, total in enumerate(summary["totals"]):
        expect(over).to_contain_text(f"{names[seat]}: {total}")
    expect(deal_rows(page)).to_have_count(summary["deals"])
    # the deal that won the match is marked in the winner's cell of the scoresheet
    last = deal_rows(page).last
    expect(last.locator(f'td.score[data-seat="{winner}"] .mark-win')).to_have_text("wins")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
    shot(page, "match-over")

    page.get_by_role("button", name="Rematch").click()
    expect(page).not_to_have_url(re.compile(table_id))
    expect(page).to_have_url(re.compile(r"#/table/\w+"))
    new_id = page.url.rsplit("/", 1)[-1]
    again = server.get(f"/tables/{new_id}").json()
    assert again["rematch_of"] == table_id
    assert again["seats"][0]["name"] == "Ann"
    expect(page.locator(".seat.me")).to_contain_text("Ann")
    # a fresh deal: 7 cards, or 10 where both bots passed and the dealer had to take the talon
    expect(page.locator(".hand.mine button.card").first).to_be_visible()
    assert page.locator(".hand.mine button.card").count() in (7, 10)
    page.get_by_role("link", name="Lobby").click()
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
