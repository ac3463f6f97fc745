"""Chat: each table's messages (an id per table, a channel, the sender, the text or a canned
phrase) and the mutes its readers set.

Revision ID: 0010_chat
Revises: 0009_clocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_chat"
down_revision = "0009_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.String(32), nullable=True, index=True),
        sa.Column("text", sa.String(1024), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("muter", sa.String(64), primary_key=True),
        sa.Column("muted", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_table("chat_messages")
