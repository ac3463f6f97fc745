"""A table's chat on real servers (SQLite and PostgreSQL): the players' channel and the
spectators', who writes (the connection decides, never a field), every refusal one sentence
that stores nothing, mutes, the history a late joiner gets, and the chat after a restart."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from thousand.rules import TEMPLATES, rules_from_record
from thousand.server.account_routes import COOKIE, CSRF_HEADER
from thousand.server.chat import CHAT_BURST, CHAT_WINDOW, MAX_CHAT

from .chat_support import PASSWORD, ChatClient, chat_rows, sign_up, texts
from .server_support import HUMAN, Message, Server, postgres_database, running

KINDS = ["sqlite", "postgresql"]
#: messages sent at once past a full burst: more than the bucket can give back meanwhile
TOO_MANY = 10


@contextlib.contextmanager
def server_on(kind: str, data: Path) -> Iterator[Server]:
    with contextlib.ExitStack() as stack:
        url = None if kind == "sqlite" else stack.enter_context(postgres_database())
        yield stack.enter_context(running(data, url))


@pytest.fixture(scope="module", params=KINDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with server_on(request.param, tmp_path_factory.mktemp("chat")) as s:
        yield s


def open_table(server: Server, template: str = "russian") -> tuple[str, list[str]]:
    """A table of people only, Ann and Bob seated at 0 and 1 (it stays open: chat needs no
    deal); its id and their tokens."""
    players = rules_from_record(template, {}).players_count
    table_id = str(server.new_table([HUMAN] * players, template=template)["id"])
    return table_id, [
        server.sit(table_id, name, seat)["token"] for seat, name in enumerate(["Ann", "Bob"])
    ]


def one_sentence(error: Message, code: str) -> str:
    assert error["code"] == code, error
    sentence = str(error["message"])
    assert sentence and "\n" not in sentence and "Traceback" not in sentence
    return sentence


@pytest.mark.parametrize("template", TEMPLATES)
def test_two_seats_and_a_spectator_exchange_messages(server: Server, template: str) -> None:
    table_id, (ann_token, bob_token) = open_table(server, template)
    ann = ChatClient(server, table_id, ann_token, 0)
    bob = ChatClient(server, table_id, bob_token, 1)
    watcher = ChatClient(server, table_id)
    ann.say("hello Bob")
    bob.chat_until("hello Bob")
    bob.send({"type": "chat", "phrase": "good-luck"})
    bob.say("hi Ann")
    for client in (ann, bob, watcher):
        lines = client.chat_until("hi Ann")
        if client is bob:
            lines = [
                {"seat": 0, "name": "Ann", "channel": "seats", "text": "hello Bob", "id": 1},
                *lines,
            ]
        assert texts(lines) == ["hello Bob", ":good-luck", "hi Ann"]
        assert [(m["seat"], m["name"], m["channel"]) for m in lines] == [
            (0, "Ann", "seats"),
            (1, "Bob", "seats"),
            (1, "Bob", "seats"),
        ]
        assert [m["id"] for m in lines] == [1, 2, 3]
    assert chat_rows(server, table_id) == [
        (1, "seats", 0, "Ann", "hello Bob", None),
        (2, "seats", 1, "Bob", None, "good-luck"),
        (3, "seats", 1, "Bob", "hi Ann", None),
    ]
    for client in (ann, bob, watcher):
        client.close()


def test_spectators_chat_never_reaches_a_seat(server: Server) -> None:
    table_id, (ann_token, _) = open_table(server)
    carol, carol_cookie = sign_up(server, "Carol")
    ann = ChatClient(server, table_id, ann_token, 0)
    spectator = ChatClient(server, table_id, cookie=carol_cookie)
    guest = ChatClient(server, table_id)
    spectator.say("the player at seat 1 holds the ace")
    spectator.send({"type": "chat", "phrase": "oops"})
    spectator.say("(the rail)")
    seen = spectator.chat_until("(the rail)")
    ann.say("my move")
    assert texts(ann.chat_until("my move")) == ["my move"]
    for client in (spectator, guest):
        lines = (
            seen + client.chat_until("my move")
            if client is spectator
            else client.chat_until("my move")
        )
        assert texts(lines) == [
            "the player at seat 1 holds the ace",
            ":oops",
            "(the rail)",
            "my move",
        ]
        assert [(m["channel"], m["seat"], m["name"]) for m in lines[:2]] == [
            ("spectators", None, carol),
            ("spectators", None, carol),
        ]
    # a guest reads, but writes under no name
    guest.say("hello")
    sentence = one_sentence(guest.error(), "no_chat_name")
    assert "sign in" in sentence
    # a spectator's own seat token is needed to write as a seat: a field never decides it
    spectator.send({"type": "chat", "text": "as Ann", "seat": 0}, check=False)
    assert "unknown key 'seat'" in one_sentence(spectator.error(), "malformed")
    assert [r[1] for r in chat_rows(server, table_id)] == ["spectators"] * 3 + ["seats"]
    # a late seat gets the players' channel alone
    late = ChatClient(server, table_id, ann_token, 0)
    history = late.recv_until(lambda m: m["type"] == "chat-history")
    assert texts(history["messages"]) == ["my move"]
    for client in (ann, spectator, guest, late):
        client.close()


def test_a_seat_never_posts_as_another(server: Server) -> None:
    table_id, (ann_token, _) = open_table(server)
    ann = ChatClient(server, table_id, ann_token, 0)
    for forged in (
        {"type": "chat", "text": "I am Bob", "seat": 1},
        {"type": "chat", "text": "I am Bob", "name": "Bob"},
        {"type": "chat", "text": "I am Bob", "channel": "spectators"},
        {"type": "chat", "text": "x", "phrase": "thanks"},
    ):
        ann.send(forged, check=False)
        one_sentence(ann.error(), "malformed")
    ann.say("me")
    assert [(m["seat"], m["name"]) for m in ann.chat_until("me")] == [(0, "Ann")]
    assert chat_rows(server, table_id) == [(1, "seats", 0, "Ann", "me", None)]
    ann.close()


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "chat", "text": "x" * (MAX_CHAT + 1)}, "chat_too_long", "at most 300"),
        ({"type": "chat", "text": "   "}, "bad_chat", "blank"),
        ({"type": "chat", "text": ""}, "bad_chat", "blank"),
        ({"type": "chat", "text": "bell\u0007"}, "malformed", "control character U+0007"),
        ({"type": "chat", "text": "line\nbreak"}, "malformed", "control character U+000A"),
        ({"type": "chat", "text": "\u202eevil"}, "bad_chat", "U+202E"),
        ({"type": "chat", "text": "\ue000"}, "bad_chat", "U+E000"),
        ({"type": "chat", "text": "\ud800"}, "malformed", "lone surrogate"),
        ({"type": "chat", "phrase": "insult"}, "bad_chat", "'phrase' must be one of"),
        ({"type": "chat", "text": 7}, "malformed", "must be a string"),
        ({"type": "chat"}, "malformed", "either a 'text' or a 'phrase'"),
        ({"type": "mute", "seat": 9, "muted": True}, "bad_mute", "not a seat"),
        ({"type": "mute", "seat": 2, "muted": True}, "bad_mute", "no player"),
        ({"type": "mute", "seat": 0, "muted": True}, "bad_mute", "oneself"),
        ({"type": "mute", "name": "Zed", "muted": True}, "bad_mute", "never read"),
        ({"type": "mute", "seat": 1}, "malformed", "'muted'"),
    ],
)
def test_a_refused_message_is_one_sentence_and_stores_nothing(
    server: Server, message: Message, code: str, words: str
) -> None:
    table_id, (ann_token, bob_token) = open_table(server)
    ann = ChatClient(server, table_id, ann_token, 0)
    bob = ChatClient(server, table_id, bob_token, 1)
    ann.send(message, check=False)
    assert words in one_sentence(ann.error(), code)
    bob.say("after")
    assert texts(bob.chat_until("after")) == ["after"]
    assert texts(ann.chat_until("after")) == ["after"]
    assert chat_rows(server, table_id) == [(1, "seats", 1, "Bob", "after", None)]
    ann.close()
    bob.close()


def test_text_is_normalised_and_kept_as_plain_text(server: Server) -> None:
    table_id, (ann_token, _) = open_table(server)
    ann = ChatClient(server, table_id, ann_token, 0)
    ann.say("  <b>x</b>   and\u3000 Cafe\u0301 👨\u200d👩\u200d👧 ")
    said = "<b>x</b> and Café 👨\u200d👩\u200d👧"
    assert texts(ann.chat_until(said)) == [said]
    assert chat_rows(server, table_id)[0][4] == said
    ann.say("y" * MAX_CHAT)
    assert ann.chat_until("y" * MAX_CHAT)
    ann.close()


def test_too_fast_is_refused_per_seat_whatever_its_connections(server: Server) -> None:
    table_id, (ann_token, bob_token) = open_table(server)
    first = ChatClient(server, table_id, ann_token, 0)
    second = ChatClient(server, table_id, ann_token, 0)
    bob = ChatClient(server, table_id, bob_token, 1)
    began = time.monotonic()
    for i in range(CHAT_BURST):
        (first if i % 2 else second).say(f"m{i}")
    first.chat_until(f"m{CHAT_BURST - 1}")
    # The bucket gives one message back every CHAT_WINDOW / CHAT_BURST seconds, and on a
    # loaded machine the burst itself may take that long: send more than any refill allows.
    for i in range(TOO_MANY):
        second.say(f"more {i}")
    sentence = one_sentence(second.error(), "chat_too_fast")
    assert f"at most {CHAT_BURST} chat messages in 10 seconds" in sentence
    bob.say("bob is free to talk")
    assert texts(first.chat_until("bob is free to talk"))[-1] == "bob is free to talk"
    rows = chat_rows(server, table_id)
    took = time.monotonic() - began
    ann_said = sum(1 for row in rows if row[2] == 0)
    # what to look at should the count be off (seen once, 4 of 5 stored, under CI's load)
    errors = [m for c in (first, second) for m in c.messages if m["type"] == "error"]
    log = server.log.read_text()[-3000:]
    why = f"stored {rows}; errors {errors}; the server's log ends:\n{log}"
    # Per seat: a bucket per connection would have let ``second`` send two more at once.
    assert CHAT_BURST <= ann_said <= CHAT_BURST + took * CHAT_BURST / CHAT_WINDOW, why
    assert ann_said < CHAT_BURST + TOO_MANY
    assert [row[4] for row in rows if row[2] == 1] == ["bob is free to talk"]
    for client in (first, second, bob):
        client.close()


def test_a_mute_is_the_readers_own_and_outlives_a_reconnection(server: Server) -> None:
    table_id, (ann_token, bob_token) = open_table(server)
    ann = ChatClient(server, table_id, ann_token, 0)
    bob = ChatClient(server, table_id, bob_token, 1)
    watcher = ChatClient(server, table_id)
    ann.send({"type": "mute", "seat": 1, "muted": True})
    assert ann.recv_until(lambda m: m["type"] == "muted")["muted"] == [{"seat": 1, "name": "Bob"}]
    bob.say("you will not read this")
    bob.say("nor this")
    bob.chat_until("nor this")  # (delivered to every connection at once)
    ann.say("ann speaks")
    assert texts(ann.chat_until("ann speaks")) == ["ann speaks"]
    assert texts(bob.chat_until("ann speaks")) == ["ann speaks"]
    for client in (watcher,):
        assert texts(client.chat_until("ann speaks")) == [
            "you will not read this",
            "nor this",
            "ann speaks",
        ]
    ann.close()
    again = ChatClient(server, table_id, ann_token, 0)
    history = again.recv_until(lambda m: m["type"] == "chat-history")
    assert texts(history["messages"]) == ["ann speaks"]
    assert history["muted"] == [{"seat": 1, "name": "Bob"}]
    again.send({"type": "mute", "seat": 1, "muted": False})
    assert again.recv_until(lambda m: m["type"] == "muted")["muted"] == []
    bob.say("heard again")
    assert texts(again.chat_until("heard again")) == ["heard again"]
    for client in (again, bob, watcher):
        client.close()


def test_a_spectator_mutes_another_by_name(server: Server) -> None:
    table_id, _ = open_table(server)
    _, carol_cookie = sign_up(server, "Carol")
    dave, dave_cookie = sign_up(server, "Dave")
    c = ChatClient(server, table_id, cookie=carol_cookie)
    d = ChatClient(server, table_id, cookie=dave_cookie)
    c.send({"type": "mute", "name": dave, "muted": True})
    assert c.recv_until(lambda m: m["type"] == "muted")["muted"] == [{"seat": None, "name": dave}]
    d.say("spam")
    assert texts(d.chat_until("spam")) == ["spam"]
    c.say("quiet here")
    assert texts(c.chat_until("quiet here")) == ["quiet here"]
    assert texts(d.chat_until("quiet here")) == ["quiet here"]
    c.send({"type": "mute", "name": "Nobody Here", "muted": True})
    assert "no account named" in one_sentence(c.error(), "bad_mute")
    c.close()
    d.close()


def test_a_late_joiner_gets_the_newest_messages(server: Server) -> None:
    table_id, (ann_token, _) = open_table(server)
    _, carol_cookie = sign_up(server, "Carol")
    ann = ChatClient(server, table_id, ann_token, 0)
    spectator = ChatClient(server, table_id, cookie=carol_cookie)
    ann.say("first")
    spectator.chat_until("first")
    spectator.say("from the rail")
    spectator.chat_until("from the rail")
    ann.send({"type": "chat", "phrase": "well-played"})
    ann.say("last")
    spectator.chat_until("last")
    late = ChatClient(server, table_id)
    history = late.recv_until(lambda m: m["type"] == "chat-history")
    assert texts(history["messages"]) == ["first", "from the rail", ":well-played", "last"]
    assert history["muted"] == []
    # an empty table's newcomer gets no history at all: the snapshot is all
    empty_id, (token, _) = open_table(server)
    quiet = ChatClient(server, empty_id, token, 0)
    quiet.send({"type": "ping"})
    assert quiet.recv()["type"] == "pong"
    for client in (ann, spectator, late, quiet):
        client.close()


def test_a_deleted_accounts_chat_stays_under_deleted_player(server: Server) -> None:
    table_id, _ = open_table(server)
    answer = httpx.post(
        f"{server.http}/api/accounts",
        json={"name": "Erin" + table_id[:6], "password": PASSWORD},
        timeout=30,
    )
    cookie, csrf = answer.cookies[COOKIE], answer.json()["csrf"]
    erin = ChatClient(server, table_id, cookie=cookie)
    erin.say("bye")
    erin.chat_until("bye")
    gone = httpx.request(
        "DELETE",
        f"{server.http}/api/account",
        json={"password": PASSWORD},
        cookies={COOKIE: cookie},
        headers={CSRF_HEADER: csrf},
        timeout=30,
    )
    assert gone.status_code == 204, gone.text
    assert chat_rows(server, table_id) == [(1, "spectators", None, "deleted player", "bye", None)]
    # the connection opened with the deleted account's session writes no more
    erin.say("still me?")
    assert "sign in" in one_sentence(erin.error(), "no_chat_name")
    assert len(chat_rows(server, table_id)) == 1
    erin.close()


@pytest.mark.parametrize("kind", KINDS)
def test_the_chat_survives_a_restart(tmp_path: Path, kind: str) -> None:
    with contextlib.ExitStack() as stack:
        url = None if kind == "sqlite" else stack.enter_context(postgres_database())
        server = Server(tmp_path, url).start()
        stack.callback(server.stop)
        table_id, (ann_token, bob_token) = open_table(server)
        ann = ChatClient(server, table_id, ann_token, 0)
        ann.send({"type": "mute", "seat": 1, "muted": True})
        ann.recv_until(lambda m: m["type"] == "muted")
        bob = ChatClient(server, table_id, bob_token, 1)
        bob.say("before")
        bob.chat_until("before")
        ann.say("kept")
        bob.chat_until("kept")
        server.kill()
        server.start()
        again = ChatClient(server, table_id, ann_token, 0)
        history = again.recv_until(lambda m: m["type"] == "chat-history")
        assert texts(history["messages"]) == ["kept"]
        assert history["muted"] == [{"seat": 1, "name": "Bob"}]
        bob = ChatClient(server, table_id, bob_token, 1)
        assert texts(bob.recv_until(lambda m: m["type"] == "chat-history")["messages"]) == [
            "before",
            "kept",
        ]
        again.say("after")
        assert [m["id"] for m in bob.chat_until("after")] == [3]
        again.close()
        bob.close()
