"""The ratings on the page: a signed-in player creates a rated match, and after it the profile
shows the rating, its history as a chart and the game with its replay and record; the
leaderboard lists the player (a link to the profile) and the bots by their names."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Page, expect

from ..server_support import Client, Server, play_to_end
from ..test_accounts import PASSWORD, Browser, fresh
from ..test_ratings_server import rated_table
from .support import catalogue, open_page


def test_the_rated_box_shows_for_a_signed_in_player_only(page: Page, server: Server) -> None:
    open_page(page, server, "/")
    expect(page.locator("#create-table")).to_be_visible()
    expect(page.locator("#rated")).to_have_count(0)
    name = fresh()
    Browser(server).sign_up(name)
    answer = page.request.post(
        f"{server.http}/api/session",
        data={"name": name, "password": PASSWORD},
        headers={"Origin": server.http},
    )
    assert answer.status == 200, answer.text()
    page.reload()
    words = catalogue("en")
    expect(page.get_by_label(words["lobby.rated"])).to_be_visible()
    page.get_by_label(words["lobby.rated"]).check()
    page.locator("#create-table").click()
    expect(page).to_have_url(re.compile(r"#/table/[0-9a-f]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/tables/{table_id}").json()["rated"] is True


def test_the_profile_and_the_leaderboard_after_a_rated_match(page: Page, server: Server) -> None:
    name = fresh("Ann")
    browser = Browser(server)
    browser.sign_up(name)
    table = rated_table(browser, "russian")
    taken = browser.sit(table["id"]).json()
    client = Client(server, table["id"], taken["token"], taken["seat"])
    try:
        play_to_end(client, random.Random(3))
    finally:
        client.close()
    profile = server.get(f"/api/players/{name}").json()
    rating = profile["ratings"][0]["rating"]
    words = catalogue("en")

    open_page(page, server, f"/player/{name}")
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.locator("#profile-ratings")).to_contain_text(str(rating))
    expect(page.locator("#profile-ratings")).to_contain_text(words["ratings.family.three-player"])
    expect(page.locator("#rating-chart polyline")).to_have_count(1)
    game = page.locator(f"#profile-games li[data-game='{table['id']}']")
    expect(game.get_by_role("link", name=words["player.replay"])).to_have_attribute(
        "href", f"/#/replay/{table['id']}"
    )
    expect(game.get_by_role("link", name=words["player.record"])).to_have_attribute(
        "href", f"/games/{table['id']}/record"
    )

    page.get_by_role("link", name=words["ratings.family.three-player"]).click()
    board = page.locator("#leaderboard")
    expect(board.get_by_role("link", name=name)).to_be_visible()
    expect(board).to_contain_text(words["bot.medium"])
    board.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()


def test_an_empty_family_says_so(page: Page, server: Server) -> None:
    open_page(page, server, "/ratings/partnerships")
    expect(page.locator("#ratings-empty")).to_be_visible()
