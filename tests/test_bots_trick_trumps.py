"""The bots read which trump each trick was played under from their view: with
``marriage.announce`` from-hand (a marriage declared without leading its K or Q) their own copy
of the rule, which knew only K/Q leads, disagreed with the engine in about 3 deals of 10."""

from __future__ import annotations

import random

import pytest

from thousand.bots.knowledge import trick_trumps
from thousand.engine import Game
from thousand.engine.views import view
from thousand.rules import template_rules


@pytest.mark.parametrize("trump_from", ["next-trick", "this-trick"])
def test_bots_trick_trumps_agree_with_the_engine_with_announce_from_hand(trump_from: str) -> None:
    rules = template_rules("russian").with_overrides(
        {"marriage.announce": "from-hand", "marriage.trump_from": trump_from}
    )
    rng = random.Random(17)
    disagreed = announced = 0
    for _ in range(60):
        game = Game.start(rules).shuffle_and_deal(rng)
        truth: list[int] = []  # the engine's trump of each trick, read as soon as it is led
        wrong = False
        while game.in_deal:
            state = game.deal
            assert state is not None
            legal = state.legal_actions()
            # announce from the hand whenever the engine offers it, else play at random
            offered = [a for a, m in zip(legal, state.legal_moves(), strict=True) if "declare" in m]
            announced += bool(offered)
            game = game.apply(offered[0] if offered else rng.choice(legal))
            after = game.deal
            assert after is not None
            if len(after.trick) == 1:
                truth.append(after.core().trick_trump)
            if after.to_act is not None and truth:
                wrong |= trick_trumps(view(after, after.to_act)) != truth
        disagreed += wrong
    assert announced > 30
    assert disagreed == 0
