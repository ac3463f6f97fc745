"""Migration 0006_accounts from every earlier schema (SQLite and PostgreSQL): a database of each
revision, with an open table in it, upgrades to accounts; its seats keep their names and belong
to no account; the way back keeps them too, and up again; and a server on the upgraded database
signs a player up and seats the account at the old table."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory

from thousand.client.link import new_claim
from thousand.server.accounts import AccountStore
from thousand.server.migrate import config, upgrade
from thousand.server.storage import Store, database_url

from .server_support import running

EARLIER = ("0001", "0002", "0003", "0004_hints", "0005")


def head_of(engine: sa.Engine) -> str:
    """The newest revision (accounts' and every later one)."""
    head = ScriptDirectory.from_config(config(engine)).get_current_head()
    assert head is not None
    return head


def write_open_table(engine: sa.Engine, table_id: str) -> None:
    """An open table of three seats, one of them taken by a guest, in the columns every
    revision has."""
    specs = [{"kind": "human", "level": None}] * 2 + [{"kind": "bot", "level": "easy"}]
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO tables (id, created, template, rules, seats, seed, status, version)"
                " VALUES (:id, 1.0, 'russian', '{}', :seats, 7, 'open', 0)"
            ),
            {"id": table_id, "seats": json.dumps(specs)},
        )
        for seat, name in enumerate(["Old Guest", None, None]):
            conn.execute(
                sa.text(
                    "INSERT INTO seats (table_id, seat, name, token_hash) VALUES (:t, :s, :n, :h)"
                ),
                {"t": table_id, "s": seat, "n": name, "h": "ab" * 32 if name else None},
            )


def seats_of(engine: sa.Engine, table_id: str) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                sa.text(
                    "SELECT seat, name, token_hash FROM seats WHERE table_id = :t ORDER BY seat"
                ),
                {"t": table_id},
            )
        ]


def revision_of(engine: sa.Engine) -> str:
    with engine.connect() as conn:
        found: str = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        return found


@pytest.mark.parametrize("start", EARLIER)
def test_every_earlier_schema_upgrades_to_accounts_and_back(
    tmp_path: Path, database: str | None, start: str
) -> None:
    store = Store(database_url(database, tmp_path / "data"))
    upgrade(store.engine, start)
    write_open_table(store.engine, "old")
    before = seats_of(store.engine, "old")
    store.migrate()
    assert revision_of(store.engine) == head_of(store.engine)
    assert seats_of(store.engine, "old") == before
    row = store.load("old")
    assert row is not None
    assert [s.account for s in row.seats] == [None, None, None]
    assert row.seats[0].name == "Old Guest"
    accounts = AccountStore(store)
    made = accounts.create("Ann", "$argon2id$not-a-real-hash")
    session = accounts.start_session(made.id)
    assert accounts.session_account(session) == made
    # back to the revision before, then up again: the seats stay as they were
    command.downgrade(config(store.engine), "0005")
    assert revision_of(store.engine) == "0005"
    assert seats_of(store.engine, "old") == before
    with store.engine.connect() as conn:
        tables = set(sa.inspect(conn).get_table_names())
    assert not {"accounts", "sessions"} & tables
    store.migrate()
    assert seats_of(store.engine, "old") == before
    store.close()


def test_a_server_on_a_database_of_revision_0001_seats_an_account(
    tmp_path: Path, database: str | None
) -> None:
    data = tmp_path / "data"
    store = Store(database_url(database, data))
    upgrade(store.engine, "0001")
    write_open_table(store.engine, "old")
    store.close()
    with running(data, database) as server:
        browser = httpx.Client(base_url=server.http, timeout=20)
        signed = browser.post("/api/accounts", json={"name": "Ann", "password": "a password!"})
        assert signed.status_code == 201, signed.text
        sat = browser.post(
            "/tables/old/seats",
            json={"seat": 1, "claim": new_claim()},
            headers={"X-CSRF-Token": signed.json()["csrf"]},
        )
        assert sat.status_code == 201, sat.text
        seats = server.get("/tables/old").json()["seats"]
        assert [s["name"] for s in seats[:2]] == ["Old Guest", "Ann"]
        assert server.get("/tables/old").json()["status"] == "playing"
    store = Store(database_url(database, data))
    row = store.load("old")
    assert row is not None and row.seats[1].account is not None
    assert row.seats[0].account is None
    store.close()
