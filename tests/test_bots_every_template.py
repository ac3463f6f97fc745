"""Every level plays a deal of every template of rules.md part 3 with legal moves only; PIMC
decides the layouts with eight tricks (the talon taken, handed over untaken, or fixed-deal's),
four-player-a's six tricks of partners without a talon, tysiac-2p's ten tricks (all but the
choice of a talon) and two-player-a's play once its stock is drawn, and hands the other moves
to the heuristic bot."""

from __future__ import annotations

import dataclasses
import random
from typing import Literal

import pytest

from thousand.bots import Limit, make_bot
from thousand.bots.base import Bot
from thousand.bots.heuristic import HeuristicBot
from thousand.bots.pimc import PimcBot, make_expert, pimc_applies, pimc_layout
from thousand.engine import Game
from thousand.engine.deal import Phase
from thousand.engine.views import game_view
from thousand.rules import TEMPLATES, template_rules

PIMC_TEMPLATES = {
    "russian",
    "russian-classic",
    "ukrainian",
    "tysiac",
    "estonian",
    "four-player-b",
    "four-player",
    "polish-2card",
    "soviet-book",
    "two-player-b",
    "four-player-a",
    "tysiac-2p",
    "two-player-a",
}


def play_deals(
    template: str, bots: list[Bot], deals: int, limit: Limit | None = None
) -> set[Phase]:
    """Play ``deals`` deals (fewer if the match ends); every move must be legal. The phases in
    which a bot had a choice."""
    rules = template_rules(template)
    rng = random.Random(template)
    game = Game.start(rules)
    phases: set[Phase] = set()
    for _ in range(deals):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            action = bots[seat].choose(v, limit)
            assert action in v.legal_actions, (template, v.phase, action)
            if len(v.legal_actions) > 1:
                phases.add(v.phase)
            game = game.apply(action)
        assert game.deal is not None and game.deal.phase is Phase.DONE
    return phases


@pytest.mark.parametrize("template", TEMPLATES)
def test_medium_plays_every_template(template: str) -> None:
    n = template_rules(template).players_count
    phases = play_deals(template, [make_bot("medium", s) for s in range(n)], 12)
    assert Phase.PLAY in phases


@pytest.mark.parametrize("template", TEMPLATES)
def test_hard_plays_every_template(template: str) -> None:
    n = template_rules(template).players_count
    bots: list[Bot] = [make_bot("hard", s) for s in range(n)]
    play_deals(template, bots, 3, Limit(iterations=1))


@pytest.mark.parametrize(
    "template", ["russian", "four-player", "polish-2card", "tysiac-2p", "four-player-a"]
)
def test_expert_plays_a_few_templates(template: str) -> None:
    n = template_rules(template).players_count
    bots: list[Bot] = [make_bot("expert", s) for s in range(n)]
    play_deals(template, bots, 1, Limit(iterations=1))


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_expert_with_every_part_on_trial_plays_every_template(template: str) -> None:
    """The arena's variants that weigh the bids, the passes and the gives, and reckon a
    defender's marriages, all at once: legal moves in a deal of every template."""
    n = template_rules(template).players_count
    bots: list[Bot] = [
        make_expert(s, auction_policy=True, give_policy=True, defender_marriages=0.5)
        for s in range(n)
    ]
    play_deals(template, bots, 1, Limit(iterations=2))


def test_the_templates_pimc_plays() -> None:
    assert {t for t in TEMPLATES if pimc_layout(template_rules(t))} == PIMC_TEMPLATES


@pytest.mark.parametrize("template", ["two-player-a"])
def test_elsewhere_pimc_is_the_heuristic(template: str) -> None:
    """Where PIMC does not apply (two-player-a while the stock lasts), hard's every choice is
    the heuristic bot's."""
    rules = template_rules(template)
    n = rules.players_count
    rng = random.Random(template)
    game = Game.start(rules).shuffle_and_deal(rng)
    hard, medium = PimcBot(3, samples=2), HeuristicBot(3)
    moves = 0
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None and seat < n
        v = game_view(game, seat)
        action = hard.choose(v)
        if not pimc_applies(v):
            assert action == medium.choose(v)
            moves += 1
        game = game.apply(action)
    # the auction and the three tricks of the stock; then the nine others are searched
    assert moves > 6 and hard._calls > 6


