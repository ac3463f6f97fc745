"""The server's limits: request bodies, tables per address, lists in pages, connections per
table, finished tables kept in memory, and heavy work off the event loop."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from thousand.server import routes
from thousand.server.config import Settings
from thousand.server.storage import TableStatus
from thousand.server.tables import Connection, Hub, LiveTable

from .server_support import SHORT_MATCH
from .web_support import bots_table, wait_for, web_client

HUMANS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def detail(answer: Any) -> str:
    body = answer.json()
    assert set(body) == {"detail"}, body
    text: str = body["detail"]
    return text


def human_table(client: TestClient) -> str:
    answer = client.post("/tables", json={"seats": HUMANS, "rules": SHORT_MATCH})
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


# -- bodies ----------------------------------------------------------------------------------------


def test_a_body_over_64_kib_is_413_and_changes_nothing(tmp_path: Path) -> None:
    assert Settings().max_body == 65536
    with web_client(tmp_path) as client:
        padding = "x" * 65536
        body = {"seats": HUMANS, "rules": {"game.target": 300, "pad": padding}}
        answer = client.post("/tables", json=body)
        assert answer.status_code == 413
        assert detail(answer) == "a request body may hold at most 65536 bytes"
        # the same without a Content-Length: the body is counted as it comes, chunk by chunk

        def chunks() -> Iterator[bytes]:
            yield b'{"seats": [], "rules": {"pad": "'
            for _ in range(100):
                yield b"y" * 1024
            yield b'"}}'

        streamed = client.post(
            "/tables", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert streamed.status_code == 413
        assert detail(streamed) == "a request body may hold at most 65536 bytes"
        assert client.get("/tables").json() == []
        # a body just under the limit is read (and refused for what it says)
        small = client.post("/tables", json={"seats": HUMANS, "rules": {"x": "y" * 60000}})
        assert small.status_code == 422 and "x" in detail(small)


# -- tables per address ----------------------------------------------------------------------------


def test_one_address_has_at_most_20_tables_under_way(tmp_path: Path) -> None:
    assert Settings().tables_per_address == 20
    with web_client(tmp_path, tables_per_address=Settings().tables_per_address) as client:
        made = [human_table(client) for _ in range(20)]
        refused = client.post("/tables", json={"seats": HUMANS})
        assert refused.status_code == 429
        assert detail(refused) == (
            "this address has 20 tables not yet finished, the most it may have: "
            "finish one before creating another"
        )
        assert len(made) == 20 and len(hub_of(client).tables) == 20


def test_a_finished_table_frees_its_place(tmp_path: Path) -> None:
    with web_client(tmp_path, tables_per_address=1) as client:
        first = bots_table(client, seed=3)  # three bots: under way until they finish
        assert client.post("/tables", json={"seats": HUMANS}).status_code == 429
        wait_for(client, first, "finished")
        assert client.post("/tables", json={"seats": HUMANS}).status_code == 201
        assert client.post("/tables", json={"seats": HUMANS}).status_code == 429


# -- pages -----------------------------------------------------------------------------------------


def follow(client: TestClient, path: str, key: str | None = None) -> list[list[str]]:
    """The ids of every page of a list, following the Link headers."""
    pages = []
    url: str | None = path
    while url is not None:
        answer = client.get(url)
        assert answer.status_code == 200, answer.text
        items = answer.json() if key is None else answer.json()[key]
        pages.append([x["id"] for x in items])
        link = answer.headers.get("link")
        if link is None:
            url = None
        else:
            found = re.fullmatch(r'<([^>]+)>; rel="next"', link)
            assert found is not None, link
            url = found.group(1)
    return pages


def test_the_open_tables_come_in_pages_of_50(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        made = [human_table(client) for _ in range(53)]
        pages = follow(client, "/tables")
        assert [len(p) for p in pages] == [50, 3]
        assert [x for p in pages for x in p] == made  # the oldest first, each once
        assert [len(p) for p in follow(client, "/tables?limit=20")] == [20, 20, 13]
        assert client.get("/tables?limit=2&offset=52").json()[0]["id"] == made[52]
        for bad, why in [
            ("limit=0", "query.limit: Input should be greater than or equal to 1"),
            ("limit=201", "query.limit: Input should be less than or equal to 200"),
            ("offset=-1", "query.offset: Input should be greater than or equal to 0"),
            ("limit=many", "query.limit: Input should be a valid integer, unable to parse"),
        ]:
            answer = client.get(f"/tables?{bad}")
            assert answer.status_code == 422
            assert detail(answer).startswith(f"the request is not valid: {why}"), bad


def test_finished_games_and_live_tables_come_in_pages(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        finished = [bots_table(client, seed=s) for s in range(3)]
        for table_id in finished:
            wait_for(client, table_id, "finished")
        pages = follow(client, "/games?limit=2")
        assert [len(p) for p in pages] == [2, 1]
        assert sorted([x for p in pages for x in p]) == sorted(finished)
        playing = []
        for _ in range(3):
            seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
            table_id = client.post("/tables", json={"seats": seats}).json()["id"]
            client.post(f"/tables/{table_id}/seats", json={"name": "Ann"})
            playing.append(table_id)
        pages = follow(client, "/api/tables/live?limit=2", "tables")
        assert [len(p) for p in pages] == [2, 1]
        assert [x for p in pages for x in p] == playing
        assert client.get("/games?limit=201").status_code == 422
        assert client.get("/api/tables/live?limit=0").status_code == 422


# -- connections per table -------------------------------------------------------------------------


def test_spectators_beyond_the_cap_are_refused_with_full(tmp_path: Path) -> None:
    assert Settings().table_connections == 200
    with web_client(tmp_path, table_connections=2) as client:
        table_id = human_table(client)
        taken = client.post(f"/tables/{table_id}/seats", json={"name": "Ann"}).json()
        path = f"ws://127.0.0.1/tables/{table_id}/ws"  # (the test client says testserver)
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            for ws in (one, two):
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "snapshot"
            with client.websocket_connect(path) as three:
                three.send_json({"type": "hello"})
                assert three.receive_json() == {
                    "type": "error",
                    "code": "full",
                    "message": f"table {table_id} has 2 connections, the most it takes: try later",
                }
                with pytest.raises(WebSocketDisconnect):
                    three.receive_json()
            # a seat's own connection is let in all the same
            with client.websocket_connect(path) as ann:
                ann.send_json({"type": "hello", "token": taken["token"]})
                snapshot = ann.receive_json()
                assert snapshot["type"] == "snapshot" and snapshot["seat"] == 0


def test_a_seat_has_at_most_8_connections(tmp_path: Path) -> None:
    with web_client(tmp_path) as client, ExitStack() as stack:
        table_id = human_table(client)
        token = client.post(f"/tables/{table_id}/seats", json={"name": "Ann"}).json()["token"]
        path = f"ws://127.0.0.1/tables/{table_id}/ws"
        for _ in range(8):
            ws = stack.enter_context(client.websocket_connect(path))
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "snapshot"
        ninth = stack.enter_context(client.websocket_connect(path))
        ninth.send_json({"type": "hello", "token": token})
        assert ninth.receive_json() == {
            "type": "error",
            "code": "full",
            "message": f"seat 0 of table {table_id} has 8 connections already",
        }


# -- finished tables in memory ---------------------------------------------------------------------


def test_finished_tables_are_forgotten_beyond_the_cache_and_loaded_again(tmp_path: Path) -> None:
    assert Settings().finished_cache == 64
    with web_client(tmp_path, finished_cache=2) as client:
        hub = hub_of(client)
        made = [bots_table(client, seed=s) for s in range(5)]
        for table_id in made:
            wait_for(client, table_id, "finished")
        records: dict[str, str] = {}
        for table_id in made * 2:
            answer = client.get(f"/games/{table_id}/record")
            assert answer.status_code == 200
            records.setdefault(table_id, answer.text)
            assert answer.text == records[table_id]  # the same match, loaded again
            kept = [t for t in hub.tables.values() if t.status == TableStatus.FINISHED]
            assert len(kept) <= 2
        assert list(hub.tables) == made[-2:]  # the two used last


# -- heavy work ------------------------------------------------------------------------------------


def where_replayed(record_text: str, head: dict[str, Any]) -> bytes:
    """A stand-in for the replay's worker: the process and the thread it ran in."""
    here = {"process": os.getpid(), "thread": threading.current_thread().name}
    return json.dumps({**head, **here, "record": len(record_text)}).encode()


