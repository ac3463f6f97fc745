"""A marriage: where a queen may be led with or without declaring, the page asks which; the
declaration is announced and sets the trump indicator."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import play_turn, seat_at, shot, table, table_against_bots, wait_turn

SEED = 3

#: the boxes of the toast, the felt around it and the scoresheet, measured in one script run
BOXES = """() => {
    const box = (e) => {
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const felt = document.querySelector(".felt");
    const toast = felt && felt.querySelector(".table-toasts");
    return [box(toast), box(felt), box(document.querySelector("section.scoresheet"))];
}"""


def test_leading_a_queen_asks_whether_to_declare(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=SEED)
    seat_at(page, server, table_id, 0, token)
    two_ways = page.locator(".hand.mine button.card[aria-pressed]")
    for _ in range(300):
        if wait_turn(page) == "play" and two_ways.count():
            break
        play_turn(page, bid=True)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    queen = two_ways.first
    card = queen.get_attribute("aria-label") or ""
    suit = card.rsplit(" ", 1)[-1]
    queen.click()
    choices = page.get_by_role("group", name=card).get_by_role("button")
    expect(choices).to_have_text(
        [f"Play {card}", f"Play {card} and declare the marriage in {suit}", "Cancel"]
    )
    shot(page, "marriage-choice")
    choices.nth(1).click()
    # announced on the felt, where it covers no scoresheet, whatever part of the page is shown
    felt = page.locator(".felt")
    toast = felt.get_by_role("status").filter(has_text=f"Ann declares the marriage in {suit}!")
    expect(toast).to_be_visible()
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    # the three boxes at one moment: each move of the bots renders a new felt (the toast is put
    # back into it), so boxes asked one by one may find the felt of a render already replaced
    shown, around, sheet = page.evaluate(BOXES)
    assert shown and around and sheet
    bottom = shown["y"] + shown["height"]
    assert around["y"] <= shown["y"] and bottom <= around["y"] + around["height"], (shown, around)
    assert bottom <= sheet["y"], (shown, sheet)
    expect(page.locator(".status-bar .trump")).to_have_text(f"Trump: {suit}")
