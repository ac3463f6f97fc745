"""The protocol's client messages, read strictly; the schema of the stored tables."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from thousand.cards import parse_card
from thousand.engine.actions import CRAWL, DISCARD, give, play
from thousand.server import protocol
from thousand.server.schema import metadata
from thousand.server.storage import Store
from thousand.server.tables import MAX_BACKLOG, Connection

from .server_support import VALIDATORS, postgres_database


def test_client_messages_are_read() -> None:
    assert protocol.read_client_message('{"type": "hello"}') == protocol.Hello(None)
    assert protocol.read_client_message('{"type": "hello", "token": "t"}') == protocol.Hello("t")
    intent = protocol.read_client_message(
        '{"type": "intent", "id": "a1", "move": "give Qs 2", "version": 12}'
    )
    assert intent == protocol.Intent("a1", "give Qs 2", 12)
    assert protocol.read_client_message('{"type": "snapshot"}') == protocol.SnapshotRequest()
    assert protocol.read_client_message('{"type": "ping"}') == protocol.Ping()


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("nope", "malformed", "the message is not JSON"),
        ("7", "malformed", "a message must be a JSON object"),
        ("{}", "malformed", "a message must have a 'type' (a string)"),
        ('{"type": "dance"}', "malformed", "unknown message type 'dance'"),
        ('{"type": "ping", "x": 1}', "malformed", "unknown key 'x' in a ping message"),
        ('{"type": "hello", "token": 5}', "malformed", "'token' must be a seat token"),
        (
            '{"type": "intent", "move": "pass", "version": 0}',
            "malformed",
            "an intent needs an 'id': a string of 1 to 64 characters",
        ),
        (
            '{"type": "intent", "id": "a", "move": "", "version": 0}',
            "malformed",
            "an intent's 'move' must be a move in the record's words",
        ),
        (
            '{"type": "intent", "id": "a", "move": "pass", "version": true}',
            "malformed",
            "an intent's 'version' must be the last version seen",
        ),
        ('{"type": "ping", "pad": "' + "x" * 4100 + '"}', "too_large", "at most 4096 bytes"),
        ("[" * 100_000, "too_large", "at most 4096 bytes"),
    ],
)
def test_bad_client_messages(text: str, code: str, message: str) -> None:
    with pytest.raises(protocol.ProtocolError) as caught:
        protocol.read_client_message(text)
    assert caught.value.code == code
    assert message in str(caught.value)


def test_deep_nesting_within_the_size_limit_is_refused() -> None:
    with pytest.raises(protocol.ProtocolError, match=r"not JSON|must be a JSON object"):
        protocol.read_client_message("[" * 4000)


def test_a_give_is_named_only_to_the_two_seats_it_concerns() -> None:
    action = give(parse_card("As"), 2)
    assert protocol.move_event(0, action, 0, False)["move"] == "give As 2"
    assert protocol.move_event(0, action, 2, False)["move"] == "give As 2"
    hidden = protocol.move_event(0, action, 1, False)
    assert hidden == {
        "kind": "move",
        "seat": 0,
        "move": None,
        "to": 2,
        "action": {"kind": "give", "seat": 2},
    }
    assert protocol.move_event(0, action, 2, False)["action"] == {
        "token": "give As 2",
        "kind": "give",
        "card": "As",
        "seat": 2,
    }
    assert protocol.move_event(0, action, None, False)["move"] is None
    assert protocol.move_event(0, action, None, True)["move"] == "give As 2"
    assert protocol.move_event(1, play(parse_card("As")), None, False)["move"] == "As"
    for recipient in (0, 1, 2, None):
        event = protocol.move_event(0, action, recipient, False)
        VALIDATORS["event"].validate(
            {"type": "event", "version": 3, "event": event, "view": None, "clocks": None}
        )


def test_a_face_down_card_is_named_only_to_its_player() -> None:
    crawl, discard = CRAWL + parse_card("Qh"), DISCARD + parse_card("Js")
    assert protocol.move_event(1, crawl, 1, False)["move"] == "crawl Qh"
    assert protocol.move_event(1, crawl, 0, False) == {
        "kind": "move",
        "seat": 1,
        "move": None,
        "face_down": "crawl",
        "action": {"kind": "crawl"},
    }
    assert protocol.move_event(1, crawl, 1, False)["action"]["card"] == "Qh"
    assert protocol.move_event(1, crawl, None, True)["move"] is None
    assert protocol.move_event(0, discard, 0, False)["move"] == "discard Js"
    hidden = protocol.move_event(0, discard, None, False)
    assert hidden["move"] is None and hidden["face_down"] == "discard"
    assert hidden["action"] == {"kind": "discard"}
    VALIDATORS["event"].validate(
        {"type": "event", "version": 3, "event": hidden, "view": None, "clocks": None}
    )


def test_every_schema_is_valid_and_messages_match() -> None:
    for validator in VALIDATORS.values():
        type(validator).check_schema(validator.schema)
    VALIDATORS["error"].validate(protocol.error("stale", "old", "i1"))
    VALIDATORS["ack"].validate(protocol.ack("i1", 3))
    with pytest.raises(Exception, match="is not one of"):
        VALIDATORS["error"].validate(protocol.error("oops", "no such code"))


def _schema_differences(store: Store) -> list[object]:
    store.migrate()
    with store.engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))


def test_migrations_make_the_schema_on_sqlite(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert _schema_differences(store) == []
    store.migrate()  # a second upgrade is a no-op
    store.close()


def test_migrations_make_the_same_schema_on_postgresql() -> None:
    with postgres_database() as url:
        store = Store("postgresql+psycopg://" + url.removeprefix("postgresql://"))
        assert _schema_differences(store) == []
        store.close()


def test_protocol_doc_lists_every_schema() -> None:
    root = Path(__file__).resolve().parents[1] / "docs"
    doc = (root / "protocol.md").read_text(encoding="utf-8")
    for path in sorted((root / "protocol").glob("*.schema.json")):
        assert f"protocol/{path.name}" in doc, path.name
        json.loads(path.read_text(encoding="utf-8"))


def test_a_client_that_reads_nothing_is_cut_off() -> None:
    async def scenario() -> list[str | None]:
        conn = Connection(None)
        for i in range(MAX_BACKLOG + 5):
            conn.send({"type": "pong", "version": i})
        return [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]

    assert asyncio.run(scenario()) == [None]
