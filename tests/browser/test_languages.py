"""The page in five languages: the picker changes every string of the page, the card names and
<html lang>, and the choice is kept for the next visit."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import catalogue, play_turn, seat_at, shot, table_against_bots, wait_turn

PLACEHOLDER = re.compile(r"\{\w+\}")


def card_names(lang: str) -> set[str]:
    """Every card's name in ``lang``, as the catalogue builds it."""
    words = catalogue(lang)
    names = set()
    for rank in "9TJQKA":
        for suit in "cdhs":
            text = words["card.name"].format(
                rank=words[f"rank.{rank}"], suit=words[f"suitof.{suit}"]
            )
            names.add(text[0].upper() + text[1:])
    return names


def english_left(page: Page, lang: str, allowed: list[str]) -> list[str]:
    """The English strings of the page's catalogue (those that differ in ``lang``) that are
    still to be read on the page, leaving out what the server names (players, templates)."""
    english, other = catalogue("en"), catalogue(lang)
    text = page.locator("body").inner_text()
    for word in allowed:
        text = text.replace(word, " ")
    left = []
    for key, value in english.items():
        if PLACEHOLDER.search(value) or value == other[key] or len(value) < 3:
            continue
        if re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text):
            left.append(f"{key}: {value}")
    return left


def test_switching_the_language_changes_every_string(page: Page, server: Server) -> None:
    table_id, token = table_against_bots(server, seed=4)
    seat_at(page, server, table_id, 0, token)
    wait_turn(page)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    labels = page.locator(".hand.mine button.card")
    english = set(labels.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))"))
    assert english <= card_names("en"), english

    page.get_by_label("Language").select_option("ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("button", name="Пас", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
    russian = set(labels.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))"))
    assert russian <= card_names("ru"), russian
    assert len(russian) == len(english) == 7
    seats = server.get(f"/tables/{table_id}").json()["seats"]
    names = [s["name"] for s in seats if s["name"]]
    assert english_left(page, "ru", names) == []
    expect(page.get_by_label("Язык")).to_be_visible()
    expect(page.get_by_role("heading", name="Запись")).to_be_visible()
    shot(page, "table-russian")

    # the choice is kept: a reload stays in Russian; every other language works the same way
    page.reload()
    wait_turn(page)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("button", name="Пас", exact=True)).to_be_visible()
    for lang, pass_word in (("pl", "Pas"), ("uk", "Пас"), ("et", "Pass")):
        page.get_by_role("combobox").first.select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_role("button", name=pass_word, exact=True)).to_be_visible()
        shown = set(labels.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))"))
        assert shown <= card_names(lang), (lang, shown)
        assert english_left(page, lang, names) == [], lang


def test_the_lobby_speaks_the_language_with_the_servers_rule_texts(
    page: Page, server: Server
) -> None:
    page.goto(f"{server.http}/?pace=0#/")
    page.get_by_label("Language").select_option("pl")
    expect(page.get_by_role("button", name="Utwórz stół")).to_be_visible()
    polish = server.get("/api/templates?lang=pl").json()["templates"]
    russian = next(t for t in polish if t["name"] == "russian")
    expect(page.locator(".template-about")).to_contain_text(russian["description"])
    # what the server says (the rule texts, translated by the server's catalogues) is left out
    theirs = [t["title"] for t in polish] + [t["summary"] for t in polish]
    theirs += [russian["description"]]
    assert english_left(page, "pl", sorted(theirs, key=len, reverse=True)) == []
    shot(page, "lobby-polish")


def test_the_narration_follows_a_language_switch(page: Page, server: Server) -> None:
    """The last line said (a move, the deal) is put in words again in the new language."""
    table_id, token = table_against_bots(server, seed=4)
    seat_at(page, server, table_id, 0, token)
    play_turn(page)
    wait_turn(page)
    said = page.locator(".said")
    english = said.inner_text()
    assert re.search(r"[a-z]{3}", english), english
    page.get_by_label("Language").select_option("ru")
    expect(said).not_to_have_text(english)
    expect(said).to_have_text(re.compile("[А-Яа-яЁё]{3}"))
