"""Expert's parts: the early play's ties broken by points, policy-based inference, and the
variants that switch each off for the arena's ablation."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tests.positions import cards
from thousand.bots import Limit, make_bot
from thousand.bots.heuristic import HeuristicBot, hand_estimate
from thousand.bots.levels import VARIANTS, node_budget_of
from thousand.bots.pimc import (
    AUCTION_SLACK,
    CONTRACT_SLACK,
    DEFENDER_POINTS,
    EXACT_BELOW,
    POLICY_DRAWS,
    POLICY_MATCH,
    Declared,
    PimcBot,
    RaiseValue,
    Reckoning,
    SlackOn,
    _before_contract,
    _best_contract,
    _give_value,
    _raised_beyond,
    _take,
    bid_chance,
    make_expert,
    own_score_counts,
    pimc_applies,
    pimc_layout,
)
from thousand.bots.sampler import Sampler
from thousand.bots.solver import (
    CLOCK_EVERY,
    OutOfNodes,
    Solver,
    declarer_points,
    declarer_side,
    points_needed,
)
from thousand.cli.arena import parse_bots
from thousand.engine import DealState, Game
from thousand.engine.actions import (
    CONTRACT,
    PASS,
    action_text,
    bid,
    contract,
    give_parts,
    is_contract,
    is_give,
)
from thousand.engine.deal import Deal, Phase
from thousand.engine.views import SeatView, game_view, view
from thousand.rules import TEMPLATES, template_rules

PIMC_TEMPLATES = [t for t in TEMPLATES if pimc_layout(template_rules(t))]


def test_expert_nodes_n_is_the_expert_with_n_nodes_a_decision() -> None:
    bot = make_bot("expert-nodes-240000", 3)
    assert isinstance(bot, PimcBot)
    assert bot.node_budget == 240_000
    default = make_bot("expert", 3)
    assert isinstance(default, PimcBot)
    assert (bot.samples, bot.infer, bot.policy) == (default.samples, default.infer, default.policy)
    assert parse_bots("expert-nodes-5,hard") == ("expert-nodes-5", "hard")
    for name in ("expert-nodes-0", "expert-nodes-", "expert-nodes-x", "expert"):
        assert node_budget_of(name) is None
    with pytest.raises(ValueError, match="unknown bot level 'expert-nodes-0'"):
        make_bot("expert-nodes-0")


def test_the_variants_switch_one_part_off() -> None:
    expert = make_bot("expert", 3)
    assert isinstance(expert, PimcBot)
    assert (expert.infer, expert.policy, expert.tiebreak > 0, expert.samples) == (
        True,
        True,
        True,
        32,
    )
    off: dict[str, PimcBot] = {}
    for name in VARIANTS:
        bot = make_bot(name, 3)
        assert isinstance(bot, PimcBot)
        off[name] = bot
    assert not off["expert-no-inference"].infer
    assert not off["expert-no-policy"].policy
    assert off["expert-no-tiebreak"].tiebreak == 0
    assert off["expert-12-samples"].samples == 12
    assert expert.by_points and expert.own_points
    assert expert.defender_points == DEFENDER_POINTS
    assert not off["expert-by-share"].by_points
    assert off["expert-by-share"].own_points
    assert off["expert-by-points-35"].defender_points == 35
    assert off["expert-by-points-10"].defender_points == 10
    assert expert.defender_points_failed is None
    assert expert.marriage_gift == 0
    assert off["expert-marriage-gift-50"].marriage_gift == 0.5
    three = off["expert-three-parts"]
    assert (three.marriage_gift, three.policy_match, three.node_budget) == (
        0.5,
        (0.95, 0.95),
        4_000_000,
    )
    by_fate = off["expert-defender-by-fate"]
    assert (by_fate.defender_points, by_fate.defender_points_failed) == (27, 41)
    assert not off["expert-no-own-points"].own_points
    assert off["expert-no-own-points"].by_points
    before = off["expert-before-own-points"]
    assert not before.by_points and not before.own_points
    assert expert.raise_value is RaiseValue.NONE
    assert off["expert-raise-own"].raise_value is RaiseValue.OWN
    assert off["expert-raise-all"].raise_value is RaiseValue.ALL
    assert off["expert-raise-own"].by_points and off["expert-raise-all"].by_points
    assert expert.auction_slack == off["expert-no-slack"].auction_slack == 0
    assert off["expert-slack-15"].auction_slack == 15
    every, opening = off["expert-slack-every-bid"], off["expert-slack-opening"]
    assert every.auction_slack == opening.auction_slack == AUCTION_SLACK == 10
    assert (every.slack_on, opening.slack_on) == (SlackOn.EVERY_BID, SlackOn.OPENING)
    assert expert.contract_slack == 0
    assert off["expert-contract-slack-10"].contract_slack == 10
    assert expert.policy_match == (POLICY_MATCH, POLICY_MATCH)
    assert off["expert-policy-by-role"].policy_match == (0.7, 0.85)
    assert off["expert-policy-match-95"].policy_match == (0.95, 0.95)
    assert expert.defend_by_points and off["expert-defend-by-points"].defend_by_points
    assert not off["expert-fate-first"].defend_by_points
    assert off["expert-64-samples"].samples == 64
    assert expert.policy_draws == POLICY_DRAWS == 2
    assert off["expert-policy-draws-4"].policy_draws == 4
    assert not expert.auction_policy and off["expert-auction-policy"].auction_policy
    assert not expert.give_policy and off["expert-give-policy"].give_policy
    assert expert.defender_marriages == 0 and off["expert-defender-marriages"].defender_marriages
    assert expert.pass_by_stake and off["expert-pass-by-stake"].pass_by_stake
    assert not off["expert-pass-by-share"].pass_by_stake
    assert off["expert-tiebreak-32"].tiebreak == 32 and expert.tiebreak == 8
    assert expert.exact_below == EXACT_BELOW == 13
    assert off["expert-exact-below-16"].exact_below == 16
    assert not expert.contract_inference and off["expert-contract-inference"].contract_inference


def _decisions(template: str, seed: int) -> Iterator[tuple[SeatView, Deal]]:
    """Each view with a choice in a deal that heuristic bots play, with the true deal."""
    rules = template_rules(template)
    bots = [HeuristicBot(seed + s) for s in range(rules.players_count)]
    game = Game.start(rules).shuffle_and_deal(random.Random(seed))
    while game.in_deal:
        assert game.deal is not None and game.deal.to_act is not None
        seat = game.deal.to_act
        v = game_view(game, seat)
        if len(v.legal_actions) > 1:
            yield v, game.deal.core()
        game = game.apply(bots[seat].choose(v))


@pytest.mark.parametrize("template", PIMC_TEMPLATES)
def test_the_true_deal_is_likelier_than_the_samples(template: str) -> None:
    """Where the other seats play as the model, the true deal explains every play (the weight
    POLICY_MATCH to the power of their plays with a choice), and the samples drawn from the view
    are mostly less likely: the inference points toward the truth. Six decisions, one a deal
    (more deals where most are thrown in: in four-player-a the heuristic seldom bids)."""
    expert = make_expert(1)
    weighed = decisions = 0
    for seed in range(30):
        if decisions >= 6:
            break
        for v, truth in _decisions(template, seed):
            others = [s for s, _ in v.plays if s != v.seat]
            if v.phase is not Phase.PLAY or len(others) < 6 or not pimc_applies(v):
                continue
            true_weight = expert._likelihood(v, truth)
            sampler = Sampler(v, random.Random(seed))
            drawn = [sampler.draw() for _ in range(12)]
            weights = [expert._likelihood(v, d) for d in drawn if d is not None]
            # every play foreseen: a power of POLICY_MATCH, one factor per play with a choice
            plays = math.log(true_weight) / math.log(POLICY_MATCH)
            assert abs(plays - round(plays)) < 1e-9 and round(plays) <= len(others)
            assert weights
            weighed += true_weight >= sum(weights) / len(weights)
            decisions += 1
            break
    assert decisions >= 2 and weighed >= decisions - 1


def test_inference_keeps_the_likeliest_samples() -> None:
    """Of samples whose weights differ a thousandfold, the heavy one is kept far more often."""
    for v, _ in _decisions("russian", 3):
        if v.phase is Phase.PLAY and sum(1 for s, _ in v.plays if s != v.seat) >= 6:
            break
    expert = make_expert(1)
    sampler = Sampler(v, random.Random(2))
    deals = [d for d in (sampler.draw() for _ in range(40)) if d is not None]
    weights = [expert._likelihood(v, d) for d in deals]
    heavy = deals[weights.index(max(weights))]
    light = deals[weights.index(min(weights))]
    assert max(weights) > 100 * min(weights)
    kept = sum(
        expert._weighed(v, [light, heavy], 1, random.Random(i))[0] is heavy for i in range(200)
    )
    assert kept > 180


@pytest.mark.parametrize("draws", [POLICY_DRAWS, 4])
def test_policy_based_inference_weighs_policy_draws_times_the_samples(draws: int) -> None:
    """Once another seat has played, expert draws ``policy_draws`` times its samples and keeps
    its samples' count of them, weighed by their likelihood."""
    for v, _ in _decisions("russian", 3):
        if v.phase is Phase.PLAY and sum(1 for s, _ in v.plays if s != v.seat) >= 3:
            break
    weighed, kept = _weighed_draws(make_expert(1, samples=5, policy_draws=draws), v)
    assert weighed == [5 * draws] and kept == 5


