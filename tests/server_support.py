"""Helpers for the server tests: a real server in a subprocess, WebSocket clients whose every
message is checked against the protocol's JSON Schemas, and the hidden-card scan."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from websockets.sync.client import ClientConnection, connect

from thousand.cards import CARD_TEXT, KING, QUEEN, parse_card
from thousand.client.link import new_claim
from thousand.engine import DealState
from thousand.engine.views import talon_visible
from thousand.records import read_record, replay

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "protocol"
#: a match of a few deals even between random players: a failed contract goes to each defender
SHORT_MATCH = {
    "game.target": 300,
    "barrel.threshold": None,
    "scoring.failed_contract": "each-defender",
}
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"

Message = dict[str, Any]


def _registry() -> tuple[Registry, dict[str, Draft202012Validator]]:
    resources = []
    names = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
        names[path.name.removesuffix(".schema.json")] = schema
    registry: Registry = Registry().with_resources(resources)
    validators = {n: Draft202012Validator(s, registry=registry) for n, s in names.items()}
    return registry, validators


_, VALIDATORS = _registry()
SERVER_MESSAGES = {"snapshot", "event", "ack", "error", "seats", "pong"}
SERVER_MESSAGES |= {"chat-line", "chat-history", "muted"}  # a table's chat


def check_server_message(message: Message) -> None:
    """Raise if ``message`` does not match the schema of its type."""
    kind = message.get("type")
    assert kind in SERVER_MESSAGES, f"unknown server message type {kind!r}"
    VALIDATORS[str(kind)].validate(message)


def check_client_message(message: Message) -> None:
    kind = {"snapshot": "snapshot-request"}.get(str(message["type"]), str(message["type"]))
    VALIDATORS[kind].validate(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``thousand serve`` in a subprocess on a free port; ``kill()`` is ``kill -9``."""

    def __init__(self, data: Path, database: str | None = None, *extra: str) -> None:
        self.data = data
        self.database = database
        self.extra = extra
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data / "server.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        args = [sys.executable, "-m", "thousand", "serve", "--port", str(self.port)]
        args += ["--data", str(self.data), "--bot-delay", "0", "--message-rate", "10000"]
        args += ["--message-burst", "10000", "--tables-per-address", "10000", *self.extra]
        if self.database is not None:
            args += ["--database", self.database]
        self.data.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if httpx.get(self.http + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flushing, nothing."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.http + path, json=body, headers=headers, timeout=10)

    def delete_seat(self, table_id: str, seat: int, token: str | None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.delete(f"{self.http}/tables/{table_id}/seats/{seat}", headers=headers)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.http + path, timeout=10)

    def new_table(
        self,
        seats: list[Message],
        rules: Message | None = None,
        seed: int | None = None,
        template: str = "russian",
    ) -> Message:
        body = {"template": template, "rules": rules or {}, "seats": seats, "seed": seed}
        answer = self.post("/tables", body)
        assert answer.status_code == 201, answer.text
        table: Message = answer.json()
        return table

    def sit(
        self, table_id: str, name: str, seat: int | None = None, claim: str | None = None
    ) -> Message:
        """Take a seat with a claim (a fresh one unless given), as the clients do."""
        body = {"seat": seat, "name": name, "claim": claim or new_claim()}
        answer = self.post(f"/tables/{table_id}/seats", body)
        assert answer.status_code == 201, answer.text
        taken: Message = answer.json()
        return taken


@contextmanager
def running(data: Path, database: str | None = None, *extra: str) -> Iterator[Server]:
    server = Server(data, database, *extra).start()
    try:
        yield server
    finally:
        server.stop()


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "level": "easy"}


