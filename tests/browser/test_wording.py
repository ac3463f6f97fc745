"""Counts in words: plural forms per language (Intl.PluralRules), never "player(s)" or
"игроков: 3"."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ..server_support import Server
from .support import open_page, seat_at


def test_counts_are_written_with_the_plural_form_of_each_language(
    page: Page, server: Server
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    table = server.new_table(seats, seed=4)
    taken = server.sit(table["id"], "Ann", 0)
    seat_at(page, server, str(table["id"]), 0, str(taken["token"]))
    waiting = page.get_by_role("heading", level=2).first
    expect(waiting).to_have_text("Waiting for 1 more player")
    for lang, words in (
        ("ru", "Ждём ещё 1 игрока"),
        ("uk", "Чекаємо ще 1 гравця"),
        ("pl", "Czekamy jeszcze na 1 gracza"),
        ("et", "Ootame veel 1 mängijat"),
    ):
        page.get_by_role("combobox").first.select_option(lang)
        expect(waiting).to_have_text(words)

    # the lobby's templates: "3 players", "3 игрока", "2 gracze", "4 mängijat"...
    open_page(page, server, "/")
    page.get_by_role("combobox").first.select_option("en")
    players = page.locator(".template-players")
    expect(players.first).to_have_text("3 players")
    shown = {
        "ru": {"2 игрока", "3 игрока", "4 игрока"},
        "uk": {"2 гравці", "3 гравці", "4 гравці"},
        "pl": {"2 gracze", "3 gracze", "4 gracze"},
        "et": {"2 mängijat", "3 mängijat", "4 mängijat"},
    }
    for lang, allowed in shown.items():
        page.get_by_role("combobox").first.select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(players.first).to_have_text(re.compile("^(" + "|".join(allowed) + ")$"))
        assert set(players.all_inner_texts()) <= allowed, (lang, players.all_inner_texts())
