"""Ratings: each participant's rating per family of templates (a signed-in player's, or a bot
level's), each rated seat's change, and whether a table is rated (chosen at its creation; the
tables of an older database are casual).

Revision ID: 0007_ratings
Revises: 0006_accounts
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_ratings"
down_revision = "0006_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("participant", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("declared", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("participant", sa.String(64), nullable=False, index=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("declared", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.execute("ALTER TABLE tables DROP COLUMN rated")
