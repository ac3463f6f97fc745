"""Screenshots of the web table in every phase, for docs/web.md: the bidding, the talon and the
passing, the play, a deal's result and the end of a match.

A script that writes pictures, never a test:

    python benchmarks/web_screens.py [--out docs/screens] [--chromium /usr/bin/chromium]

It starts a ``thousand serve`` of this checkout on a free port (a temporary data folder), opens
tables against easy bots with fixed seeds in Chromium (reduced motion, so that no card is
caught in flight) and plays them by clicking, as the browser tests do, saving one PNG per phase
into ``--out``. The seeds make the same pictures again while the page and the bots are unchanged.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the browser tests' helpers: this script plays as they do

from tests.browser.support import (  # noqa: E402
    CHROMIUM,
    LAUNCH_ARGS,
    play_turn,
    seat_at,
    table,
    table_against_bots,
    wait_turn,
)
from tests.server_support import Server  # noqa: E402

#: a short match (to 300, no barrel) so that its end comes in a few deals
SHORT = {"game.target": 300, "barrel.threshold": None, "scoring.failed_contract": "each-defender"}
MOVES = 600


def save(page: Page, out: Path, name: str, scroll: bool = True) -> None:
    """A PNG of the window: scrolled to the top (or as it is), once the announcements are gone."""
    expect(page.locator(".toast")).to_have_count(0, timeout=10_000)
    if scroll:
        page.evaluate("() => window.scrollTo(0, 0)")
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def step(page: Page, **how: bool) -> str:
    done = play_turn(page, **how)
    expect(table(page)).not_to_have_attribute("data-state", "sending")
    return done


def one_deal(page: Page, server: Server, out: Path, seed: int) -> None:
    """The bidding, the passing (this seat declares), the play under a trump, the result."""
    table_id, token = table_against_bots(server, seed=seed, name="Ann")
    seat_at(page, server, table_id, 0, token)
    for _ in range(MOVES):
        if wait_turn(page) == "auction":
            break
        step(page, bid=True)
    save(page, out, "auction")
    for _ in range(MOVES):
        phase = wait_turn(page)
        if phase == "passing" and page.locator(".seat button.give").count() == 0:
            # a card picked: the seats offer to take it
            page.locator(".hand.mine button.card:not([disabled])").first.click()
            expect(page.locator(".seat button.give").first).to_be_visible()
            save(page, out, "passing")
            page.locator(".seat button.give").first.click()
            expect(table(page)).not_to_have_attribute("data-state", "sending")
            break
        step(page, bid=True)
    trump = page.get_by_role("img", name=re.compile("^Trump of this trick: "))
    for _ in range(MOVES):
        # a trick under way (not the last one, finished) under a trump
        phase = wait_turn(page)
        under_way = not page.locator(".trick.finished").count()
        if phase == "play" and trump.count() and under_way:
            break
        step(page, bid=True)
    save(page, out, "play")
    result = page.get_by_role("region", name=re.compile("the result$"))
    for _ in range(MOVES):
        if result.count():
            break
        step(page, bid=True)
    expect(result).to_be_visible()
    save(page, out, "deal-result")


def match_over(page: Page, server: Server, out: Path, seed: int) -> None:
    table_id, token = table_against_bots(server, seed=seed, name="Ann", rules=SHORT)
    seat_at(page, server, table_id, 0, token)
    for _ in range(MOVES * 4):
        if step(page, bid=True) == "finished":
            break
    over = page.get_by_role("region", name=re.compile("win"))
    expect(over).to_be_visible()
    # the last deal's result put away: the end of the match under the felt, with the scoresheet
    result = page.get_by_role("region", name=re.compile("the result$"))
    result.get_by_role("button", name="Close").click()
    over.evaluate("el => el.scrollIntoView({block: 'center'})")
    save(page, out, "match-over", scroll=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--seed", type=int, default=11, help="the deal's table (the match: +1)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data), None, "--bot-delay", "0.02").start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=LAUNCH_ARGS)
                context = browser.new_context(
                    viewport={"width": 960, "height": 820},
                    locale="en-US",
                    reduced_motion="reduce",
                )
                context.set_default_timeout(20_000)
                page = context.new_page()
                one_deal(page, server, args.out, args.seed)
                match_over(page, server, args.out, args.seed + 1)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