def _weighed_draws(expert: PimcBot, v: SeatView) -> tuple[list[int], int]:
    """How many samples each call of ``expert``'s weighing got in one draw of its samples for
    ``v``, and how many samples the draw kept."""
    weighed: list[int] = []
    keep = expert._weighed

    def spy(view: SeatView, deals: list[Deal], count: int, rng: random.Random) -> list[Deal]:
        weighed.append(len(deals))
        return keep(view, deals, count, rng)

    expert._weighed = spy  # type: ignore[method-assign]
    kept = expert._draw(v, Sampler(v, random.Random(1)), expert.samples)
    return weighed, len(kept)


def test_the_tiebreak_plays_the_card_worth_most_among_the_tied() -> None:
    """In the early play, cards that tie on make-or-fail are ordered by the mean points the
    solver gives them over the tiebreak's samples: the declarer takes the most, a defender
    leaves the declarer the fewest. (Positions with 13 to 15 cards left: the last ones the
    tiebreak decides, and quick to solve.)"""
    checked = 0
    for seed in range(6):
        for v, _ in _decisions("russian", 40 + seed):
            if v.phase is not Phase.PLAY or not pimc_applies(v):
                continue
            sampler = Sampler(v, random.Random(seed))
            deals = [d for d in (sampler.draw() for _ in range(3)) if d is not None]
            left = sum(h.bit_count() for h in deals[0].hands)
            if left > EXACT_BELOW + 2:
                continue
            if left < EXACT_BELOW:
                break
            bot = PimcBot(1, samples=3, tiebreak=3)
            scores = dict.fromkeys(v.legal_actions, 0.0)
            declarer = v.seat in declarer_side(deals[0])
            bot._tiebreak(deals, scores, declarer)
            totals = dict.fromkeys(v.legal_actions, 0)
            for d in deals:
                for a, value in Solver(d).move_values().items():
                    totals[a] += value
            pick = max if declarer else min
            best = pick(totals.values())
            chosen = max(scores, key=lambda a: scores[a])
            assert totals[chosen] == best
            assert all(abs(s) < 1 for s in scores.values())
            checked += 1
    assert checked >= 6


def _defender_decisions(seeds: range, late: bool) -> Iterator[tuple[SeatView, list[Deal]]]:
    """A defender's choices in the play of russian deals that heuristic bots play, with three
    samples each: in the late play (fewer than :data:`EXACT_BELOW` cards left) or the early."""
    for seed in seeds:
        for v, _ in _decisions("russian", seed):
            if v.phase is not Phase.PLAY or not pimc_applies(v) or v.seat == v.declarer:
                continue
            sampler = Sampler(v, random.Random(seed))
            deals = [d for d in (sampler.draw() for _ in range(3)) if d is not None]
            left = sum(h.bit_count() for h in deals[0].hands)
            if (left < EXACT_BELOW) == late:
                yield v, deals


