"""The lobby: the custom-rules editor checked live by the server, a table with a friend through
the invite link, and watching a table being played."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from ..server_support import Server
from .support import open_page, shot, wait_turn


def test_custom_rules_are_checked_as_you_type_and_make_the_table(
    page: Page, server: Server
) -> None:
    open_page(page, server, "/")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_text("Custom rules").click()
    page.get_by_label("Parameter").select_option("game.target")
    page.get_by_role("button", name="Add", exact=True).click()
    value = page.get_by_label("Value of game.target")
    expect(value).to_be_focused()
    value.fill("7")
    problems = page.locator("#rules-check .problems")
    expect(problems).to_contain_text("game.target")
    expect(page.get_by_role("button", name="Create table")).to_be_disabled()
    shot(page, "rules-problem")
    value.fill("2000")
    expect(page.locator("#rules-check")).to_contain_text("These rules are playable.")
    expect(page.locator("#rules-check li[data-parameter='game.target']")).to_contain_text("2000")
    page.get_by_label("Parameter").select_option("bidding.max")
    page.get_by_role("button", name="Add", exact=True).click()
    page.get_by_label("Value of bidding.max").fill("400")
    expect(page.locator("#rules-check li[data-parameter='bidding.max']")).to_be_visible()
    page.get_by_role("button", name="Remove bidding.max").click()
    expect(page.locator("#rules-check li[data-parameter='bidding.max']")).to_have_count(0)
    expect(page.get_by_role("button", name="Create table")).to_be_enabled()
    shot(page, "rules-ok")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"#/table/\w+"))
    wait_turn(page)
    table_id = page.url.rsplit("/", 1)[-1]
    rules = server.get(f"/tables/{table_id}").json()["rules"]
    assert rules == {"game.target": 2000}


def test_a_friend_joins_by_the_invite_link_and_a_third_watches(
    browser: Browser, page: Page, server: Server
) -> None:
    open_page(page, server, "/")
    page.get_by_label("Your name").fill("Ann")
    # a newcomer's bots are medium: they play sensibly, at once
    expect(page.get_by_label("Seat 3")).to_have_value("bot:medium")
    page.get_by_label("Seat 2").select_option("human")
    page.get_by_role("button", name="Create table").click()
    link = page.get_by_label("Invite link")
    expect(link).to_have_value(re.compile(r"/#/join/\w+$"))
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    shot(page, "invite")
    table_id = (link.input_value()).rsplit("/", 1)[-1]

    friend = browser.new_context(locale="en-US").new_page()
    watcher = browser.new_context(locale="en-US").new_page()
    try:
        open_page(friend, server, f"/join/{table_id}")
        friend.get_by_label("Your name").fill("Boris")
        friend.get_by_role("button", name="Take the seat").click()
        expect(friend).to_have_url(re.compile(f"#/table/{table_id}$"))
        expect(friend.locator(".hand.mine button.card")).to_have_count(7)
        expect(page.locator(".hand.mine button.card")).to_have_count(7)
        expect(page.get_by_label("Invite link")).to_have_count(0)
        expect(page.get_by_role("region", name="Boris")).to_be_visible()
        expect(friend.get_by_role("region", name="Ann")).to_be_visible()

        open_page(watcher, server, "/")
        watcher.locator(f'#live-tables a[href="#/watch/{table_id}"]').click()
        expect(watcher.locator(".watching")).to_be_visible()
        expect(watcher.locator(".opponents .seat")).to_have_count(3)
        expect(watcher.locator(".hand.mine")).to_have_count(0)
        expect(watcher.locator("#table")).to_have_attribute("data-state", "waiting")
        shot(watcher, "watching")
    finally:
        friend.context.close()
        watcher.context.close()


def test_the_rules_link_goes_to_the_reference_in_the_pages_language(
    page: Page, server: Server
) -> None:
    open_page(page, server, "/")
    page.get_by_label("Language").select_option("uk")
    page.get_by_role("link", name="Правила").click()
    expect(page).to_have_url(re.compile(r"/reference/uk/$"))
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    header = page.locator(".reference-header")
    expect(header).to_have_css("background-color", "rgb(123, 31, 43)")
    shot(page, "reference")
    open_page(page, server, "/rules")
    expect(page).to_have_url(re.compile(r"/reference/uk/$"))


def test_a_table_that_is_not_there_says_so(page: Page, server: Server) -> None:
    open_page(page, server, "/")
    key, value = "thousand.seat.no-such-table", '{"seat": 0, "token": "not-a-token"}'
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])
    open_page(page, server, "/table/no-such-table")
    expect(page.locator("#table .problem")).to_have_text("There is no such table.")
    open_page(page, server, "/table/another-table")
    expect(page.locator("#table .problem")).to_have_text(
        "You have no seat at this table in this browser."
    )
    expect(page.get_by_role("link", name="Watch")).to_have_attribute(
        "href", "#/watch/another-table"
    )
