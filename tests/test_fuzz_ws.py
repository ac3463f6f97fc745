"""The table protocol (the WebSocket) fuzzed with generated messages (Hypothesis), on a real
server, on SQLite and on PostgreSQL, at a table of each of the 13 templates.

Every table stands mid-deal, waiting for one of its two people; each person and a spectator is
connected. The messages are JSON of wrong shapes and types, text that is no JSON, binary
frames, huge strings, odd unicode (control characters, lone surrogates, invisible ones), and
intents that are nearly right: a move of the wrong version, an illegal or unknown move, an id
too long or already used, a move of another seat, or of a seat the connection does not hold;
chat messages and mutes of wrong shapes.
Each is sent on one of the table's connections; a first message (the hello) is fuzzed on new
connections. Each answer is an error message valid by the protocol's schema with one sentence,
and names no card the connection may not see (but those it was sent); an intent sent again with
an id already used is answered with its first ack. Nothing else arrives (a ping answered next
shows it), no table changes (every table, as stored, is as it was), and the server logs no
traceback.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from thousand.engine.actions import MAX_ACTION, MoveSyntaxError, action_text, parse_action
from thousand.rules.templates import TEMPLATES
from thousand.server.serve import WS_MAX_SIZE

from .fuzz_support import DATABASES, Seated, Site, no_traceback, site_on
from .server_support import Client, Message, cards_in, check_server_message

#: generated messages per table on its connections, and first messages on new connections
EXAMPLES = 60
HELLOS = 8
#: the longest sentence an error may be
SENTENCE = 300
PROTOCOL_TYPES = ("hello", "intent", "snapshot", "ping", "leave", "chat", "mute")
#: the websockets client's keepalive thread draws its pings' data from ``random`` while
#: Hypothesis draws an example, which Hypothesis takes for a strategy that uses ``random``
pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module:hypothesis.errors.HypothesisDeprecationWarning"
)


def _moves() -> list[str]:
    """Every move in the record's words."""
    out = []
    for action in range(MAX_ACTION + 1):
        try:
            out.append(action_text(action))
        except (ValueError, KeyError, IndexError):
            continue
    return out


MOVES = _moves()


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    kind = str(request.param)
    with site_on(
        kind, tmp_path_factory.mktemp(f"fuzz-ws-{kind}"), sorted(TEMPLATES), [], False
    ) as s:
        yield s


@pytest.fixture(scope="module")
def stored(site: Site) -> dict[str, dict[str, Any]]:
    """Every table as stored before the fuzzing: no test may change one."""
    return site.stored()


def table_of(site: Site, template: str) -> Seated:
    return next(t for t in site.seated.values() if t.template == template)


# -- the messages -------------------------------------------------------------------------------

odd_text = st.text(
    st.characters(categories=["Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Mn"]), min_size=1, max_size=8
)
texts = st.text(max_size=24) | odd_text | st.sampled_from(["", " ", "Ah", "As", "10", "pass"])
huge = st.builds(lambda s, n: (s or "x") * n, st.text(max_size=3), st.integers(1500, 20000))
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | texts | huge
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=8,
)
types = st.sampled_from(PROTOCOL_TYPES) | texts | json_values


def shapes() -> st.SearchStrategy[Any]:
    """JSON objects of about the protocol's shapes, with wrong keys, types and values."""
    keys = (
        st.sampled_from(["token", "id", "move", "version", "type", "seat", "text", "phrase"])
        | texts
        | st.text(min_size=100, max_size=3000)
    )
    return st.builds(
        lambda kind, extra: {"type": kind, **extra},
        types,
        st.dictionaries(keys, json_values, max_size=4),
    )