def test_a_defender_plays_for_the_points_it_takes_itself() -> None:
    """In the late play, a defender with ``own_points`` plays the card that fails the contract
    in the most samples and, among those, takes itself the most points (the solver asked for
    its gain alone); without, the one that holds the declarer to the fewest. The two differ.
    With ``defend_by_points`` as well, the card whose own points less the contract for each
    sample the declarer makes it after the card are the most (a failed contract is worth the
    contract to its lead: a few points of its own may outweigh one sample's fate)."""
    checked = differs = 0
    for v, deals in _defender_decisions(range(80, 90), late=True):
        assert v.seat is not None and v.contract is not None
        own_scores = dict.fromkeys(v.legal_actions, 0)
        side_scores = dict.fromkeys(v.legal_actions, 0)
        by_points = dict.fromkeys(v.legal_actions, 0)
        for d in deals:
            need = points_needed(d, d.contract) - declarer_points(d)
            values = Solver(d).move_values()
            own = Solver(d, side=(v.seat,)).move_values()
            for a in v.legal_actions:
                made = values[a] >= need
                own_scores[a] += own[a] - 1000 * made
                side_scores[a] -= 1000 * made + values[a]
                by_points[a] += own[a] - v.contract * made
        fallback = v.legal_actions[0]
        chosen = PimcBot(1, samples=3, own_points=True)._play(v, deals, fallback)
        assert own_scores[chosen] == max(own_scores.values())
        bot = PimcBot(1, samples=3, own_points=True, defend_by_points=True)
        assert by_points[bot._play(v, deals, fallback)] == max(by_points.values())
        before = PimcBot(1, samples=3)._play(v, deals, fallback)
        assert side_scores[before] == max(side_scores.values())
        differs += own_scores[before] < max(own_scores.values())
        checked += 1
    assert checked >= 20
    assert differs >= 2


def test_a_defenders_tiebreak_counts_the_points_it_takes_itself() -> None:
    """In the early play, a defender with ``own_points`` orders the cards that tie on
    make-or-fail by the mean points it takes itself over the tiebreak's samples."""
    checked = 0
    for v, deals in _defender_decisions(range(40, 46), late=False):
        assert v.seat is not None
        if sum(h.bit_count() for h in deals[0].hands) > EXACT_BELOW + 2:
            continue  # positions quick to solve
        scores = dict.fromkeys(v.legal_actions, 0.0)
        PimcBot(1, samples=3, tiebreak=3)._tiebreak(deals, scores, False, v.seat)
        totals = dict.fromkeys(v.legal_actions, 0)
        for d in deals:
            for a, value in Solver(d, side=(v.seat,)).move_values().items():
                totals[a] += value
        chosen = max(scores, key=lambda a: scores[a])
        assert totals[chosen] == max(totals.values())
        checked += 1
    assert checked >= 6


def test_a_defender_by_points_weighs_them_in_the_early_play_too() -> None:
    """In the early play the card's worth is the mean of its own points over the tiebreak's
    samples less the contract times the share of the samples the declarer makes it in (12
    samples here, 4 for the points). In two of these deals' positions that worth picks
    another card than the fate-first defender's."""
    checked = differs = 0
    for seed in (80, 91):
        for v, _ in _decisions("russian", seed):
            if v.phase is not Phase.PLAY or not pimc_applies(v) or v.seat == v.declarer:
                continue
            assert v.seat is not None and v.contract is not None
            sampler = Sampler(v, random.Random(seed))
            deals = [d for d in (sampler.draw() for _ in range(12)) if d is not None]
            if sum(h.bit_count() for h in deals[0].hands) < EXACT_BELOW:
                continue
            worth = dict.fromkeys(v.legal_actions, 0.0)
            for i, d in enumerate(deals):
                need = points_needed(d, d.contract) - declarer_points(d)
                for a, made in Solver(d).move_makes(need).items():
                    worth[a] -= v.contract * made / len(deals)
                if i < 4:
                    for a, own in Solver(d, side=(v.seat,)).move_values().items():
                        worth[a] += own / 4
            bot = PimcBot(1, samples=12, tiebreak=4, own_points=True, defend_by_points=True)
            chosen = bot._play(v, deals, v.legal_actions[0])
            assert worth[chosen] == pytest.approx(max(worth.values()))
            before = PimcBot(1, samples=12, tiebreak=4, own_points=True)._play(
                v, deals, v.legal_actions[0]
            )
            differs += worth[before] < max(worth.values()) - 1e-9
            checked += 1
    assert checked >= 6
    assert differs == 2


def test_the_policy_model_matches_the_declarers_plays_and_the_defenders_apart() -> None:
    """With ``policy_match`` (declarer's side, defender), each play with a choice weighs the
    true deal by the chance of its own role: all plays foreseen in heuristic self-play, the
    weight with the defenders' chance 1 counts the declarer's plays, the one with the
    declarer's chance 1 the defenders', and the two counts make up the plays of POLICY_MATCH."""
    seen_both = checked = 0
    for seed in range(12):
        for v, truth in _decisions("russian", seed):
            others = [s for s, _ in v.plays if s != v.seat]
            if v.phase is not Phase.PLAY or len(others) < 8 or not pimc_applies(v):
                continue
            declarers = math.log2(PimcBot(1, policy_match=(0.5, 1.0))._likelihood(v, truth))
            defenders = math.log2(PimcBot(1, policy_match=(1.0, 0.5))._likelihood(v, truth))
            plays = math.log(make_expert(1)._likelihood(v, truth)) / math.log(POLICY_MATCH)
            for count in (declarers, defenders, plays):
                assert abs(count - round(count)) < 1e-9
            assert round(-declarers) + round(-defenders) == round(plays)
            seen_both += declarers < 0 and defenders < 0
            checked += 1
            break
    assert checked >= 6 and seen_both >= 3


