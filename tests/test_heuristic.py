"""The heuristic bot (level medium): legal everywhere, and the rules of thumb it promises."""

from __future__ import annotations

import random

import pytest

from tests.positions import after_passing, cards, play, play_tricks
from thousand.bots import Limit, make_bot
from thousand.bots.arena import ArenaConfig, run_arena
from thousand.bots.heuristic import HeuristicBot, hand_estimate
from thousand.cards import KING, QUEEN, mask_of, parse_card, parse_cards
from thousand.engine import DealState, Game, Phase
from thousand.engine.actions import (
    PASS,
    WRITE_OFF,
    action_text,
    bid,
    give_parts,
    is_contract,
    parse_action,
)
from thousand.engine.views import game_view, view
from thousand.rules import template_rules

TEMPLATES = ("russian", "russian-classic", "ukrainian", "tysiac")
RUSSIAN = template_rules("russian")


@pytest.mark.parametrize("template", TEMPLATES)
def test_plays_every_template_legally(template: str) -> None:
    rules = template_rules(template)
    rng = random.Random(template)
    bots = [HeuristicBot(s) for s in range(3)]
    game = Game.start(rules)
    for _ in range(30):
        if game.over:
            break
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            v = game_view(game, seat)
            action = bots[seat].choose(v, Limit())
            assert action in v.legal_actions
            game = game.apply(action)


def deal_for(hand: str, seat: int = 1) -> DealState:
    """A russian deal (dealer 0) in which ``seat`` holds ``hand``; the rest dealt in order."""
    mine = cards(hand)
    rest = [c for c in range(24) if not mine >> c & 1]
    hands = [0, 0, 0]
    hands[seat] = mine
    others = [s for s in range(3) if s != seat]
    hands[others[0]] = mask_of(rest[:7])
    hands[others[1]] = mask_of(rest[7:14])
    return DealState.new(RUSSIAN, 0, hands, mask_of(rest[14:]))


def test_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    bot = HeuristicBot()
    strong = deal_for("Ah Th Kh Qh Ad Td Ac")
    assert bot.choose(view(strong, 1)) == bid(100)
    weak = deal_for("9c Jc 9d Jd Qs 9s Js")
    assert bot.choose(view(weak, 1)) == PASS


@pytest.mark.parametrize("template", ["russian", "tysiac", "estonian"])
def test_the_bid_limit_is_the_highest_amount_the_bid_share_allows(template: str) -> None:
    """bid_limit(hand) is the bid share's rule turned round: 60% of the drawn talons make the
    hand worth its limit plus 5, and fewer than 60% make it worth one point more."""
    bot = HeuristicBot()
    rules = template_rules(template)
    for seed in range(40):
        state = DealState.shuffled(rules, 0, random.Random(seed))
        seat = state.to_act
        assert seat is not None
        v = view(state, seat)
        assert v.hand is not None
        limit = bot.bid_limit(v.hand, rules, len(v.active) - 1)
        assert bot.bid_share(v, limit) >= 0.6 > bot.bid_share(v, limit + 1)


def test_the_estimate_counts_aces_tens_and_marriages() -> None:
    plain = hand_estimate(cards("Ac Tc Ad 9d Jd 9s Js Qs"), RUSSIAN)
    married = hand_estimate(cards("Ac Tc Ad Kh Qh 9s Js Qs"), RUSSIAN)
    junk = hand_estimate(cards("9c Jc 9d Jd 9s Js Qs Kd"), RUSSIAN)
    assert junk < plain < married
    assert married - plain >= 80  # the hearts marriage (100), with an ace to win a trick first


def passing_state(dealt: str, talon: str) -> DealState:
    """Seat 1 (forehand) wins the auction at 100 and has taken the talon."""
    mine = cards(dealt)
    rest = [c for c in range(24) if not (mine | cards(talon)) >> c & 1]
    hands = [mask_of(rest[:7]), mine, mask_of(rest[7:])]
    state = DealState.new(RUSSIAN, 0, hands, cards(talon))
    for move in ["100", "pass", "pass"]:
        state = state.apply(move)
    assert state.phase is Phase.PASSING
    return state


