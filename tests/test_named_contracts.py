"""rules.md part 2, named contracts: ``special.misere``, ``special.slam`` and
``special.open_hand`` (moves ``misere``, ``slam``, ``open``), pinned in numbers: the auction's
ranking, the play, the scoring, views, records and the fast path."""

from __future__ import annotations

import pytest

from thousand.cli.play import ordered_moves
from thousand.engine import DealState, Game, IllegalAction
from thousand.engine.actions import MISERE, NAMED_AMOUNT, OPEN, SLAM, action_text, bid, parse_action
from thousand.engine.deal import Deal
from thousand.engine.dealing import Dealt
from thousand.engine.views import view
from thousand.records.model import read_record, write_record
from thousand.records.replay import replay
from thousand.records.writer import record_of_game
from thousand.rules import Rules

from .positions import (
    DEAL_2A,
    STD_HANDS,
    STD_TALON,
    apply,
    cards,
    hands_from_tricks,
    new_deal,
    outcome_of,
    play_tricks,
    russian,
    setup,
)

NAMED = russian({"special.misere": 120, "special.open_hand": 150, "special.slam": 300})

# seat 1 takes every trick (no defender holds a spade; Ah and Th are the top hearts)
SLAM_DEAL = (
    "1: As Ad Ac",
    "1: Ts Td Tc",
    "1: Ks Kd Kc",
    "1: Qs Qd Qc",
    "1: Js Jd Jc",
    "1: 9s 9d 9c",
    "1: Ah 9h Qh",
    "1: Th Jh Kh",
)

# seat 1 takes no trick: seat 0 wins every one
MISERE_DEAL = (
    "1: 9s Qc As",
    "0: Ts Js Kc",
    "0: Ah 9h Qd",
    "0: Th Jh Kd",
    "0: Ks 9c Tc",
    "0: Qs Jc Ac",
    "0: Kh 9d Td",
    "0: Qh Jd Ad",
)


def named_moves(
    tricks: tuple[str, ...], word: str, rules: Rules = NAMED
) -> tuple[list[int], int, list[str]]:
    """Seat 1 wins the auction with ``word``; no contract move follows a named bid."""
    hands, talon, moves = setup(hands_from_tricks(tricks), bid=100, rules=rules)
    moves[moves.index("100")] = word
    return hands, talon, [m for m in moves if not m.startswith("contract")]


def named_deal(tricks: tuple[str, ...], word: str, rules: Rules = NAMED) -> DealState:
    hands, talon, moves = named_moves(tricks, word, rules)
    state = apply(DealState.new(rules, 0, hands, talon), *moves)
    return play_tricks(state, tricks)


def test_named_bids_outrank_every_number_in_order() -> None:
    state = new_deal(rules=NAMED)
    moves = state.legal_moves()
    assert moves[-4:] == ["misere", "open", "slam", "pass"] and "120" in moves
    state = state.apply("misere")
    assert state.legal_moves() == ["open", "slam", "pass"]
    with pytest.raises(IllegalAction, match="bid 120 is below the named bid misere"):
        state.apply("120")
    state = state.apply("slam")
    assert state.legal_moves() == ["pass"]
    with pytest.raises(IllegalAction, match=r"open does not outrank the current bid slam"):
        state.apply("open")
    state = apply(state, "pass", "pass")
    assert state.declarer == 2 and state.named == "slam" and state.bid == state.contract == 300
    auction = view(state, 0).to_json()["auction"]
    assert [(e["seat"], e["move"], e["action"]["kind"]) for e in auction] == [
        (1, "misere", "named"),
        (2, "slam", "named"),
        (0, "pass", "pass"),
        (1, "pass", "pass"),
    ]


def test_named_bids_only_where_the_table_plays_them() -> None:
    assert not {"misere", "open", "slam"} & set(new_deal().legal_moves())
    with pytest.raises(
        IllegalAction, match=r"no misere bid at this table \(`special.misere` none\)"
    ):
        new_deal().apply("misere")
    only_slam = russian({"special.slam": 250})
    assert new_deal(rules=only_slam).legal_moves()[-2:] == ["slam", "pass"]
    with pytest.raises(IllegalAction, match=r"`special.open_hand` none"):
        new_deal(rules=only_slam).apply("open")


def test_slam_made_and_failed() -> None:
    made = outcome_of(named_deal(SLAM_DEAL, "slam"))
    assert made.result == "made" and made.scores == (0, 300, 0)
    # DEAL_2A: seat 0 takes the last trick; the defenders keep their points (15 and 5)
    failed = outcome_of(named_deal(DEAL_2A, "slam"))
    assert failed.result == "failed" and failed.scores == (15, -300, 5)
    # play.slam's bonus is for number contracts only
    bonus = russian({"special.slam": 300, "play.slam": "fixed"})
    assert outcome_of(named_deal(SLAM_DEAL, "slam", bonus)).scores == (0, 300, 0)


