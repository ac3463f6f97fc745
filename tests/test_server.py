"""The server against real processes on free ports: whole matches, reconnects, kill -9 and a
restart, hidden cards, malformed and illegal intents, the lobby; on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from thousand.records import read_record, replay

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Server,
    finished,
    hidden_cards_shown,
    play_turn,
    postgres_database,
    running,
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("server")
    if request.param == "sqlite":
        with running(data) as s:
            yield s
    else:
        with postgres_database() as url, running(data, url) as s:
            yield s


def chooser(seed: int) -> random.Random:
    return random.Random(seed)


def test_full_match_one_scripted_human_two_bots(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    tid = table["id"]
    watcher = Client(server, tid, None, None)
    taken = server.sit(tid, "Ann")
    assert taken["seat"] == 0 and len(taken["token"]) >= 32
    ann = Client(server, tid, taken["token"], 0)
    rng = random.Random(1)
    while not any(finished(m) for m in ann.messages):
        if ann.my_turn():
            answer = play_turn(ann, rng.choice)
            assert answer["type"] == "ack", answer
            assert answer["version"] <= ann.version
        else:
            ann.recv()
    final = next(m for m in ann.messages if finished(m))
    winner = final["event"]["winner"]
    watcher.recv_until(finished)
    # the spectator saw every version from the first deal on, one event each (Client checks
    # that versions never skip)
    events = [m for m in watcher.messages if m["type"] == "event"]
    assert [m["version"] for m in events] == list(range(1, final["version"] + 1))
    assert all(m["view"]["hand"] is None for m in events)
    # the record: listed, downloadable, and it replays to the same winner and totals
    games = server.get("/games").json()
    assert tid in [g["id"] for g in games]
    text = server.get(f"/games/{tid}/record").text
    result = replay(read_record(text))
    assert result.game.match.winner == winner
    assert list(result.game.match.totals) == final["event"]["report"]["totals"]
    assert read_record(text).players == ("Ann", "easy-bot-1", "easy-bot-2")
    moves = sum(len(log.moves) for log in result.game.logs)
    assert moves + len(result.game.logs) == final["version"]
    # Ann's moves in the record are exactly the ones the server acknowledged
    acked = [m for m in ann.messages if m["type"] == "ack"]
    assert len(acked) == sum(
        1 for m in events if m["event"]["kind"] == "move" and m["event"]["seat"] == 0
    )
    # no message held a card its receiver could not see
    assert hidden_cards_shown(text, 0, ann.messages) == []
    assert hidden_cards_shown(text, None, watcher.messages) == []
    ann.close()
    watcher.close()


def test_three_people_every_seat_scanned_for_hidden_cards(server: Server) -> None:
    table = server.new_table([HUMAN, HUMAN, HUMAN], SHORT_MATCH)
    tid = table["id"]
    clients = []
    for seat, name in enumerate(["Ann", "Boris", "Cyril"]):
        taken = server.sit(tid, name, seat)
        clients.append(Client(server, tid, taken["token"], seat))
    watcher = Client(server, tid, None, None)
    rng = random.Random(2)
    while True:
        top = max(c.version for c in clients)
        for c in [*clients, watcher]:
            while c.version < top:
                c.recv()
        if any(finished(m) for m in watcher.messages):
            break
        movers = [c for c in clients if c.my_turn()]
        assert len(movers) == 1, "exactly one seat has legal actions"
        assert play_turn(movers[0], rng.choice)["type"] == "ack"
    text = server.get(f"/games/{tid}/record").text
    gives = 0
    for c in clients:
        assert hidden_cards_shown(text, c.seat, c.messages) == []
        gives += sum(
            1
            for m in c.messages
            if m["type"] == "event"
            and m["event"].get("to") is not None
            and m["event"]["move"] is None
        )
    assert gives > 0, "some card was handed between two other seats, unnamed"
    assert hidden_cards_shown(text, None, watcher.messages) == []
    for c in [*clients, watcher]:
        c.close()