@pytest.mark.parametrize(
    ("template", "overrides", "total", "counts"),
    [
        ("russian", {}, 0, True),
        ("tysiac", {}, 800, True),
        ("tysiac", {}, 810, False),  # scoring.only_bids_above 800: it gains nothing
        ("russian", {"scoring.pooled_defenders": True}, 0, False),
        ("russian", {"scoring.declarer_gains": "score-plus-contract"}, 0, False),
        ("four-player-a", {}, 0, False),  # partners
    ],
)
def test_a_defenders_own_points_count_where_its_deal_score_is_its_own(
    template: str, overrides: dict[str, object], total: int, counts: bool
) -> None:
    rules = template_rules(template).with_overrides(overrides)
    game = Game.start(rules).shuffle_and_deal(random.Random(1))
    v = game_view(game, 0)
    assert v.match is not None
    v = replace(v, match=replace(v.match, totals=(total,) * rules.players_count))
    assert own_score_counts(v) is counts


@pytest.mark.parametrize(
    "by_points, own_points, raise_value, variant",
    [
        (True, True, RaiseValue.NONE, False),
        (True, True, RaiseValue.OWN, False),
        (True, True, RaiseValue.ALL, False),
        (False, False, RaiseValue.NONE, False),
        (True, True, RaiseValue.NONE, True),
    ],
    ids=[
        "by-points-own-points",
        "own-raise-reckoned",
        "every-raise-reckoned",
        "by-share",
        "defend-by-points-policy-by-role",
    ],
)
@pytest.mark.parametrize("template", TEMPLATES)
def test_expert_with_every_part_plays_every_template(
    template: str, by_points: bool, own_points: bool, raise_value: RaiseValue, variant: bool
) -> None:
    """Every part on (inference from bids and plays, the tiebreak; the auction by points and
    a defender's own points, or neither; the raise of none, its own or every declarer's
    contract reckoned in the auction by points; or the play's variants: a defender by points,
    the policy model by role, four draws a sample), small: only legal moves."""
    rules = template_rules(template)
    more: dict[str, Any] = {}
    if variant:
        more = {
            "defend_by_points": True,
            "policy_match": (0.7, 0.85),
            "policy_draws": 4,
            "exact_below": 16,
            "contract_inference": True,
        }
    bots = [
        make_expert(
            s,
            samples=3,
            tiebreak=2,
            node_budget=20_000,
            by_points=by_points,
            own_points=own_points,
            raise_value=raise_value,
            **more,
        )
        for s in range(rules.players_count)
    ]
    game = Game.start(rules).shuffle_and_deal(random.Random(template))
    while game.in_deal:
        assert game.deal is not None and game.deal.to_act is not None
        seat = game.deal.to_act
        v = game_view(game, seat)
        action = bots[seat].choose(v)
        assert action in v.legal_actions
        game = game.apply(action)


def test_a_solver_stops_at_its_limit_and_says_so() -> None:
    """A question that would search more positions than the limit raises OutOfNodes after
    exactly limit + 1 of them; under the limit the answer is the unlimited solver's."""
    truth = next(t for v, t in _decisions("russian", 7) if v.phase is Phase.PLAY)
    full = Solver(truth)
    value = full.value()
    assert full.nodes > 1000
    capped = Solver(truth, full.nodes - 1)
    with pytest.raises(OutOfNodes):
        capped.value()
    assert capped.nodes == full.nodes
    assert Solver(truth, full.nodes).value() == value


def test_a_solver_stops_at_its_deadline_and_says_so() -> None:
    """With a deadline the solver looks at the clock once in CLOCK_EVERY positions: one that
    has passed stops it at the first look; one far off leaves the answer, and the positions
    searched, those of the solver without it."""
    truth = next(t for v, t in _decisions("russian", 7) if v.phase is Phase.PLAY)
    full = Solver(truth)
    value = full.value()
    assert full.nodes > CLOCK_EVERY
    late = Solver(truth, deadline=time.perf_counter())
    with pytest.raises(OutOfNodes):
        late.value()
    assert late.nodes == CLOCK_EVERY + 1
    early = Solver(truth, deadline=time.perf_counter() + 3600)
    assert early.value() == value and early.nodes == full.nodes


@pytest.mark.parametrize("template", PIMC_TEMPLATES)
def test_a_move_time_stops_the_search_whatever_the_node_budget(template: str) -> None:
    """``Limit.time_s`` stops the drawing and the solving at SEARCH_SHARE of it, inside a
    sample too. Where that time has passed before the search starts, each decision of four
    deals searches no more than a few looks at the clock (each solver it asks stops at its
    first), where the node budget alone lets one search forty times that; and it still
    answers legally."""
    bound = 4 * (CLOCK_EVERY + 1)
    searched_more = 0
    for seed in range(4):
        for v, _ in _decisions(template, seed):
            if not pimc_applies(v):
                continue
            timed = make_expert(1)
            assert timed.choose(v, Limit(time_s=0.0)) in v.legal_actions
            assert timed._spent <= bound, (v.phase, timed._spent)
            if not searched_more:
                free = make_expert(1)
                free.choose(v)
                searched_more = free._spent if free._spent > 40 * bound else 0
    assert searched_more


@pytest.mark.parametrize("phase", [Phase.AUCTION, Phase.PASSING, Phase.CONTRACT, Phase.PLAY])
def test_the_node_budget_bounds_every_decision(phase: Phase) -> None:
    """The solver stops where the decision's budget is spent, inside a sample too: a decision
    searches at most its budget (plus the one node that finds it spent), in every phase PIMC
    decides, and still answers with a legal action."""
    budget = 5_000
    seen = 0
    for seed in range(12):
        for v, _ in _decisions("russian", seed):
            if v.phase is not phase or not pimc_applies(v):
                continue
            bot = PimcBot(1, samples=16, node_budget=budget, tiebreak=8)
            assert bot.choose(v) in v.legal_actions
            assert bot._spent <= budget + 1
            seen += bot._spent > budget // 2
    assert seen >= 3


def _auction(hands: tuple[str, str, str], talon: str) -> tuple[SeatView, Deal]:
    """Forehand's (seat 1's) first turn of a russian auction dealt by seat 0, and the deal."""
    state = DealState.new(template_rules("russian"), 0, [cards(h) for h in hands], cards(talon))
    return view(state, 1), state.core()


