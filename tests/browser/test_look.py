"""The look of the table: the trump of the trick shown at the trick, the seats around the felt
as at a real table, court cards drawn as figures, cards that move (and keep still under reduced
motion), and sounds with a Sound switch that the browser remembers."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import FloatRect, Page, expect

from ..server_support import Server
from .support import (
    open_page,
    play_turn,
    seat_at,
    shot,
    shown_names,
    table,
    table_against_bots,
    wait_turn,
)

# every Element.animate() the page calls, by the card it moves (or the element's class)
RECORD_MOTION = """
window.__moved = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const card = this.closest && this.closest("[data-card]");
  const name = this.className && (this.className.baseVal ?? this.className);
  window.__moved.push(card ? card.dataset.card : String(name));
  return animate.apply(this, args);
};
"""

# every sound the page starts (a noise burst or a note of the Web Audio API)
RECORD_SOUND = """
window.__sounds = 0;
for (const node of [AudioBufferSourceNode, OscillatorNode]) {
  const start = node.prototype.start;
  node.prototype.start = function (...args) {
    window.__sounds += 1;
    return start.apply(this, args);
  };
}
"""

TRICK_MARK = re.compile(
    r"^(Trump of this trick: (hearts|diamonds|spades|clubs)|No trump in this trick)$"
)


def box(page: Page, region: str) -> FloatRect:
    answer = page.get_by_role("region", name=region, exact=True).bounding_box()
    assert answer is not None, region
    return answer


# the trick's trump mark and the status line's trump, read together
READ_TRUMPS = """() => {
  const label = (e) => e.getAttribute("aria-label") || "";
  const line = [...document.querySelectorAll(".status-bar [role=img]")].map(label);
  return [document.querySelector(".trick .trick-trump")?.getAttribute("aria-label") ?? null,
          line.find((x) => x.startsWith("Trump: ") || x.startsWith("No trump")) ?? ""];
}"""


def test_the_trump_of_the_trick_is_marked_at_the_trick(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=11)
    seat_at(page, server, table_id, 0, token)
    trick = page.get_by_role("group", name="Trick")
    seen: set[str] = set()
    for _ in range(400):
        if play_turn(page, bid=True) == "finished":
            break
        expect(table(page)).not_to_have_attribute("data-state", "sending")
        if table(page).get_attribute("data-phase") != "play" or not trick.locator(".card").count():
            continue
        mark = trick.get_by_role("img", name=TRICK_MARK)
        try:
            expect(mark).to_have_count(1)
        except AssertionError:
            if not trick.locator(".card").count():
                continue  # the trick was gathered meanwhile (the bots play on)
            raise
        # read at once, both from the same page (the bots play on: a wait could see the next)
        said, overall = page.evaluate(READ_TRUMPS)
        if said is None:
            continue  # the trick was gathered meanwhile
        overall = overall or ""
        # the trick is played under no trump or under the trump of the deal (a marriage declared
        # on a lead is trump from the next trick: the status line may be one trick ahead)
        if said.startswith("Trump of this trick: "):
            assert overall == f"Trump: {said.rsplit(' ', 1)[1]}", (said, overall)
        seen.add(said.split(":")[0])
        if len(seen) == 2:
            break
    assert seen == {"Trump of this trick", "No trump in this trick"}, seen
    shot(page, "trick-trump")
    # in another language too, by its name there
    page.get_by_label("Language").select_option("ru")
    expect(
        trick.or_(page.get_by_role("group", name="Взятка")).get_by_role(
            "img", name=re.compile("^(Козырь этой взятки: |В этой взятке козыря нет)")
        )
    ).to_have_count(1)


@pytest.mark.parametrize(("template", "players"), [("russian", 3), ("four-player-b", 4)])
def test_the_others_sit_left_top_and_right(
    page: Page, server: Server, template: str, players: int
) -> None:
    table_id, token = table_against_bots(server, seed=5, template=template, players=players)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    # the last deal's result (a deal played while this seat sat out) put away
    result = page.get_by_role("region", name=re.compile("the result$"))
    if result.count():
        result.get_by_role("button", name="Close").click()
    shot(page, f"seats-{players}")
    names = shown_names(server.get(f"/tables/{table_id}").json()["seats"])
    middle = page.get_by_role("group", name="Trick").bounding_box()
    assert middle is not None
    you = box(page, "you")
    left, right = box(page, names[1]), box(page, names[-1])
    # the next player in play order on the left, the one before you on the right, both beside
    # the trick (at its height), you below it
    assert left["x"] + left["width"] <= middle["x"], (left, middle)
    assert right["x"] >= middle["x"] + middle["width"], (right, middle)
    for seat in (left, right):
        assert (
            seat["y"] < middle["y"] + middle["height"] and seat["y"] + seat["height"] > middle["y"]
        )
    assert you["y"] >= middle["y"] + middle["height"], (you, middle)
    if players == 4:  # the one opposite you sits at the top, above the trick
        top = box(page, names[2])
        assert top["y"] + top["height"] <= middle["y"], (top, middle)
        assert top["x"] < middle["x"] + middle["width"] and top["x"] + top["width"] > middle["x"]


def test_court_cards_are_drawn_as_figures(page: Page, server: Server) -> None:
    courts = re.compile(r"^(Jack|Queen|King) of (hearts|diamonds|spades|clubs)$")
    for seed in range(1, 30):
        table_id, token = table_against_bots(server, seed=seed)
        seat_at(page, server, table_id, 0, token)
        wait_turn(page)
        hand = page.get_by_role("group", name="Your hand")
        if hand.get_by_role("button", name=courts).count():
            break
    card = hand.get_by_role("button", name=courts).first
    rank = {"Jack": "J", "Queen": "Q", "King": "K"}[
        (card.get_attribute("aria-label") or "").split()[0]
    ]
    figure = card.locator(f"svg g.court-face[data-rank='{rank}']")
    expect(figure).to_have_count(1)
    # double-ended: the figure twice (a head in each half), as on real cards
    expect(figure.locator("circle[r='5.2']")).to_have_count(2)
    # pip cards have no figure
    expect(
        hand.get_by_role("button", name=re.compile(r"^(Nine|Ten|Ace) of ")).locator("g.court-face")
    ).to_have_count(0)


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_cards_move_unless_reduced_motion_is_asked(page: Page, server: Server, motion: str) -> None:
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    page.add_init_script(RECORD_MOTION)
    table_id, token = table_against_bots(server, seed=5)
    seat_at(page, server, table_id, 0, token)
    played: list[str] = []
    for _ in range(200):
        phase = wait_turn(page)
        if phase == "play":
            card = page.locator(".hand.mine button.card:not([disabled])").first
            played.append(card.get_attribute("data-card") or "")
            card.click()
            choices = page.locator(".actions .choices button")
            if choices.count():
                choices.first.click()
        else:
            play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
        if len(played) == 3:
            break
    wait_turn(page)
    moved: list[str] = page.evaluate("() => window.__moved")
    if motion == "reduce":
        assert moved == [], moved
        transition = page.locator(".hand.mine button.card").first.evaluate(
            "c => getComputedStyle(c).transitionDuration"
        )
        assert transition == "0s", transition
    else:
        # the cards played fly to the trick (from the hand), and the bots' cards too
        assert set(played) <= set(moved), (played, moved)
        assert len(moved) > len(played), moved


def test_the_sound_switch_is_remembered(page: Page, server: Server) -> None:
    page.add_init_script(RECORD_SOUND)
    open_page(page, server, "/")
    switch = page.get_by_role("button", name="Sound", exact=True)
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(switch).to_be_focused()
    page.reload()
    expect(switch).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('thousand.sound')") == "off"
    # off: a deal's moves make no sound; on: they do
    table_id, token = table_against_bots(server, seed=5)
    seat_at(page, server, table_id, 0, token)
    for _ in range(4):
        play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    wait_turn(page)
    assert page.evaluate("() => window.__sounds") == 0
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    for _ in range(4):
        play_turn(page)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    wait_turn(page)
    assert page.evaluate("() => window.__sounds") > 0
    page.reload()
    expect(page.get_by_role("button", name="Sound", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )


def test_the_talon_cards_in_the_hand_are_full_size(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=11)
    seat_at(page, server, table_id, 0, token)
    hand = page.get_by_role("group", name="Your hand")
    taken = hand.locator("button.card.from-talon")
    for _ in range(200):
        if wait_turn(page) == "passing" and taken.count():
            break
        play_turn(page, bid=True)
        expect(table(page)).not_to_have_attribute("data-state", "sending")
    expect(taken).to_have_count(3)
    # marked with a dot, drawn as large as the rest of the hand
    boxes = [card.bounding_box() for card in hand.get_by_role("button").all()]
    widths = {round(b["width"]) for b in boxes if b is not None}
    assert len(widths) == 1 and len(boxes) == 10, (widths, boxes)
