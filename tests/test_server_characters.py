"""Lone surrogates and control characters, anywhere in a request or a WebSocket message, get
one sentence that says where (a 4xx, or a ``malformed`` error), never a 500 or a dropped
connection; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from .server_support import BOT, HUMAN, SHORT_MATCH, Client, Server, running_on


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with running_on(request.param, tmp_path_factory.mktemp("characters")) as s:
        yield s


def post_text(server: Server, path: str, text: str) -> httpx.Response:
    """A POST of ``text`` as it is (JSON escapes such as ``\\ud800`` stay escapes)."""
    headers = {"Content-Type": "application/json"}
    return httpx.post(server.http + path, content=text.encode(), headers=headers, timeout=10)


SURROGATE = "a lone surrogate U+D800"
NUL = "a control character U+0000"
INTENT = '{"type": "intent", "id": "%s", "move": "%s", "version": 1}'


@pytest.mark.parametrize(
    ("body", "where", "what"),
    [
        ('{"seat": 0, "name": "Ann\\ud800"}', "body.name", SURROGATE),
        ('{"seat": 0, "name": "A\\u0000nn"}', "body.name", NUL),
        ('{"seat": 0, "name": "\\u001b[31mAnn"}', "body.name", "a control character U+001B"),
    ],
)
def test_odd_characters_in_a_name(server: Server, body: str, where: str, what: str) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    answer = post_text(server, f"/tables/{table['id']}/seats", body)
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"detail": f"the request is not valid: {where} holds {what}"}
    assert server.get(f"/tables/{table['id']}").json()["free_seats"] == [0]


@pytest.mark.parametrize(
    ("body", "where", "what"),
    [
        ('{"rules": {"game.target": "\\ud800"}}', "body.rules.game.target", SURROGATE),
        ('{"rules": {"game.target\\ud800": 300}}', "a key of body.rules", SURROGATE),
        ('{"rules": {"game.target": "\\u0000"}}', "body.rules.game.target", NUL),
        ('{"template": "russian\\u0000"}', "body.template", NUL),
        ('{"seats": [{"kind": "\\ud800"}]}', "body.seats.0.kind", SURROGATE),
        ('{"seats": [{"kind": "human"}, {"level": "\\u0000"}]}', "body.seats.1.level", NUL),
    ],
)  # fmt: skip
def test_odd_characters_in_a_new_table(server: Server, body: str, where: str, what: str) -> None:
    before = server.get("/tables?limit=200").json()
    answer = post_text(server, "/tables", body)
    assert answer.status_code == 422, answer.text
    assert answer.json() == {"detail": f"the request is not valid: {where} holds {what}"}
    assert server.get("/tables?limit=200").json() == before
    checked = post_text(server, "/api/rules/check", body)
    assert checked.status_code == 422, checked.text


def test_a_body_that_is_not_utf_8(server: Server) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    headers = {"Content-Type": "application/json"}
    body = b'{"name": "Ann\xff"}'
    answer = httpx.post(f"{server.http}/tables/{table['id']}/seats", content=body, headers=headers)
    assert answer.status_code == 422
    assert answer.json() == {
        "detail": "the request is not valid: the body is not UTF-8 text (byte 0xFF at 13)"
    }


@pytest.mark.parametrize(
    "path",
    [
        "/tables/ab%00cd",
        "/tables/ab%00cd/record",
        "/games/ab%00cd/record",
        "/tables/ab%00cd/watch",
        "/api/games/ab%00cd/replay",
    ],
)
def test_a_nul_in_a_table_id(server: Server, path: str) -> None:
    answer = server.get(path)
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"detail": f"the path holds {NUL}"}
    taken = server.post("/tables/ab%00cd/seats", {"name": "Ann"})
    assert taken.status_code == 400, taken.text


def test_a_nul_in_the_query(server: Server) -> None:
    answer = server.get("/api/templates?lang=e%00n")
    assert answer.status_code == 400
    assert answer.json() == {"detail": f"the query parameter 'lang' holds {NUL}"}


@pytest.mark.parametrize(
    ("message", "sentence", "intent"),
    [
        (INTENT % ("\\ud800", "pass"), f"message.id holds {SURROGATE}", None),
        (INTENT % ("x\\u0000", "pass"), f"message.id holds {NUL}", None),
        (INTENT % ("i-7", "pass\\ud800"), f"message.move holds {SURROGATE}", "i-7"),
        ('{"type": "ping\\u0000"}', f"message.type holds {NUL}", None),
        ('{"type": "ping", "\\udfff": 1}', "a key of message holds a lone surrogate U+DFFF", None),
    ],
)  # fmt: skip
def test_odd_characters_on_the_websocket(
    server: Server, message: str, sentence: str, intent: str | None
) -> None:
    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    ann = Client(server, table["id"], server.sit(table["id"], "Ann")["token"], 0)
    ann.send_raw(message)
    answer = ann.recv_until(lambda m: m["type"] == "error")
    expected = {"type": "error", "code": "malformed", "message": sentence}
    if intent is not None:
        expected["intent"] = intent
    assert answer == expected
    # the connection goes on
    ann.send({"type": "ping"})
    assert ann.recv_until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    ann.close()


def test_odd_characters_in_a_hello(server: Server) -> None:
    from websockets.sync.client import connect

    table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)
    with connect(f"{server.ws}/tables/{table['id']}/ws") as ws:
        ws.send('{"type": "hello", "token": "\\ud800\\u0000"}')
        answer = json.loads(ws.recv(5))
        assert answer == {
            "type": "error",
            "code": "malformed",
            "message": f"message.token holds {SURROGATE}",
        }
    assert server.get("/health").status_code == 200
