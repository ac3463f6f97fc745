"""Bots at a table with named contracts (rules.md part 2, ``special.*``): a named bid is no
amount of points, so the sampler and the expert's inference must not read it as one."""

from __future__ import annotations

import random

import pytest

from thousand.bots import make_bot
from thousand.bots.sampler import Sampler
from thousand.engine import Game
from thousand.engine.actions import NAMED_AMOUNT, action_text, parse_action
from thousand.engine.views import game_view
from thousand.rules import rules_from_record

NAMED = {"special.misere": 60, "special.open_hand": 80, "special.slam": 250}


def _named_deal(level: str, word: str, seed: int) -> Game:
    """One deal of russian-classic (bids capped by marriages) in which forehand names ``word``
    at once and bots of ``level`` play every other decision."""
    rules = rules_from_record("russian-classic", NAMED)
    game = Game.start(rules, players=["a", "b", "c"]).shuffle_and_deal(random.Random(seed))
    bots = [make_bot(level, seed * 10 + s) for s in range(3)]
    named = False
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        view = game_view(game, seat)
        legal = view.legal_actions
        words = [action_text(a) for a in legal]
        if not named and word in words:
            action = legal[words.index(word)]
            named = True
        else:
            action = bots[seat].choose(view)
        assert action in legal, f"{level} chose {action_text(action)} outside {words}"
        game = game.apply(action)
    assert named, f"{word} was never offered"
    return game


@pytest.mark.parametrize("word", ["misere", "open", "slam"])
@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
def test_bots_play_out_a_named_contract(level: str, word: str) -> None:
    game = _named_deal(level, word, seed=5)
    outcome = game.reports[-1].outcome
    worth = {"misere": 60, "open": 80, "slam": 250}[word]
    assert outcome.declarer is not None
    assert outcome.contract == worth
    assert abs(game.reports[-1].changes[outcome.declarer]) == worth


def test_the_sampler_needs_no_marriage_for_a_named_bid() -> None:
    """Under ``bidding.marriage_cap`` a bid above 120 needs marriages in the bidder's hand; a
    named bid's place in the auction (above ``NAMED_AMOUNT``) needs none."""
    rules = rules_from_record("russian-classic", NAMED)
    game = Game.start(rules, players=["a", "b", "c"]).shuffle_and_deal(random.Random(1))
    assert game.deal is not None
    game = game.apply(parse_action("misere"))
    assert game.deal is not None
    view = game_view(game, game.deal.to_act)
    assert any(amount > NAMED_AMOUNT for _, amount in view.auction)
    assert Sampler(view, random.Random(0))._marriage_needs() == {}
