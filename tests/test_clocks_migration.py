"""Migration 0009_clocks from every earlier schema (SQLite and PostgreSQL): a database of each
revision, with an open table in it, upgrades to clocks; the table is untimed and its moves its
seats' own; the way back drops the columns and keeps the table, and up again; and a server on
the upgraded database plays the old table untimed beside a timed new one."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command

from thousand.server.migrate import config, upgrade
from thousand.server.storage import Store, database_url

from .server_support import BOT, HUMAN, Client, running
from .test_accounts_migration import head_of, revision_of, write_open_table

#: the revision before the clocks', and the earlier ones
BEFORE = "0008_quickplay"
EARLIER = ("0001", "0002", "0003", "0004_hints", "0005", "0006_accounts", "0007_ratings", BEFORE)


@pytest.mark.parametrize("start", EARLIER)
def test_every_earlier_schema_upgrades_to_clocks_and_back(
    tmp_path: Path, database: str | None, start: str
) -> None:
    store = Store(database_url(database, tmp_path / "data"))
    upgrade(store.engine, start)
    write_open_table(store.engine, "old")
    store.migrate()
    assert revision_of(store.engine) == head_of(store.engine)
    row = store.load("old")
    assert row is not None
    assert (row.clock, row.banks, row.turn_started) == (None, None, None)
    command.downgrade(config(store.engine), BEFORE)
    assert revision_of(store.engine) == BEFORE
    store.migrate()
    again = store.load("old")
    assert again is not None and again.seats == row.seats
    store.close()


def test_a_server_on_an_upgraded_database_plays_the_old_table_untimed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store = Store(database_url(None, data))
    upgrade(store.engine, BEFORE)
    write_open_table(store.engine, "old")
    store.close()
    with running(data) as server:
        old = server.get("/tables/old").json()
        assert old["clock"] is None
        server.sit("old", "Ann", 1)
        watcher = Client(server, "old", None, None)
        assert watcher.messages[0]["clocks"] is None
        watcher.close()
        timed = server.post(
            "/tables", {"seats": [HUMAN, BOT, BOT], "clock": {"move": 5, "bank": 5, "grace": 5}}
        )
        assert timed.status_code == 201 and timed.json()["clock"]["move"] == 5
