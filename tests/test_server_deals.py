"""Every deal is stored whole: after ``kill -9`` a table of every template (and of a custom one)
resumes with the same cards at the same version, bots moving on, and a finished table gives its
record; a table that cannot be loaded is set aside by name (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from sqlalchemy import update

from thousand.engine import action_text
from thousand.records import read_record, replay
from thousand.rules import TEMPLATES, rules_from_record
from thousand.server.storage import Store, database_url, deals
from thousand.server.storage import tables as tables_

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    play_turn,
)

#: a template of one's own: dealer-sits-out with a card shown to all, which no built-in has
CUSTOM = ("four-player-b", {"deal.first_card_shown": True})
LAYOUTS: list[tuple[str, dict[str, Any]]] = [(t, {}) for t in TEMPLATES] + [CUSTOM]


def seats_of(template: str, rules: dict[str, Any], first: Message) -> list[Message]:
    n = rules_from_record(template, rules).players_count
    return [first] + [BOT] * (n - 1)


def to_my_turn(client: Client, rng: random.Random, moves: int) -> None:
    """Make ``moves`` random legal moves, then read on until it is the seat's turn again (the
    bots wait for it there: the table stands still)."""
    made = 0
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"no turn for seat {client.seat}"
        if client.my_turn():
            if made == moves:
                return
            assert play_turn(client, rng.choice)["type"] == "ack"
            made += 1
        else:
            client.recv()


def deal_events(client: Client) -> int:
    return sum(1 for m in client.messages if m["type"] == "event" and m["event"]["kind"] == "deal")


def play_to_next_deal(client: Client, rng: random.Random) -> None:
    """Play random legal moves until the next deal is dealt (or the match is won)."""
    dealt = deal_events(client)
    deadline = time.monotonic() + 60
    while deal_events(client) == dealt:
        assert time.monotonic() < deadline, f"the deal goes on: version {client.version}"
        if client.my_turn():
            assert play_turn(client, rng.choice)["type"] == "ack"
        else:
            message = client.recv()
            if message["type"] == "event" and message["event"].get("winner") is not None:
                return


def wait_finished(server: Server, table_ids: list[str], limit_s: float = 120) -> None:
    deadline = time.monotonic() + limit_s
    for table_id in table_ids:
        while server.get(f"/tables/{table_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, f"table {table_id} is not finished"
            time.sleep(0.05)


def test_every_template_resumes_after_kill_9_and_gives_its_record(
    tmp_path: Path, database: str | None
) -> None:
    rng = random.Random(5)
    server = Server(tmp_path / "data", database, "--bot-delay", "0.02").start()
    try:
        # a human seat in each layout, played to the middle of a deal: the table waits there
        people: dict[str, tuple[str, Client]] = {}
        for i, (template, rules) in enumerate(LAYOUTS):
            seats = seats_of(template, rules, HUMAN)
            table = server.new_table(seats, rules, seed=100 + i, template=template)
            token = server.sit(table["id"], "Ann")["token"]
            client = Client(server, table["id"], token, 0)
            to_my_turn(client, rng, 3)
            people[table["id"]] = (token, client)
        # bots alone in each layout, playing flat out, killed wherever they are
        bot_tables = []
        for i, (template, rules) in enumerate(LAYOUTS):
            short = {**SHORT_MATCH, **rules}
            table = server.new_table(seats_of(template, rules, BOT), short, 200 + i, template)
            bot_tables.append(table["id"])
        time.sleep(rng.uniform(0.1, 0.4))
        server.kill()
        seen = {tid: (c.version, c.view) for tid, (_, c) in people.items()}
        for _, client in people.values():
            client.close()
        store = Store(database_url(database, tmp_path / "data"))
        stored = {tid: store.load(tid) for tid in bot_tables}
        store.close()

        server.extra = ()
        server.start()
        for (tid, (token, _)), (template, _) in zip(people.items(), LAYOUTS, strict=True):
            client = Client(server, tid, token, 0)
            version, view = seen[tid]
            assert (client.version, client.view) == (version, view), template
            play_to_next_deal(client, rng)
            assert client.version > version
            client.close()
        for tid in bot_tables:
            row = stored[tid]
            assert row is not None
            assert server.get(f"/tables/{tid}").json()["version"] >= row.version
        wait_finished(server, bot_tables)
        records = {tid: server.get(f"/games/{tid}/record").text for tid in bot_tables}
        for tid in bot_tables:  # what was stored at the kill is what the match went on from
            row = stored[tid]
            assert row is not None
            logs = replay(read_record(records[tid])).game.logs
            assert [d.dealt for d in row.deals] == [log.dealt for log in logs[: len(row.deals)]]
            moves = [action_text(a) for log in logs for a in log.moves]
            assert [m.move for m in row.moves] == moves[: len(row.moves)]

        # finished tables come back from the store and give the same record, which replays
        server.kill()
        server.start()
        for tid, (template, _) in zip(bot_tables, LAYOUTS, strict=True):
            answer = server.get(f"/games/{tid}/record")
            assert answer.status_code == 200, (template, answer.text)
            assert answer.text == records[tid], template
            assert replay(read_record(answer.text)).game.over, template
        assert "cannot be loaded" not in server.log.read_text()
    finally:
        server.stop()


def test_a_table_that_cannot_be_loaded_is_set_aside(tmp_path: Path, database: str | None) -> None:
    rng = random.Random(3)
    server = Server(tmp_path / "data", database).start()
    try:
        tables = []
        layouts = ("tysiac-2p", "soviet-book", "russian", "polish-2card", "tysiac", "two-player-a")
        for template in layouts:
            table = server.new_table(seats_of(template, {}, HUMAN), seed=7, template=template)
            token = server.sit(table["id"], "Ann")["token"]
            client = Client(server, table["id"], token, 0)
            to_my_turn(client, rng, 1)
            tables.append((table["id"], token, client.version, client.view))
            client.close()
        server.kill()
        garbled, doubled, unruly, unread, unknown_bot = (t[0] for t in tables[:5])
        whole, token, version, view = tables[5]
        store = Store(database_url(database, tmp_path / "data"))
        with store.engine.begin() as conn:
            rules = json.dumps({"game.target": "far"})
            conn.execute(update(tables_).where(tables_.c.id == unruly).values(rules=rules))
            conn.execute(update(tables_).where(tables_.c.id == unread).values(rules="[1,"))
            specs = json.dumps([HUMAN, BOT, {"kind": "bot", "level": "grandmaster"}])
            conn.execute(update(tables_).where(tables_.c.id == unknown_bot).values(seats=specs))
            conn.execute(update(deals).where(deals.c.table_id == garbled).values(dealt="{not json"))
            text = conn.execute(deals.select().where(deals.c.table_id == doubled)).one().dealt
            dealt = json.loads(text)
            dealt["hands"][0] = dealt["hands"][2]  # seat 2's cards twice, seat 0's nowhere
            conn.execute(
                update(deals).where(deals.c.table_id == doubled).values(dealt=json.dumps(dealt))
            )
        store.close()

        server.start()
        log = server.log.read_text()
        assert f"table {garbled} cannot be loaded: deal 1 cannot be read:" in log
        assert (
            f"table {doubled} cannot be loaded: deal 1: the deal is not the 24-card deck,"
            " each card once; it is set aside"
        ) in log
        assert f"table {unruly} cannot be loaded: rules game.target" in log
        assert f"table {unread} cannot be loaded: its row in 'tables' cannot be read" in log
        assert (
            f"table {unknown_bot} cannot be loaded: ValueError: unknown bot level 'grandmaster'"
        ) in log
        assert log.count("it is set aside") == 5
        for bad in (garbled, doubled):
            answer = server.get(f"/tables/{bad}")
            assert answer.status_code == 503
            assert answer.json()["detail"] == (
                f"table {bad} cannot be loaded: it is set aside (the server's log says why)"
            )
        client = Client(server, whole, token, 0)
        assert (client.version, client.view) == (version, view)
        play_to_next_deal(client, rng)
        client.close()
    finally:
        server.stop()
