"""The server's HTTP surface in one place: every route of the app is added by
``thousand.server.routes`` (the accounts', the ratings' and quick play's from their own
modules) and listed in the table at its
top, every error's answer is set there, and every answer that shows a table builds it with the
one summary."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from starlette.routing import Mount, Route

from thousand.records import read_record
from thousand.rules import rules_from_record
from thousand.rules.templates import TEMPLATES
from thousand.server import routes, summary
from thousand.server.app import create_app
from thousand.server.config import Settings
from thousand.server.tables import Hub

from .web_support import bots_table, wait_for, web_client

#: the modules whose routes ``routes.add_routes`` adds (and lists): its own, the accounts',
#: the ratings' and quick play's
ROUTE_MODULES = {
    "thousand.server.routes",
    "thousand.server.account_routes",
    "thousand.server.rating_routes",
    "thousand.server.quickplay_routes",
}
#: the routes FastAPI adds by itself: its description and its docs pages
FASTAPI_OWN = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


def surface(app: FastAPI) -> set[tuple[str, str]]:
    """Each (method, path) the app answers: ``WS`` for a WebSocket, a mount's files as
    ``/static/{path}``."""
    found: set[tuple[str, str]] = set()
    for route in app.routes:
        if isinstance(route, APIWebSocketRoute):
            found.add(("WS", route.path))
        elif isinstance(route, Mount):
            found.add(("GET", route.path + "/{path}"))
        else:
            assert isinstance(route, Route), route
            found |= {(m, route.path) for m in route.methods or () if m != "HEAD"}
    return found


def table_of_routes() -> set[tuple[str, str]]:
    """The rows of the table in the routes module's docstring."""
    doc = routes.__doc__ or ""
    rows = re.findall(r"^(GET|POST|PUT|PATCH|DELETE|WS) +(/\S*)", doc, re.MULTILINE)
    assert len(rows) == len(set(rows)), "a route is listed twice"
    return set(rows)


def test_every_route_is_in_the_table_at_the_top_of_the_routes_module(tmp_path: Path) -> None:
    app = create_app(Settings(data=tmp_path))
    assert surface(app) == table_of_routes()


def test_every_http_route_and_every_error_answer_is_declared_in_the_routes_module(
    tmp_path: Path,
) -> None:
    app = create_app(Settings(data=tmp_path))
    bare = FastAPI()
    routes.add_routes(bare, app.state.hub)
    own = {(m, p) for m, p in surface(bare) if p not in FASTAPI_OWN}
    websocket = {("WS", "/tables/{table_id}/ws")}
    # the app's routes are those of add_routes, the WebSocket and FastAPI's own
    assert surface(app) == own | websocket | {(m, p) for m, p in surface(bare) if p in FASTAPI_OWN}
    for route in app.routes:
        if isinstance(route, APIRoute) and route.path not in FASTAPI_OWN:
            assert route.endpoint.__module__ in ROUTE_MODULES, route.path
        if isinstance(route, APIWebSocketRoute):
            assert route.endpoint.__module__ == "thousand.server.websocket", route.path
    # every answer to an error is the routes module's, or FastAPI's and Starlette's own
    for error, handler in app.exception_handlers.items():
        module = handler.__module__
        assert module == "thousand.server.routes" or not module.startswith("thousand"), error
    assert {
        e.__name__ for e, h in app.exception_handlers.items() if "thousand" in h.__module__
    } == {
        "LobbyError",
        "DBAPIError",
        "RequestValidationError",
    }


class Shown:
    """Marks each summary made while it is installed with the keys it was asked for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = summary.table
        monkeypatch.setattr(summary, "table", self.marked)

    def marked(self, row: Any, game: Any, keys: Any, ratings: Any = None) -> dict[str, Any]:
        return {**self.real(row, game, keys, ratings), "_keys": list(keys)}

    def check(self, client: TestClient, answer: dict[str, Any], keys: tuple[str, ...]) -> None:
        """``answer`` is the one summary with ``keys`` of its table, as the table is now."""
        assert answer.pop("_keys") == list(keys)
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[answer["id"]]
        assert answer == self.real(table.row, table.game, keys, table.ratings)  # type: ignore[arg-type]


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_every_table_answer_is_the_one_summary(
    tmp_path: Path, template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = Shown(monkeypatch)
    players = rules_from_record(template, {}).players_count
    names = ["Ann", "Bob", "Cid", "Dan"][:players]
    with web_client(tmp_path) as client:  # people only: nothing moves while the test reads
        seats = [{"kind": "human"}] * players
        made = client.post("/tables", json={"template": template, "seats": seats}).json()
        shown.check(client, made, summary.LOBBY)
        table_id = made["id"]
        client.post(f"/tables/{table_id}/seats", json={"name": names[0]})
        (listed,) = client.get("/tables").json()
        shown.check(client, listed, summary.LOBBY)
        assert listed["free_seats"] == list(range(1, players))
        assert client.get("/api/tables/live").json()["tables"] == []
        for name in names[1:]:
            client.post(f"/tables/{table_id}/seats", json={"name": name})
        one = client.get(f"/tables/{table_id}").json()
        shown.check(client, one, summary.LOBBY)
        assert one["status"] == "playing" and one["deals"] == 1
        (live,) = client.get("/api/tables/live").json()["tables"]
        shown.check(client, live, summary.LIVE)
        assert [s["name"] for s in live["seats"]] == names
        assert client.get("/tables").json() == []


def test_a_finished_match_is_listed_with_the_names_its_seats_and_record_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = Shown(monkeypatch)
    with web_client(tmp_path) as client:
        table_id = bots_table(client, seed=3)
        seats = wait_for(client, table_id, "finished")["seats"]
        (game,) = client.get("/games").json()
        assert game.pop("_keys") == list(summary.GAME)
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        (row,) = hub.store.finished()  # the stored row alone, as /games reads it
        assert game == shown.real(row, None, summary.GAME)
        record = read_record(client.get(game["record"]).text)
        assert game["players"] == [s["name"] for s in seats] == list(record.players or ())
        assert game["players"] == ["easy-bot-0", "easy-bot-1", "easy-bot-2"]
        assert game == {
            "id": table_id,
            "template": "russian",
            "created": row.created,
            "seats": seats,
            "players": ["easy-bot-0", "easy-bot-1", "easy-bot-2"],
            "record": f"/games/{table_id}/record",
            "hints": [0, 0, 0],
            "rated": False,
        }


def test_a_summary_of_a_stored_row_reads_no_game(tmp_path: Path) -> None:
    with web_client(tmp_path) as client:
        table_id = bots_table(client, seed=3)
        wait_for(client, table_id, "finished")
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        (row,) = hub.store.finished()
        with pytest.raises(ValueError, match=f"the summary of table {table_id} has no game"):
            summary.table(row, None, ("id", "totals"))
