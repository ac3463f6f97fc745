"""Seat occupancy: each taking of a seat is counted, and a move keeps the occupancy whose intent
it was, so an intent id is answered only for the occupant that sent it.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("occupancy", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("occupancy", sa.Integer, nullable=False, server_default="0"))
        batch.drop_constraint("uq_moves_intent", type_="unique")
        batch.create_unique_constraint(
            "uq_moves_intent", ["table_id", "seat", "occupancy", "intent_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_constraint("uq_moves_intent", type_="unique")
        batch.create_unique_constraint("uq_moves_intent", ["table_id", "seat", "intent_id"])
        batch.drop_column("occupancy")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("occupancy")
