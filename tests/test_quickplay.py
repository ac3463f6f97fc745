"""Quick play on a real server, over SQLite and PostgreSQL: three players of russian sit at one
table, a lone player of every template gets bots when its wait is over, far-apart ratings are
not matched, and every refusal is one sentence that changes nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from thousand.rules import TEMPLATES, rules_from_record
from thousand.server import quickplay
from thousand.server.quickplay_matcher import QUICK_BOT
from thousand.server.rating_store import ratings
from thousand.server.ratings import Family, Rating, participant_of_account
from thousand.server.storage import Store, database_url

from .quickplay_support import Ticket, join
from .server_support import Client, Server, running_on


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with running_on(request.param, tmp_path_factory.mktemp("quickplay")) as s:
        yield s


@pytest.fixture
def store(server: Server) -> Iterator[Store]:
    """The server's own database, opened beside it."""
    s = Store(database_url(server.database, server.data))
    yield s
    s.close()


def test_three_players_joining_russian_sit_at_one_table(server: Server) -> None:
    tickets = [join(server, "russian", 300, name=n) for n in ("Ann", "Boris", "Chen")]
    seated = [t.seated() for t in tickets]
    tables = {s["table"] for s in seated}
    assert len(tables) == 1
    table_id = tables.pop()
    assert sorted(s["seat"] for s in seated) == [0, 1, 2]
    table = server.get(f"/tables/{table_id}").json()
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human"] * 3
    names = {s["seat"]: n for s, n in zip(seated, ("Ann", "Boris", "Chen"), strict=True)}
    assert [s["name"] for s in table["seats"]] == [names[i] for i in range(3)]
    for ticket, answer in zip(tickets, seated, strict=True):
        # the seat's token is given once, to the ticket's holder, and acts for the seat
        assert answer["token"] and answer["websocket"] == f"/tables/{table_id}/ws"
        again = ticket.state()
        assert again["state"] == "seated" and again["table"] == table_id
        assert again["token"] is None
        client = Client(server, table_id, answer["token"], answer["seat"])
        try:
            assert client.messages[0]["seat"] == answer["seat"]
            assert client.view is not None
        finally:
            client.close()


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_a_lone_player_plays_every_template_now_with_bots_after_its_wait(
    server: Server, template: str
) -> None:
    ticket = join(server, template, 1, name="Solo")
    answer = ticket.seated()
    assert answer["waited"] >= 1
    table = server.get(f"/tables/{answer['table']}").json()
    seats = table["seats"]
    assert len(seats) == rules_from_record(template, {}).players_count
    for s in seats:
        if s["seat"] == answer["seat"]:
            assert (s["kind"], s["name"]) == ("human", "Solo")
        else:
            assert (s["kind"], s["level"]) == ("bot", QUICK_BOT)
    assert table["status"] == "playing"
    client = Client(server, answer["table"], answer["token"], answer["seat"])
    try:
        assert client.messages[0]["seat"] == answer["seat"]
        assert client.view is not None
    finally:
        client.close()


def test_far_apart_ratings_are_not_matched_while_the_gap_rule_forbids_it(
    server: Server, store: Store
) -> None:
    strong = Rating(mu=40.5, sigma=1.0)
    assert strong.shown == 2500
    with store.engine.begin() as conn:
        conn.execute(
            ratings.insert().values(
                participant=participant_of_account("far"),
                family=Family.THREE,
                mu=strong.mu,
                sigma=strong.sigma,
                games=80,
                wins=60,
                declared=100,
                made=90,
            )
        )
    first = join(server, "russian", 300, name="First")
    # a signed-in player joins (the accounts' sign-in passes the account as this does)
    joined = quickplay.join(store, "russian", 300, "Far", "far", "127.0.0.1", 100, time.time())
    far = Ticket(server, joined.ticket, joined.token)
    assert joined.rating == 2500
    second = join(server, "russian", 300, name="Second")
    # three wait now, but far from each other: the next newcomer makes the table, not the
    # player who joined before it
    third = join(server, "russian", 300, name="Third")
    seated = [t.seated() for t in (first, second, third)]
    assert len({s["table"] for s in seated}) == 1
    assert [s["rating"] for s in seated] == [1000, 1000, 1000]
    still = far.state()
    assert (still["state"], still["rating"]) == ("waiting", 2500)
    assert far.leave().status_code == 204
    assert far.ask().status_code == 404


def test_a_signed_in_player_not_rated_in_the_family_is_matched_as_a_newcomer(
    store: Store,
) -> None:
    with store.engine.begin() as conn:
        assert quickplay.rating_of(conn, "tysiac-2p", "nobody") == Rating().shown == 1000


def test_refusals_say_what_is_wrong_and_change_nothing(server: Server) -> None:
    refused: list[tuple[dict[str, Any], int, str]] = [
        ({"template": "nope"}, 422, "unknown template 'nope'"),
        ({"wait": -1}, 422, "the wait must be 0 to 300 seconds"),
        ({"wait": 301}, 422, "the wait must be 0 to 300 seconds"),
        ({"wait": "soon"}, 422, "wait"),
        ({"name": "  "}, 422, "a name may not be blank"),
        ({"name": "easy-bot-1"}, 422, "how the server names a bot"),
        ({"name": "x" * 300}, 422, "name"),
    ]
    for body, status, words in refused:
        answer = server.post("/quickplay", {"template": "russian", "wait": 30, **body})
        assert answer.status_code == status, (body, answer.text)
        detail = answer.json()["detail"]
        assert words in detail and "\n" not in detail, detail

    mine = join(server, "russian", 300, name="Mine")
    other = join(server, "two-player-a", 300, name="Other")
    for asked in (mine.ask(other.token), mine.ask(""), mine.leave(other.token)):
        assert asked.status_code == 403, asked.text
        assert asked.json()["detail"] == f"this token does not hold ticket {mine.id}"
        assert other.token not in asked.text
    unknown = Ticket(server, "0123456789abcdef", mine.token)
    for asked in (unknown.ask(), unknown.leave()):
        assert asked.status_code == 404, asked.text
        assert (
            asked.json()["detail"]
            == "there is no ticket '0123456789abcdef' in the quick-play queue"
        )
    # nothing changed: both still wait, and leave
    assert mine.state()["state"] == "waiting" and other.state()["state"] == "waiting"
    assert mine.leave().status_code == 204 and other.leave().status_code == 204
    assert mine.ask().status_code == 404

    seated = join(server, "tysiac-2p", 0, name="Seated")
    where = seated.seated()
    answer = seated.leave()
    assert answer.status_code == 409
    assert answer.json()["detail"] == (
        f"ticket {seated.id} is seated at table {where['table']} already: leave the table instead"
    )
    assert seated.state()["table"] == where["table"]
