"""The declarer's turn after the auction: the talon taken into the hand (and off the felt), a
card handed by tapping it and then a seat, another by dragging it onto a seat, the raise
control, and the last trick."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import (
    play_deal,
    play_turn,
    seat_at,
    shot,
    shown_names,
    table,
    table_against_bots,
    wait_turn,
)


def test_passing_by_tap_and_by_drag_then_raising(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=3)
    seat_at(page, server, table_id, 0, token)
    while wait_turn(page) == "auction":
        play_turn(page, bid=True)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    expect(table(page)).to_have_attribute("data-phase", "passing")
    # the talon is in the declarer's hand now, marked there, and no longer on the felt
    hand = page.locator(".hand.mine button.card")
    expect(hand).to_have_count(10)
    expect(page.locator(".hand.mine button.card.from-talon")).to_have_count(3)
    expect(page.get_by_role("group", name="Talon")).to_have_count(0)
    expect(page.locator(".centre .card")).to_have_count(0)
    names = shown_names(server.get(f"/tables/{table_id}").json()["seats"])

    # tap a card, then a seat
    first = hand.first
    card = first.get_attribute("aria-label") or ""
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".actions .hint")).to_contain_text(card)
    give = page.get_by_role("button", name=f"Give {card} to {names[1]}")
    expect(give).to_be_visible()
    shot(page, "passing")
    give.click()
    expect(hand).to_have_count(9)
    expect(page.get_by_role("button", name=re.compile(f"^{card}$"))).to_have_count(0)
    expect(page.get_by_role("region", name=names[1])).to_contain_text("Cards: 8")

    # drag a card onto the other seat
    wait_turn(page)
    second = hand.first
    dragged = second.get_attribute("aria-label") or ""
    second.drag_to(page.get_by_role("region", name=names[2]))
    expect(hand).to_have_count(8)
    expect(page.get_by_role("button", name=dragged, exact=True)).to_have_count(0)
    expect(page.get_by_role("region", name=names[2])).to_contain_text("Cards: 8")

    # the raise: the contracts offered, as "Contract N"
    assert wait_turn(page) == "contract"
    raises = page.get_by_role("group", name="Raise the contract").get_by_role("button")
    labels = raises.all_inner_texts()
    assert labels and all(re.fullmatch(r"Contract \d+", x) for x in labels), labels
    shot(page, "raise")
    raises.first.click()
    expect(page.locator(".status-bar")).to_contain_text(f"{labels[0]} (Ann)")

    # one trick, then its review
    while page.locator("button", has_text="Last trick").count() == 0:
        play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
        wait_turn(page)
    page.get_by_role("button", name="Last trick").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator(".card")).to_have_count(3)
    expect(dialog).to_contain_text("Taken by")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    play_deal(page)


_PASSING_OR_TURN = """() => {
  const t = document.querySelector("#table");
  return Boolean(t) && (t.dataset.phase === "passing" || t.dataset.state === "my-turn");
}"""


def test_a_defender_sees_the_talon_with_the_declarer_and_the_card_given(
    page: Page, server: Server
) -> None:
    """As a defender: the talon turned up shows with the declarer who took it, the card given
    is named by your seat; neither lies on the felt."""
    table_id, token = table_against_bots(server, seed=1)  # a bot wins the auction above 100
    seat_at(page, server, table_id, 0, token)
    page.goto(f"{server.http}/?pace=1500#/table/{table_id}")  # slow enough to look
    for _ in range(20):
        page.wait_for_function(_PASSING_OR_TURN)
        if table(page).get_attribute("data-phase") == "passing":
            break
        play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    expect(table(page)).to_have_attribute("data-phase", "passing")
    declarer = page.locator(".opponents .seat", has=page.locator(".badge.declarer"))
    expect(declarer.get_by_role("group", name="From the talon").locator(".card")).to_have_count(3)
    expect(page.locator(".centre .card")).to_have_count(0)
    given = page.locator(".badge.received")
    expect(given).to_have_text(re.compile(r"^Given to you: \w+ of \w+$"))
    card = given.inner_text().removeprefix("Given to you: ")
    expect(page.get_by_role("button", name=card, exact=True)).to_have_class(re.compile("received"))
    expect(page.locator(".centre .card")).to_have_count(0)
