"""Accounts in the page (real Chromium): sign up, the signed-in name in the header, a table
taken under the account's name (the page sends the CSRF token), change the password, sign out,
sign in, a wrong password's one sentence, delete the account; and names that hold <script> and
markup shown as text wherever they appear (the header, the lobby's lists, the table's seats)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from thousand.client.link import new_claim

from ..server_support import Server
from .support import open_page, shot, wait_turn

SCRIPT_NAME = "<script>pwned=1</script>"
MARKUP_NAME = "<img src=x onerror=pwned=1>"
PASSWORD = "browser password"

#: elements a name's markup would make, were it parsed as HTML
INJECTED = "script:not([src]), img[src='x'], img[onerror]"


def header(page: Page) -> None:
    expect(page.locator("#account-area")).to_be_visible()


def sign_up_in_page(page: Page, server: Server, name: str, password: str) -> None:
    open_page(page, server, "/account")
    form = page.locator("#sign-up-form")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password").fill(password)
    form.get_by_role("button", name="Create an account").click()


def not_injected(page: Page) -> None:
    assert page.locator(INJECTED).count() == 0
    assert page.evaluate("() => typeof window.pwned") == "undefined"


def test_an_account_in_the_page_from_sign_up_to_deletion(page: Page, server: Server) -> None:
    sign_up_in_page(page, server, SCRIPT_NAME, PASSWORD)
    header(page)
    expect(page.locator("#account-name")).to_have_text(SCRIPT_NAME)
    expect(page.locator("#playing-as strong")).to_have_text(SCRIPT_NAME)
    not_injected(page)

    # a second account, seated at an open table through the API, as another browser would
    other = httpx.Client(base_url=server.http, timeout=20)
    signed = other.post("/api/accounts", json={"name": MARKUP_NAME, "password": PASSWORD})
    assert signed.status_code == 201, signed.text
    open_table = server.new_table([{"kind": "human"}] * 2 + [{"kind": "bot", "level": "easy"}])
    sat = other.post(
        f"/tables/{open_table['id']}/seats",
        json={"claim": new_claim()},
        headers={"X-CSRF-Token": signed.json()["csrf"]},
    )
    assert sat.status_code == 201, sat.text

    # the page creates a table and sits at it under the account's name (CSRF token and all)
    page.get_by_role("button", name="Create table").click()
    wait_turn(page)
    expect(page.get_by_role("region", name="you", exact=True)).to_contain_text(SCRIPT_NAME)
    not_injected(page)
    shot(page, "account-table")
    # the other account's seat, as a spectator sees the table waiting for players
    open_page(page, server, f"/watch/{open_table['id']}")
    seats = page.get_by_role("region", name="Table").get_by_role("listitem")
    expect(seats.first).to_have_text(f"Seat 1: {MARKUP_NAME}")
    not_injected(page)

    open_page(page, server, "/")
    expect(page.locator("#open-tables")).to_contain_text(MARKUP_NAME)
    expect(page.locator("#live-tables")).to_contain_text(SCRIPT_NAME)
    not_injected(page)
    shot(page, "account-lobby")
    # a guest fills the other seat: the match starts, and a spectator sees each seat by name
    server.sit(open_table["id"], "Guest", 1)
    open_page(page, server, f"/watch/{open_table['id']}")
    expect(page.get_by_role("region", name=MARKUP_NAME, exact=True)).to_be_visible()
    not_injected(page)

    # change the password, sign out, sign in with the new one (a wrong one says so)
    open_page(page, server, "/account")
    shot(page, "account-screen")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill("another password")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#toasts")).to_contain_text("Your password is changed")
    page.locator("#sign-out").click()
    expect(page.locator("#sign-in-link")).to_be_visible()
    form = page.locator("#sign-in-form")
    form.get_by_label("Name").fill(SCRIPT_NAME)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Sign in").click()
    expect(page.locator("#error")).to_contain_text("Not done: the name or the password is wrong")
    form.get_by_label("Password").fill("another password")
    form.get_by_role("button", name="Sign in").click()
    expect(page.locator("#account-name")).to_have_text(SCRIPT_NAME)

    # signed in, leaving a table is a change made with the cookie: the page sends the token
    page.get_by_role("button", name="Create table").click()
    wait_turn(page)
    left = page.evaluate("() => location.hash")
    page.locator("#leave-table").click()
    page.get_by_role("dialog").get_by_role("button", name="Leave", exact=True).click()
    expect(page.locator("#lobby-lists")).to_be_visible()
    assert server.get(f"/tables/{left.rsplit('/', 1)[1]}").json()["status"] == "closed"

    # delete the account: its table stays, under "deleted player"
    open_page(page, server, "/account")
    page.locator("#delete-form").get_by_label("Password").fill("another password")
    page.locator("#delete-account").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete my account").click()
    expect(page.locator("#sign-in-link")).to_be_visible()
    expect(page.locator("#live-tables")).to_contain_text("deleted player")
    expect(page.locator("#lobby-lists")).not_to_contain_text(SCRIPT_NAME)
    answer = httpx.post(
        f"{server.http}/api/session", json={"name": SCRIPT_NAME, "password": "another password"}
    )
    assert answer.status_code == 401
