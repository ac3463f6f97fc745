"""What the browser tests share: launching Chromium, opening the page, playing a turn."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from ..server_support import ROOT, Server

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CATALOGUES = ROOT / "src" / "thousand" / "web" / "static" / "i18n"
TURN = re.compile(r"^(my-turn|finished)$")


def catalogue(lang: str) -> dict[str, str]:
    text = (CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")
    answer: dict[str, str] = json.loads(text)
    return answer


def shown_names(seats: list[dict[str, Any]], lang: str = "en") -> list[str]:
    """Each seat's name as the page shows it (``seats`` as the server gives them): a person's
    own, a bot's by its level ("Easy bot"; "Easy bot, seat 2" where two share a level)."""
    words = catalogue(lang)
    levels = [s["level"] for s in seats if s["kind"] == "bot"]
    names = []
    for s in seats:
        if s["kind"] != "bot":
            names.append(s["name"] or "")
            continue
        name = words[f"bot.{s['level']}"]
        if levels.count(s["level"]) > 1:
            name = words["bot.at_seat"].format(name=name, n=s["seat"] + 1)
        names.append(name)
    return names


def shot(page: Page, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def open_page(page: Page, server: Server, route: str = "/") -> None:
    """The page at ``route`` with other players' moves shown at once (pace 0)."""
    page.goto(f"{server.http}/?pace=0#{route}")


def seat_at(page: Page, server: Server, table_id: str, seat: int, token: str) -> None:
    """Give this browser a seat taken through the API (the page keeps tokens in localStorage),
    then open the table."""
    open_page(page, server, "/")
    value = json.dumps({"seat": seat, "token": token})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"thousand.seat.{table_id}", value])
    open_page(page, server, f"/table/{table_id}")
    page.reload()


def table_against_bots(
    server: Server,
    seed: int,
    name: str = "Ann",
    rules: dict[str, Any] | None = None,
    template: str = "russian",
    players: int = 3,
) -> tuple[str, str]:
    """A table of ``template``, seat 0 for ``name`` and easy bots; (table id, token)."""
    bot = {"kind": "bot", "level": "easy"}
    seats = [{"kind": "human"}] + [bot] * (players - 1)
    table = server.new_table(seats, rules=rules, seed=seed, template=template)
    taken = server.sit(table["id"], name, 0)
    return str(table["id"]), str(taken["token"])


def table(page: Page) -> Locator:
    return page.locator("#table")


def wait_turn(page: Page) -> str:
    """Wait until it is this seat's turn (or the match is over); the phase."""
    expect(table(page)).to_have_attribute("data-state", TURN)
    return table(page).get_attribute("data-phase") or ""


def deal_rows(page: Page) -> Locator:
    return page.locator(".scoresheet tr.deal-row")


def play_turn(page: Page, *, bid: bool = False, write_off: bool = False) -> str:
    """Make one move by clicking, as a player would: in the auction pass (or, with ``bid``, bid
    the lowest bid offered); hand a card to a seat; name the lowest contract; play the first
    card that may be played. With ``write_off`` the write-off is taken through its dialog when
    it is offered. Returns what was done."""
    phase = wait_turn(page)
    if table(page).get_attribute("data-state") == "finished":
        return "finished"
    mine = page.locator(":is(.hand.mine, .hand.pool) button.card:not([disabled])")
    if write_off and page.get_by_role("button", name="Write off", exact=True).count():
        page.get_by_role("button", name="Write off", exact=True).click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        dialog.get_by_role("button", name="Confirm write-off").click()
        return "writeoff"
    if phase == "auction":
        bids = page.locator(".actions .bids button")
        if bid and bids.count():
            bids.first.click()
            return "bid"
        page.get_by_role("button", name="Pass", exact=True).click()
        return "pass"
    if phase == "passing":
        mine.first.click()
        page.locator(".seat button.give").first.click()
        return "give"
    if phase == "contract":
        page.locator(".actions .contracts button").first.click()
        return "contract"
    if phase == "play":
        mine.first.click()
        choices = page.locator(".actions .choices button")
        if choices.count():
            choices.first.click()
        return "play"
    # any other phase (talon choice, discard, redeal, contra...): the first button the page
    # offers, else the first card that may be chosen
    offered = page.locator(".actions button")
    if offered.count():
        offered.first.click()
    else:
        mine.first.click()
        choices = page.locator(".actions .choices button")
        if choices.count():
            choices.first.click()
    return "other"


_TURN_OR_ROW = """(rows) => {
  const table = document.querySelector("#table");
  const scored = document.querySelectorAll(".scoresheet tr.deal-row").length;
  return Boolean(table) && (["my-turn", "finished"].includes(table.dataset.state) || scored > rows);
}"""


def play_deal(page: Page, **how: bool) -> list[str]:
    """Play this seat's turns until one more deal is on the scoresheet; the moves made."""
    rows = deal_rows(page).count()
    done: list[str] = []
    while True:
        page.wait_for_function(_TURN_OR_ROW, arg=rows)
        if deal_rows(page).count() > rows:
            return done
        done.append(play_turn(page, **how))
        expect(table(page)).not_to_have_attribute("data-state", "sending")