def intents(table: Seated) -> st.SearchStrategy[Any]:
    """Intents that are nearly right: a move (of the seat to act, or any) with an id (a fresh
    one, or one used before) and a version near the table's; and intents of wrong types."""
    used = [i for acked in table.acked for i in acked]
    assert table.mover.view is not None
    legal = list(table.mover.view["legal_actions"])
    version = table.version
    word = st.characters(categories=["L", "N", "P"])
    nearly = st.fixed_dictionaries(
        {
            "type": st.just("intent"),
            "id": st.text(word, min_size=1, max_size=64) | st.sampled_from(used),
            "move": st.sampled_from(legal) | st.sampled_from(MOVES) | texts,
            "version": st.just(version) | st.integers(max(0, version - 2), version + 2),
        }
    )
    wrong = st.fixed_dictionaries(
        {
            "type": st.just("intent"),
            "id": st.text(min_size=65, max_size=90) | odd_text | json_values,
            "move": st.sampled_from(MOVES) | texts | huge | json_values,
            "version": st.integers(-(2**70), 2**70)
            | st.sampled_from([float(version), str(version), True, None])
            | json_values,
        },
        optional={"extra": json_values},
    )
    return nearly | nearly | wrong


def nested() -> st.SearchStrategy[str]:
    """A message nested deep (up to deeper than Python may recurse), written as text: a ping
    with a value of lists or objects in lists or objects, an odd character (or none) at the
    bottom."""
    return st.builds(
        lambda depth, opening, leaf: (
            '{"type": "ping", "a": '
            + opening * depth
            + leaf
            + ("]" if opening == "[" else "}") * depth
            + "}"
        ),
        st.integers(1, 2100) | st.sampled_from([150, 900, 990, 1000, 2000]),
        st.sampled_from(["[", '{"k": ']),
        st.sampled_from(['"\\u0001"', '"\\ud800"', "1", '"x"']),
    )


def frames(table: Seated) -> st.SearchStrategy[str | bytes]:
    """What a connection may send: JSON (escaped, so that lone surrogates go too), text of no
    JSON, binary frames; intents that are nearly right more often than the rest."""
    as_json = st.one_of(shapes(), intents(table), json_values).map(json.dumps)
    unescaped = st.one_of(shapes(), intents(table)).map(lambda m: json.dumps(m, ensure_ascii=False))
    raw = st.text(st.characters(exclude_categories=["Cs"]), max_size=64) | huge
    nearly = intents(table).map(json.dumps)
    return st.one_of(
        nearly, nearly, as_json, unescaped.filter(encodable), raw, nested(), st.binary(max_size=64)
    ).filter(lambda frame: size(frame) < WS_MAX_SIZE)


def size(frame: str | bytes) -> int:
    """A frame's size on the wire (a larger one than ``WS_MAX_SIZE`` closes the connection)."""
    return len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8"))


