"""Clocks: a table's time control (null: untimed, as every table of an older database is), each
seat's bank and when the running turn started; and, for each move, why a bot made it for a
person (its time ran out, or the seat was away), null for the seat's own move.

Revision ID: 0009_clocks
Revises: 0008_quickplay
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_clocks"
down_revision = "0008_quickplay"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("clock", sa.Text, nullable=True))
    op.add_column("tables", sa.Column("banks", sa.Text, nullable=True))
    op.add_column("tables", sa.Column("turn_started", sa.Float, nullable=True))
    op.add_column("moves", sa.Column("played", sa.String(8), nullable=True))


def downgrade() -> None:
    # (not a batch: SQLite would copy the tables the others refer to; SQLite 3.35 and later
    # drop a column in place)
    op.execute("ALTER TABLE moves DROP COLUMN played")
    op.execute("ALTER TABLE tables DROP COLUMN turn_started")
    op.execute("ALTER TABLE tables DROP COLUMN banks")
    op.execute("ALTER TABLE tables DROP COLUMN clock")
