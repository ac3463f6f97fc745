"""Shared test helpers: where the shared spec material lies."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


def shared_dir() -> Path:
    """The shared folder (spec, vectors) beside the repository, or $THOUSAND_SHARED."""
    env = os.environ.get("THOUSAND_SHARED")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """A database URL for a server or a store: None (SQLite in the test's data folder) or a
    fresh PostgreSQL database, dropped afterwards."""
    if request.param == "sqlite":
        yield None
    else:
        from .server_support import postgres_database

        with postgres_database() as url:
            yield url
