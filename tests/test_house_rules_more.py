"""rules.md part 2: more house rules, each pinned in numbers: ``barrel.reverse`` (the mirror
barrel) with ``barrel.reverse_fallback``; ``bidding.blind`` with ``bidding.blind_multiplier``
and ``penalty.sticks_doubled`` blind and both."""

from __future__ import annotations

from dataclasses import replace

import pytest

from thousand.bots import RandomBot, derive_seed
from thousand.cli.play import ordered_moves, play
from thousand.engine import DealState, Game, IllegalAction, MatchState, settle
from thousand.engine.actions import BLIND, MoveSyntaxError, action_text, parse_action
from thousand.engine.deal import Deal
from thousand.engine.dealing import Dealt
from thousand.engine.views import MatchInfo, view
from thousand.records.model import Record, RecordError, read_record, write_record
from thousand.records.replay import replay
from thousand.records.writer import record_of_game
from thousand.rules import Rules

from .positions import (
    DEAL_2A,
    STD_HANDS,
    STD_TALON,
    apply,
    cards,
    events,
    hands_from_tricks,
    new_deal,
    outcome_of,
    play_tricks,
    played,
    russian,
    setup,
)

REVERSE = russian({"barrel.reverse": True})


def test_reverse_barrel_mount_is_exactly_minus_threshold() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, report = settle(match, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals == (-880, 40, 60) and report.changes == (-80, 40, 60)
    assert match.on_barrel == (True, False, False) and match.barrel_left[0] == 3
    assert events(report) == [(0, "reverse-barrel-on")]
    # the view tells the mirror barrel by its negative total
    assert MatchInfo.of(match).on_barrel[0] and MatchInfo.of(match).totals[0] == -880
    # without the rule the total just goes on down
    plain = MatchState.start(russian(), totals=(-800, 0, 0))
    plain, report = settle(plain, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals == (-900, 40, 60) and not plain.on_barrel[0] and not events(report)


def test_reverse_barrel_frozen_then_falls_to_fallback() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    # a gain does not lift it, a loss below 120 does not sink it: each uses up a deal
    match, report = settle(match, played([100, 10, 10], declarer=0))
    assert report.totals[0] == -880 and report.changes[0] == 0 and match.barrel_left[0] == 2
    match, report = settle(match, played([50, 60, 10], declarer=1))
    assert report.totals[0] == -880 and match.barrel_left[0] == 1
    match, report = settle(match, played([-100, 60, 60], declarer=0, made=False))
    assert report.totals[0] == -760 and not match.on_barrel[0]
    assert report.changes[0] == 120 and events(report) == [(0, "reverse-barrel-fall")]
    assert match.falls[0] == 0  # a mirror fall is not a fall of the three-falls reset
    # barrel.reverse_fallback sets where it drops
    rules = russian({"barrel.reverse": True, "barrel.reverse_fallback": -500, "barrel.deals": 1})
    match = MatchState.start(rules, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    match, report = settle(match, played([20, 40, 60], declarer=1))
    assert report.totals[0] == -500 and events(report) == [(0, "reverse-barrel-fall")]


def test_reverse_barrel_losing_ends_the_match() -> None:
    match = MatchState.start(REVERSE, totals=(-800, 300, 200))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    # losing 120 or more on the mirror barrel: minus the target, the match is lost and over
    match, report = settle(match, played([-120, 40, 60], declarer=0, contract=120, made=False))
    assert report.totals == (-1000, 380, 320)
    assert events(report) == [(0, "lose"), (1, "win")]
    assert match.over and match.winner == 1
    # straight past minus the target from off the barrel: no mounting, lost at once
    match = MatchState.start(REVERSE, totals=(-870, 300, 300))
    match, report = settle(match, played([-160, 40, 20], declarer=0, contract=160, made=False))
    assert report.totals == (-1030, 340, 320) and match.winner == 1
    # a tie for the highest total: the declarer's unless it is not among them, then the lower
    match = MatchState.start(REVERSE, totals=(-899, 300, 320))
    match, report = settle(match, played([-200, 20, 0], declarer=0, contract=200, made=False))
    assert report.totals == (-1099, 320, 320)
    assert match.winner == 1 and events(report) == [(0, "lose"), (1, "win")]
    start = (-870, 300, 200)
    deal = played([-150, 20, 120], declarer=2, contract=120)  # a hand-built loss of 150
    match, report = settle(MatchState.start(REVERSE, totals=start), deal)
    assert report.totals == (-1020, 320, 320) and match.winner == 2
    highest = russian({"barrel.reverse": True, "game.tiebreak": "highest"})
    match, report = settle(MatchState.start(highest, totals=start), deal)
    assert match.winner == 1


def test_reverse_barrel_gain_of_120_on_the_barrel_is_frozen() -> None:
    # the mirror is frozen both ways: even a gain of 120 leaves it at minus the threshold
    match = MatchState.start(REVERSE, totals=(-800, 0, 0))
    match, _ = settle(match, played([-100, 40, 60], declarer=0, made=False))
    match, report = settle(match, played([120, 0, 0], declarer=0, contract=120))
    assert report.totals[0] == -880 and match.on_barrel[0] and match.barrel_left[0] == 2


def test_reverse_barrel_riders_coexist_with_each_other_and_the_barrel() -> None:
    match = MatchState.start(REVERSE, totals=(-800, -820, 850))
    match, report = settle(match, played([-100, -60, 40], declarer=0, made=False))
    assert report.totals == (-880, -880, 880)
    assert match.on_barrel == (True, True, True)
    assert events(report) == [(0, "reverse-barrel-on"), (1, "reverse-barrel-on"), (2, "barrel-on")]
    # two seats mounting the ordinary barrel together still collide (1.9 step 4): the lower
    # seat stays, the other drops to 760; the mirror rider takes no part
    match = MatchState.start(REVERSE, totals=(-880 + 10, 870, 850))
    match, report = settle(match, played([-20, 20, 40], declarer=0, made=False))
    assert report.totals == (-880, 880, 760)
    assert match.on_barrel == (True, True, False)
    assert events(report) == [
        (0, "reverse-barrel-on"),
        (1, "barrel-on"),
        (2, "barrel-on"),
        (2, "barrel-knocked-off"),
    ]


def test_reverse_barrel_dump_truck_at_minus_555() -> None:
    rules = russian({"barrel.reverse": True, "game.dump_truck": "both"})
    match = MatchState.start(rules, totals=(-455, 0, 0))
    match, report = settle(match, played([-100, 40, 60], declarer=0, made=False))
    assert report.totals[0] == 0 and events(report) == [(0, "dump-truck")]


def _record(rules: dict[str, object], totals: tuple[int, ...]) -> Record:
    return Record(variant="russian", rules=tuple(rules.items()), start_totals=totals)


def test_reverse_barrel_record_start_totals() -> None:
    rules: dict[str, object] = {"barrel.reverse": True}
    assert replay(_record(rules, (-879, 0, 0))).game.match.totals == (-879, 0, 0)
    with pytest.raises(RecordError) as err:
        replay(_record(rules, (0, -880, 0)))
    assert str(err.value) == (
        "record: start.totals gives seat 1 -880, not above the mirror barrel -880"
    )
    # without the rule a total may start anywhere below the barrel
    assert replay(_record({}, (0, -880, 0))).game.match.totals == (0, -880, 0)


# -- bidding.blind -------------------------------------------------------------------------

BLIND_RULES = russian({"bidding.blind": "first-bid"})


def test_blind_bids_are_a_seats_first_move_only() -> None:
    state = new_deal(rules=BLIND_RULES)
    assert state.legal_moves() == [
        *("100", "105", "110", "115", "120"),
        *("blind 100", "blind 105", "blind 110", "blind 115", "blind 120"),
        "pass",
    ]
    # seat 1 bids openly; seat 2 (not spoken yet) may still bid blind, seat 1 may not later
    state = apply(state, "100")
    assert "blind 105" in state.legal_moves() and "blind 100" not in state.legal_moves()
    state = apply(state, "blind 105", "pass")
    assert state.to_act == 1
    assert state.legal_moves() == ["110", "115", "120", "pass"]
    with pytest.raises(IllegalAction) as err:
        state.apply("blind 110")
    assert str(err.value).endswith(
        "seat 1 has spoken already: only a seat's first bid may be blind"
    )
    # without the rule there is no blind move
    assert not [m for m in new_deal().legal_moves() if m.startswith("blind")]
    with pytest.raises(IllegalAction, match=r"no blind bids at this table \(`bidding.blind` off\)"):
        new_deal().apply("blind 100")


def test_blind_bid_limits_and_messages() -> None:
    with pytest.raises(IllegalAction, match="blind 95 is below the lowest bid 100"):
        new_deal(rules=BLIND_RULES).apply("blind 95")
    with pytest.raises(IllegalAction, match="blind 125 is above 120, the highest bid"):
        new_deal(rules=BLIND_RULES).apply("blind 125")
    # under a marriage cap a blind bid goes up to 120 only, whatever the hand holds
    capped = russian(
        {"bidding.blind": "first-bid", "bidding.max": 300, "bidding.marriage_cap": "needs-marriage"}
    )
    state = new_deal(rules=capped)  # seat 1 holds the hearts marriage
    moves = state.legal_moves()
    assert "300" in moves and "blind 120" in moves and "blind 125" not in moves
    with pytest.raises(IllegalAction, match="blind 125 is above 120, the highest blind bid"):
        state.apply("blind 125")
    with pytest.raises(MoveSyntaxError, match="blind bids go up to 499"):
        parse_action("blind 500")
    assert parse_action("blind 120") == BLIND + 120


def test_blind_bid_in_the_fast_path() -> None:
    deal = Deal.new(BLIND_RULES, 0, [cards(h) for h in STD_HANDS], cards(STD_TALON))
    deal.apply(parse_action("blind 110"))
    assert deal.blinds == 0b010 and deal.high_bid == 110 and deal.to_act == 2
    copy = deal.copy()
    copy.apply(parse_action("115"))
    assert copy.blinds == 0b010 and deal.high_bid == 110


def blind_deal(tricks: tuple[str, ...], bid: int, rules: Rules, blind: bool = True) -> DealState:
    """A scripted deal (seat 1 declares at ``bid``, blind or not), played out."""
    hands, talon, moves = setup(hands_from_tricks(tricks), bid=bid, contract=bid, rules=rules)
    if blind:
        moves[moves.index(str(bid))] = f"blind {bid}"
    state = apply(DealState.new(rules, 0, hands, talon), *moves)
    return play_tricks(state, tricks)


def test_blind_contract_is_multiplied() -> None:
    # DEAL_2A: seat 1 scores 100, the defenders 15 and 5
    made = outcome_of(blind_deal(DEAL_2A, 100, BLIND_RULES))
    assert made.result == "made" and made.blind and made.scores == (15, 200, 5)
    plain = outcome_of(blind_deal(DEAL_2A, 100, BLIND_RULES, blind=False))
    assert not plain.blind and plain.scores == (15, 100, 5)
    failed = outcome_of(blind_deal(DEAL_2A, 120, BLIND_RULES))
    assert failed.result == "failed" and failed.scores == (15, -240, 5)
    triple = russian({"bidding.blind": "first-bid", "bidding.blind_multiplier": 3})
    assert outcome_of(blind_deal(DEAL_2A, 100, triple)).scores == (15, 300, 5)
    # with a contra too, the factors multiply: 100 x 2 x 2
    contra = russian({"bidding.blind": "first-bid", "bidding.contra": "contra"})
    hands, talon, moves = setup(hands_from_tricks(DEAL_2A), bid=100, contract=100, rules=contra)
    moves[moves.index("100")] = "blind 100"
    state = apply(DealState.new(contra, 0, hands, talon), *moves, "contra")
    assert outcome_of(play_tricks(state, DEAL_2A)).scores == (15, 400, 5)


def test_blind_contract_only_when_the_blind_bid_wins() -> None:
    state = new_deal(rules=BLIND_RULES)
    state = apply(state, "blind 100", "105", "pass", "pass")
    assert state.declarer == 2 and not state.blind_contract and state.blinds == 0b010
    # the talon: shown to all after an open win, hidden from the defenders after a blind win
    assert view(state, 0).talon == state.talon and view(state, None).talon == state.talon
    state = apply(new_deal(rules=BLIND_RULES), "blind 100", "pass", "pass")
    assert state.declarer == 1 and state.blind_contract
    assert view(state, 1).talon == state.talon
    assert view(state, 0).talon is None and view(state, 2).talon is None
    assert view(state, None).talon is None
    # the auction is public, the blind bid shown as such
    assert [{k: e[k] for k in ("seat", "move")} for e in view(state, 0).to_json()["auction"]] == [
        {"seat": 1, "move": "blind 100"},
        {"seat": 2, "move": "pass"},
        {"seat": 0, "move": "pass"},
    ]
    assert view(state, 0).to_json()["auction"][0]["action"] == {
        "token": "blind 100",
        "kind": "blind",
        "amount": 100,
    }
    assert view(state, 2).blind_bids == 0b010


def test_blind_record_round_trip() -> None:
    hands, talon, moves = setup(
        hands_from_tricks(DEAL_2A), bid=100, contract=100, rules=BLIND_RULES
    )
    moves[moves.index("100")] = "blind 100"
    tokens = [t for trick in DEAL_2A for t in trick.split(":")[1].split()]
    game = Game.start(BLIND_RULES, dealer=0).new_deal(Dealt(tuple(hands), (talon,)))
    for move in (*moves, *tokens):
        game = game.apply(move)
    assert game.match.totals == (15, 200, 5)
    record = record_of_game(game, "russian")
    text = write_record(record)
    assert '"blind 100"' in text
    again = replay(read_record(text))
    assert again.game.match.totals == (15, 200, 5)


def test_sticks_doubled_blind_and_both() -> None:
    deal = played([0, 100, 20], declarer=1, tricks=(0, 6, 2))  # seat 0 takes no trick
    for mode, blind, golden, sticks in [
        ("blind", True, False, 2),
        ("blind", False, True, 1),
        ("golden", True, False, 1),
        ("both", True, False, 2),
        ("both", False, True, 2),
        ("off", True, True, 1),
    ]:
        rules = russian({"penalty.sticks_doubled": mode})
        outcome = replace(deal, blind=blind, golden=golden)
        match, _ = settle(MatchState.start(rules), outcome)
        assert match.sticks[0] == sticks, (mode, blind, golden)
    # two doubled sticks and a plain one make the third: the penalty
    rules = russian({"penalty.sticks_doubled": "blind"})
    match, _ = settle(MatchState.start(rules), replace(deal, blind=True))
    match, report = settle(match, deal)
    assert (0, "stick-penalty") in events(report) and match.sticks[0] == 0
    assert report.changes[0] == -120


def test_blind_bids_in_the_line_game() -> None:
    rules = russian({"bidding.blind": "first-bid", "game.target": 200, "barrel.threshold": None})
    state = new_deal(rules=rules, dealer=2)  # seat 0 is forehand
    moves = [action_text(a) for a in ordered_moves(view(state, 0))]
    assert moves[:4] == ["pass", "100", "blind 100", "105"]
    said: list[str] = []
    answers = iter(["blind 100"])
    bots = [RandomBot(derive_seed(3, "seat", s)) for s in (1, 2)]
    game = play(rules, 3, ask=lambda _: next(answers, "1"), say=said.append, opponents=bots)
    assert game.over
    # the person's refused blind bid, a bot's blind bid and the listed blind moves
    assert "Not allowed: blind 100 does not exceed the current bid 115" in said
    assert "easy-bot-2 bids 105 blind" in said
    assert "   3. blind 120  (bid 120 blind)" in said