def test_passes_keep_the_marriage_and_build_a_void() -> None:
    state = passing_state("Ah Kh Qh Ad Td Ac 9s", "Js 9c Jh")
    bot = HeuristicBot()
    given = []
    while state.phase is Phase.PASSING:
        action = bot.choose(view(state, 1))
        assert action != WRITE_OFF
        given.append(give_parts(action)[0])
        state = state.apply(action)
    assert sorted(given) == sorted(parse_cards("9s Js"))  # the spades go: a void in spades
    assert state.hands[1] & cards("Kh Qh") == cards("Kh Qh")


def test_writes_off_a_hopeless_contract() -> None:
    """The forced dealer with nothing at all gives the deal up."""
    hands = [
        cards("9c Jc 9d Jd 9s Js 9h"),
        cards("Ac Tc Ad Td Ah Th As"),
        cards("Kc Qc Kd Qd Kh Qh Ks"),
    ]
    state = DealState.new(RUSSIAN, 0, hands, cards("Jh Qs Ts"))
    for move in ["pass", "pass"]:  # forehand and middlehand pass: the dealer plays 100
        state = state.apply(move)
    assert state.declarer == 0 and state.phase is Phase.PASSING
    assert HeuristicBot().choose(view(state, 0)) == WRITE_OFF


def test_raises_when_the_talon_completed_a_marriage() -> None:
    state = passing_state("Ah Th Kh Ad Td Ac Tc", "Qh 9s Js")
    bot = HeuristicBot()
    while state.phase is Phase.PASSING:
        state = state.apply(bot.choose(view(state, 1)))
    assert state.phase is Phase.CONTRACT
    action = bot.choose(view(state, 1))
    assert is_contract(action)
    assert action_text(action) != "contract 100"
    assert int(action_text(action).split()[1]) >= 150


def test_declares_a_marriage_as_soon_as_it_may() -> None:
    state = after_passing(
        ["Tc Jc Qc Jd 9d Jh 9h Js", "Ac 9c Ad Td Kh Qh As Ts", "Kc Kd Qd Ah Th Ks Qs 9s"]
    )
    state = play_tricks(state, ["1: Ad Kd Jd"])
    action = HeuristicBot().choose(view(state, 1))
    assert action_text(action) == "Qh+"


FINAL = ["Tc Jc Qc Jd 9d Jh 9h Js", "Ac 9c Ad Td Kh Qh As Ts", "Kc Kd Qd Ah Th Ks Qs 9s"]


def test_defender_throws_its_least_into_a_lost_trick() -> None:
    # Seat 1 leads the ace of diamonds, seat 2 follows; seat 0 (last) holds Jd and 9d.
    state = play(after_passing(FINAL), "Ad Qd")
    assert HeuristicBot().choose(view(state, 0)) == parse_action("9d")


def test_defender_gives_points_to_its_partner() -> None:
    # Seat 1 leads Kh, seat 2 takes it with the ace; seat 0 (last) adds the jack, not the nine.
    state = play(after_passing(FINAL), "Kh Ah")
    assert HeuristicBot().choose(view(state, 0)) == parse_action("Jh")


def test_is_fast_and_registered_as_medium() -> None:
    bot = make_bot("medium", 1)
    assert bot.name == "heuristic"
    assert isinstance(bot, HeuristicBot)
    assert make_bot("heuristic", 1).name == "heuristic"


def test_beats_random_in_duplicate_deals() -> None:
    result = run_arena(ArenaConfig(bots=("medium", "easy"), deals=40, seed=3))
    low, _high = result["paired_difference"]["ci95"]
    assert low > 0
    assert result["bots"][0]["make_rate"] > result["bots"][1]["make_rate"]


def test_keeps_the_queen_and_king_apart_from_passing() -> None:
    assert KING - QUEEN == 1
    assert parse_card("Kh") - parse_card("Qh") == 1
