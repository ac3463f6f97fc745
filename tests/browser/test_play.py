"""Playing in the browser: a whole deal against two bots by clicking, the write-off through its
dialog, a reload in the middle of a deal, and a bid made with the keyboard alone."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import (
    deal_rows,
    open_page,
    play_deal,
    play_turn,
    seat_at,
    shot,
    table,
    table_against_bots,
    wait_turn,
)


def row_totals(page: Page, row: int) -> list[int]:
    cells = deal_rows(page).nth(row).locator("td.score")
    return [int(cells.nth(i).get_attribute("data-total") or "") for i in range(cells.count())]


def test_a_whole_deal_against_two_bots_by_clicking(page: Page, server: Server) -> None:
    open_page(page, server, "/")
    page.get_by_label("Your name").fill("Ann")
    expect(page.get_by_role("radio", name="Russian", exact=True)).to_be_checked()
    expect(page.locator(".template-about")).to_contain_text("No differences")
    page.get_by_role("radio", name="Russian classic").check()
    expect(page.locator(".template-about li").first).to_contain_text("400")
    page.get_by_role("radio", name="Russian", exact=True).check()
    shot(page, "lobby")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"#/table/\w+"))
    table_id = page.url.rsplit("/", 1)[-1]
    phase = wait_turn(page)
    expect(page.locator(".seat.me")).to_contain_text("Ann")
    # 7 cards in the auction; 10 where both bots passed and the dealer had to take the talon
    expect(page.locator(".hand.mine button.card")).to_have_count(7 if phase == "auction" else 10)
    if phase == "auction":  # the talon face down: as many backs as the view's talon_sizes say
        expect(page.locator(".centre .talon .card")).to_have_count(3)
    expect(page.locator(".opponents .seat")).to_have_count(2)
    shot(page, "table-auction")

    # a bot that wins the auction may write the deal off: then the next deal is played
    for deal in range(10):
        moves = play_deal(page, bid=True)
        expect(deal_rows(page)).to_have_count(deal + 1)
        if moves.count("play") >= 7:
            break
    assert moves.count("play") >= 7, moves
    row = deal_rows(page).last
    expect(row.locator("td.result")).to_have_text(re.compile("^(made|failed)$"))
    shot(page, "after-first-deal")
    totals = server.get(f"/tables/{table_id}").json()["totals"]
    assert row_totals(page, deal) == totals
    expect(page.locator(".scoresheet tfoot td.total")).to_have_text([str(n) for n in totals])
    expect(page.get_by_role("alert")).to_be_hidden()


def test_the_write_off_through_its_dialog(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=3)
    seat_at(page, server, table_id, 0, token)
    write_off = page.get_by_role("button", name="Write off", exact=True)
    for _ in range(200):
        wait_turn(page)
        if write_off.count():
            break
        play_turn(page, bid=True)
    expect(write_off).to_be_visible()
    expect(table(page)).to_have_attribute("data-phase", "passing")
    # the write-off sits beside the passing controls; Escape closes its dialog and changes nothing
    expect(page.locator(".actions")).to_contain_text("Pick a card")
    write_off.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    # the dialog says what the write-off changes, as the server computed it: the declarer first
    expect(dialog).to_contain_text("You give up the deal without playing it")
    lines = dialog.locator(".writeoff-changes li")
    expect(lines).to_have_count(3)
    expect(lines.first).to_have_text(re.compile(r"^You: -\d+$"))
    predicted = {
        int(lines.nth(i).get_attribute("data-seat") or "-1"): int(
            lines.nth(i).inner_text().rsplit(": ", 1)[1]
        )
        for i in range(3)
    }
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    shot(page, "write-off-dialog")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(write_off).to_be_visible()
    rows = deal_rows(page).count()
    write_off.click()
    dialog.get_by_role("button", name="Confirm write-off").click()
    expect(deal_rows(page)).to_have_count(rows + 1)
    row = deal_rows(page).nth(rows)
    expect(row.locator("td.result")).to_have_text("written off")
    expect(row.locator("td").first).to_have_text("Ann")
    shot(page, "written-off")
    totals = server.get(f"/tables/{table_id}").json()["totals"]
    assert row_totals(page, rows) == totals
    # russian: the declarer loses the contract in force (1.4)
    contract = int(row.locator("td").nth(1).inner_text())
    expect(row.locator("td.score").first.locator(".change")).to_have_text(str(-contract))
    changes = [int(c) for c in row.locator("td.score .change").all_inner_texts()]
    assert changes == [predicted[seat] for seat in range(3)]
    assert predicted[0] == -contract


def test_a_reload_in_the_middle_of_a_deal_carries_on(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=5)
    seat_at(page, server, table_id, 0, token)
    played = 0
    while played < 2:
        if play_turn(page) == "play":
            played += 1
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    phase = wait_turn(page)
    assert phase == "play"
    hand = page.locator(".hand.mine button.card")
    before = hand.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    playable = page.locator(".hand.mine button.card:not([disabled])").count()
    version = table(page).get_attribute("data-version")
    rows = deal_rows(page).count()
    page.reload()
    wait_turn(page)
    expect(table(page)).to_have_attribute("data-version", version or "")
    assert hand.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))") == before
    expect(page.locator(".hand.mine button.card:not([disabled])")).to_have_count(playable)
    shot(page, "after-reload")
    expect(deal_rows(page)).to_have_count(rows)
    play_deal(page)
    expect(deal_rows(page)).to_have_count(rows + 1)


def test_a_bid_by_keyboard_alone(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=4)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    calls = page.locator(".auction-line")
    before = calls.inner_text()
    page.locator("body").focus()
    name = ""
    for _ in range(120):
        page.keyboard.press("Tab")
        name = page.evaluate(
            "() => document.activeElement.getAttribute('aria-label')"
            " || document.activeElement.textContent"
        )
        if re.fullmatch(r"Bid \d+", name):
            break
    assert re.fullmatch(r"Bid \d+", name), name
    page.keyboard.press("Enter")
    expect(calls).not_to_have_text(before)
    expect(calls).to_contain_text(f"Ann: {name.split()[1]}")
    # on the next turn the keyboard's focus is on a move again: Enter makes it
    wait_turn(page)
    focused = page.locator("#table button:focus")
    expect(focused).to_have_count(1)
    version = table(page).get_attribute("data-version")
    page.keyboard.press("Enter")
    expect(table(page)).not_to_have_attribute("data-version", version or "")
