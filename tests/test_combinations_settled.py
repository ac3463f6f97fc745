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

from thousand.engine import DealState, Game, MatchState, settle
from thousand.records import RecordError, read_record, record_of_game, replay, write_record
from thousand.rules import Rules, template_rules

from .positions import (
    DEAL_2A,
    apply,
    cards,
    events,
    hands_from_tricks,
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
    game = Game.start(rules, totals, dealer).new_deal([cards(h) for h in hands], cards(talon))
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
        game.new_deal([cards(h) for h in GOLDEN_HANDS], cards(GOLDEN_TALON))
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
