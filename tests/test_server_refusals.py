"""What leaves the server when a move is refused says nothing of where hidden cards lie.

A real server, a table of every template with two people (the rest bots) and a spectator. At
each turn of the first deals, the seat to act, the other person and the spectator each send a
move with every card the seat to act has not seen (a play, and a give to each opponent): the
answers to each, with the card's own name taken out, are one and the same sentence. On today's
main the seat to act was told which seat holds the card.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest

from thousand.rules import template_rules
from thousand.rules.templates import TEMPLATES

from .server_support import BOT, HUMAN, Client, Message, Server, running

CARD_RE = re.compile(r"(?<![0-9A-Za-z])[9JQKTA][cdhs](?![a-z])")
CARDS = [r + s for s in "cdhs" for r in "9JQKTA"]
#: turns of the seat to act probed per table
TURNS = 10


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("refusals")) as s:
        yield s


def answer(client: Client, move: str) -> Message:
    intent_id = client.intent(move)
    return client.recv_until(
        lambda m: m["type"] in ("ack", "error") and m.get("intent") == intent_id
    )


def waiting_for(people: list[Client]) -> Client:
    """The person the table waits for, once both have heard of every move so far (a table
    waiting for a person moves on no further)."""
    while True:
        latest = max(c.version for c in people)
        mover = next((c for c in people if c.my_turn()), None)
        if mover is not None and all(c.version == latest for c in people):
            return mover
        min(people, key=lambda c: (c.version, c.seat)).recv()


def refusals(client: Client, moves: dict[str, str]) -> set[str]:
    """The answers to each move (card -> move), the card's name taken out of each."""
    out = set()
    for card, move in moves.items():
        got = answer(client, move)
        assert got["type"] == "error", (move, got)
        out.add(f"{got['code']}: {got['message'].replace(card, '<card>')}")
    return out


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_refusals_are_the_same_wherever_the_hidden_cards_lie(server: Server, template: str) -> None:
    n = template_rules(template).players_count
    seats = [HUMAN, HUMAN] + [BOT] * (n - 2)
    tid = server.new_table(seats, seed=7, template=template)["id"]
    people = [
        Client(server, tid, server.sit(tid, name, s)["token"], s) for s, name in enumerate("AB")
    ]
    watcher = Client(server, tid, None, None)
    rng = random.Random(template)
    probed = 0
    while probed < TURNS:
        mover = waiting_for(people)
        other = people[1 - people.index(mover)]
        assert mover.view is not None
        seen = set(CARD_RE.findall(json.dumps(mover.view)))
        hidden = [c for c in CARDS if c not in seen]
        opponents = [s for s in mover.view["active"] if s != mover.seat]
        forms = [lambda c: c] + [lambda c, t=t: f"give {c} {t}" for t in opponents]
        for form in forms:
            moves = {c: form(c) for c in hidden if form(c) not in mover.view["legal_actions"]}
            if not moves:
                continue
            said = refusals(mover, moves)
            assert len(said) == 1, f"{template}: answers differ by card: {sorted(said)}"
            assert len(refusals(other, moves)) == 1
            assert refusals(watcher, moves) == {"spectator: a spectator cannot move"}
        probed += 1
        before = mover.version
        got = answer(mover, rng.choice(mover.view["legal_actions"]))
        assert got["type"] == "ack" and got["version"] == before + 1, got
    for c in (*people, watcher):
        c.close()
