"""What people read for names: a template by its title in the page's language (the identifier
stays in records and APIs), and a bot by one name per level ("Medium bot"), translated, the
same in the lobby's lists, at the table and in the replay."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import SHORT_MATCH, Server
from .support import catalogue, open_page, seat_at, shot, wait_turn


def titles(server: Server, lang: str) -> dict[str, str]:
    about = server.get(f"/api/templates?lang={lang}").json()["templates"]
    return {t["name"]: t["title"] for t in about}


def test_the_lobby_names_templates_by_their_titles_in_each_language(
    page: Page, server: Server
) -> None:
    open_page(page, server, "/")
    for lang in ("en", "ru", "uk", "pl", "et"):
        page.get_by_role("combobox").first.select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        named = titles(server, lang)
        expect(page.get_by_role("radio", name=named["russian"], exact=True)).to_be_checked()
        about = page.locator(".template-about")
        heading = catalogue(lang)["lobby.differences"].format(template=named["russian"])
        expect(about.get_by_role("heading", name=heading)).to_be_visible()
        page.get_by_role("radio", name=named["tysiac"], exact=True).check()
        expect(about.get_by_role("heading", name=named["tysiac"])).to_be_visible()
        # the sentence about russian says its title, not the identifier
        expect(about.locator("li").first).to_contain_text(named["russian"])
        expect(about.locator("li").first).not_to_contain_text("russian")
        if lang == "ru":
            shot(page, "lobby-titles-russian")
        page.get_by_role("radio", name=named["russian"], exact=True).check()


def test_bots_have_one_translated_name_in_every_list_and_at_the_table(
    page: Page, server: Server
) -> None:
    bot = {"kind": "bot", "level": "easy"}
    finished = server.new_table([bot, {"kind": "bot", "level": "medium"}, bot], SHORT_MATCH, 3)
    for _ in range(1200):
        if server.get(f"/tables/{finished['id']}").json()["status"] == "finished":
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the bots' match did not finish")
    playing = server.new_table([{"kind": "human"}, {"kind": "bot", "level": "medium"}, bot])
    token = server.sit(playing["id"], "Ann", 0)["token"]

    open_page(page, server, "/")
    for lang in ("en", "ru"):
        if lang == "ru":
            page.get_by_label("Language").select_option("ru")
        words = catalogue(lang)
        easy, medium = words["bot.easy"], words["bot.medium"]
        twice = [words["bot.at_seat"].format(name=easy, n=n) for n in (1, 3)]
        game = page.locator(f'#finished-games li:has(a[href="#/replay/{finished["id"]}"])')
        expect(game).to_contain_text(f"{twice[0]}, {medium}, {twice[1]}")
        expect(game).not_to_contain_text("?")
        expect(game).not_to_contain_text("easy-bot")
        live = page.locator(f'#live-tables li:has(a[href="#/watch/{playing["id"]}"])')
        expect(live).to_contain_text(f"Ann, {medium}, {easy}")

    seat_at(page, server, playing["id"], 0, token)
    wait_turn(page)
    words = catalogue("ru")
    expect(page.get_by_role("region", name=words["bot.medium"], exact=True)).to_be_visible()
    expect(page.get_by_role("region", name=words["bot.easy"], exact=True)).to_be_visible()
    expect(page.locator("body")).not_to_contain_text(re.compile(r"\w+-bot-\d"))

    open_page(page, server, f"/replay/{finished['id']}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(titles(server, "ru")["russian"])
    expect(page.locator("body")).not_to_contain_text(re.compile(r"\w+-bot-\d"))
