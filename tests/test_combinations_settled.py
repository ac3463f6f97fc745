"""rules.md part 2, "Combinations settled": house rules that meet, each pinned in numbers.

A first cross under a multiplier costs nothing; a win in a golden deal ends the match before any
``golden.if_all_fail`` reset; raspasy's talon; a blind multiplier with score-plus-contract;
buyback outside 1.9; concession and buyback as one decision; and (part 2, four players) a sitting
dealer's talon score above ``scoring.only_bids_above``. The last-trick bonus in the raw contract
check is pinned in ``tests/test_parameters.py``
(``test_scoring_round_before_check_false_counts_the_last_trick_bonus``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from thousand.engine import DealState, Game, MatchState, Phase, settle
from thousand.engine.dealing import Dealt
from thousand.records import RecordError, read_record, record_of_game, replay, write_record
from thousand.rules import Rules, RulesError, template_rules
from thousand.rules.layout import Layout

from .positions import (
    DEAL_2A,
    apply,
    cards,
    events,
    hands_from_tricks,
    new_deal,
    outcome_of,
    play_tricks,
    russian,
    setup,
)


def game_of(
    rules: Rules,
    hands: Sequence[str],
    talon: str,
    moves: Sequence[str],
    totals: Sequence[int] | None = None,
    dealer: int = 0,
) -> Game:
    """A match of one deal from hand strings and record tokens."""
    sitter = Layout.of(rules).sitter(dealer)
    dealt = Dealt(tuple(cards(h) for h in hands), (cards(talon),), sitter=sitter)
    game = Game.start(rules, totals, dealer).new_deal(dealt)
    for move in moves:
        game = game.apply(move)
    return game


# -- a cross under a multiplier ----------------------------------------------------------------

# Seat 1 bids 120 (dealer 0), seat 0 doubles, and seat 1 takes 25: the defenders score 45 and 50.
CONTRA_HANDS = ("Kc Jc Ad Jd As Ts Qs", "9c Td Qd Th Kh Jh Js", "Ac Tc 9d Qh 9h Ks 9s")
CONTRA_TALON = "Qc Kd Ah"
CONTRA_MOVES = (
    *("120", "pass", "pass", "give Ah 2", "give Th 0", "contract 120", "contra"),
    *("Qd", "9d", "Ad", "Th", "Kh", "Ah", "9h", "Qs", "Jh", "Js", "Ks", "Ts"),
    *("As", "Kd", "9s", "Jd", "Td", "Tc", "9c", "Ac", "Kc", "Qh", "Jc", "Qc"),
)
CROSS_CONTRA = russian({"penalty.cross": True, "bidding.contra": "contra"})


def test_first_cross_under_contra_costs_nothing() -> None:
    game = game_of(CROSS_CONTRA, CONTRA_HANDS, CONTRA_TALON, CONTRA_MOVES)
    report = game.reports[-1]
    assert report.outcome.result == "failed" and report.outcome.scores == (45, -240, 50)
    assert report.changes == (45, 0, 50) and report.totals == (45, 0, 50)
    assert game.match.crosses == (0, 1, 0) and events(report) == []


def test_second_cross_under_contra_costs_the_cross_amount_alone() -> None:
    # decided: penalty.cross_amount is a penalty, not the contract's loss: nothing multiplies it
    out = game_of(CROSS_CONTRA, CONTRA_HANDS, CONTRA_TALON, CONTRA_MOVES).reports[-1].outcome
    for amount in (120, 50):
        rules = CROSS_CONTRA.with_overrides({"penalty.cross_amount": amount})
        match = MatchState.start(rules)
        match, _ = settle(match, out)
        match, report = settle(match, out)
        assert report.changes == (45, -amount, 50) and match.crosses == (0, 0, 0)
        assert events(report) == [(1, "cross-penalty")]


def test_first_cross_under_a_blind_bid_costs_nothing() -> None:
    rules = russian({"penalty.cross": True, "bidding.blind": "first-bid"})
    hands, talon, moves = setup(hands_from_tricks(DEAL_2A), bid=120, contract=120, rules=rules)
    moves[moves.index("120")] = "blind 120"
    state = play_tricks(apply(DealState.new(rules, 0, hands, talon), *moves), DEAL_2A)
    out = outcome_of(state)
    assert out.result == "failed" and out.blind and out.scores == (15, -240, 5)
    match, report = settle(MatchState.start(rules), out)
    assert report.changes == (15, 0, 5) and match.crosses == (0, 1, 0)


# Golden deal 1 (dealer 0): forehand, seat 1, declares 120 and fails; seat 0 scores 140.
GOLDEN_HANDS = ("Tc Jc Td Kd Qd 9h As", "Ac Kc 9c Ad 9d Ah 9s", "Qc Th Kh Qh Jh Ks Qs")
GOLDEN_TALON = "Jd Ts Js"
GOLDEN_MOVES = (
    *("give 9d 0", "give 9c 2", "contract 120"),
    *("Ts", "Ks", "As", "Qd+", "Ad", "Jh", "9s", "Qs", "Td", "Tc", "Ac", "9c"),
    *("Kc", "Qc", "Jc", "Ah", "Qh", "9h", "Js", "Th", "9d", "Kd", "Jd", "Kh"),
)


def test_first_cross_in_a_golden_doubled_deal_costs_nothing() -> None:
    rules = russian({"penalty.cross": True, "golden.deals": 1, "golden.contract_doubled": True})
    game = game_of(rules, GOLDEN_HANDS, GOLDEN_TALON, GOLDEN_MOVES)
    report = game.reports[-1]
    assert report.outcome.golden and report.outcome.scores == (140, -240, 0)
    assert report.changes == (140, 0, 0) and game.match.crosses == (0, 1, 0)


# -- a win in a golden deal -----------------------------------------------------------------------

GOLDEN_RESET = russian({"golden.deals": 1, "golden.if_all_fail": "reset"})


def test_a_win_in_the_last_failed_golden_deal_is_not_undone_by_the_reset() -> None:
    game = game_of(GOLDEN_RESET, GOLDEN_HANDS, GOLDEN_TALON, GOLDEN_MOVES, totals=(860, 0, 0))
    report = game.reports[-1]
    assert report.outcome.result == "failed" and report.outcome.deal_points == (140, 60, 0)
    assert report.changes == (140, -120, 0) and report.totals == (1000, -120, 0)
    assert events(report) == [(0, "win")]  # no golden-reset after it
    assert game.over and game.match.winner == 0
    with pytest.raises(ValueError, match="no deal may follow its win"):
        game.new_deal(Dealt(tuple(cards(h) for h in GOLDEN_HANDS), (cards(GOLDEN_TALON),)))
    # without the win, every golden deal failed still resets every total
    lost = game_of(GOLDEN_RESET, GOLDEN_HANDS, GOLDEN_TALON, GOLDEN_MOVES, totals=(700, 0, 0))
    assert lost.match.totals == (0, 0, 0) and lost.match.winner is None
    assert events(lost.reports[-1]) == [(0, "golden-reset")]


def test_a_record_with_a_deal_after_a_golden_win_is_refused_at_that_deal() -> None:
    game = game_of(GOLDEN_RESET, GOLDEN_HANDS, GOLDEN_TALON, GOLDEN_MOVES, totals=(860, 0, 0))
    record = record_of_game(game, "russian")
    assert replay(read_record(write_record(record))).game.match.winner == 0
    # a second deal, dealt by the next seat and not yet played: a match that goes on could hold it
    after = replace(record.deals[0], dealer=1, moves=())
    text = write_record(replace(record, deals=(*record.deals, after)))
    with pytest.raises(RecordError) as refused:
        replay(read_record(text))
    assert str(refused.value) == "deal 2: the match was already won; no deal may follow"


# -- the readings the project already played ------------------------------------------------------


def test_raspasy_deals_the_talon_one_card_each_from_forehand_lowest_first() -> None:
    # STD_TALON Kd Th 9h, in card order (clubs, diamonds, hearts, spades; 9 J Q K 10 A): Kd, 9h, Th
    rules = russian({"bidding.forced": "none", "redeal.all_pass": "raspasy"})
    dealt = new_deal(rules=rules, dealer=0)
    state = apply(dealt, "pass", "pass")
    got = [state.hands[s] & ~dealt.hands[s] for s in range(3)]
    assert got == [cards("Th"), cards("Kd"), cards("9h")]  # seat 1 is forehand
    assert [h.bit_count() for h in state.hands] == [8, 8, 8]


def test_blind_multiplier_with_score_plus_contract_multiplies_the_contract_only() -> None:
    rules = russian({"bidding.blind": "first-bid", "scoring.declarer_gains": "score-plus-contract"})
    hands, talon, moves = setup(hands_from_tricks(DEAL_2A), bid=100, contract=100, rules=rules)
    moves[moves.index("100")] = "blind 100"
    out = outcome_of(play_tricks(apply(DealState.new(rules, 0, hands, talon), *moves), DEAL_2A))
    # deal score 100, added once, plus the contract 100 times 2
    assert out.result == "made" and out.deal_points == (15, 100, 5)
    assert out.scores == (15, 100 + 2 * 100, 5)


BUYBACK = russian({"talon.buyback": True, "talon.buyback_cost": 5})


def bought_back() -> DealState:
    return apply(new_deal(rules=BUYBACK), "100", "pass", "pass", "buyback")


def test_buyback_cost_is_outside_the_running_total_steps() -> None:
    out = outcome_of(bought_back())
    # no dump truck: 560 - 5 lands on 555 and stays there
    match, report = settle(MatchState.start(BUYBACK, totals=(0, 560, 0)), out)
    assert report.totals == (0, 555, 0) and report.events == ()
    # a seat on the barrel uses up no barrel deal: the cost comes straight off its total
    on = replace(
        MatchState.start(BUYBACK, totals=(0, 880, 0)),
        on_barrel=(False, True, False),
        barrel_left=(0, 2, 0),
        mounted=(-1, 1, -1),
    )
    match, report = settle(on, out)
    assert report.changes == (0, -5, 0) and report.totals == (0, 875, 0)
    assert match.barrel_left == (0, 2, 0) and match.falls == (0, 0, 0) and report.events == ()
    # the same dealer deals again
    assert match.dealer == on.dealer


def test_buyback_with_partnerships_costs_the_side_total() -> None:
    # four-player-b: seat 0 deals and sits out; seat 1 bids and buys back; seats 1 and 3 share
    # one total, so both lose the cost; seat 1's change shows it
    rules = template_rules("four-player-b").with_overrides({"talon.buyback": True})
    hands = ("", "Ks Qs Ts Js Ad Qc Jh", "Ah Kh Qh Qd 9c Jc 9s", "Ac Tc Kc Td Jd 9d As")
    dealt = DealState.new(rules, 0, [cards(h) for h in hands], cards("Kd Th 9h"))
    out = outcome_of(apply(dealt, "100", "pass", "pass", "buyback"))
    assert (out.result, out.declarer, out.scores) == ("redealt", 1, (0, -50, 0, 0))
    match, report = settle(MatchState.start(rules, totals=(100, 200, 100, 200)), out)
    assert report.changes == (0, -50, 0, 0) and report.totals == (100, 150, 100, 150)
    assert match.totals == report.totals and match.dealer == 0


def test_concession_and_buyback_are_one_decision() -> None:
    rules = russian(
        {
            "talon.buyback": True,
            "bidding.forced_concession": "equal-split",
        }
    )
    state = apply(new_deal(rules=rules), "pass", "pass")  # the forced dealer, seat 0
    assert (state.phase, state.to_act) == (Phase.CONCESSION, 0)
    assert state.legal_moves() == ["concede", "buyback", "pass"]
    assert not state.talon_shown
    # one answer ends the decision: after pass, neither is offered again
    assert "buyback" not in apply(state, "pass").legal_moves()


# -- four players: the sitting dealer above scoring.only_bids_above --------------------------------

SITTER_HANDS = ("", "Ac Kc 9c Ad 9d Ah 9s", "Qc Th Kh Qh Jh Ks Qs", "Tc Jc Td Kd Qd 9h As")
SITTER_TALON = "Jd Ts Js"
SITTER_MOVES = (
    *("100", "105", "110", "115", "120", "pass", "pass", "give Qc 1", "give Jd 3", "contract 120"),
    *("Ts", "As", "9s", "Kd+", "Ad", "Ks", "Kc+", "Qs", "Tc", "9h", "Ah", "Th"),
    *("9d", "Js", "Td", "Qd", "Ac", "Kh", "Qc", "Qh", "Jc", "9c", "Jh", "Jd"),
)


def test_sitting_dealer_scores_the_talon_above_only_bids_above() -> None:
    rules = template_rules("four-player").with_overrides({"scoring.only_bids_above": 800})
    game = game_of(rules, SITTER_HANDS, SITTER_TALON, SITTER_MOVES, totals=(850, 850, 0, 0))
    report = game.reports[-1]
    # seat 0 sits out and scores its talon, Jd Ts Js: 14, rounded 15
    assert report.outcome.sitter == 0 and report.outcome.deal_points == (15, 130, 0, 130)
    # seat 1, a defender above 800, gains nothing; the sitter above 800 keeps its talon score
    assert report.changes == (15, 0, -120, 130)
    assert report.totals == (865, 850, -120, 130)


# -- combinations that the random house-rule test found --------------------------------------------


def test_golden_contract_must_be_one_a_move_can_name() -> None:
    # game.target 5000 with the barrel at 880 would make a golden contract of 4120; the engine's
    # moves name contracts up to 999
    with pytest.raises(RulesError) as refused:
        russian({"golden.deals": 1, "game.target": 5000})
    assert str(refused.value) == (
        "rules golden.deals = 1 needs a golden contract of at most 999, but game.target = 5000"
        " minus barrel.threshold = 880 makes it 4120"
    )
    top = russian({"golden.deals": 1, "game.target": 1879})
    state = (
        Game.start(top)
        .new_deal(Dealt(tuple(cards(h) for h in GOLDEN_HANDS), (cards(GOLDEN_TALON),)))
        .deal
    )
    assert state is not None and (state.declarer, state.contract) == (1, 999)
    assert "contract 999" in apply(state, "give 9d 0", "give 9c 2").legal_moves()
