"""Blind contracts (``bidding.blind``) in the search: the samples carry the blind bid, so the
engine scores them with its multiplier, and PIMC weighs a write-off by the engine's stake."""

from __future__ import annotations

import dataclasses
import random

import pytest

from thousand.bots.heuristic import HeuristicBot
from thousand.bots.pimc import writeoff_pays
from thousand.bots.sampler import Sampler
from thousand.engine import DealState, Game
from thousand.engine.actions import WRITE_OFF, is_bid, is_blind
from thousand.engine.contra import factor
from thousand.engine.deal import Deal
from thousand.engine.views import SeatView, game_view, view
from thousand.rules import Rules, template_rules

BLIND = {"bidding.blind": "first-bid"}
#: the templates whose deals the sampler draws from the auction on
TEMPLATES = ("russian", "russian-classic", "ukrainian", "tysiac", "four-player-b", "four-player")


def blind_games(rules: Rules, seed: int, deals: int, blind: bool = True) -> list[Game]:
    """Every position of ``deals`` deals in which the first seat that may bid blind does (at the
    lowest amount: a plain bid of it where ``blind`` is False) and the heuristic makes every
    other move."""
    rng = random.Random(seed)
    bot = HeuristicBot(seed)
    out = []
    for _ in range(deals):
        game = Game.start(rules).shuffle_and_deal(rng)
        done = False
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            seen = game_view(game, seat)
            blinds = sorted(a for a in seen.legal_actions if is_blind(a))
            out.append(game)
            if blinds and not done:
                done = True
                action = blinds[0] if blind else min(a for a in seen.legal_actions if is_bid(a))
            else:
                action = bot.choose(seen)
            game = game.apply(action)
    return out


def blind_contract(game: Game) -> bool:
    """The contract in play was bid blind (by the public record of blind bids)."""
    assert game.deal is not None
    seen = view(game.deal, None)
    return seen.declarer is not None and bool(seen.blind_bids >> seen.declarer & 1)


@pytest.mark.parametrize("template", TEMPLATES)
def test_samples_of_a_blind_contract_carry_it(template: str) -> None:
    """Every sample of a deal played to a blind contract shows each seat exactly its view (the
    blind bid, the talon hidden from the defenders) and the engine multiplies its stake as it
    does the real one's; the sampler made the blind bid a plain one."""
    rules = template_rules(template).with_overrides(BLIND)
    checked = 0
    for n, game in enumerate(blind_games(rules, 7, 40)):
        if not blind_contract(game) or n % 3:
            continue
        assert game.deal is not None
        for seat in game.deal.active:
            original = dataclasses.replace(view(game.deal, seat), match=None)
            d = Sampler(original, random.Random(n)).draw()
            assert d is not None
            assert view(DealState(d), seat) == original
            assert factor(d) == rules.bidding_blind_multiplier
            checked += 1
    assert checked > 20


def writeoff_position(blind: bool) -> tuple[SeatView, Deal]:
    """The declarer's view where it may write a contract off, bid blind or not, and a sample."""
    rules = template_rules("russian").with_overrides(BLIND)
    for game in blind_games(rules, 3, 60, blind):
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        seen = game_view(game, seat)
        if WRITE_OFF in seen.legal_actions and blind_contract(game) == blind:
            sample = Sampler(seen, random.Random(0)).draw()
            assert sample is not None
            return seen, sample
    raise AssertionError("no write-off was offered")


def test_a_blind_contract_is_written_off_where_playing_on_loses_more() -> None:
    """Blind (stake twice the contract, a write-off once): with a make-share of 20% playing on
    averages -1.2 contracts, a write-off -1 or less; at 30%, -0.8. Not blind, the share alone
    never makes a write-off pay."""
    seen, sample = writeoff_position(blind=True)
    assert seen.contract is not None and seen.seat is not None and seen.writeoff_changes
    assert seen.writeoff_changes[seen.seat] == -seen.contract  # the engine's write-off cost
    assert factor(sample) == 2
    assert writeoff_pays(seen, sample, 0.2)
    assert not writeoff_pays(seen, sample, 0.3)
    plain, plain_sample = writeoff_position(blind=False)
    assert factor(plain_sample) == 1
    assert not writeoff_pays(plain, plain_sample, 0.0)