def encodable(text: str) -> bool:
    """Whether ``text`` can go in a text frame (it holds no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# -- the oracle: what the server must accept ------------------------------------------------------


def accepted(frame: str | bytes, client: Client, table: Seated) -> bool:
    """Whether ``frame`` is a message the server takes and acts on (a ping, a snapshot request,
    a seat's leave, the move of the seat to act at the table's version): those are not for this
    test, which sends what must be refused."""
    data = read(frame)
    if data in ({"type": "ping"}, {"type": "snapshot"}):
        return True
    if data == {"type": "leave"}:
        return client.seat is not None
    if chat_like(data):
        return True
    if not isinstance(data, dict) or data.get("type") != "intent" or client is not table.mover:
        return False
    version = data.get("version")
    if type(version) is not int or version != table.version:
        return False
    assert client.view is not None
    legal = {parse_action(m) for m in client.view["legal_actions"]}
    try:
        return parse_action(str(data.get("move"))) in legal
    except MoveSyntaxError:
        return False


def read(frame: str | bytes) -> Any:
    """The JSON value of a frame, or None where it is none (or too deep to read here)."""
    if isinstance(frame, bytes):
        return None
    try:
        return json.loads(frame)
    except (ValueError, RecursionError):
        return None


def chat_like(data: Any) -> bool:
    """Whether ``data`` has the shape of a chat message or a mute, which the server may take
    (whether it does is the chat's own tests' question: this one sends what must be refused)."""
    if not isinstance(data, dict):
        return False
    if data.get("type") == "chat" and set(data) <= {"type", "text", "phrase"}:
        said = [data.get("text"), data.get("phrase")]
        return sum(isinstance(x, str) for x in said) == 1 and said.count(None) == 1
    if data.get("type") == "mute" and set(data) <= {"type", "seat", "name", "muted"}:
        return isinstance(data.get("muted"), bool) and (data.get("seat") is None) != (
            data.get("name") is None
        )
    return False


def strings_in(value: Any) -> list[str]:
    """Every string of a JSON value, keys too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings_in(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


def sent_cards(frame: str | bytes) -> set[int]:
    """The cards a frame names, as sent and as read (an error may say what it was sent)."""
    if isinstance(frame, bytes):
        return set()
    try:
        strings = strings_in(read(frame))
    except RecursionError:  # nested deep: its strings are the bottom one's, in the frame
        strings = []
    return cards_in([frame, *strings])


def check_refusal(answer: Message, frame: str | bytes, client: Client, table: Seated) -> None:
    """``answer`` to ``frame``: an error with one sentence naming no card the client may not
    see, or the first ack of an intent id used before."""
    check_server_message(answer)
    if answer["type"] == "ack":
        assert client.seat is not None
        data = json.loads(frame)
        assert table.acked[client.seat].get(data["id"]) == answer["version"], (frame, answer)
        return
    assert answer["type"] == "error", (frame[:200], answer)
    sentence = answer["message"]
    assert 0 < len(sentence) <= SENTENCE and "\n" not in sentence, (frame[:200], answer)
    seen = cards_in(client.view) if client.view is not None else set()
    leaked = cards_in(answer) - seen - sent_cards(frame)
    assert not leaked, (frame[:200], answer)


def quiet(site: Site) -> None:
    """Every connection of every table answers a ping next, at its table's version: nothing
    else was sent to it."""
    for table in site.seated.values():
        for client in (*table.people, table.watcher):
            client.send({"type": "ping"})
            pong = client.recv()
            assert pong == {"type": "pong", "version": table.version}, (table.template, pong)


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_fuzzed_messages_are_refused_and_change_no_table(
    site: Site, stored: dict[str, dict[str, Any]], template: str
) -> None:
    table = table_of(site, template)
    clients = [*table.people, table.watcher]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @seed(zlib.crc32(template.encode()))
    @given(who=st.sampled_from(clients), frame=frames(table))
    def fuzz(who: Client, frame: str | bytes) -> None:
        assume(not accepted(frame, who, table))
        who.send_raw(frame)
        check_refusal(who.recv(), frame, who, table)

    fuzz()
    quiet(site)
    assert site.stored() == stored
    no_traceback(site.server)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_fuzzed_first_messages_are_refused_and_change_no_table(
    site: Site, stored: dict[str, dict[str, Any]], template: str
) -> None:
    table = table_of(site, template)
    others = [t for s in site.seated.values() if s is not table for t in s.tokens]
    hello = st.fixed_dictionaries(
        {"type": st.just("hello")},
        optional={"token": st.sampled_from(others) | texts | json_values | huge},
    )
    first = st.one_of(hello.map(json.dumps), frames(table))

    @settings(
        max_examples=HELLOS,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @seed(zlib.crc32(template.encode()))
    @given(frame=first)
    def fuzz(frame: str | bytes) -> None:
        assume(not greets(frame, table))
        url = f"{site.server.ws}/tables/{table.id}/ws"
        with connect(url, open_timeout=10, close_timeout=1, max_size=2**22) as conn:
            conn.send(frame)
            answer = json.loads(conn.recv(10))
            check_server_message(answer)
            assert answer["type"] == "error", (frame[:200], answer)
            assert 0 < len(answer["message"]) <= SENTENCE, answer
            assert not cards_in(answer) - sent_cards(frame), (frame[:200], answer)
            with pytest.raises(ConnectionClosed) as closed:
                conn.recv(10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    fuzz()
    quiet(site)
    assert site.stored() == stored
    no_traceback(site.server)


def greets(frame: str | bytes, table: Seated) -> bool:
    """Whether ``frame`` is a hello the server takes: a spectator's, or a seat's of the table."""
    data = read(frame)
    if not isinstance(data, dict) or data.get("type") != "hello" or set(data) - {"type", "token"}:
        return False
    return data.get("token") in (None, *table.tokens)
