"""The end of a deal: its result (every figure of the server's report) stays on the table, over
the next deal, until the player closes it or makes a move."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import (
    deal_rows,
    play_deal,
    play_turn,
    seat_at,
    shot,
    shown_names,
    table,
    table_against_bots,
)


def test_the_result_of_a_deal_stays_until_the_player_moves_on(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=4)
    seat_at(page, server, table_id, 0, token)
    result = page.get_by_role("region", name="Deal 1: the result")
    expect(result).to_have_count(0)
    play_deal(page, bid=True)
    expect(deal_rows(page)).to_have_count(1)
    expect(result).to_be_visible()
    # the next deal is already dealt: the result is still there
    expect(table(page)).to_have_attribute("data-phase", re.compile("^(auction|passing)$"))
    expect(result).to_be_visible()
    shot(page, "deal-result")

    summary = server.get(f"/tables/{table_id}").json()
    names = shown_names(summary["seats"])
    row = deal_rows(page).first
    outcome = row.get_attribute("data-result") or ""
    lines = result.get_by_role("row")
    expect(lines).to_have_count(1 + len(names))
    points = []
    for seat, name in enumerate(names):
        line = result.locator(f'tr[data-seat="{seat}"]')
        expect(line.get_by_role("rowheader")).to_have_text(name if seat else "Ann")
        cell = row.locator(f'td.score[data-seat="{seat}"]')
        change = cell.locator(".change").inner_text()
        expect(line.locator("td.change")).to_contain_text(change)
        expect(line.locator("td.total")).to_have_text(str(summary["totals"][seat]))
        points.append(line.locator("td.card-points").inner_text())
    headline = result.locator(".headline")
    if outcome in ("made", "failed"):
        # every trick was taken: the card points are the deck's 120, seat by seat
        assert sum(int(p) for p in points) == 120, points
        expect(headline).to_have_text(re.compile(rf" {outcome} the contract of \d+, taking \d+\.$"))
    else:
        assert set(points) == {"–"}, points
        expect(headline).to_contain_text(outcome.replace("-", " "))

    # in Russian too; then the player's first move of the next deal puts it away
    page.get_by_label("Language").select_option("ru")
    expect(page.get_by_role("region", name="Раздача 1: итог")).to_be_visible()
    page.get_by_label("Язык").select_option("en")
    play_turn(page)
    expect(result).to_have_count(0)


def test_the_result_can_be_closed(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=5)
    seat_at(page, server, table_id, 0, token)
    play_deal(page)
    result = page.get_by_role("region", name=re.compile(r"^Deal 1: the result$"))
    expect(result).to_be_visible()
    result.get_by_role("button", name="Close").click()
    expect(result).to_have_count(0)
