"""Quick play's queue: each ticket, waiting, forming or seated (:mod:`thousand.server.quickplay`).

Revision ID: 0008_quickplay
Revises: 0007_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_quickplay"
down_revision = "0007_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quick_tickets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("template", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("account", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("wait", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("changed", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
    )
    op.create_index("ix_quick_tickets_state_template", "quick_tickets", ["state", "template"])
    op.create_index("ix_quick_tickets_address", "quick_tickets", ["address"])


def downgrade() -> None:
    op.drop_index("ix_quick_tickets_address", "quick_tickets")
    op.drop_index("ix_quick_tickets_state_template", "quick_tickets")
    op.drop_table("quick_tickets")
