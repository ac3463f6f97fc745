"""Alembic's environment: runs migrations on the engine the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from thousand.server.storage import metadata

engine = context.config.attributes.get("engine")
if not isinstance(engine, Engine):
    raise RuntimeError("run migrations through thousand.server.migrate, which passes the engine")

with engine.begin() as connection:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
