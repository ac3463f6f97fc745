"""Shared test helpers: where the shared spec material lies."""

from __future__ import annotations

import os
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
