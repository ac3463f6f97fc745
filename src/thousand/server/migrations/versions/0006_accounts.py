"""Accounts: a player's name and password (an argon2 hash), the sessions signed in with it
(each session id as a SHA-256 hash), and the account of the signed-in player who took each seat
(``seats.account``; null for a guest, a bot and every seat of an older database).

Revision ID: 0006_accounts
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_accounts"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.add_column("seats", sa.Column("account", sa.String(32), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account"])


def downgrade() -> None:
    """Back to guests only: the seats keep their names, the accounts and sessions are gone."""
    op.drop_index("ix_seats_account", table_name="seats")
    # (not a batch: SQLite would copy the table; SQLite 3.35 and later drop a column in place)
    op.execute("ALTER TABLE seats DROP COLUMN account")
    op.drop_table("sessions")
    op.drop_table("accounts")
