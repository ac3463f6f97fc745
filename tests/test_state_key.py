"""A deal state's equality and hash come from all of its fields.

The fields are read from the source of ``Deal.__slots__`` (so the test holds for the compiled
build too): changing any one of them gives another key, and a copy keeps every one of them.
On the audited main, the states after `contra` and after `pass` compared equal and hashed the
same, yet scored -360 and -180.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from thousand.engine import DealState, Game, Phase
from thousand.engine.actions import CONTRA, PASS
from thousand.engine.deal import Deal
from thousand.rules import rules_from_record

SOURCE = Path(__file__).resolve().parents[1] / "src" / "thousand" / "engine" / "deal.py"


def slots() -> list[str]:
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    deal = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Deal")
    for node in deal.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return [str(v) for v in value]
    raise AssertionError("Deal has no __slots__")


FIELDS = slots()


def other(value: object) -> object:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, Phase):
        return Phase.DONE if value is not Phase.DONE else Phase.PLAY
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "made"
    if isinstance(value, list):
        return [*value, 1]
    if isinstance(value, tuple):
        return (
            (*value, 1)
            if not value or not isinstance(value[0], int)
            else (value[0] + 1, *value[1:])
        )
    rules = rules_from_record("tysiac", {})
    assert value != rules
    return rules


def mid_deal() -> Deal:
    rng = random.Random(3)
    game = Game.start(rules_from_record("russian", {"bidding.contra": "contra"}))
    game = game.shuffle_and_deal(rng)
    for _ in range(12):
        assert game.deal is not None
        game = game.apply(rng.choice(game.deal.legal_actions()))
    assert game.deal is not None
    return game.deal.core()


def test_every_field_is_in_the_source_list() -> None:
    assert len(FIELDS) == len(set(FIELDS)) > 30


@pytest.mark.parametrize("field", FIELDS)
def test_changing_a_field_changes_equality_and_hash(field: str) -> None:
    deal = mid_deal()
    changed = deal.copy()
    assert DealState(changed) == DealState(deal)
    assert getattr(changed, field) == getattr(deal, field), "copy() drops this field"
    setattr(changed, field, other(getattr(deal, field)))
    assert DealState(changed) != DealState(deal), f"{field} is not part of the state's key"
    assert deal.key() != changed.key()


def test_contra_and_pass_are_different_states() -> None:
    rules = rules_from_record("russian", {"bidding.contra": "contra"})
    rng = random.Random(11)
    for _ in range(200):
        state = DealState.shuffled(rules, 0, rng)
        while not state.over:
            if CONTRA not in state.legal_actions():
                state = state.apply(rng.choice(state.legal_actions()))
                continue
            doubled, declined = state.apply(CONTRA), state.apply(PASS)
            if doubled.to_act != declined.to_act:  # another defender is asked after a pass
                state = declined
                continue
            assert doubled.phase is declined.phase is Phase.PLAY
            assert doubled != declined
            assert len({doubled, declined}) == 2
            return
    raise AssertionError("no last contra decision was reached")