def test_bidding_by_points_reckons_the_lead_the_auction_leaves() -> None:
    """Seat 1's lead over the mean of the others, with 20 points a defender. Each seat bids up
    to its hand's bid limit: 10 for the nines and jacks, 109 for the spades, 209 for the
    hearts."""
    hearts = "Ah Th Kh Qh Ad Td Ac"
    spades = "Tc As Ts Kc Ks Qs Qd"
    junk = "9c Jc 9d Jd 9h Jh Qc"
    talon = "9s Js Kd"
    limit = HeuristicBot().bid_limit
    rules = template_rules("russian")
    assert [limit(cards(h), rules, 2) for h in (junk, spades, hearts)] == [10, 109, 209]
    bot = PimcBot(1, samples=4, by_points=True, defender_points=20)
    # Passing, seat 2's hearts take 100 and make it: 20 - (100 + 20) / 2. Bidding 100, seat 1
    # is outbid at 105 and stops (110 is above its limit); seat 2 makes 105.
    v, d = _auction((junk, spades, hearts), talon)
    assert bot._lead_after(v, d, PASS) == Reckoning(-40)
    assert bot._lead_after(v, d, bid(100)) == Reckoning(-42.5)
    # Passing, seat 2 passes too and the dealer is forced to 100, which its spades make (with
    # the talon's king of diamonds). Bidding, the dealer goes to 105, seat 1 to 110, and seat 1
    # makes it: 110 - 20.
    v, d = _auction((spades, hearts, junk), talon)
    assert bot._lead_after(v, d, PASS) == Reckoning(-40)
    assert bot._lead_after(v, d, bid(100)) == Reckoning(90, True, 110)


def test_the_auction_slack_counts_a_bid_made_a_few_points_short() -> None:
    """Seat 1 bids 100 and the others stop below it (their bid limits 41 and 82). With all
    cards open it takes 91 points, where 98 round to the 100 it needs: 7 short. Without slack,
    or with 5, it fails: -100 - 20. With 10 the sample counts it made: 100 - 20. Passing, the
    dealer is forced to 100 and fails: (20 + 100) / 2 with any slack."""
    v, d = _auction(
        ("Kd Td Jh Qh Th Qs Ts", "Kc 9d Jd 9h Ah Js As", "9c Jc Tc Ac Qd Ad Ks"), "Qc Kh 9s"
    )
    bot = PimcBot(1, by_points=True)
    e = _take(d, 1, 100, bot.heuristic)
    assert (declarer_points(e) + Solver(e).value(), points_needed(e, 100)) == (91, 98)
    assert [bot._makes(e, 100, slack) for slack in (0, 6, 7, 10)] == [False, False, True, True]
    for slack, lead in ((0, -120), (5, -120), (10, 80)):
        slacked = PimcBot(1, by_points=True, auction_slack=slack)
        assert slacked._lead_after(v, d, PASS) == Reckoning(60)
        assert slacked._lead_after(v, d, bid(100)) == Reckoning(lead, lead > 0, 100)
    # 100 is russian's opening bid, so a slack counted on the opening bid only counts there
    for on in SlackOn:
        slacked = PimcBot(1, by_points=True, auction_slack=10, slack_on=on)
        assert slacked._lead_after(v, d, bid(100)) == Reckoning(80, True, 100)


def test_the_auction_slack_on_the_opening_bid_only() -> None:
    """Counted on the opening bid only (``expert-slack-opening``), the slack counts for a
    declarer at ``bidding.min`` and not above it; counted on every bid, for both. Seat 1 bids
    100, seat 2 passes (its bid limit 60), and the dealer (limit 126) and seat 1 (135) outbid
    each other up to 120, russian's highest bid. With all cards open seat 1 takes 117 of the
    118 points that 120 needs: made within the slack on every bid (120 - 20), failed where the
    slack is the opening's only (-120 - 20). Passing, the dealer makes 100 either way:
    20 - (100 + 20) / 2."""
    hands = ("As Qh Ks Qc Th 9s Qs", "Jd 9d Kd 9c Qd Ac Kc", "Ts Td Js Ad Tc Jh 9h")
    v, d = _auction(hands, "Ah Kh Jc")
    limit = HeuristicBot().bid_limit
    assert [limit(cards(h), d.rules, 2) for h in hands] == [126, 135, 60]
    e = _take(d, 1, 120, HeuristicBot())
    assert (declarer_points(e) + Solver(e).value(), points_needed(e, 120)) == (117, 118)
    every = PimcBot(1, by_points=True, auction_slack=10, slack_on=SlackOn.EVERY_BID)
    opening = PimcBot(1, by_points=True, auction_slack=10, slack_on=SlackOn.OPENING)
    assert [every._slack(d, x) for x in (100, 105, 120)] == [10, 10, 10]
    assert [opening._slack(d, x) for x in (100, 105, 120)] == [10, 0, 0]
    for bot in (every, opening):
        assert bot._lead_after(v, d, PASS) == Reckoning(-40)
    assert every._lead_after(v, d, bid(100)) == Reckoning(100, True, 120)
    assert opening._lead_after(v, d, bid(100)) == Reckoning(-140, False, 120)


def test_a_defender_counts_a_share_of_the_marriages_it_was_dealt() -> None:
    """With ``defender_marriages`` 0.5 a defender scores 20 and half its dealt marriages in the
    reckoning: the deal above, no slack. Passing, seat 1 defends the dealer's 100 with the
    diamonds marriage (80): 20 + 40 - (100 + 20) / 2 = 0, not -40. Bidding, it fails 120;
    the dealer defends with the spades marriage (40), seat 2 with none:
    -120 - (20 + 20 + 20) / 2 = -150, not -140."""
    hands = ("As Qh Ks Qc Th 9s Qs", "Jd 9d Kd 9c Qd Ac Kc", "Ts Td Js Ad Tc Jh 9h")
    v, d = _auction(hands, "Ah Kh Jc")
    plain = PimcBot(1, by_points=True)
    half = PimcBot(1, by_points=True, defender_marriages=0.5)
    assert [half._defender_points(d, s, True) for s in range(3)] == [40, 60, 20]
    assert [plain._defender_points(d, s, False) for s in range(3)] == [20, 20, 20]
    assert plain._lead_after(v, d, PASS) == Reckoning(-40)
    assert half._lead_after(v, d, PASS) == Reckoning(0)
    assert plain._lead_after(v, d, bid(100)) == Reckoning(-140, False, 120)
    assert half._lead_after(v, d, bid(100)) == Reckoning(-150, False, 120)


