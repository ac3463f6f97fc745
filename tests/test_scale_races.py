"""Two hubs (as two server processes would hold them) on one database, in one event loop, no
bus: the database settles every race. An intent made through the hub whose copy of the table is
behind is refused as stale, after the hub has caught up (its connections get the move they
missed, then the refusal and a snapshot); a seat taken through the other hub is not free; a
claim sent again through the other hub gets the same seat; a token issued through the other
hub finds its seat. On SQLite and PostgreSQL, over every template."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from thousand.rules import TEMPLATES, template_rules
from thousand.server import protocol
from thousand.server.bus import Change, Move, Notice
from thousand.server.config import Settings
from thousand.server.storage import SeatSpec, Store, TableStatus, database_url
from thousand.server.tables import Connection, Hub, LiveTable, LobbyError

ALL = sorted(TEMPLATES)


def drained(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def hub_pair(database: str | None, data: Path) -> tuple[Hub, Hub]:
    """Two hubs on one migrated database."""
    settings = Settings(data=data, database=database, bot_delay=0, close_idle=0)
    stores = [Store(database_url(database, data)) for _ in range(2)]
    stores[0].migrate()
    return Hub(stores[0], settings), Hub(stores[1], settings)


async def two_hubs(
    database: str | None, data: Path, template: str
) -> tuple[Hub, Hub, LiveTable, LiveTable]:
    hubs = hub_pair(database, data)
    players = template_rules(template).players_count
    table = await hubs[0].create(template, {}, [SeatSpec("human")] * players, seed=5)
    for seat in range(players - 1):
        await table.take_seat(seat, f"P{seat}")
    other = await hubs[1].fetch(table.id)
    last, _ = await other.take_seat(None, "Last")  # the seat the first hub does not know of
    assert last == players - 1
    # the first hub's copy is behind: its table has not started
    assert table.status == TableStatus.OPEN and table.free_seats() == [last]
    return hubs[0], hubs[1], table, other


def close(*hubs: Hub) -> None:
    for hub in hubs:
        hub.closing = True
        hub.close()
        hub.store.close()


@pytest.mark.parametrize("template", ALL)
def test_an_intent_through_a_copy_behind_is_refused_as_stale_and_resyncs(
    tmp_path: Path, database: str | None, template: str
) -> None:
    async def scenario() -> None:
        a, b, table_a, table_b = await two_hubs(database, tmp_path / "data", template)
        try:
            # the second hub started the match (its last seat was taken there)
            assert table_b.status == TableStatus.PLAYING and table_b.version == 1
            seat = table_b.game.deal.to_act if table_b.game.deal else 0
            here = Connection(seat)
            table_a.attach(here)  # a client of the first hub, whose copy is at version 0
            there = Connection(seat)
            table_b.attach(there)
            drained(here)
            drained(there)
            table_a.nudge()  # (as a notice of the bus would)
            assert table_a._follow_task is not None
            await table_a._follow_task
            assert table_a.version == 1 and table_a.status == TableStatus.PLAYING
            told = drained(here)
            assert [m["type"] for m in told] == ["event", "seats"], told
            assert told[0]["event"]["kind"] == "deal"
            # both hubs are at version 1; a move through the second moves the table on
            deal = table_b.game.deal
            assert deal is not None
            legal = [m for m in table_b.view_json(seat)["legal_actions"]]  # type: ignore[index]
            await table_b.intent(there, protocol.Intent("b-1", legal[0], 1))
            assert drained(there)[-1] == protocol.ack("b-1", 2)
            # the first hub has not heard of it: an intent from version 1 reaches the database
            other_move = legal[-1]
            await table_a.intent(here, protocol.Intent("a-1", other_move, 1))
            answers = drained(here)
            kinds = [m["type"] for m in answers]
            assert kinds == ["event", "error", "snapshot"], answers
            assert answers[0]["version"] == 2 and answers[0] == {
                **answers[0],
                "view": table_a.view_json(seat),
            }
            assert answers[1]["code"] == "stale" and answers[1]["intent"] == "a-1"
            assert answers[2]["version"] == 2
            # the same intent as the second hub stored, sent again through the first: its ack
            await table_a.intent(here, protocol.Intent("b-1", legal[0], 1))
            assert drained(here) == [protocol.ack("b-1", 2)]
            stored = a.store.load(table_a.id)
            assert stored is not None and [m.intent_id for m in stored.moves] == ["b-1"]
        finally:
            close(a, b)

    asyncio.run(scenario())


def test_a_seat_taken_through_another_copy_is_not_free_and_a_claim_holds_it(
    tmp_path: Path, database: str | None
) -> None:
    async def scenario() -> None:
        a, b = hub_pair(database, tmp_path / "data")
        try:
            specs = [SeatSpec("human"), SeatSpec("human"), SeatSpec("bot", "easy")]
            table_a = await a.create("russian", {}, specs, seed=3)
            table_b = await b.fetch(table_a.id)
            seat, token = await table_a.take_seat(0, "Ann", "claim-of-ann-0123456789")
            assert (seat, token) == (0, "claim-of-ann-0123456789")
            # the second copy still shows seat 0 free: the database refuses it all the same
            assert table_b.free_seats() == [0, 1]
            with pytest.raises(LobbyError, match=r"seat 0 of table \w+ is not free") as refused:
                await table_b.take_seat(0, "Bob")
            assert refused.value.status == 409
            assert table_b.row.seats[0].name == "Ann"
            # Ann's request sent again through the other copy: the same seat, the same token
            assert await table_b.take_seat(0, "Ann", "claim-of-ann-0123456789") == (seat, token)
            # a leave refused where the seat changed meanwhile: nothing changes
            await table_a.take_seat(1, "Cy")
            assert table_b.row.seats[1].token_hash is None
            ann = table_b.row.seats[0].token_hash
            assert await table_b.leave(0, ann) == "bot"  # (it caught up: the match is on)
            with pytest.raises(LobbyError, match="this token does not hold seat 0") as refused:
                await table_a.leave(0, ann)
            assert refused.value.status == 403
            stored = a.store.load(table_a.id)
            assert stored is not None and stored.seats[0].token_hash is None
        finally:
            close(a, b)

    asyncio.run(scenario())


def test_a_notice_reads_back_and_anything_else_on_the_channel_is_ignored() -> None:
    move = Move(2, "Qh", "i-7", 3)
    for notice in (
        Notice("t1", 5, Change.MOVE, "p1", move),
        Notice("t1", 6, Change.DEAL, "p1"),
        Notice("t2", 0, Change.TABLE, "p2"),
        Notice("t1", 7, Change.MOVE, "p1", Move(0, "pass", None, 1, "clock")),
        Notice("t1", 7, Change.CHAT, "p2"),
        Notice("t1", 7, Change.PRESENCE, "p2", present=(0, 2)),
        Notice("t1", 7, Change.PRESENCE, "p2"),
    ):
        assert Notice.decode(notice.encode()) == notice
    for junk in (
        "",
        "[]",
        "{}",
        '{"table": 1}',
        '{"table":"t","version":1,"change":"x","origin":"o"}',
        '{"table":"t","version":1,"change":"move","origin":"o","move":[1]}',
        b"\xff",
    ):
        assert Notice.decode(junk) is None


@pytest.mark.parametrize("template", ALL)
def test_a_token_issued_through_another_copy_finds_its_seat(
    tmp_path: Path, database: str | None, template: str
) -> None:
    """A seat taken through the first hub, its notice not yet heard by the second: the second
    copy does not know the token, and asked for its seat it catches up and finds it (as a
    player who sat through one process and connects through the other a moment later)."""

    async def scenario() -> None:
        a, b = hub_pair(database, tmp_path / "data")
        try:
            players = template_rules(template).players_count
            table_a = await a.create(template, {}, [SeatSpec("human")] * players, seed=3)
            table_b = await b.fetch(table_a.id)
            seat, token = await table_a.take_seat(1, "Ann")
            assert seat == 1 and table_b.seat_of(token) is None
            assert await table_b.seat_of_token(token) == 1
            assert table_b.row.seats[1].name == "Ann"
            assert await table_b.seat_of_token("no-such-token-0123456789") is None
        finally:
            close(a, b)

    asyncio.run(scenario())