def test_replays_and_records_are_made_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    record_text = LiveTable.record_text
    rebuild = LiveTable._rebuild

    def noted(call: Any) -> Any:
        def calling(*args: Any) -> Any:
            threads.append(threading.current_thread().name)
            return call(*args)

        return calling

    monkeypatch.setattr(LiveTable, "record_text", noted(record_text))
    monkeypatch.setattr(LiveTable, "_rebuild", noted(rebuild))
    with web_client(tmp_path) as client:
        table_id = bots_table(client, seed=4)
        wait_for(client, table_id, "finished")
        del hub_of(client).tables[table_id]  # forgotten: the next request loads it
        threads.clear()
        assert client.get(f"/api/games/{table_id}/replay").status_code == 200
        assert client.get(f"/games/{table_id}/record").status_code == 200
        # a rebuild and a record for the replay, then a record, each in a heavy-work thread
        assert len(threads) == 3
        assert all(name.startswith("thousand-heavy") for name in threads), threads
        # the replay itself in a worker process, and many at once in two of them
        monkeypatch.setattr(routes, "replay_answer", where_replayed)
        with ThreadPoolExecutor(8) as pool:
            answers = list(
                pool.map(lambda _: client.get(f"/api/games/{table_id}/replay").json(), [0] * 8)
            )
        assert all(a["id"] == table_id and a["record"] > 0 for a in answers)
        processes = {a["process"] for a in answers}
        assert os.getpid() not in processes
        assert len(processes) <= 2 == Settings().heavy_workers


# -- many spectators ------------------------------------------------------------------------------


def queued(conn: Connection) -> str:
    text = conn.queue.get_nowait()
    assert text is not None
    return text


def test_an_event_is_encoded_once_for_all_the_spectators(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with web_client(tmp_path) as client:
        table_id = human_table(client)
        client.post(f"/tables/{table_id}/seats", json={"name": "Ann"})
        table = hub_of(client).tables[table_id]  # open (a seat is free): nothing moves on it
        watchers = [Connection(None) for _ in range(100)]
        players = [Connection(0), Connection(1), Connection(1)]
        table.connections.update([*watchers, *players])
        encoded: list[str] = []
        dumps = json.dumps

        def counting(value: Any, **options: Any) -> str:
            text = dumps(value, **options)
            encoded.append(text)
            return text

        monkeypatch.setattr(json, "dumps", counting)
        table._broadcast(lambda seat: {"kind": "deal", "number": 1, "dealer": 0})
        table._tell_seats()
        monkeypatch.undo()
        assert len(encoded) == 3 + 1  # the spectators', seat 0's and seat 1's event; the seats
        texts = [queued(c) for c in watchers]
        assert len(set(texts)) == 1 and json.loads(texts[0])["event"]["kind"] == "deal"
        seat_1 = {queued(players[1]), queued(players[2])}
        assert len(seat_1) == 1
        assert all(json.loads(queued(c))["type"] == "seats" for c in watchers)
        table.connections.difference_update([*watchers, *players])
