"""When a person was last connected to each table: ``tables.seen``, so that a table nobody has
been at for ``--close-idle`` seconds is closed, across restarts too.

A table of an older database has no such time (null): the server counts it from when it loads
the table, so an upgrade closes nothing at once.

Revision ID: 0005
Revises: 0004_hints
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004_hints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("seen", sa.Float, nullable=True))


def downgrade() -> None:
    """Back to no time (a closed table stays closed: revision 0003 reads its status as text)."""
    # (not a batch: SQLite would copy the table that seats, deals and moves refer to;
    # SQLite 3.35 and later drop a column in place)
    op.execute("ALTER TABLE tables DROP COLUMN seen")