class Client:
    """A WebSocket client of one table that keeps (and schema-checks) every message."""

    def __init__(self, server: Server, table_id: str, token: str | None, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[Message] = []
        self.conn: ClientConnection = connect(
            f"{server.ws}/tables/{table_id}/ws", max_size=2**22, open_timeout=10, close_timeout=1
        ).__enter__()
        self.send({"type": "hello", "token": token} if token else {"type": "hello"})
        snapshot = self.recv()
        assert snapshot["type"] == "snapshot", snapshot
        self.version: int = snapshot["version"]
        self.view: Message | None = snapshot["view"]
        self.sent = 0

    def send(self, message: Message, check: bool = True) -> None:
        if check:
            check_client_message(message)
        self.conn.send(json.dumps(message))

    def send_raw(self, data: str | bytes) -> None:
        self.conn.send(data)

    def recv(self, timeout: float = 10) -> Message:
        message: Message = json.loads(self.conn.recv(timeout))
        check_server_message(message)
        self.messages.append(message)
        if message["type"] == "event":
            assert message["version"] == self.version + 1, "a gap in the versions"
        if message["type"] in ("event", "snapshot"):
            self.version = message["version"]
            self.view = message["view"]
        return message

    def recv_until(self, done: Callable[[Message], bool], timeout: float = 30) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.1, deadline - time.monotonic()))
            if done(message):
                return message

    def drain(self, wait: float = 0.0) -> list[Message]:
        """Read every message already there (or coming within ``wait`` seconds of the last)."""
        read: list[Message] = []
        try:
            while True:
                read.append(self.recv(wait))
        except TimeoutError:
            return read

    def my_turn(self) -> bool:
        return bool(self.view and self.view["legal_actions"])

    def intent(self, move: str, intent_id: str | None = None) -> str:
        self.sent += 1
        intent_id = intent_id or f"{self.seat}-{self.sent}-{uuid.uuid4().hex[:6]}"
        self.send({"type": "intent", "id": intent_id, "move": move, "version": self.version})
        return intent_id

    def close(self) -> None:
        self.conn.close()


def play_turn(client: Client, choose: Callable[[list[str]], str]) -> Message:
    """Make one move and read up to its ack; returns the ack (or the error)."""
    assert client.view is not None
    intent_id = client.intent(choose(list(client.view["legal_actions"])))
    return client.recv_until(
        lambda m: m["type"] in ("ack", "error") and m.get("intent") == intent_id
    )


def play_to_end(
    client: Client,
    rng: random.Random,
    limit_s: float = 120,
    choose: Callable[[list[str]], str] | None = None,
) -> Message:
    """Play ``client``'s seat with random legal moves (or ``choose``'s) until the match is won;
    the event that won it."""
    deadline = time.monotonic() + limit_s
    choose = choose or rng.choice
    while True:
        assert time.monotonic() < deadline, f"the match goes on: version {client.version}"
        if client.my_turn():
            answer = play_turn(client, choose)
            assert answer["type"] == "ack", answer
        else:
            client.recv()
        won = [m for m in client.messages[-4:] if finished(m)]
        if won:
            return won[0]


def modest(rng: random.Random) -> Callable[[list[str]], str]:
    """A scripted player that never overbids: it passes when it may, bids and names the
    lowest contract it may, and plays a random card; random play fails every contract of
    some templates, so a match between random players need not end."""

    def choose(moves: list[str]) -> str:
        if "pass" in moves:
            return "pass"
        bids = sorted(int(m.split()[-1]) for m in moves if m.split()[-1].isdigit())
        if bids:
            low = str(bids[0])
            return next(m for m in moves if m.split()[-1] == low)
        return rng.choice(moves)

    return choose


def finished(message: Message) -> bool:
    return message["type"] == "event" and message["event"].get("winner") is not None


# -- the hidden-card scan -----------------------------------------------------------------------

_CARD = re.compile(r"(?<![\w])[9TJQKA][cdhs](?![a-z0-9])")
"""A card's name on its own: never one inside a word or a number, as in a table's random hex
id (``9d36d8eb...`` in a refusal's message is no nine of diamonds)."""

_NO_CARDS = frozenset({"rules", "table", "intent", "id", "websocket"})
"""Keys whose strings are never cards: the rules, and ids and the paths made of them (a table
id is random hex, and ``9c01...`` or ``/tables/9c01.../ws`` would read as the nine of
clubs)."""


