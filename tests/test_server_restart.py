"""kill -9 in the middle of a deal, a restart, and the match finished with nothing lost
(SQLite and PostgreSQL); the connection rate limit."""

from __future__ import annotations

import random
import time
from pathlib import Path

from thousand.records import read_record
from thousand.server.storage import Store, database_url

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    hidden_cards_shown,
    play_to_end,
    play_turn,
    running,
)


def moves_by_version(record_text: str) -> dict[int, str]:
    """Each move of a record under the table version it was made at."""
    out: dict[int, str] = {}
    version = 0
    for deal in read_record(record_text).deals:
        version += 1
        for move in deal.moves:
            version += 1
            out[version] = move
    return out


def seen_moves(messages: list[Message]) -> dict[int, str | None]:
    return {
        m["version"]: m["event"]["move"]
        for m in messages
        if m["type"] == "event" and m["event"]["kind"] == "move"
    }


def test_kill_9_mid_deal_then_restart_and_finish(tmp_path: Path, database: str | None) -> None:
    server = Server(tmp_path / "data", database, "--bot-delay", "0.01").start()
    try:
        human = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH, seed=11)
        bots = server.new_table([BOT, BOT, BOT])
        taken = server.sit(human["id"], "Ann")
        ann = Client(server, human["id"], taken["token"], 0)
        watcher = Client(server, bots["id"], None, None)
        rng = random.Random(7)
        made = 0
        while made < 4 or ann.view is None or ann.view["phase"] != "play":
            if ann.my_turn():
                assert play_turn(ann, rng.choice)["type"] == "ack"
                made += 1
            else:
                ann.recv()
        # kill it while the bots are thinking about their next moves
        while watcher.version < 5:
            watcher.recv()
        server.kill()
        before = dict(seen_moves(ann.messages))
        last_seen = ann.version
        watched = dict(seen_moves(watcher.messages))
        bots_seen = watcher.version
        ann.close()
        watcher.close()

        # every move anyone was told of is in the store
        store = Store(database_url(database, tmp_path / "data"))
        row = store.load(bots["id"])
        store.close()
        assert row is not None
        stored = {m.version: m.move for m in row.moves}
        assert all(stored[v] == m for v, m in watched.items() if m is not None)
        assert row.version >= bots_seen

        server.extra = ()  # the bots need not dawdle now: --bot-delay 0
        server.start()
        ann = Client(server, human["id"], taken["token"], 0)
        assert ann.version >= last_seen
        assert ann.view is not None and ann.view["seat"] == 0
        # the bot-only table carries on by itself
        deadline = time.monotonic() + 20
        while server.get(f"/tables/{bots['id']}").json()["version"] <= row.version:
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.05)
        # Ann finishes the match
        play_to_end(ann, rng)
        text = server.get(f"/games/{human['id']}/record").text
        recorded = moves_by_version(text)
        for version, move in before.items():
            if move is None:  # a card handed between the two bots, not named to Ann
                assert recorded[version].startswith("give "), version
            else:
                assert recorded[version] == move, f"version {version} was lost or changed"
        assert hidden_cards_shown(text, 0, ann.messages) == []
        ann.close()
    finally:
        server.stop()


def test_messages_and_connections_are_rate_limited(tmp_path: Path) -> None:
    with running(tmp_path / "data", None, "--message-rate", "2", "--message-burst", "5") as server:
        table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
        client = Client(server, table["id"], None, None)
        for _ in range(12):
            client.send({"type": "ping"})
        answers = [client.recv() for _ in range(12)]
        kinds = [a["type"] if a["type"] == "pong" else a["code"] for a in answers]
        assert kinds.count("pong") in (5, 6), kinds
        assert kinds.count("rate_limited") == 12 - kinds.count("pong")
        client.close()
    with running(tmp_path / "data2", None, "--request-rate", "1", "--request-burst", "3") as server:
        codes = [server.get("/tables").status_code for _ in range(6)]
        assert codes.count(429) >= 2 and codes[0] == 200, codes


def test_killed_at_random_moments_a_bot_table_loses_nothing(tmp_path: Path) -> None:
    """Bots playing flat out, the server killed three times at random moments: each time every
    move a spectator was told of is stored, and play resumes from the stored version."""
    server = Server(tmp_path / "data").start()
    rng = random.Random(11)
    try:
        table = server.new_table([BOT, BOT, BOT], seed=3)
        for _ in range(3):
            watcher = Client(server, table["id"], None, None)
            start = watcher.version
            deadline = time.monotonic() + rng.uniform(0.2, 0.6)
            while time.monotonic() < deadline:
                watcher.recv()
            server.kill()
            watched = seen_moves(watcher.messages)
            watcher.close()
            store = Store(database_url(None, tmp_path / "data"))
            row = store.load(table["id"])
            store.close()
            assert row is not None and row.version >= watcher.version > start
            stored = {m.version: m.move for m in row.moves}
            assert all(stored[v] == m for v, m in watched.items() if m is not None)
            server.start()
            assert server.get(f"/tables/{table['id']}").json()["version"] >= row.version
    finally:
        server.stop()