def test_a_defender_scores_by_the_contracts_fate() -> None:
    """With ``defender_points_failed`` a defender scores one figure where the contract is made
    and another where it fails: the deal above, 27 and 41. Passing, seat 1 defends the
    dealer's 100, made: 27 - (100 + 27) / 2 = -36.5. Bidding, it fails 120:
    -120 - (41 + 41) / 2 = -161."""
    hands = ("As Qh Ks Qc Th 9s Qs", "Jd 9d Kd 9c Qd Ac Kc", "Ts Td Js Ad Tc Jh 9h")
    v, d = _auction(hands, "Ah Kh Jc")
    by_fate = PimcBot(1, by_points=True, defender_points=27, defender_points_failed=41)
    assert [by_fate._defender_points(d, 0, made) for made in (True, False)] == [27, 41]
    assert by_fate._lead_after(v, d, PASS) == Reckoning(-36.5)
    assert by_fate._lead_after(v, d, bid(100)) == Reckoning(-161, False, 120)


def test_the_contract_slack_names_a_contract_made_a_few_points_short() -> None:
    """Seat 1 declares at 100 with the spades and the talon's king of diamonds, and passes two
    cards as the heuristic does. At its contract, it takes 205 points with all cards open: 200
    needs 198, 210 needs 208 (3 short) and 220 needs 218 (13 short). With the true deal as its
    one sample, it names the highest it makes within its slack."""
    spades = "Tc As Ts Kc Ks Qs Qd"
    state = DealState.new(
        template_rules("russian"),
        0,
        [cards(h) for h in ("9c Jc 9d Jd 9h Jh Qc", spades, "Ah Th Kh Qh Ad Td Ac")],
        cards("9s Js Kd"),
    )
    for action in (bid(100), PASS, PASS):
        state = state.apply(action)
    while state.phase is Phase.PASSING:
        state = state.apply(HeuristicBot(1).choose(view(state, 1)))
    assert state.phase is Phase.CONTRACT and state.to_act == 1
    e = state.core()
    e.apply(contract(100))
    assert declarer_points(e) + Solver(e).value() == 205
    assert [points_needed(e, x) for x in (200, 210, 220)] == [198, 208, 218]
    named = {}
    for slack in (0, 5, 10, 15):
        bot = PimcBot(1, contract_slack=slack)
        named[slack] = bot._contract(view(state, 1), [state.core()], PASS) - CONTRACT
    assert named == {0: 200, 5: 210, 10: 210, 15: 220}


def test_the_raise_value_reckons_the_highest_contract_the_declarer_makes() -> None:
    """With its own raise reckoned, a sample in which seat 1 declares reckons the highest
    contract it makes with all cards open. With the hearts (above: declared at 110) that is
    220, the most it may name (120 and its marriage of hearts). With the spades, had it
    declared at 100, 165: the amounts 100 to 165 are made and 170 to 240 are not, one by one.
    With every declarer's raise reckoned, the other seats' contracts are reckoned too."""
    own = PimcBot(1, samples=4, by_points=True, defender_points=20, raise_value=RaiseValue.OWN)
    every = PimcBot(1, samples=4, by_points=True, defender_points=20, raise_value=RaiseValue.ALL)
    hearts = "Ah Th Kh Qh Ad Td Ac"
    spades = "Tc As Ts Kc Ks Qs Qd"
    junk = "9c Jc 9d Jd 9h Jh Qc"
    v, d = _auction((spades, hearts, junk), "9s Js Kd")
    mine = Reckoning(90, True, 110, Declared(1, 110, 220, 1.0))
    assert own._lead_after(v, d, bid(100)) == every._lead_after(v, d, bid(100)) == mine
    assert own._lead_after(v, d, PASS) == Reckoning(-40)
    # passing, the dealer is forced to 100 with the spades: 165, as below from seat 1
    assert every._lead_after(v, d, PASS) == Reckoning(-40, declared=Declared(0, 100, 165, -0.5))
    v, d = _auction((junk, spades, hearts), "9s Js Kd")
    assert every._lead_after(v, d, bid(100)) == Reckoning(
        -42.5, declared=Declared(2, 105, 220, -0.5)
    )
    e = _before_contract(d, 1, 100, own.heuristic)
    assert e.phase is Phase.CONTRACT
    amounts = sorted(a - CONTRACT for a in e.legal_actions() if is_contract(a))
    made = []
    for x in amounts:
        named = e.copy()
        named.apply(contract(x))
        made.append(Solver(named).at_least(points_needed(named, x) - declarer_points(named)))
    assert [x for x, m in zip(amounts, made, strict=True) if m] == list(range(100, 170, 5))
    assert amounts[-1] == 240
    assert own._top_contract(e) == 165


def test_the_raise_value_names_one_contract_for_every_sample() -> None:
    """Seat 1 declares in three of four samples: at 100 where it makes 140 and where it makes
    95 (fails), at 110 where it makes 120. By the bid alone the leads sum to 10. Named at 120
    for all three, the contracts gain 120, lose 120 and gain 120: 20 in all. At 140 they would
    lose 140 twice, and without a raise they sum to 110 against 120's."""
    samples = [
        Reckoning(-40),
        Reckoning(100 - 20, True, 100, Declared(1, 100, 140, 1.0)),
        Reckoning(-100 - 20, False, 100, Declared(1, 100, 95, 1.0)),
        Reckoning(110 - 20, True, 110, Declared(1, 110, 120, 1.0)),
    ]
    bot = PimcBot(1, by_points=True, raise_value=RaiseValue.OWN)
    assert bot._declared_stake(samples) == 20
    # by the bids alone (no contract reckoned, as a bot without the raise records them)
    assert bot._declared_stake([replace(r, declared=None) for r in samples]) == 10