def cards_in(value: Any) -> set[int]:
    """Every card named anywhere in a message's strings (ids and rules aside)."""
    found: set[int] = set()
    if isinstance(value, str):
        found.update(parse_card(m) for m in _CARD.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in _NO_CARDS:
                found |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    return found


def states_by_version(record_text: str) -> dict[int, tuple[DealState, DealState]]:
    """The deal as it stood at each version of a table, with the deal as dealt, rebuilt from
    its finished record: version 1 is the first deal dealt, then one version per move, one per
    deal dealt."""
    states: dict[int, tuple[DealState, DealState]] = {}
    first: DealState | None = None
    for version, step in enumerate(replay(read_record(record_text)).steps(), start=1):
        assert step.game.deal is not None
        if step.action is None:
            first = step.game.deal
        assert first is not None
        states[version] = (step.game.deal, first)
    return states


def known_cards(state: DealState, seat: int | None, first: DealState | None = None) -> int:
    """The cards ``seat`` (None: a spectator) may have seen by this point, as a mask; ``first``
    is the deal as dealt (the stock's face-up card was seen from the start)."""
    known = 0
    if seat is not None:
        known |= state.dealt[seat] | state.hands[seat]
        received = state.given[seat]
        if received is not None:
            known |= 1 << received
        if seat == state.declarer:
            known |= state.talon | state.discarded
            for c in state.given:
                if c is not None:
                    known |= 1 << c
    if talon_visible(state, seat):
        known |= state.talon
    if state.rules.talon_open_pass:
        for c in state.given:
            if c is not None:
                known |= 1 << c
    if state.shown is not None:
        known |= 1 << state.shown
    for dealt in (first, state):
        if dealt is not None and dealt.stock:
            known |= 1 << dealt.stock[-1]
    for _, cards, _ in state.completed_tricks:
        for c in cards:
            known |= 1 << c
    for s, c in state.trick:  # a crawl's cards are face down until its trick is complete
        if not state.crawling or s == seat:
            known |= 1 << c
    for suits in state.marriages:
        for suit in suits:
            if suit < 4:
                known |= 1 << (6 * suit + KING) | 1 << (6 * suit + QUEEN)
            else:  # the four aces
                known |= sum(1 << (6 * a + 5) for a in range(4))
    return known


def hidden_cards_shown(record_text: str, seat: int | None, messages: list[Message]) -> list[str]:
    """Every card a message to ``seat`` named that the seat could not see then."""
    states = states_by_version(record_text)
    leaks = []
    version = 0
    for message in messages:
        if message["type"] in ("event", "snapshot"):
            version = message["version"]
        if version == 0 or message["type"] not in ("event", "snapshot"):
            continue
        state, first = states[version]
        allowed = known_cards(state, seat, first)
        for c in sorted(cards_in(message)):
            if not allowed >> c & 1:
                leaks.append(f"version {version}: {CARD_TEXT[c]} shown to seat {seat}")
    return leaks


# -- PostgreSQL -----------------------------------------------------------------------------------


def postgres_admin_url() -> str:
    return os.environ.get("THOUSAND_TEST_POSTGRES", PG_DEFAULT)


@contextmanager
def running_on(kind: str, data: Path) -> Iterator[Server]:
    """A server on ``kind`` of database (``sqlite``, or ``postgresql``: a fresh database of its
    own, dropped afterwards), keeping its files in ``data``."""
    if kind == "sqlite":
        with running(data) as s:
            yield s
    else:
        with postgres_database() as url, running(data, url) as s:
            yield s


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test module, dropped afterwards. Where PostgreSQL is
    unreachable the test is skipped, except under CI=true, where it fails."""
    import psycopg
    import pytest

    admin = postgres_admin_url()
    try:
        conn = psycopg.connect(admin, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        if os.environ.get("CI") == "true":
            raise AssertionError(f"CI=true and PostgreSQL is unreachable at {admin}: {e}") from e
        pytest.skip(f"PostgreSQL is unreachable at {admin}")
    name = f"thousand_test_{uuid.uuid4().hex[:12]}"
    with conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        try:
            base, _, _ = admin.rpartition("/")
            yield f"{base}/{name}"
        finally:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
