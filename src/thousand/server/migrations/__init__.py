"""Alembic migrations of the server's schema."""
