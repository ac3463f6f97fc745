"""The terminal client's chat: lines in the reader's language (the canned phrases too), a
chat typed in the box under the log (``:good-game`` for a phrase), against a real server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from textual.widgets import Input, Log

from thousand.client.app import ThousandApp
from thousand.client.link import Seat
from thousand.i18n import LANGUAGES, language
from thousand.prose.chat import PHRASES, chat_line, muted_line, typed_chat
from thousand.server.chat import Phrase

from .chat_support import ChatClient, chat_rows
from .server_support import HUMAN, Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("client-chat")) as s:
        yield s


def test_the_client_knows_the_servers_phrases() -> None:
    assert set(PHRASES) == {p.value for p in Phrase}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phrase_is_said_in_the_readers_language(lang: str) -> None:
    with language(lang):
        said = {p: chat_line({"seat": 1, "name": "Bob", "phrase": p}) for p in PHRASES}
        watcher = chat_line({"seat": None, "name": "Carol", "text": "<b>hi</b>"})
        muted = muted_line([{"seat": 1, "name": "Bob"}])
    assert all(line.startswith("Bob: ") for line in said.values())
    assert len(set(said.values())) == len(PHRASES)
    assert watcher.startswith("Carol") and watcher.endswith(": <b>hi</b>")
    assert "Bob" in muted
    if lang != "en":
        assert said["good-game"] != "Bob: Good game!"


def test_what_is_typed_becomes_a_chat_message() -> None:
    assert typed_chat("  hello  ") == {"type": "chat", "text": "hello"}
    assert typed_chat(":good-game") == {"type": "chat", "phrase": "good-game"}
    assert typed_chat(":unknown") == {"type": "chat", "text": ":unknown"}
    assert typed_chat("   ") is None


def test_the_client_chats_in_its_language(server: Server) -> None:
    table_id = str(server.new_table([HUMAN] * 3)["id"])
    ann_token = server.sit(table_id, "Ann", 0)["token"]
    bob = ChatClient(server, table_id, server.sit(table_id, "Bob", 1)["token"], 1)
    app = ThousandApp(Seat(server.http, table_id, 0, ann_token))

    async def chat() -> list[str]:
        deadline = time.monotonic() + 30
        async with app.run_test(size=(140, 50)) as pilot:
            while app.link.snapshot is None:
                assert time.monotonic() < deadline, "no snapshot came"
                await pilot.pause(0.02)
            box = app.query_one("#say", Input)
            box.focus()
            for typed in ("hello from the terminal", ":thanks"):
                box.value = typed
                await pilot.press("enter")
            await asyncio.to_thread(bob.chat_until, "hello from the terminal")
            await asyncio.to_thread(bob.send, {"type": "chat", "phrase": "good-game"})
            log = app.query_one("#log", Log)
            while not any(line.startswith("Bob: ") for line in log.lines):
                assert time.monotonic() < deadline, "Bob's phrase did not come"
                await pilot.pause(0.02)
            lines = [str(line) for line in log.lines]
            app.exit()
        return lines

    with language("pl"):
        lines = asyncio.run(chat())
    assert "Ann: hello from the terminal" in lines
    assert "Ann: Dzięki!" in lines
    assert "Bob: Dobra gra!" in lines
    assert [r[2:] for r in chat_rows(server, table_id)] == [
        (0, "Ann", "hello from the terminal", None),
        (0, "Ann", None, "thanks"),
        (1, "Bob", None, "good-game"),
    ]
    bob.close()