#: The phases with a choice in each layout the sampler rebuilds by its own procedure.
REBUILT_PHASES = {
    "polish-2card": {Phase.AUCTION, Phase.PASSING, Phase.PLAY},
    "soviet-book": {Phase.AUCTION, Phase.CONTRACT, Phase.PASSING, Phase.PLAY},
    "two-player-b": {Phase.AUCTION, Phase.PASSING, Phase.DISCARD, Phase.CONTRACT, Phase.PLAY},
}


@pytest.mark.parametrize("talon_shown", ["always", "never"])
@pytest.mark.parametrize("template", sorted(REBUILT_PHASES))
def test_pimc_decides_every_choice_of_a_rebuilt_layout(
    template: str, talon_shown: Literal["always", "never"]
) -> None:
    """polish-2card (the talon handed over untaken, a card set aside), soviet-book (keep-one,
    the contract named before the talon) and two-player-b (fixed-deal): PIMC decides every
    choice from its samples, the auction, the declarer's decisions before the play and the
    play; none is left to the heuristic (tysiac-2p: tests/test_pimc_layouts)."""
    rules = dataclasses.replace(template_rules(template), talon_shown=talon_shown)
    rng = random.Random(5)
    game = Game.start(rules)
    bot = PimcBot(1, samples=3)
    searched: set[Phase] = set()
    for _ in range(30):
        if game.over or searched == REBUILT_PHASES[template]:
            break
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            action = bot.choose(v)
            if len(v.legal_actions) > 1:
                assert pimc_applies(v), v.phase
                assert bot.why.samples == 3, (v.phase, bot.why)
                searched.add(v.phase)
            game = game.apply(action)
    assert searched == REBUILT_PHASES[template]


def test_pimc_decides_dealer_sits_out() -> None:
    """four-player-b: the three active seats' decisions go to PIMC, and its samples are drawn."""
    rules = template_rules("four-player-b")
    game = Game.start(rules).shuffle_and_deal(random.Random(2))
    bot = PimcBot(1, samples=2)
    decided = 0
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        v = game_view(game, seat)
        if len(v.legal_actions) > 1 and v.phase is Phase.PLAY:
            assert pimc_applies(v)
            decided += 1
        game = game.apply(bot.choose(v))
    assert decided >= 8
    assert bot._calls >= decided


def test_the_declarers_partner_plays_for_the_declarer() -> None:
    """four-player-b: the declarer's active partner, given the true deal as its one sample,
    picks a card of the declarer's best value (it would pick the worst if it played against)."""
    from thousand.bots.solver import Solver, declarer_points, points_needed

    rules = template_rules("four-player-b")
    rng = random.Random(7)
    checked = 0
    while checked < 5:
        game = Game.start(rules).shuffle_and_deal(rng)
        medium = HeuristicBot(0)
        while game.in_deal:
            assert game.deal is not None
            d = game.deal.core()
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            left = sum(h.bit_count() for h in d.hands)
            partner = d.partner(d.declarer) if d.declarer is not None else -1
            if v.phase is Phase.PLAY and seat == partner and left < 13:
                values = Solver(d).move_values()
                need = points_needed(d, d.contract) - declarer_points(d)
                scores = {a: 1000 * (x >= need) + x for a, x in values.items()}
                if max(scores.values()) != min(scores.values()):
                    chosen = PimcBot(0)._play(v, [d], medium.choose(v))
                    assert scores[chosen] == max(scores.values())
                    checked += 1
            game = game.apply(medium.choose(v))


def test_keep_one_keeps_the_talon_card_most_worth_keeping() -> None:
    """soviet-book: the declarer hands the opponents two talon cards and keeps the one its
    hand values most."""
    from thousand.bots.heuristic import keep_value
    from thousand.cards import card_list
    from thousand.engine.actions import give_parts, is_give

    rules = template_rules("soviet-book")
    rng = random.Random(11)
    bot = HeuristicBot(0)
    checked = 0
    game = Game.start(rules)
    while checked < 5 and not game.over:
        game = game.shuffle_and_deal(rng)
        given: list[int] = []
        before = 0
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            action = bot.choose(v)
            if is_give(action):
                assert v.talon is not None
                before = before or v.hand or 0
                given.append(give_parts(action)[0])
            game = game.apply(action)
        if len(given) == 2:
            talon = game_view(game, 0).talon
            assert talon is not None
            kept = [c for c in card_list(talon) if c not in given]
            assert len(kept) == 1
            whole = before | talon
            assert all(keep_value(kept[0], whole, -1) >= keep_value(c, whole, -1) for c in given)
            checked += 1
    assert checked == 5
