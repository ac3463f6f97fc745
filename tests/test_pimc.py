"""The PIMC bot (levels hard and expert)."""

from __future__ import annotations

import random

import pytest

from tests.positions import after_passing, cards, play_tricks
from thousand.bots import Limit, make_bot
from thousand.bots.heuristic import HeuristicBot
from thousand.bots.pimc import EXPERT_NODES, EXPERT_NODES_PURE, PimcBot
from thousand.build import compiled
from thousand.engine import DealState, Game
from thousand.engine.actions import PASS, bid, parse_action
from thousand.engine.views import game_view, view
from thousand.rules import template_rules

TEMPLATES = ("russian", "russian-classic", "ukrainian", "tysiac")
RUSSIAN = template_rules("russian")


def test_levels_hard_and_expert() -> None:
    hard = make_bot("hard", 1)
    expert = make_bot("expert", 1)
    assert isinstance(hard, PimcBot) and isinstance(expert, PimcBot)
    assert (hard.name, hard.samples, hard.infer) == ("pimc", 12, False)
    assert (expert.name, expert.samples, expert.infer) == ("pimc-expert", 32, True)
    budget = EXPERT_NODES if compiled() else EXPERT_NODES_PURE
    assert hard.node_budget is None and expert.node_budget == budget


def test_a_node_budget_stops_the_sampling() -> None:
    """A budget that the first sample spends stops the sampling there: the same choice as one
    sample. A budget too small for even one sample leaves the choice to the heuristic."""
    state = DealState.shuffled(RUSSIAN, 0, random.Random(4))
    for _ in range(4):  # into the auction and beyond, whatever the deal
        v = view(state, state.to_act or 0)
        one = PimcBot(1, samples=1)
        alone = one.choose(v, Limit(seed=2))
        first = PimcBot(1, samples=8, node_budget=max(1, one._spent))
        assert first.choose(v, Limit(seed=2)) == alone
        assert first._spent == one._spent
        tiny = PimcBot(1, samples=8, node_budget=1).choose(v, Limit(seed=2))
        assert tiny == HeuristicBot(1).choose(v) or one._spent <= 1
        state = state.apply(alone)


@pytest.mark.parametrize("template", TEMPLATES)
def test_plays_a_deal_of_every_template_legally(template: str) -> None:
    rules = template_rules(template)
    rng = random.Random(template)
    bots = [PimcBot(s, samples=1, infer=s == 0) for s in range(3)]
    game = Game.start(rules).shuffle_and_deal(rng)
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        v = game_view(game, seat)
        action = bots[seat].choose(v)
        assert action in v.legal_actions
        game = game.apply(action)


def test_the_same_seed_makes_the_same_choice() -> None:
    state = DealState.shuffled(RUSSIAN, 0, random.Random(8))
    v = view(state, 1)
    first = PimcBot(samples=3).choose(v, Limit(seed=5))
    assert all(PimcBot(samples=3).choose(v, Limit(seed=5)) == first for _ in range(2))


def test_finds_the_only_good_card() -> None:
    """Two tricks left (the endgame of test_solver): seat 0 has shown a void in spades, so every
    sample puts 9s with seat 2, and the ace of clubs first is best in each of them."""
    state = after_passing(
        ["Tc Jc Qc Jd 9d Jh 9h Js", "Ac 9c Ad Td Ah Th As Ts", "Kc Kd Qd Kh Qh Ks Qs 9s"]
    )
    state = play_tricks(
        state,
        ["1: Ad Kd Jd", "1: Td Qd 9d", "1: Ah Kh Jh", "1: Th Qh 9h", "1: As Ks Js", "1: Ts Qs Qc"],
    )
    assert PimcBot(1, samples=6).choose(view(state, 1)) == parse_action("Ac")


def test_bids_by_simulation() -> None:
    mine = cards("Ah Th Kh Qh Ad Td Ac")
    rest = [c for c in range(24) if not mine >> c & 1]
    hands = [sum(1 << c for c in rest[:7]), mine, sum(1 << c for c in rest[7:14])]
    strong = DealState.new(RUSSIAN, 0, hands, sum(1 << c for c in rest[14:]))
    assert PimcBot(2, samples=4).choose(view(strong, 1)) == bid(100)
    junk = cards("9c Jc 9d Jd Qs 9s Js")
    rest = [c for c in range(24) if not junk >> c & 1]
    hands = [sum(1 << c for c in rest[:7]), junk, sum(1 << c for c in rest[7:14])]
    weak = DealState.new(RUSSIAN, 0, hands, sum(1 << c for c in rest[14:]))
    assert PimcBot(2, samples=4).choose(view(weak, 1)) == PASS


def test_a_time_limit_still_gives_an_answer() -> None:
    state = DealState.shuffled(RUSSIAN, 0, random.Random(9))
    v = view(state, 1)
    assert PimcBot(samples=50).choose(v, Limit(time_s=0.0)) in v.legal_actions
    assert PimcBot(samples=50).choose(v, Limit(iterations=1)) in v.legal_actions
