"""The table on a phone-sized screen (390 x 844): nothing wider than the screen, every control
reachable, every player's column of the scoresheet and of a deal's result shown."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, expect

from ..server_support import Server
from .support import (
    ARTIFACTS,
    deal_rows,
    open_page,
    play_deal,
    seat_at,
    table_against_bots,
    wait_turn,
)

WIDTH = 390

# Every element's left and right edge and width, measured in one step of the page: the bots play
# on while the test measures, and a table drawn again between two measures was a flaky failure.
_EDGES = """els => els.map(e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.right, r.width];
})"""


def assert_on_screen(elements: Locator, at_least: int) -> None:
    """At least `at_least` elements, each shown and inside the screen's width."""
    edges = elements.evaluate_all(_EDGES)
    assert len(edges) >= at_least, edges
    for left, right, width in edges:
        assert width > 0 and left >= 0 and right <= WIDTH, (left, right, width)


def test_the_table_fits_a_phone(browser: Browser, server: Server) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        open_page(page, server, "/")
        expect(page.get_by_role("button", name="Create table")).to_be_visible()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= WIDTH, width
        page.screenshot(path=str(ARTIFACTS / "phone-lobby.png"), full_page=True)
        table_id, token = table_against_bots(server, seed=4)
        seat_at(page, server, table_id, 0, token)
        wait_turn(page)
        expect(page.locator(".hand.mine button.card")).to_have_count(7)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= WIDTH, width
        assert_on_screen(page.locator(".hand.mine button.card"), at_least=7)
        pass_button = page.get_by_role("button", name="Pass", exact=True)
        expect(pass_button).to_be_in_viewport()
        page.screenshot(path=str(ARTIFACTS / "phone-table.png"), full_page=True)
        pass_button.tap()
        expect(page.locator(".auction-line")).to_contain_text("Ann: ")

        # after a deal every column of the scoresheet and of the deal's result is on the screen
        play_deal(page)
        sheet = page.get_by_role("region", name="Scoresheet")
        expect(deal_rows(page)).to_have_count(1)
        result = page.get_by_role("region", name="Deal 1: the result")
        columns = sheet.locator("td.score, thead th:visible, tfoot td.total")
        expect(result).to_be_visible()
        assert_on_screen(columns.or_(result.locator("th, td")), at_least=10 + 24)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= WIDTH, width
        page.screenshot(path=str(ARTIFACTS / "phone-scoresheet.png"), full_page=True)
    finally:
        context.close()
