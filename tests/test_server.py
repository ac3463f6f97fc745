"""The server against real processes on free ports: whole matches, reconnects, kill -9 and a
restart, hidden cards, malformed and illegal intents, the lobby; on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from thousand.client.link import new_claim
from thousand.records import read_record, replay

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Server,
    cards_in,
    finished,
    hidden_cards_shown,
    modest,
    play_to_end,
    play_turn,
    running_on,
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with running_on(request.param, tmp_path_factory.mktemp("server")) as s:
        yield s


def chooser(seed: int) -> random.Random:
    return random.Random(seed)


def test_full_match_one_scripted_human_two_bots(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH, seed=1)
    tid = table["id"]
    watcher = Client(server, tid, None, None)
    taken = server.sit(tid, "Ann")
    assert taken["seat"] == 0 and len(taken["token"]) >= 32
    ann = Client(server, tid, taken["token"], 0)
    final = play_to_end(ann, random.Random(1))
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
    # each seat as every list shows it: a bot by its level, which the page names ("Easy bot")
    (game,) = [g for g in games if g["id"] == tid]
    assert [(s["kind"], s["level"], s["name"]) for s in game["seats"]] == [
        ("human", None, "Ann"),
        ("bot", "easy", "easy-bot-1"),
        ("bot", "easy", "easy-bot-2"),
    ]
    assert game["players"] == ["Ann", "easy-bot-1", "easy-bot-2"]
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


@pytest.mark.parametrize(
    ("template", "seats"),
    [("two-player-a", 2), ("four-player-b", 4), ("tysiac-2p", 2), ("estonian", 3)],
)
def test_two_four_seat_and_face_down_templates_play_a_match_hiding_cards(
    server: Server, template: str, seats: int
) -> None:
    rules = {"game.target": 200, "barrel.threshold": None}
    table = server.new_table([HUMAN] + [BOT] * (seats - 1), rules, seed=5, template=template)
    tid = table["id"]
    watcher = Client(server, tid, None, None)
    ann = Client(server, tid, server.sit(tid, "Ann")["token"], 0)
    final = play_to_end(ann, random.Random(5), 60, modest(random.Random(5)))
    watcher.recv_until(finished)
    views = [m["view"] for m in ann.messages if m["type"] in ("event", "snapshot") and m["view"]]
    assert {len(v["card_counts"]) for v in views} == {seats}
    text = server.get(f"/games/{tid}/record").text
    record = read_record(text)
    assert record.variant == template
    assert replay(record).game.match.winner == final["event"]["winner"]
    assert hidden_cards_shown(text, 0, ann.messages) == []
    assert hidden_cards_shown(text, None, watcher.messages) == []
    if template == "two-player-a":  # the stock's face-up card is there for all to see
        assert any(v["stock_count"] == 6 and v["stock_face_up"] for v in views)
    if template == "four-player-b":  # the dealer sits out: an empty hand, every deal
        assert {v["sitter"] for v in views} == {v["dealer"] for v in views}
        assert all(v["card_counts"][v["sitter"]] == 0 for v in views)
    if template == "tysiac-2p":  # two talons; the other seat's discards are not named
        assert {v["talons_count"] for v in views} == {2}
        faced = [m["event"] for m in watcher.messages if m["type"] == "event"]
        assert any(e.get("face_down") == "discard" and e["move"] is None for e in faced)
    if template == "estonian":  # a crawl: its cards face down until the trick is complete
        watched = [m for m in watcher.messages if m["type"] == "event"]
        crawls = [m for m in watched if m["event"].get("face_down") == "crawl"]
        assert crawls and all(m["event"]["move"] is None for m in crawls)
        assert any(m["view"]["crawl_hidden"] for m in crawls)
    ann.close()
    watcher.close()


def test_three_people_every_seat_scanned_for_hidden_cards(server: Server) -> None:
    table = server.new_table([HUMAN, HUMAN, HUMAN], SHORT_MATCH, seed=2)
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


def test_reconnect_mid_deal_and_a_retried_intent(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    tid = table["id"]
    taken = server.sit(tid, "Ann")
    ann = Client(server, tid, taken["token"], 0)
    rng = random.Random(3)
    while not ann.my_turn():
        ann.recv()
    intent_id = ann.intent(rng.choice(ann.view["legal_actions"]) if ann.view else "pass")
    ack = ann.recv_until(lambda m: m["type"] == "ack")
    assert ack["intent"] == intent_id
    # drain whatever the bots did, then drop the connection in the middle of the deal
    time.sleep(0.2)
    ann.drain(0.3)
    before_version, before_view = ann.version, ann.view
    assert before_view is not None and before_view["phase"] != "done"
    ann.close()
    again = Client(server, tid, taken["token"], 0)
    assert again.version == before_version
    assert again.view == before_view
    # the same intent sent again is answered as before and changes nothing
    again.send({"type": "intent", "id": intent_id, "move": "pass", "version": 0})
    assert again.recv() == ack
    assert server.get(f"/tables/{tid}").json()["version"] == before_version
    # and play goes on from here
    if again.my_turn():
        assert play_turn(again, rng.choice)["type"] == "ack"
        assert again.version > before_version
    again.close()


def test_malformed_oversized_and_illegal_intents_change_nothing(server: Server) -> None:
    table = server.new_table([HUMAN, HUMAN, BOT], SHORT_MATCH)
    tid = table["id"]
    seat0 = server.sit(tid, "Ann", 0)
    seat1 = server.sit(tid, "Boris", 1)
    ann = Client(server, tid, seat0["token"], 0)
    boris = Client(server, tid, seat1["token"], 1)
    watcher = Client(server, tid, None, None)
    for c in (ann, boris, watcher):
        while c.version < 1:
            c.recv()
    version = server.get(f"/tables/{tid}").json()["version"]
    to_act = boris if boris.my_turn() else ann
    other = ann if to_act is boris else boris
    assert to_act.view is not None
    legal = set(to_act.view["legal_actions"])
    illegal = next(
        m for m in ("Ad", "9c", "give 9s 2", "contract 120", "writeoff") if m not in legal
    )
    bad: list[tuple[Client, str | bytes, str]] = [
        (to_act, "{not json", "malformed"),
        (to_act, "[1, 2]", "malformed"),
        (to_act, '{"type": "shout"}', "malformed"),
        (to_act, '{"type": "intent", "move": "pass", "version": 1}', "malformed"),
        (to_act, '{"type": "intent", "id": "x", "move": 7, "version": 1}', "malformed"),
        (to_act, '{"type": "intent", "id": "x", "move": "pass", "version": -1}', "malformed"),
        (
            to_act,
            '{"type": "intent", "id": "x", "move": "pass", "version": 1, "seat": 2}',
            "malformed",
        ),
        (
            to_act,
            '{"type": "intent", "id": "x", "move": "' + "p" * 5000 + '", "version": 1}',
            "too_large",
        ),
        (to_act, b"\x00\x01binary", "malformed"),
        (to_act, '{"type": "hello"}', "hello_twice"),
        (
            to_act,
            f'{{"type": "intent", "id": "i1", "move": "{illegal}", "version": {version}}}',
            "illegal",
        ),
        (
            to_act,
            '{"type": "intent", "id": "i2", "move": "bid 100", "version": ' + str(version) + "}",
            "not_a_move",
        ),
        (
            to_act,
            '{"type": "intent", "id": "i3", "move": "pass", "version": ' + str(version - 1) + "}",
            "stale",
        ),
        (
            other,
            '{"type": "intent", "id": "i4", "move": "pass", "version": ' + str(version) + "}",
            "not_your_turn",
        ),
        (
            watcher,
            '{"type": "intent", "id": "i5", "move": "pass", "version": ' + str(version) + "}",
            "spectator",
        ),
    ]
    for client, data, code in bad:
        client.send_raw(data)
        answer = client.recv()
        assert answer["type"] == "error" and answer["code"] == code, (data, answer)
        assert answer["message"] and "\n" not in answer["message"]
    # nothing changed, and nobody else heard of any of it: each one's next message is its pong
    assert server.get(f"/tables/{tid}").json()["version"] == version
    for client in (ann, boris, watcher):
        client.send({"type": "ping"})
        assert client.recv() == {"type": "pong", "version": version}
    for client in (ann, boris, watcher):
        client.close()


def test_a_seat_token_acts_for_its_seat_alone(server: Server) -> None:
    table = server.new_table([HUMAN, HUMAN, BOT], SHORT_MATCH)
    tid = table["id"]
    seat0 = server.sit(tid, "Ann", 0)
    seat1 = server.sit(tid, "Boris", 1)
    other = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    # a token of one table is no token at another
    import json as _json

    from websockets.sync.client import connect

    with connect(f"{server.ws}/tables/{other['id']}/ws") as ws:
        ws.send(_json.dumps({"type": "hello", "token": seat0["token"]}))
        answer = _json.loads(ws.recv(5))
        assert answer["type"] == "error" and answer["code"] == "bad_token"
    # Ann's token cannot leave Boris's seat, nor an absent one any
    assert server.delete_seat(tid, 1, seat0["token"]).status_code == 403
    assert server.delete_seat(tid, 1, None).status_code == 403
    # Ann connected acts as seat 0 only: whatever her intent, it is seat 0's move or refused
    ann = Client(server, tid, seat0["token"], 0)
    assert ann.version >= 1, "the table started when Boris sat down"
    assert ann.view is not None and ann.view["seat"] == 0
    boris = Client(server, tid, seat1["token"], 1)
    assert boris.view is not None and boris.view["seat"] == 1
    assert boris.view["hand"] != ann.view["hand"]
    ann.close()
    boris.close()
    # Boris leaves with his own token during the match: his token is void, and a medium bot
    # plays his seat on (Ann is still there)
    assert server.delete_seat(tid, 1, seat1["token"]).status_code == 204
    seat = server.get(f"/tables/{tid}").json()["seats"][1]
    assert (seat["kind"], seat["level"]) == ("bot", "medium")
    with connect(f"{server.ws}/tables/{tid}/ws") as ws:
        ws.send(_json.dumps({"type": "hello", "token": seat1["token"]}))
        assert _json.loads(ws.recv(5))["code"] == "bad_token"
    assert server.post(f"/tables/{tid}/seats", {"name": "Cyril", "seat": 1}).status_code == 409


def test_lobby(server: Server) -> None:
    bad = server.post("/tables", {"template": "nope", "seats": [HUMAN, BOT, BOT]})
    assert bad.status_code == 422 and "unknown variant 'nope'" in bad.json()["detail"]
    bad = server.post("/tables", {"seats": [HUMAN, {"kind": "bot", "level": "godlike"}, BOT]})
    assert bad.status_code == 422
    assert bad.json()["detail"].startswith("seat 1: unknown bot level 'godlike'")
    bad = server.post("/tables", {"seats": [HUMAN, BOT]})
    assert bad.json()["detail"] == "2 seats given, the rules seat 3 players"
    bad = server.post("/tables", {"rules": {"game.target": "far"}, "seats": [HUMAN, BOT, BOT]})
    assert bad.status_code == 422 and "game.target" in bad.json()["detail"]
    table = server.new_table([HUMAN, HUMAN, BOT], SHORT_MATCH)
    listed = {t["id"]: t for t in server.get("/tables").json()}
    assert listed[table["id"]]["free_seats"] == [0, 1]
    assert listed[table["id"]]["status"] == "open"
    assert server.get(f"/tables/{table['id']}/watch").json()["websocket"].endswith("/ws")
    server.sit(table["id"], "Ann")
    server.sit(table["id"], "Boris")
    assert table["id"] not in {t["id"] for t in server.get("/tables").json()}
    assert server.get(f"/tables/{table['id']}").json()["status"] == "playing"
    taken = server.post(f"/tables/{table['id']}/seats", {"name": "Cyril"})
    assert taken.status_code == 409 and taken.json()["detail"].endswith("has no free seat")
    assert server.get("/tables/nothing").status_code == 404
    assert server.get(f"/games/{table['id']}/record").status_code == 409
    rematch = server.post(f"/tables/{table['id']}/rematch", token=None)
    assert rematch.status_code == 409 and "is not finished" in rematch.json()["detail"]
    paths = server.get("/openapi.json").json()["paths"]
    for path in ("/tables", "/tables/{table_id}/seats", "/tables/{table_id}/rematch", "/games"):
        assert path in paths, path


def test_rematch_after_a_finished_match(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    taken = server.sit(table["id"], "Ann")
    ann = Client(server, table["id"], taken["token"], 0)
    play_to_end(ann, random.Random(5))
    ann.close()
    assert server.post(f"/tables/{table['id']}/rematch", token=None).status_code == 403
    path = f"/tables/{table['id']}/rematch"
    first = server.post(path, {"claim": (claim := new_claim())}, token=taken["token"])
    assert first.status_code == 201, first.text
    new = first.json()
    assert new["table"] != table["id"] and new["seat"] == 0 and new["token"] == claim
    state = server.get(f"/tables/{new['table']}").json()
    assert state["rematch_of"] == table["id"] and state["status"] == "playing"
    assert state["seats"][0]["name"] == "Ann"
    assert server.get(f"/tables/{table['id']}").json()["rematch"] == new["table"]
    # asking again does not make a second table; the seat is taken already, except that the
    # same request sent again (its answer lost) gets the same seat
    again = server.post(path, {"claim": claim}, token=taken["token"])
    assert again.status_code == 201 and again.json() == new
    for body in (None, {"claim": new_claim()}):
        other = server.post(path, body, token=taken["token"])
        assert other.status_code == 409
        assert other.json()["detail"] == f"seat 0 of table {new['table']} is not free"


def test_taking_a_seat_again_with_its_claim_is_the_same_seat(server: Server) -> None:
    tid = server.new_table([HUMAN, HUMAN, BOT], SHORT_MATCH)["id"]
    claim = new_claim()
    first = server.sit(tid, "Ann", None, claim)
    assert first["token"] == claim and first["seat"] == 0
    assert server.sit(tid, "Ann", None, claim) == first
    assert server.sit(tid, "Ann", 0, claim) == first
    other = server.post(f"/tables/{tid}/seats", {"seat": 1, "name": "Ann", "claim": claim})
    assert other.status_code == 409
    assert other.json()["detail"] == f"this claim holds seat 0 of table {tid}, not seat 1"
    for bad in ("too-short", "x" * 129, "a" * 21 + "/", "é" * 30):
        short = server.post(f"/tables/{tid}/seats", {"name": "Bob", "claim": bad})
        assert short.status_code == 422, bad
    assert server.get(f"/tables/{tid}").json()["free_seats"] == [1]
    # without a claim the server makes the token, as before
    bob = server.post(f"/tables/{tid}/seats", {"name": "Bob"}).json()
    assert bob["seat"] == 1 and len(bob["token"]) >= 32 and bob["token"] != claim
    assert server.get(f"/tables/{tid}").json()["status"] == "playing"


def test_the_hidden_card_scan_reads_cards_not_ids() -> None:
    # a table id is random hex: one that starts "9c0" once read as the nine of clubs, and the
    # scan of a seat's snapshot failed about one run in a hundred
    snapshot = {"type": "snapshot", "table": "9c0a1b2c3d4e5f60", "view": {"hand": ["Ah", "9d"]}}
    ack = {"type": "ack", "intent": "9c-1", "version": 3}
    assert cards_in(snapshot) == cards_in({"hand": ["Ah", "9d"]})
    assert len(cards_in(snapshot)) == 2
    assert cards_in(ack) == set()