def test_another_declarers_raise_counts_against_this_seat() -> None:
    """Seat 2 declares at 100 in three samples (the leads -40, -40 and 60 by the bids: made,
    made, failed), making 150, 150 and 95. Named at 150 its contracts gain 150 in all against
    100 at the bid; seat 1 is a defender of two, so its lead falls by half the 50: -20 - 25."""
    samples = [
        Reckoning(-40, declared=Declared(2, 100, 150, -0.5)),
        Reckoning(-40, declared=Declared(2, 100, 150, -0.5)),
        Reckoning(60, declared=Declared(2, 100, 95, -0.5)),
    ]
    assert PimcBot(1, by_points=True, raise_value=RaiseValue.ALL)._declared_stake(samples) == -45


def test_bidding_by_points_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    bot = PimcBot(2, samples=4, by_points=True)
    v, _ = _auction(
        ("9c Jc 9d Jd 9h Jh Qc", "Ah Th Kh Qh Ad Td Ac", "Tc As Ts Kc Ks Qs Qd"), "9s Js Kd"
    )
    assert (bot.choose(v), bot.why.kind) == (bid(100), "bid")
    v, _ = _auction(
        ("Ah Th Kh Qh Ad Td Ac", "9c Jc 9d Jd 9h Jh Qc", "Tc As Ts Kc Ks Qs Qd"), "9s Js Kd"
    )
    assert (bot.choose(v), bot.why.kind) == (PASS, "pass")


def test_the_chance_of_a_bid_is_the_fitted_curve() -> None:
    """One half five points under the hand's bid limit, falling with the amount, never past
    3% from 0 or 1."""
    assert bid_chance(95, 100) == 0.5
    assert bid_chance(100, 100) == pytest.approx(1 / (1 + math.exp(0.5)))
    assert bid_chance(120, 100) == pytest.approx(1 / (1 + math.exp(2.5)))
    assert bid_chance(85, 100) == pytest.approx(1 / (1 + math.exp(-1)))
    assert bid_chance(300, 100) == 0.03 and bid_chance(0, 100) == 0.97
    chances = [bid_chance(a, 120) for a in range(60, 200, 5)]
    assert chances == sorted(chances, reverse=True)


def _after_forehand(seed: int) -> tuple[SeatView, Deal]:
    """Russian, heuristic bots: the second seat's view at its first turn to bid, when only
    forehand (who may pass or bid 100 there) has had a turn; and the true deal."""
    for v, truth in _decisions("russian", seed):
        if v.phase is Phase.AUCTION and len(v.auction) == 1:
            return v, truth
    raise AssertionError("no second turn in the auction")


@pytest.mark.parametrize("seed", range(4))
def test_auction_inference_weighs_forehands_pass_or_bid(seed: int) -> None:
    """With ``auction_policy`` a sample's weight is multiplied by the chance the model gives
    forehand's choice with the hand forehand holds there: a bid of 100 with its bid limit's
    chance, a pass with one less it. The weight of the play alone is 1 before anyone has
    played."""
    v, truth = _after_forehand(seed)
    rules = v.rules
    (forehand, amount), *_ = v.auction
    on, off = make_expert(1, auction_policy=True), make_expert(1)
    sampler = Sampler(v, random.Random(seed))
    deals = [truth, *(d for d in (sampler.draw() for _ in range(6)) if d is not None)]
    limits = set()
    for d in deals:
        limit = HeuristicBot(0).bid_limit(d.dealt[forehand], rules, 2)
        limits.add(limit)
        chance = bid_chance(rules.bidding_min, limit)
        expected = chance if amount else 1 - chance
        assert off._likelihood(v, d) == 1.0
        assert on._likelihood(v, d) == pytest.approx(expected)
    assert len(limits) > 1  # the samples' forehands hold other hands


def test_auction_inference_points_toward_the_truth() -> None:
    """Where the other seats bid as the model's heuristic does, the true deal's weight from the
    auction is at least the samples' mean in most first leads of the declarer's."""
    on, off = make_expert(1, auction_policy=True), make_expert(1)
    toward = leads = 0
    for seed in range(30):
        if leads >= 12:
            break
        for v, truth in _decisions("russian", seed):
            if v.phase is not Phase.PLAY or v.plays or not pimc_applies(v):
                continue
            if sum(1 for s, _ in v.auction if s != v.seat) < 2:
                break

            def auction(d: Deal, v: SeatView = v) -> float:
                return on._likelihood(v, d) / off._likelihood(v, d)

            sampler = Sampler(v, random.Random(seed))
            drawn = [d for d in (sampler.draw() for _ in range(16)) if d is not None]
            toward += auction(truth) >= sum(map(auction, drawn)) / len(drawn)
            leads += 1
            break
    assert leads >= 8 and toward >= leads - 2


@pytest.mark.parametrize("auction_policy", [False, True])
def test_auction_inference_weighs_the_samples_in_the_auction(auction_policy: bool) -> None:
    """Once another seat has had a turn to bid, expert with ``auction_policy`` draws
    ``policy_draws`` times its samples and keeps its count of them by their weight; without
    it, it draws its count only."""
    v, _ = _after_forehand(0)
    expert = make_expert(1, samples=5, auction_policy=auction_policy)
    weighed, kept = _weighed_draws(expert, v)
    assert weighed == ([5 * POLICY_DRAWS] if auction_policy else []) and kept == 5


def _defenders_plays(count: int) -> Iterator[tuple[SeatView, Deal]]:
    """Russian, heuristic bots: a defender's first searched turn in the play of ``count``
    deals, once the declarer has given it a card; and the true deal."""
    found = 0
    for seed in range(10 * count):
        if found >= count:
            return
        for v, truth in _decisions("russian", seed):
            if v.phase is Phase.PLAY and v.declarer != v.seat and pimc_applies(v):
                assert v.received is not None
                found += 1
                yield v, truth
                break


def test_give_inference_points_toward_the_truth() -> None:
    """Where the declarer gives as the model's heuristic does, the true deal's weight from the
    gives (both foreseen: POLICY_MATCH squared) is above the samples' mean at every defender's
    turn."""
    on, off = make_expert(1, give_policy=True), make_expert(1)
    turns = 0
    for v, truth in _defenders_plays(10):

        def gives(d: Deal, v: SeatView = v) -> float:
            return on._likelihood(v, d) / off._likelihood(v, d)

        sampler = Sampler(v, random.Random(turns))
        drawn = [d for d in (sampler.draw() for _ in range(16)) if d is not None]
        assert gives(truth) == pytest.approx(POLICY_MATCH**2)
        assert gives(truth) > sum(map(gives, drawn)) / len(drawn)
        turns += 1
    assert turns == 10


