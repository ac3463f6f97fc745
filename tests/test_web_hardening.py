"""The server answers only for its own hosts, lets only its own pages (and clients that send no
``Origin``) open WebSockets, and every answer carries the security headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from thousand.cli.main import build_parser
from thousand.server.config import Settings
from thousand.server.serve import settings_of

from .server_support import BOT, HUMAN, Server, running
from .web_support import web_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with web_client(tmp_path_factory.mktemp("hardening")) as c:
        yield c


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    extra = ("--allowed-host", "thousand.example", "--allowed-origin", "https://friend.example")
    with running(tmp_path_factory.mktemp("hardening-server"), None, *extra) as s:
        yield s


# -- hosts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example"])
def test_another_host_is_400(client: TestClient, host: str) -> None:
    for path in ("/", "/health", "/tables", "/api/languages"):
        answer = client.get(path, headers={"Host": host})
        assert answer.status_code == 400, path
        assert answer.json() == {"detail": f"this server does not answer for the host {host!r}"}
    assert client.post("/tables", json={}, headers={"Host": host}).status_code == 400
    table_id = client.post("/tables", json={"seats": [HUMAN, BOT, BOT]}).json()["id"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"ws://{host}/tables/{table_id}/ws"),
    ):
        pass
    assert refused.value.code == 1008


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:9000", "[::1]:8000"])
def test_this_machines_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/health", headers={"Host": host}).status_code == 200


def test_allowed_hosts_are_a_server_option(server: Server) -> None:
    import httpx

    def status(host: str) -> int:
        return httpx.get(server.http + "/health", headers={"Host": host}).status_code

    assert status("thousand.example") == 200
    assert status(f"127.0.0.1:{server.port}") == 200
    assert status("evil.example") == 400


def test_the_defaults_and_the_command_line() -> None:
    assert Settings().allowed_hosts == ("127.0.0.1", "localhost", "::1")
    assert Settings().allowed_origins == ()
    parse = build_parser().parse_args
    assert settings_of(parse(["serve"])).allowed_hosts == ("127.0.0.1", "localhost", "::1")
    lan = settings_of(parse(["serve", "--host", "192.168.1.5", "--allowed-host", "game.lan"]))
    assert lan.allowed_hosts == ("127.0.0.1", "localhost", "::1", "192.168.1.5", "game.lan")
    everywhere = settings_of(parse(["serve", "--host", "0.0.0.0"]))
    assert everywhere.allowed_hosts == ("127.0.0.1", "localhost", "::1")
    origins = parse(["serve", "--allowed-origin", "https://a.example", "--allowed-origin", "*"])
    assert settings_of(origins).allowed_origins == ("https://a.example", "*")
    limits = ["--max-body", "1024", "--tables-per-address", "3", "--table-connections", "9"]
    bounded = settings_of(parse(["serve", *limits]))
    assert (bounded.max_body, bounded.tables_per_address, bounded.table_connections) == (1024, 3, 9)
    default = settings_of(parse(["serve"]))
    assert (default.max_body, default.tables_per_address, default.table_connections) == (
        Settings().max_body,
        Settings().tables_per_address,
        Settings().table_connections,
    )


# -- origins ------------------------------------------------------------------------------------


def hello(server: Server, table_id: str, origin: str | None) -> str:
    """The type of the first message a spectator gets, sending ``origin``."""
    headers = {"Origin": origin} if origin else None
    with connect(f"{server.ws}/tables/{table_id}/ws", additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello"}))
        kind: str = json.loads(ws.recv(5))["type"]
        return kind


def test_a_websocket_from_another_sites_page_is_refused(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT])
    for origin in ("http://evil.example", f"http://evil.example:{server.port}", "null"):
        with pytest.raises(InvalidStatus) as refused:
            hello(server, table["id"], origin)
        assert refused.value.response.status_code == 403, origin
    # the page of this server, another allowed site, and a client without Origin get in
    assert hello(server, table["id"], f"http://127.0.0.1:{server.port}") == "snapshot"
    assert hello(server, table["id"], "https://friend.example") == "snapshot"
    assert hello(server, table["id"], None) == "snapshot"


def test_a_refused_origin_in_the_test_client(client: TestClient) -> None:
    table_id = client.post("/tables", json={"seats": [HUMAN, BOT, BOT]}).json()["id"]
    url = f"ws://127.0.0.1/tables/{table_id}/ws"
    evil = {"Origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers=evil):
        pass
    assert refused.value.code == 1008
    with client.websocket_connect(url, headers={"Origin": "http://127.0.0.1"}) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "snapshot"


# -- headers ------------------------------------------------------------------------------------

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self' ws://127.0.0.1 wss://127.0.0.1; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/static/js/app.js",
        "/static/style.css",
        "/static/nothing.js",
        "/api/languages",
        "/tables",
        "/tables/nothing",
        "/reference/en/",
        "/health",
    ],
)
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.headers["content-security-policy"] == POLICY
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"


def test_refusals_have_them_too(client: TestClient) -> None:
    answer = client.get("/health", headers={"Host": "evil.example"})
    assert answer.headers["x-frame-options"] == "DENY"
    assert "ws://evil" not in answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_the_page_needs_nothing_the_policy_forbids() -> None:
    """No inline script or style, no script or style from elsewhere: what the policy allows."""
    static = Path(__file__).resolve().parents[1] / "src" / "thousand" / "web" / "static"
    page = (static / "index.html").read_text(encoding="utf-8")
    assert "<style" not in page and " style=" not in page
    assert page.count("<script") == 1 and '<script type="module" src="/static/' in page
    for path in static.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for forbidden in ("eval(", "new Function", ".style.", "cssText", "innerHTML"):
            assert forbidden not in text, (path.name, forbidden)
