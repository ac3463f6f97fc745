"""Migration 0003: a database written by the schema of revision 0001 (hands and one talon per
deal) opens under the server of today; each deal comes back whole, by dealing it again from the
table's seed, and every table resumes with the same cards at the same version (SQLite and
PostgreSQL)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command

from thousand.bots import Limit, derive_seed, make_bot
from thousand.engine import Game, action_text
from thousand.engine.views import game_view
from thousand.records import record_of_game, write_record
from thousand.rules import rules_from_record
from thousand.server.migrate import config, upgrade
from thousand.server.storage import Store, database_url
from thousand.server.tables import token_hash

from .server_support import SHORT_MATCH, Client, running
from .test_server_deals import LAYOUTS, play_to_next_deal

#: the ``deals`` table as revision 0001 made it
OLD_DEALS = sa.table(
    "deals",
    sa.column("table_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("version", sa.Integer),
    sa.column("dealer", sa.Integer),
    sa.column("hands", sa.Text),
    sa.column("talon", sa.Text),
)
OLD_TABLES = sa.table(
    "tables",
    *(sa.column(c) for c in ("id", "created", "template", "rules", "seats", "seed")),
    *(sa.column(c) for c in ("status", "version", "rematch_of", "rematch")),
)
OLD_SEATS = sa.table("seats", *(sa.column(c) for c in ("table_id", "seat", "name", "token_hash")))
OLD_MOVES = sa.table(
    "moves", *(sa.column(c) for c in ("table_id", "version", "deal", "seat", "move", "intent_id"))
)


@dataclass
class OldTable:
    """A table as the server of revision 0001 played and stored it."""

    id: str
    template: str
    rules: dict[str, Any]
    seed: int
    human: bool
    game: Game


def played(template: str, rules: dict[str, Any], seed: int, human: bool) -> Game:
    """A match as the old server played it: deal ``k`` from ``derive_seed(seed, "deal", k)``,
    easy bots; with a human at seat 0 it stops at seat 0's turn after a few moves of the first
    deals, else it is played to the win."""
    r = rules_from_record(template, rules)
    names = [("Ann" if human and s == 0 else f"easy-bot-{s}") for s in range(r.players_count)]
    game = Game.start(r, players=names)
    bots = [make_bot("easy", s) for s in range(r.players_count)]
    moves = 0
    while not game.over:
        if not game.in_deal:
            number = len(game.logs) + 1
            game = game.shuffle_and_deal(random.Random(derive_seed(seed, "deal", number)))
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        if human and seat == 0 and moves >= 5:
            break
        action = bots[seat].choose(game_view(game, seat), Limit(1.0, seed=moves))
        game = game.apply(action)
        moves += 1
    return game


def write_old(conn: sa.Connection, t: OldTable, token: str) -> None:
    """Store ``t`` as the server of revision 0001 wrote it."""
    n = t.game.rules.players_count
    human = {"kind": "human", "level": None}
    specs = [human if t.human and s == 0 else {"kind": "bot", "level": "easy"} for s in range(n)]
    rows_deals, rows_moves = [], []
    version = 0
    for number, log in enumerate(t.game.logs, start=1):
        version += 1
        rows_deals.append(
            {
                "table_id": t.id,
                "number": number,
                "version": version,
                "dealer": log.dealer,
                "hands": json.dumps(list(log.dealt.hands)),
                "talon": json.dumps(log.dealt.talon),
            }
        )
        replayed = Game.start(t.game.rules, dealer=log.dealer).new_deal(log.dealt)
        for action in log.moves:
            version += 1
            assert replayed.deal is not None
            seat = replayed.deal.to_act
            rows_moves.append(
                {
                    "table_id": t.id,
                    "version": version,
                    "deal": number,
                    "seat": seat,
                    "move": action_text(action),
                    "intent_id": None,
                }
            )
            replayed = replayed.apply(action)
    conn.execute(
        OLD_TABLES.insert().values(
            id=t.id,
            created=float(len(t.id)),
            template=t.template,
            rules=json.dumps(t.rules, sort_keys=True),
            seats=json.dumps(specs),
            seed=t.seed,
            status="finished" if t.game.over else "playing",
            version=version,
            rematch_of=None,
            rematch=None,
        )
    )
    conn.execute(
        OLD_SEATS.insert(),
        [
            {
                "table_id": t.id,
                "seat": s,
                "name": "Ann" if spec["kind"] == "human" else None,
                "token_hash": token_hash(token) if spec["kind"] == "human" else None,
            }
            for s, spec in enumerate(specs)
        ],
    )
    conn.execute(OLD_DEALS.insert(), rows_deals)
    if rows_moves:
        conn.execute(OLD_MOVES.insert(), rows_moves)


def test_a_database_of_revision_0001_opens_and_its_tables_resume(
    tmp_path: Path, database: str | None
) -> None:
    data = tmp_path / "data"
    url = database_url(database, data)
    old: list[OldTable] = []
    for i, (template, rules) in enumerate(LAYOUTS):
        seed = 1000 + i
        game = played(template, rules, seed, human=True)
        old.append(OldTable(f"live{i:02d}", template, rules, seed, True, game))
        short = {**SHORT_MATCH, **rules}
        game = played(template, short, seed, human=False)
        old.append(OldTable(f"done{i:02d}", template, short, seed, False, game))
    # a deal the seed does not make (dealt by other means): whole in the standard layout, and
    # a table that cannot be told whole in choose-talon, which is set aside
    stranger = [
        OldTable("odd-std", "russian", {}, 1, True, played("russian", {}, 2, human=True)),
        OldTable("odd-2tal", "tysiac-2p", {}, 1, True, played("tysiac-2p", {}, 2, human=True)),
    ]
    store = Store(url)
    upgrade(store.engine, "0001")
    with store.engine.begin() as conn:
        for t in (*old, *stranger):
            write_old(conn, t, f"token-{t.id}")
    store.close()

    with running(data, database) as server:
        log = server.log.read_text()
        assert "table odd-2tal cannot be loaded: deal 1: 0 talons, the layout has 2" in log
        assert "odd-std" not in log
        store = Store(url)
        for t in (*old, stranger[0]):
            row = store.load(t.id)
            assert row is not None
            assert [d.dealt for d in row.deals] == [log_.dealt for log_ in t.game.logs], t.id
        store.close()
        rng = random.Random(4)
        for t in (*old, stranger[0]):
            if t.game.over:
                text = server.get(f"/games/{t.id}/record").text
                assert text == write_record(record_of_game(t.game, t.template)), t.template
                continue
            client = Client(server, t.id, f"token-{t.id}", 0)
            assert client.version == len(t.game.logs) + sum(len(g.moves) for g in t.game.logs)
            assert client.view == game_view(t.game, 0).to_json(rules=False), t.template
            play_to_next_deal(client, rng)
            client.close()
        assert server.get("/tables/odd-2tal").status_code == 503


def test_the_migration_goes_back_to_hands_and_talon_and_forth_again(
    tmp_path: Path, database: str | None
) -> None:
    old = [
        OldTable(f"t{i}", t, {}, 50 + i, True, played(t, {}, 50 + i, human=True))
        for i, t in enumerate(("russian", "tysiac-2p", "soviet-book", "two-player-a"))
    ]
    store = Store(database_url(database, tmp_path / "data"))
    upgrade(store.engine, "0001")
    with store.engine.begin() as conn:
        for t in old:
            write_old(conn, t, "token")
        written = conn.execute(sa.select(OLD_DEALS).order_by("table_id", "number")).all()

    def whole() -> None:
        for t in old:
            row = store.load(t.id)
            assert row is not None
            assert [d.dealt for d in row.deals] == [log.dealt for log in t.game.logs], t.id

    store.migrate()
    whole()
    command.downgrade(config(store.engine), "0001")
    with store.engine.connect() as conn:
        back = conn.execute(sa.select(OLD_DEALS).order_by("table_id", "number")).all()
    assert back == written
    store.migrate()
    whole()
    store.close()
