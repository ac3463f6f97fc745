"""Leases: which server process runs each playing table's own work (its bots, its deals) when
several processes share one database (``thousand serve --bus``). A single server takes none.

Revision ID: 0011_leases
Revises: 0010_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_leases"
down_revision = "0010_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")