def test_contract_inference_rejects_the_declarers_too_weak_for_their_raise() -> None:
    """Against a contract raised above its bid, a sample in which the declarer's hand (the
    talon taken, its gives made) is worth more than CONTRACT_SLACK less than the contract is
    rejected, the true deal never (the heuristic raises only to what its hand is worth), and
    the samples kept hold stronger declarers than those drawn."""
    bot = make_expert(1, contract_inference=True)
    turns = rejected = 0
    drawn_worth: list[int] = []
    kept_worth: list[int] = []
    for seed in range(200):
        for v, truth in _decisions("russian", seed):
            if v.phase is not Phase.PLAY or v.declarer == v.seat or not pimc_applies(v):
                continue
            assert v.declarer is not None and v.contract is not None
            assert v.bid is not None
            if v.contract <= v.bid:
                break  # the contract is the bid: nothing to infer
            assert bot._plausible(v, truth)
            sampler = Sampler(v, random.Random(seed))
            for d in filter(None, (sampler.draw() for _ in range(40))):
                hand = d.dealt[v.declarer] | d.talon
                for card in d.given:
                    if card >= 0:
                        hand &= ~(1 << card)
                worth = hand_estimate(hand, v.rules)
                drawn_worth.append(worth)
                beyond = _raised_beyond(v, d)
                assert beyond == (v.contract > worth + CONTRACT_SLACK)
                rejected += beyond
                if beyond:
                    assert not bot._plausible(v, d)
                else:
                    kept_worth.append(worth)
            turns += 1
            break
        if turns == 8:
            break
    assert turns == 8 and rejected
    assert sum(kept_worth) / len(kept_worth) > sum(drawn_worth) / len(drawn_worth)


def test_the_best_contract_is_worth_the_most_of_those_made_often_enough() -> None:
    """Five samples make at most 120, 120, 110, 100 and 95 of the amounts 100 to 120. The bid
    (made in 4 of 5) is worth 0.6 x 100 = 60; 105 and 110 (3 of 5) 21 and 22; 115 and 120 are
    made in 2 of 5, under the 60% threshold. A bid made in one sample of three is still the
    contract, at a loss; where every sample makes 120, 120 is named."""
    amounts = [100, 105, 110, 115, 120]
    assert _best_contract([120, 120, 110, 100, 95], amounts, 0.6) == pytest.approx((100, 60))
    assert _best_contract([120, 120, 110, 110, 95], amounts, 0.6) == pytest.approx((110, 66))
    assert _best_contract([95, 95, 100], [100, 110], 0.6) == pytest.approx((100, -100 / 3))
    assert _best_contract([120] * 3, amounts, 0.6) == (120, 120)


def test_passing_by_stake_gives_the_card_that_leaves_the_best_contract() -> None:
    """Seat 1 declares at 100 with the spades and the talon's 9, jack and king of spades and
    ponders its give to seat 0 with the true deal as its one sample. Of the four cards least
    worth keeping, each makes the bid; after the 9 or the jack of spades it makes 165 at
    most, after the king or the ten of clubs 180. By the share of the bid it gives the 9 of
    spades, the card least worth keeping; by the stake, the king of clubs."""
    state = DealState.new(
        template_rules("russian"),
        0,
        [
            cards(h)
            for h in ("9c Jc 9d Jd 9h Jh Qc", "Tc As Ts Kc Ks Qs Qd", "Ah Th Kh Qh Ad Td Ac")
        ],
        cards("9s Js Kd"),
    )
    for action in (bid(100), PASS, PASS):
        state = state.apply(action)
    assert state.phase is Phase.PASSING and state.to_act == 1
    v = view(state, 1)
    gives = [a for a in v.legal_actions if is_give(a) and give_parts(a)[1] == 0]
    mine = sorted(gives, key=lambda a: _give_value(give_parts(a)[0], v.hand or 0))[:4]
    assert [action_text(a) for a in mine] == ["give 9s 0", "give Js 0", "give Kc 0", "give Tc 0"]
    by_stake = PimcBot(1, pass_by_stake=True)
    values, made, count = by_stake._stakes_after([state.core()], mine)
    assert count == 1 and list(made.values()) == [1, 1, 1, 1]
    assert list(values.values()) == [165, 165, 180, 180]
    assert action_text(PimcBot(1)._pass(v, [state.core()], PASS)) == "give 9s 0"
    assert action_text(by_stake._pass(v, [state.core()], PASS)) == "give Kc 0"
    # seat 0 holds the queen of clubs: the king would complete its marriage (60), and with the
    # gift counted the ten of clubs (180) is worth more than the king (180 - 0.5 * 60)
    gift = PimcBot(1, pass_by_stake=True, marriage_gift=0.5)
    assert list(gift._marriage_gifts(v, [state.core()], mine).values()) == [0, 0, 60, 0]
    assert action_text(gift._pass(v, [state.core()], PASS)) == "give Tc 0"


PASSING_TEMPLATES = [
    t for t in PIMC_TEMPLATES if t not in ("tysiac-2p", "two-player-a", "four-player-a")
]


@pytest.mark.parametrize("template", PASSING_TEMPLATES)
def test_passing_by_stake_is_by_share_where_no_raise_follows(template: str) -> None:
    """At the first give of a deal heuristic bots play, with the true deal as the one sample:
    passing by stake gives a legal card, and where no raise follows the passing (the contract
    named before the talon, or none to name) the very card that passing by share gives."""
    for seed in range(1, 6):
        found = next(
            ((v, d) for v, d in _decisions(template, seed) if v.phase is Phase.PASSING), None
        )
        if found is not None:
            break
    assert found is not None
    v, d = found
    by_stake = PimcBot(1, pass_by_stake=True)._pass(v, [d.copy()], PASS)
    assert by_stake in v.legal_actions and is_give(by_stake)
    if not v.rules.contract_raise:
        assert by_stake == PimcBot(1)._pass(v, [d.copy()], PASS)
