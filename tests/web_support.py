"""The real app (``create_app``) in a FastAPI TestClient, with its lifespan (storage, bots)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from thousand.server import reference_pages, routes
from thousand.server.app import create_app
from thousand.server.config import Settings

from .server_support import SHORT_MATCH


@contextmanager
def web_client(data: Path, **settings: Any) -> Iterator[TestClient]:
    """The app on ``data`` (SQLite), with ``settings`` as given; requests ask for 127.0.0.1,
    one of the hosts the server answers for by default."""
    settings = {"bot_delay": 0, "tables_per_address": 10_000, **settings}
    app = create_app(Settings(data=data, **settings))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


def clear_caches() -> None:
    """Forget the texts rendered per language (a test that changes a catalogue calls this)."""
    routes.templates_about.cache_clear()
    routes.parameters_about.cache_clear()
    reference_pages.pages.cache_clear()


def bots_table(client: TestClient, seed: int, template: str = "russian") -> str:
    """A table of three easy bots playing a short match; its id."""
    seats = [{"kind": "bot", "level": "easy"}] * 3
    answer = client.post(
        "/tables", json={"template": template, "rules": SHORT_MATCH, "seats": seats, "seed": seed}
    )
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


def wait_for(client: TestClient, table_id: str, status: str, limit_s: float = 120) -> Any:
    """Poll the table until its status is ``status``; its summary."""
    deadline = time.monotonic() + limit_s
    while True:
        summary = client.get(f"/tables/{table_id}").json()
        if summary["status"] == status:
            return summary
        assert time.monotonic() < deadline, f"table {table_id} is still {summary['status']}"
        time.sleep(0.05)
