"""Every deal stored whole: one ``dealt`` column (hands, talons, stock, aside, shown card, who
sits out) in place of ``hands`` and ``talon``.

Revision 0001 kept only the hands and one talon, which lost the second talon of choose-talon,
the stock of draw-stock, the cards set aside and the shown card. Every deal the server made was
dealt from ``random.Random(derive_seed(table seed, "deal", number))`` by the deal's dealer, so
this migration deals each stored deal again from that seed, checks that the hands and the talon
come out as stored, and keeps the whole deal. A deal that does not come out as stored is kept as
far as it was stored (its hands and talon): in a layout that deals nothing more it is whole;
otherwise the server reports its table and sets it aside rather than guess.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import json
import random
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_tables = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("template", sa.String),
    sa.column("rules", sa.Text),
    sa.column("seed", sa.BigInteger),
)
_deals = sa.table(
    "deals",
    sa.column("table_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("dealer", sa.Integer),
    sa.column("hands", sa.Text),
    sa.column("talon", sa.Text),
    sa.column("dealt", sa.Text),
)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def whole_deal(
    template: str, overrides: Any, seed: int, number: int, dealer: int, hands: Any, talon: Any
) -> dict[str, Any]:
    """The whole deal (:meth:`thousand.engine.Dealt.to_json`) of a deal stored by revision
    0001 as ``hands`` and ``talon``: dealt again from the table's seed where that deals the
    stored cards, else the stored cards alone (see the module)."""
    from thousand.bots import derive_seed
    from thousand.engine import Layout
    from thousand.engine.dealing import deal_layout
    from thousand.rules import RulesError, rules_from_record

    stored = {
        "hands": hands,
        "talons": [talon] if talon else [],
        "stock": [],
        "aside": 0,
        "shown": None,
        "sitter": None,
    }
    try:
        rules = rules_from_record(template, dict(overrides))
    except (RulesError, TypeError, ValueError):
        return stored
    if not 0 <= dealer < rules.players_count:
        return stored
    stored["sitter"] = Layout.of(rules).sitter(dealer)
    rng = random.Random(derive_seed(seed, "deal", number))
    dealt = deal_layout(rules, rng, dealer)
    if list(dealt.hands) != hands or dealt.talon != talon:
        return stored
    return dealt.to_json()


def upgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("dealt", sa.Text, nullable=True))
    conn = op.get_bind()
    tables = {
        t.id: (t.template, t.rules, t.seed)
        for t in conn.execute(
            sa.select(_tables.c.id, _tables.c.template, _tables.c.rules, _tables.c.seed)
        )
    }
    rows = conn.execute(
        sa.select(
            _deals.c.table_id, _deals.c.number, _deals.c.dealer, _deals.c.hands, _deals.c.talon
        )
    ).all()
    for d in rows:
        template, rules, seed = tables[d.table_id]
        try:
            overrides = json.loads(rules)
            hands = json.loads(d.hands)
            talon = json.loads(d.talon)
        except ValueError:
            overrides, hands, talon = None, [], 0
        dealt = whole_deal(template, overrides or {}, seed, d.number, d.dealer, hands, talon)
        conn.execute(
            sa.update(_deals)
            .where(_deals.c.table_id == d.table_id, _deals.c.number == d.number)
            .values(dealt=_compact(dealt))
        )
    with op.batch_alter_table("deals") as batch:
        batch.alter_column("dealt", existing_type=sa.Text, nullable=False)
        batch.drop_column("hands")
        batch.drop_column("talon")


def downgrade() -> None:
    """Back to hands and one talon (what revision 0001 can hold; the rest is lost)."""
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("hands", sa.Text, nullable=True))
        batch.add_column(sa.Column("talon", sa.Text, nullable=True))
    conn = op.get_bind()
    for d in conn.execute(sa.select(_deals.c.table_id, _deals.c.number, _deals.c.dealt)).all():
        dealt = json.loads(d.dealt)
        talons = dealt["talons"]
        conn.execute(
            sa.update(_deals)
            .where(_deals.c.table_id == d.table_id, _deals.c.number == d.number)
            .values(  # as revision 0001's server wrote them
                hands=json.dumps(dealt["hands"]),
                talon=json.dumps(talons[0] if len(talons) == 1 else 0),
            )
        )
    with op.batch_alter_table("deals") as batch:
        batch.alter_column("hands", existing_type=sa.Text, nullable=False)
        batch.alter_column("talon", existing_type=sa.Text, nullable=False)
        batch.drop_column("dealt")
