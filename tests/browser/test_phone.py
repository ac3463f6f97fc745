"""The table on a phone-sized screen (390 x 844): nothing wider than the screen, every control
reachable, every player's column of the scoresheet and of a deal's result shown."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

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


def test_the_table_fits_a_phone(browser: Browser, server: Server) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    try:
        page = context.new_page()
        open_page(page, server, "/")
        expect(page.get_by_role("button", name="Create table")).to_be_visible()
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width
        page.screenshot(path=str(ARTIFACTS / "phone-lobby.png"), full_page=True)
        table_id, token = table_against_bots(server, seed=4)
        seat_at(page, server, table_id, 0, token)
        wait_turn(page)
        expect(page.locator(".hand.mine button.card")).to_have_count(7)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width
        for card in page.locator(".hand.mine button.card").all():
            box = card.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
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
        cells = columns.or_(result.locator("th, td"))
        assert cells.count() >= 10 + 24
        for cell in cells.all():
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, width
        page.screenshot(path=str(ARTIFACTS / "phone-scoresheet.png"), full_page=True)
    finally:
        context.close()
