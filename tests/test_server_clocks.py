"""Clocks on a real server (SQLite and PostgreSQL): a seat that lets its time run out has its
move made by a medium bot, marked in the store and the replay (every template); a seat that
moves in time keeps its bank; a seat disconnected past its grace is played for until it is
back; the clocks survive ``kill -9``; a bad time control is refused in one sentence."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from thousand.records import read_record
from thousand.rules import TEMPLATES, rules_from_record
from thousand.server.storage import MoveRow, Store, database_url

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    finished,
    modest,
    play_turn,
    running_on,
)

#: the person's seat: not the first dealer's, who sits a deal out in some templates
ANN = 1


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with running_on(request.param, tmp_path_factory.mktemp("clocks")) as s:
        yield s


def timed_table(
    server: Server, clock: dict[str, float], template: str = "russian", rules: Message | None = None
) -> tuple[str, str, Client]:
    """A table of one person (seat ``ANN``, connected) and bots, under ``clock``: its id,
    Ann's token and her client."""
    players = rules_from_record(template, {}).players_count
    body: dict[str, Any] = {
        "template": template,
        "rules": SHORT_MATCH if rules is None else rules,
        "seats": [BOT] + [HUMAN] + [BOT] * (players - 2),
        "seed": 3,
        "clock": clock,
    }
    answer = server.post("/tables", body)
    assert answer.status_code == 201, answer.text
    assert answer.json()["clock"] == clock
    tid: str = answer.json()["id"]
    token: str = server.sit(tid, "Ann", ANN)["token"]
    return tid, token, Client(server, tid, token, ANN)


def stored_moves(server: Server, tid: str) -> list[MoveRow]:
    store = Store(database_url(server.database, server.data))
    try:
        row = store.load(tid)
    finally:
        store.close()
    assert row is not None
    return row.moves


def events(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m["type"] == "event"]


def moves_of(client: Client, seat: int) -> list[int]:
    """The versions of ``seat``'s moves that ``client`` was told of."""
    return [
        m["version"]
        for m in client.messages
        if m["type"] == "event" and m["event"]["kind"] == "move" and m["event"]["seat"] == seat
    ]


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_seat_out_of_time_is_played_by_a_medium_bot_and_marked(
    server: Server, template: str
) -> None:
    clock = {"move": 0.05, "bank": 0.1, "grace": 60.0}
    tid, _, ann = timed_table(server, clock, template)
    banks = ann.messages[0]["clocks"]["banks"]
    assert banks[ANN] == 0.1
    assert all(b is None for s, b in enumerate(banks) if s != ANN)
    # Ann never moves: every move of hers is the bot's, to the end of the match
    won = ann.recv_until(finished, timeout=240)
    mine = moves_of(ann, ANN)
    assert mine, [m["event"] for m in ann.messages if m["type"] == "event"]
    assert won["clocks"]["banks"][ANN] == 0  # the bank ran out at her first move
    stored = {m.version: m for m in stored_moves(server, tid)}
    assert all(stored[v].played == "clock" and stored[v].intent_id is None for v in mine)
    assert all(m.played is None for m in stored.values() if m.seat != ANN)
    replay = server.get(f"/api/games/{tid}/replay").json()
    assert replay["clock"] == clock
    marked = replay["played_for"]
    assert [p["version"] for p in marked] == mine
    assert {(p["seat"], p["why"]) for p in marked} == {(ANN, "clock")}
    # each mark names the replay's step of that very move
    for p in marked:
        step = replay["deals"][p["deal"] - 1]["steps"][p["step"] + 1]
        assert step["seat"] == ANN and step["move"] == stored[p["version"]].move
    # and the record marks them: each deal's played_for, the moves by number in the deal
    record = read_record(server.get(f"/games/{tid}/record").text)
    in_record = [
        (number, n, why)
        for number, deal in enumerate(record.deals, start=1)
        for n, why in deal.played_for
    ]
    assert in_record == [(p["deal"], p["step"] + 1, "clock") for p in marked]
    ann.close()


def test_a_seat_that_moves_in_time_keeps_its_bank(server: Server) -> None:
    clock = {"move": 60.0, "bank": 30.0, "grace": 60.0}
    tid, _, ann = timed_table(server, clock)
    choose = modest(random.Random(2))
    made = 0
    while made < 3:
        if ann.my_turn():
            clocks = ann.messages[-1]["clocks"]
            assert clocks["to_act"] == ANN and 0 < clocks["left"] <= 90
            assert play_turn(ann, choose)["type"] == "ack"
            made += 1
        else:
            ann.recv()
    events = [m for m in ann.messages if m["type"] == "event"]
    assert all(e["clocks"]["banks"][ANN] == 30 for e in events)
    assert all(m.played is None for m in stored_moves(server, tid))
    ann.close()


