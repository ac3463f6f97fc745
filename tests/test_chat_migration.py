"""Migration 0010_chat from every earlier schema (SQLite and PostgreSQL): a database of each
revision, with an open table in it, upgrades to the chat; the table has none and takes
messages and mutes; the way back drops the chat and keeps the table, and up again; and a server
on a database of the first revision serves the old table's chat."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from thousand.server.chat_store import ChatRow, ChatStore, MuteRow
from thousand.server.migrate import config, upgrade
from thousand.server.storage import Store, database_url

from .chat_support import ChatClient, chat_rows
from .server_support import running
from .test_accounts_migration import revision_of, seats_of, write_open_table

#: the revision before the chat's, and the earlier ones
BEFORE = "0009_clocks"
EARLIER = (
    "0001",
    "0002",
    "0003",
    "0004_hints",
    "0005",
    "0006_accounts",
    "0007_ratings",
    "0008_quickplay",
    BEFORE,
)
CHAT = "0010_chat"


def table_names(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return set(sa.inspect(conn).get_table_names())


@pytest.mark.parametrize("start", EARLIER)
def test_every_earlier_schema_upgrades_to_the_chat_and_back(
    tmp_path: Path, database: str | None, start: str
) -> None:
    store = Store(database_url(database, tmp_path / "data"))
    upgrade(store.engine, start)
    write_open_table(store.engine, "old")
    before = seats_of(store.engine, "old")
    upgrade(store.engine, CHAT)
    assert revision_of(store.engine) == CHAT
    assert seats_of(store.engine, "old") == before
    chat = ChatStore(store)
    assert chat.last_id("old") == 0 and chat.mutes("old") == []
    said = ChatRow(0, "seats", "seat:0:1", 0, "Old Guest", None, "hello", None, 1.0)
    assert chat.post("old", said) == 1
    assert chat.post("old", said) == 2
    chat.set_mute("old", MuteRow("seat:1:1", "seat:0:1", 0, "Old Guest"), True)
    assert [r.id for r in chat.after("old", 0)] == [1, 2]
    assert len(chat.mutes("old")) == 1
    command.downgrade(config(store.engine), BEFORE)
    assert revision_of(store.engine) == BEFORE
    assert not {"chat_messages", "chat_mutes"} & table_names(store.engine)
    assert seats_of(store.engine, "old") == before
    upgrade(store.engine, CHAT)
    assert chat.last_id("old") == 0
    store.close()


def test_a_server_on_a_database_of_revision_0001_keeps_an_old_tables_chat(
    tmp_path: Path, database: str | None
) -> None:
    data = tmp_path / "data"
    store = Store(database_url(database, data))
    upgrade(store.engine, "0001")
    write_open_table(store.engine, "old")
    store.close()
    with running(data, database) as server:
        taken = server.sit("old", "Ann", 1)
        ann = ChatClient(server, "old", taken["token"], 1)
        ann.say("on an old table")
        assert [m["name"] for m in ann.chat_until("on an old table")] == ["Ann"]
        assert chat_rows(server, "old") == [(1, "seats", 1, "Ann", "on an old table", None)]
        ann.close()