def test_misere_made_failed_and_no_marriage() -> None:
    made = outcome_of(named_deal(MISERE_DEAL, "misere"))
    assert made.result == "made" and made.scores == (120, 120, 0)
    failed = outcome_of(named_deal(DEAL_2A, "misere"))
    assert failed.result == "failed" and failed.scores == (15, -120, 5)
    # DEAL_2A: after two tricks seat 1 leads holding Ks Qs; misère declares no marriage
    hands, talon, moves = named_moves(DEAL_2A, "misere")
    state = play_tricks(apply(DealState.new(NAMED, 0, hands, talon), *moves), DEAL_2A[:2])
    assert state.to_act == 1 and "Ks" in state.legal_moves()
    assert not [m for m in state.legal_moves() if m.endswith("+")]
    with pytest.raises(
        IllegalAction, match="seat 1 plays misère: the declarer declares no marriage"
    ):
        state.apply("Ks+")
    # the same position at a number contract offers the marriage
    hands, talon, moves = setup(hands_from_tricks(DEAL_2A), bid=100, rules=NAMED)
    plain = play_tricks(apply(DealState.new(NAMED, 0, hands, talon), *moves), DEAL_2A[:2])
    assert "Ks+" in plain.legal_moves()


def test_open_hand_is_made_like_bidding_min_and_shown_to_all() -> None:
    made = outcome_of(named_deal(DEAL_2A, "open"))  # seat 1 scores 100 = bidding.min
    assert made.result == "made" and made.scores == (15, 150, 5)
    higher = russian({"special.open_hand": 150, "bidding.min": 110})
    failed = outcome_of(named_deal(DEAL_2A, "open", higher))
    assert failed.result == "failed" and failed.scores == (15, -150, 5)
    state = new_deal(rules=NAMED)
    state = state.apply("open")
    assert all(view(state, s).open_hand is None for s in (0, 1, 2, None))
    state = apply(state, "pass", "pass")
    assert state.declarer == 1 and state.named == "open"
    for seat in (0, 1, 2, None):
        shown = view(state, seat)
        assert shown.open_hand == state.hands[1] and shown.named == "open"
        assert shown.to_json()["open_hand"] == shown.to_json()["hand"] if seat == 1 else True
    # a misère or slam declarer's hand stays hidden
    slam = apply(new_deal(rules=NAMED), "slam", "pass", "pass")
    assert view(slam, 0).open_hand is None and view(slam, None).to_json()["open_hand"] is None
    assert view(slam, None).to_json()["named"] == "slam"


def test_no_contract_move_after_a_named_bid() -> None:
    hands, talon, moves = named_moves(DEAL_2A, "slam")
    state = apply(DealState.new(NAMED, 0, hands, talon), *moves)
    assert state.to_act == 1 and not [m for m in state.legal_moves() if "contract" in m]
    with pytest.raises(IllegalAction):
        state.apply("contract 300")


def test_named_actions_text_and_fast_path() -> None:
    assert [parse_action(w) for w in ("misere", "open", "slam")] == [MISERE, OPEN, SLAM]
    assert [action_text(a) for a in (MISERE, OPEN, SLAM)] == ["misere", "open", "slam"]
    # the auction's amounts rebuild the named actions (as the sampler does)
    assert [bid(NAMED_AMOUNT + k) for k in (1, 2, 3)] == [MISERE, OPEN, SLAM]
    deal = Deal.new(NAMED, 0, [cards(h) for h in STD_HANDS], cards(STD_TALON))
    deal.apply(MISERE)
    assert deal.high_bid == NAMED_AMOUNT + 1 and deal.named == 0
    copy = deal.copy()
    copy.apply(parse_action("pass"))
    copy.apply(parse_action("pass"))
    assert copy.named == 1 and copy.declarer == 1 and copy.contract == 120 and deal.named == 0


def test_named_record_round_trip() -> None:
    hands, talon, moves = named_moves(SLAM_DEAL, "slam")
    tokens = [t for trick in SLAM_DEAL for t in trick.split(":")[1].split()]
    game = Game.start(NAMED, dealer=0).new_deal(Dealt(tuple(hands), (talon,)))
    for move in (*moves, *tokens):
        game = game.apply(move)
    assert game.match.totals == (0, 300, 0)
    text = write_record(record_of_game(game, "russian"))
    assert '"slam"' in text
    assert replay(read_record(text)).game.match.totals == (0, 300, 0)


def test_named_bids_in_the_line_game() -> None:
    state = new_deal(rules=NAMED, dealer=2)  # seat 0 is forehand
    moves = [action_text(a) for a in ordered_moves(view(state, 0))]
    assert moves[0] == "pass" and moves[-3:] == ["misere", "open", "slam"]