def test_a_seat_away_past_its_grace_is_played_for_until_it_is_back(server: Server) -> None:
    clock = {"move": 60.0, "bank": 60.0, "grace": 0.2}
    tid, token, ann = timed_table(server, clock, rules={})
    watcher = Client(server, tid, None, None)
    ann.close()
    # away: the bot plays her moves at once once the grace is over
    watcher.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == ANN)
    away = set(moves_of(watcher, ANN))
    # back: from the next turn on her moves are hers again
    back = Client(server, tid, token, ANN)
    choose = modest(random.Random(4))
    while not back.my_turn():
        back.recv()
    time.sleep(0.5)  # longer than the grace: connected, nobody moves for her
    late = events(back.drain())
    if late:
        # but a move the bot made for her while she was away may still have been being stored
        # when she came back: her snapshot came first and that move follows it, and only it
        assert late[0]["event"]["seat"] == ANN, late[0]
        away.add(late[0]["version"])
        while not back.my_turn():
            back.recv()
        time.sleep(0.5)
        assert events(back.drain()) == []
    assert play_turn(back, choose)["type"] == "ack"
    stored = {m.version: m for m in stored_moves(server, tid)}
    mine = [m for m in stored.values() if m.seat == ANN]
    assert {m.played for m in mine if m.version in away} == {"away"}
    assert mine[-1].played is None and mine[-1].version == back.version
    for client in (back, watcher):
        client.close()


@pytest.mark.parametrize(
    ("clock", "said"),
    [
        ({"move": 0, "bank": 10, "grace": 10}, "clock.move: 0 seconds; it must be more than 0"),
        ({"move": 10, "bank": 10}, "clock.grace: missing (seconds)"),
        ({"move": 10, "bank": "x", "grace": 10}, "clock.bank: 'x' is not a number of seconds"),
        ({"move": 10, "bank": 10, "grace": 10, "fast": True}, "clock: unknown key 'fast'"),
        ({"move": 1e9, "bank": 10, "grace": 10}, "clock.move: 1000000000.0 seconds is more than"),
        ("blitz", "the request is not valid: clock: "),
    ],
)
def test_a_bad_clock_is_refused_in_one_sentence(server: Server, clock: Any, said: str) -> None:
    before = len(server.get("/tables?limit=200").json())
    answer = server.post("/tables", {"seats": [HUMAN, BOT, BOT], "clock": clock})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert detail.startswith(said) and "\n" not in detail
    assert len(server.get("/tables?limit=200").json()) == before


def test_the_clocks_survive_kill_9(tmp_path: Path, database: str | None) -> None:
    server = Server(tmp_path / "data", database).start()
    try:
        clock = {"move": 3.0, "bank": 0.3, "grace": 60.0}
        tid, token, ann = timed_table(server, clock, rules={})
        # her first turn runs out: the bot moves for her and her bank is spent
        ann.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == ANN)
        assert ann.messages[-1]["clocks"]["banks"][ANN] == 0
        # killed during her next turn
        while not ann.my_turn():
            ann.recv()
        server.kill()
        ann.close()
        server.start()
        ann = Client(server, tid, token, ANN)
        clocks = ann.messages[0]["clocks"]
        assert clocks["banks"][ANN] == 0  # the bank as it was stored
        assert clocks["to_act"] == ANN and 0 < clocks["left"] <= 3.0  # a turn of move seconds
        version = ann.version
        # still her turn: once it runs out the bot moves for her, marked
        moved = ann.recv_until(lambda m: m["type"] == "event" and m["event"].get("seat") == ANN)
        assert moved["version"] == version + 1
        stored = {m.version: m for m in stored_moves(server, tid)}
        assert stored[moved["version"]].played == "clock"
        ann.close()
    finally:
        server.stop()


def test_the_terminal_client_creates_a_timed_table(server: Server) -> None:
    from thousand.cli.main import build_parser
    from thousand.cli.play_table import open_seat
    from thousand.client.link import LinkError

    def args(clock: str) -> Any:
        line = ["play", "--server", server.http, "--name", "Ann", "--clock", clock]
        return build_parser().parse_args(line)

    seat = open_seat(args("20,300"))
    made = server.get(f"/tables/{seat.table}").json()
    assert made["clock"] == {"move": 20, "bank": 300, "grace": 60}
    with pytest.raises(LinkError, match=r"^--clock 'fast': give MOVE,BANK or MOVE,BANK,GRACE"):
        open_seat(args("fast"))
    with pytest.raises(LinkError, match=r"clock.move: 0.0 seconds; it must be more than 0$"):
        open_seat(args("0,300,5"))
