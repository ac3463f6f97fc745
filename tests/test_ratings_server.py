"""Rated tables on a real server, SQLite and PostgreSQL: only signed-in players sit at them, a
finished match moves every participant's rating once, and the leaderboard and the profile
show it (every template: each family, partnerships included)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from thousand.rules import TEMPLATES, template_rules
from thousand.server.ratings import Family, family_of

from .server_support import SHORT_MATCH, Client, Server, play_to_end
from .test_accounts import Browser, fresh, seat_rows, server_on

MEDIUM = {"kind": "bot", "level": "medium"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with server_on(request.param, tmp_path_factory.mktemp("ratings")) as s:
        yield s


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server_on("sqlite", tmp_path_factory.mktemp("ratings")) as s:
        yield s


def rated_table(browser: Browser, template: str) -> dict[str, Any]:
    players = template_rules(template).players_count
    body = {
        "template": template,
        "rules": SHORT_MATCH,
        "seats": [{"kind": "human"}] + [MEDIUM] * (players - 1),
        "rated": True,
    }
    answer = browser.request("POST", "/tables", body)
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    assert table["rated"] is True
    return table


def test_a_guest_cannot_sit_at_a_rated_table(server: Server) -> None:
    owner = Browser(server)
    owner.sign_up(fresh())
    table = rated_table(owner, "russian")
    before = seat_rows(server, table["id"])
    guest = Browser(server)
    answer = guest.sit(table["id"], "Guest")
    assert answer.status_code == 403
    assert answer.json()["detail"] == (
        f"table {table['id']} is rated: only a signed-in player may take its seats"
    )
    assert seat_rows(server, table["id"]) == before


def test_a_table_is_casual_unless_chosen_rated(server: Server) -> None:
    table = server.new_table([{"kind": "human"}, MEDIUM, MEDIUM], SHORT_MATCH)
    assert table["rated"] is False
    guest = Browser(server)
    assert guest.sit(table["id"], "Guest").status_code == 201


def play_rated(server: Server, template: str) -> tuple[str, str, dict[str, Any]]:
    """A signed-in player plays a rated match against medium bots to its end: the player's
    name, the table's id, and the event that ended it."""
    name = fresh()
    browser = Browser(server)
    browser.sign_up(name)
    table = rated_table(browser, template)
    taken = browser.sit(table["id"])
    assert taken.status_code == 201, taken.text
    seat = taken.json()["seat"]
    client = Client(server, table["id"], taken.json()["token"], seat)
    try:
        won = play_to_end(client, random.Random(template))
        # the seats as told once the match is rated carry the ratings
        told = [m for m in client.messages if _finished_seats(m)]
        last = told[-1] if told else client.recv_until(_finished_seats)
        assert all(isinstance(s["rating"], int) for s in last["seats"]), last
    finally:
        client.close()
    return name, table["id"], won


def _finished_seats(message: dict[str, Any]) -> bool:
    return bool(message["type"] == "seats" and message["status"] == "finished")


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_rates_its_match(sqlite_server: Server, template: str) -> None:
    check_rated_match(sqlite_server, template)


@pytest.mark.parametrize("template", ["russian", "tysiac-2p", "four-player", "four-player-a"])
def test_a_rated_match_moves_the_ratings_once(server: Server, template: str) -> None:
    """One template of each family, on SQLite and PostgreSQL."""
    check_rated_match(server, template)


def check_rated_match(server: Server, template: str) -> None:
    family = family_of(template_rules(template))
    name, table_id, won = play_rated(server, template)
    profile = server.get(f"/api/players/{name}").json()
    assert profile["name"] == name
    (entry,) = profile["history"]
    assert entry["table"] == table_id and entry["family"] == family
    assert entry["before"] == 1000 and entry["rating"] != 1000
    (game,) = profile["games"]
    assert (game["id"], game["rated"], game["place"]) == (table_id, True, entry["place"])
    assert game["record"] == f"/games/{table_id}/record" and game["replay"].endswith(table_id)
    winner = won["event"]["winner"]
    first = winner == game["seat"] or _partners(template, winner, game["seat"])
    assert (entry["place"] == 1) == first
    (rating,) = profile["ratings"]
    assert (rating["family"], rating["games"], rating["rating"]) == (family, 1, entry["rating"])
    assert rating["wins"] == (1 if first else 0)
    if first:
        assert entry["rating"] > 1000
    board = server.get(f"/api/ratings/{family}?limit=200").json()
    shown = {(b["kind"], b["name"] or b["level"]): b for b in board}
    assert shown[("player", name)]["rating"] == entry["rating"]
    assert ("bot", "medium") in shown


def _partners(template: str, a: int, b: int) -> bool:
    return template_rules(template).players_partnerships == "across" and a % 2 == b % 2


def test_the_leaderboard_refuses_an_unknown_family(server: Server) -> None:
    answer = server.get("/api/ratings/five-player")
    assert answer.status_code == 422
    assert "family" in answer.json()["detail"]


def test_no_profile_for_an_unknown_name(server: Server) -> None:
    answer = server.get("/api/players/nobody-here")
    assert answer.status_code == 404
    assert answer.json()["detail"] == "there is no player 'nobody-here'"


def test_a_deleted_account_takes_its_ratings_along(server: Server) -> None:
    name, table_id, _ = play_rated(server, "russian")
    browser = Browser(server)
    assert browser.sign_in(name).status_code == 200
    answer = browser.request("DELETE", "/api/account", {"password": "correct horse battery"})
    assert answer.status_code == 204, answer.text
    assert server.get(f"/api/players/{name}").status_code == 404
    board = server.get(f"/api/ratings/{Family.THREE}?limit=200").json()
    assert name not in [b["name"] for b in board]
    record = server.get(f"/games/{table_id}/record").text
    assert "deleted player" in record
