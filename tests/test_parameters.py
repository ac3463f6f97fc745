"""rules.md part 2: each parameter value that the engine plays today, pinned in numbers.

Every test changes ``russian`` with ``with_overrides`` and checks what the spec's meaning of the
parameter says: the legal moves of a constructed position, a deal's outcome, or the match
pipeline's changes and totals. Positions come from :mod:`tests.positions`.
"""

from __future__ import annotations

from dataclasses import replace

from thousand.engine import DealOutcome, DealState, Game, MatchState, Phase, settle
from thousand.engine.dealing import Dealt
from thousand.rules import Rules

from .positions import (
    BEAT,
    DEAL_2A,
    DEAL_2B,
    DEAL_2C,
    DEAL_E11,
    DEAL_EX3,
    DIAMONDS,
    HEARTS,
    OVERTRUMP,
    OVERTRUMP_TRICKS,
    RUSSIAN,
    STD_HANDS,
    STD_TALON,
    TRUMP_LED,
    TRUMP_LED_TRICKS,
    UNDERTRUMP,
    UNDERTRUMP_TRICKS,
    after_passing,
    apply,
    bids,
    cards,
    contracts,
    events,
    hands_from_tricks,
    legal,
    new_deal,
    outcome_of,
    play,
    play_tricks,
    played,
    redealt,
    russian,
    scripted,
    settle_all,
    setup,
    tokens,
    written_off,
)

ALL_BIDS = bids(100, 105, 110, 115, 120)
UP_TO_200 = bids(*range(100, 200, 5), 200)


def refused(state: DealState, move: str, word: str) -> None:
    assert not state.is_legal(move)
    try:
        state.apply(move)
    except ValueError as e:
        assert word in str(e), str(e)
    else:
        raise AssertionError(f"{move!r} was accepted")


def declared(rules: Rules, *moves: str) -> DealState:
    """The standard deal: seat 1 bids 100, the others pass; then ``moves``."""
    return apply(new_deal(rules=rules), "100", "pass", "pass", *moves)


def at_contract(rules: Rules, tricks: tuple[str, ...] = DEAL_E11) -> DealState:
    """A scripted deal stopped at the contract move."""
    hands, talon, moves = setup(hands_from_tricks(tricks), rules=rules)
    assert moves[-1].startswith("contract")
    return apply(DealState.new(rules, 0, hands, talon), *moves[:-1])


def start(rules: Rules, totals: tuple[int, int, int] = (0, 0, 0)) -> MatchState:
    return MatchState.start(rules, totals=totals)


def mounted(rules: Rules, seat: int = 0, others: tuple[int, int] = (0, 0)) -> MatchState:
    """``seat`` gains 35 from 845 and mounts the barrel; seat ``seat + 1`` declares 100."""
    totals = list(others)
    totals.insert(seat, 845)
    scores = [20, 20, 20]
    scores[seat] = 35
    scores[(seat + 1) % 3] = 100
    match, report = settle(
        start(rules, (totals[0], totals[1], totals[2])),
        played(scores, declarer=(seat + 1) % 3),
    )
    assert match.on_barrel[seat] and report.totals[seat] == 880
    return match


# --- bidding -------------------------------------------------------------------------------


def test_bidding_step_10() -> None:
    rules = russian({"bidding.step": 10})
    state = new_deal(rules=rules)
    assert legal(state) == bids(100, 110, 120) | {"pass"}
    refused(state, "105", "multiple of 10")
    assert legal(state.apply("100")) == bids(110, 120) | {"pass"}
    # the raise keeps the steps too
    state = declared(rules, "give Qd 2", "give Qh 0")
    assert legal(state) == contracts(100, 110, 120)


def test_bidding_min() -> None:
    rules = russian({"bidding.min": 80})
    state = new_deal(rules=rules)
    assert legal(state) == bids(*range(80, 121, 5)) | {"pass"}
    refused(state, "75", "lowest bid 80")
    forced = apply(state, "pass", "pass")
    assert (forced.declarer, forced.bid, forced.contract) == (0, 80, 80)


def test_bidding_max_200() -> None:
    rules = russian({"bidding.max": 200})
    state = new_deal(rules=rules)
    assert legal(state) == UP_TO_200 | {"pass"}
    refused(state, "210", "above 200")
    assert legal(state.apply("195")) == bids(200) | {"pass"}


def test_bidding_big_step_and_big_step_from() -> None:
    rules = russian({"bidding.max": 200, "bidding.big_step": 20, "bidding.big_step_from": 150})
    state = new_deal(rules=rules)
    assert legal(state) == bids(*range(100, 150, 5), 160, 180, 200) | {"pass"}
    refused(state, "150", "multiple of 20")
    refused(state, "170", "multiple of 20")


def test_bidding_max_bid_above_the_raise_limit_stays_allowed() -> None:
    # seat 2 holds no marriage, even with the talon: its limit is 120, yet its bid of 150 stands
    rules = russian({"bidding.max": 200})
    state = apply(new_deal(rules=rules), "pass", "150", "pass", "give Kd 0", "give 9h 1")
    assert state.declarer == 2 and state.phase is Phase.CONTRACT
    assert legal(state) == contracts(150)


def test_bidding_marriage_cap_needs_marriage() -> None:
    rules = russian({"bidding.max": 200, "bidding.marriage_cap": "needs-marriage"})
    state = new_deal(rules=rules)  # seat 1 was dealt hearts
    assert legal(state) == UP_TO_200 | {"pass"}
    state = state.apply("100")  # seat 2 was dealt no marriage
    assert legal(state) == bids(105, 110, 115, 120) | {"pass"}
    refused(state, "125", "limit 120")
    state = state.apply("pass")  # seat 0 was dealt spades
    assert legal(state) == UP_TO_200 - bids(100) | {"pass"}


def test_bidding_marriage_cap_plus_marriages() -> None:
    rules = russian({"bidding.max": 400, "bidding.marriage_cap": "plus-marriages"})
    state = new_deal(rules=rules)
    # seat 1: hearts 100 (its queen of diamonds meets the king only in the talon: not counted)
    assert legal(state) == bids(*range(100, 200, 5), 200, 210, 220) | {"pass"}
    refused(state, "230", "limit 220")
    state = state.apply("100")
    assert legal(state) == bids(105, 110, 115, 120) | {"pass"}  # seat 2: no marriage
    state = state.apply("pass")
    assert legal(state) == bids(*range(105, 161, 5)) | {"pass"}  # seat 0: spades 40


def test_bidding_marriage_cap_plus_marriages_never_above_max() -> None:
    rules = russian({"bidding.max": 200, "bidding.marriage_cap": "plus-marriages"})
    assert legal(new_deal(rules=rules)) == UP_TO_200 | {"pass"}


def test_bidding_forced_none_all_pass_redeals() -> None:
    rules = russian({"bidding.forced": "none"})
    state = apply(new_deal(rules=rules), "pass", "pass")
    assert state.over and state.to_act is None
    assert state.auction == ((1, 0), (2, 0))  # the last seat never speaks
    out = outcome_of(state)
    assert out.result == "redealt"
    assert (out.declarer, out.bid, out.contract, out.card_points, out.deal_points) == (
        None,
        None,
        None,
        None,
        None,
    )
    assert out.scores == (0, 0, 0)
    game = Game.start(rules, totals=(10, 20, 30), dealer=1)
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    game = game.apply("pass").apply("pass")
    assert game.reports[-1].changes == (0, 0, 0)
    assert game.match.totals == (10, 20, 30)
    assert game.match.dealer == 1  # the same dealer deals again


def test_bidding_forced_none_a_redeal_touches_no_count_and_no_barrel_deal() -> None:
    rules = russian({"bidding.forced": "none"})
    match = replace(mounted(rules), sticks=(1, 2, 0), no_wins=(2, 1, 0), writeoffs=(1, 0, 2))
    after, report = settle(match, redealt())
    assert report.changes == (0, 0, 0) and report.events == ()
    assert (after.sticks, after.no_wins, after.writeoffs) == (
        match.sticks,
        match.no_wins,
        match.writeoffs,
    )
    assert (after.barrel_left, after.on_barrel, after.totals) == (
        match.barrel_left,
        match.on_barrel,
        match.totals,
    )
    assert after.dealer == match.dealer


def test_redeal_all_pass_pass_on() -> None:
    rules = russian({"bidding.forced": "none", "redeal.all_pass": "pass-on"})
    state = apply(new_deal(rules=rules), "pass", "pass")
    assert outcome_of(state).result == "passed-on"
    game = Game.start(rules, dealer=1)
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    game = game.apply("pass").apply("pass")
    assert game.reports[-1].changes == (0, 0, 0)
    assert game.match.dealer == 2  # the deal passes to the next dealer


def test_redeal_all_pass_pass_on_scores_nothing_and_uses_no_barrel_deal() -> None:
    # decided: a passed-on deal is unscored, like a redeal, except that the dealer moves on
    rules = russian({"bidding.forced": "none", "redeal.all_pass": "pass-on"})
    match = replace(mounted(rules), sticks=(1, 2, 0), no_wins=(2, 1, 0))
    after, report = settle(match, redealt("passed-on"))
    assert report.changes == (0, 0, 0) and report.events == ()
    assert (after.barrel_left, after.sticks, after.no_wins) == (
        match.barrel_left,
        match.sticks,
        match.no_wins,
    )
    assert after.dealer == (match.dealer + 1) % 3


def test_bidding_forced_forehand() -> None:
    rules = russian({"bidding.forced": "forehand"})
    state = new_deal(rules=rules)
    assert legal(state) == ALL_BIDS
    refused(state, "pass", "forehand")
    state = state.apply("100")
    assert legal(state) == bids(105, 110, 115, 120) | {"pass"}
    state = apply(state, "105", "pass")
    assert state.to_act == 1
    assert legal(state) == bids(110, 115, 120) | {"pass"}  # not its first turn
    state = state.apply("pass")
    assert (state.declarer, state.bid) == (2, 105)


def test_bidding_forced_last_seat() -> None:
    rules = russian({"bidding.forced": "last-seat"})
    state = apply(new_deal(rules=rules), "pass", "pass")
    assert state.phase is Phase.AUCTION and state.to_act == 0
    assert legal(state) == ALL_BIDS
    refused(state, "pass", "last-seat")
    state = state.apply("110")
    assert (state.declarer, state.bid, state.phase) == (0, 110, Phase.PASSING)
    # after a bid the last seat may pass as usual
    state = apply(new_deal(rules=rules), "pass", "100")
    assert legal(state) == bids(105, 110, 115, 120) | {"pass"}


# --- talon and contract --------------------------------------------------------------------


def test_contract_raise_false() -> None:
    rules = russian({"contract.raise": False})
    state = declared(rules, "give 9c 2", "give Jc 0")
    assert state.phase is Phase.PLAY and state.to_act == 1
    assert (state.bid, state.contract) == (100, 100)
    assert legal(state) == tokens("Ah Kh Qh Th 9h Kd Qd 9s")
    refused(state, "contract 100", "must play a card")


def test_contract_raise_limit_300() -> None:
    rules = russian({"contract.raise_limit": 300})
    state = declared(rules, "give Qd 2", "give Qh 0")  # no marriage left
    assert legal(state) == contracts(*range(100, 200, 5), *range(200, 301, 10))
    refused(state, "contract 310", "above the limit 300")


# --- write-off -----------------------------------------------------------------------------


def test_writeoff_allowed_false() -> None:
    rules = russian({"writeoff.allowed": False})
    state = declared(rules)
    assert "writeoff" not in legal(state)
    assert len(legal(state)) == 20
    refused(state, "writeoff", "not allowed at this table")


def _writeoff(rules: Rules, bid: int) -> tuple[int, ...]:
    state = apply(new_deal(rules=rules), str(bid), "pass", "pass", "writeoff")
    return outcome_of(state).scores


def test_writeoff_opponents_get() -> None:
    assert _writeoff(RUSSIAN, 115) == (57, -115, 57)
    # equal-split: the contract divided among the two opponents, rounded down
    assert _writeoff(russian({"writeoff.opponents_get": "equal-split"}), 115) == (57, -115, 57)
    fixed = russian({"writeoff.opponents_get": "fixed"})
    assert _writeoff(fixed, 115) == (60, -115, 60)
    fixed_40 = russian({"writeoff.opponents_get": "fixed", "writeoff.fixed": 40})
    assert _writeoff(fixed_40, 115) == (40, -115, 40)


def test_writeoff_penalty_every_2() -> None:
    rules = russian({"writeoff.penalty_every": 2})
    _, reports = settle_all(start(rules), [written_off(1, 100), written_off(1, 100)])
    assert reports[0].changes == (50, -100, 50)
    assert reports[1].changes == (50, -220, 50)
    assert events(reports[1]) == [(1, "write-off-penalty")]


def test_writeoff_penalty_every_0() -> None:
    rules = russian({"writeoff.penalty_every": 0})
    _, reports = settle_all(start(rules), [written_off(1, 110)] * 4)
    assert [r.changes for r in reports] == [(55, -110, 55)] * 4
    assert all(r.events == () for r in reports)


def test_writeoff_penalty_amount() -> None:
    rules = russian({"writeoff.penalty": 50})
    _, reports = settle_all(start(rules), [written_off(1, 100)] * 3)
    assert reports[2].changes == (50, -150, 50)


# --- play ----------------------------------------------------------------------------------


def test_play_must_beat_off() -> None:
    rules = russian({"play.must_beat": "off"})
    assert legal(play(after_passing(BEAT, rules=rules), "Qh")) == tokens("Ah Jh")
    state = play_tricks(after_passing(TRUMP_LED, rules=rules), TRUMP_LED_TRICKS)
    assert legal(play(state, "Qh")) == tokens("Ah Jh")


def test_play_must_beat_highest() -> None:
    assert legal(play(after_passing(BEAT), "9h")) == tokens("Ah Jh")
    rules = russian({"play.must_beat": "highest"})
    state = after_passing(BEAT, rules=rules)
    assert legal(play(state, "9h")) == tokens("Ah")
    assert legal(play(state, "Qh")) == tokens("Ah")
    assert legal(play(state, "Qh Ah")) == tokens("Kh Th")  # unable to beat: any of the suit


def test_play_must_trump_off() -> None:
    rules = russian({"play.must_trump": "off"})
    state = play_tricks(after_passing(OVERTRUMP, rules=rules), OVERTRUMP_TRICKS)
    state = play(state, "Ah")
    assert legal(state) == tokens("Ts 9s Qd 9d Qc")
    assert legal(play(state, "Qd")) == tokens("Ad Jd Ks Qs Kc")


def test_play_must_trump_highest() -> None:
    rules = russian({"play.must_trump": "highest"})
    state = play_tricks(after_passing(OVERTRUMP, rules=rules), OVERTRUMP_TRICKS)
    state = play(state, "Ah")
    assert legal(state) == tokens("Qd")
    assert legal(play(state, "Qd")) == tokens("Ad")


def test_play_must_overtrump_false() -> None:
    rules = russian({"play.must_overtrump": False})
    state = play_tricks(after_passing(OVERTRUMP, rules=rules), OVERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Ad Jd")


def test_play_partial_trumping() -> None:
    rules = russian({"play.partial_trumping": True})
    state = play_tricks(after_passing(UNDERTRUMP, rules=rules), UNDERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Jd Ks Qs Kc Tc 9c")
    # able to beat: still must over-trump
    state = play_tricks(after_passing(OVERTRUMP, rules=rules), OVERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Ad")


def test_play_defender_overtrumps_declarer() -> None:
    rules = russian({"play.must_overtrump": False, "play.defender_overtrumps_declarer": True})
    state = play_tricks(after_passing(OVERTRUMP, rules=rules), OVERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Ad")
    # with must_overtrump on and no partial trumping it adds no duty
    rules = russian({"play.defender_overtrumps_declarer": True})
    state = play_tricks(after_passing(UNDERTRUMP, rules=rules), UNDERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Jd")


def test_play_lead_trump_after_marriage() -> None:
    assert legal(scripted(DEAL_E11, upto=2)) == tokens("Ac Ad Td Qd Kh Qh Kh+ Qh+")
    rules = russian({"play.lead_trump_after_marriage": True})
    state = scripted(DEAL_E11, upto=2, rules=rules)
    assert legal(state) == tokens("Ad Td Qd")
    state = play(state, "Qd 9d 9h")  # its next lead only
    assert state.to_act == 1
    assert legal(state) == tokens("Ac Ad Td Kh Qh Kh+ Qh+")


def test_play_last_trick_bonus() -> None:
    rules = russian({"play.last_trick_bonus": 50})
    out = outcome_of(scripted(DEAL_EX3, rules=rules))  # the declarer takes the last trick
    assert out.card_points == (0, 53, 67)
    assert out.deal_points == (0, 55 + 50, 125)
    assert out.result == "made"
    assert out.scores == (0, 100, 125)


# --- marriages -----------------------------------------------------------------------------


def test_marriage_values() -> None:
    rules = russian({"marriage.values": {"c": 20, "d": 30, "h": 50, "s": 10}})
    assert outcome_of(scripted(DEAL_EX3, rules=rules)).deal_points == (0, 55, 65 + 20)
    out = outcome_of(scripted(DEAL_E11, rules=rules))
    assert out.deal_points == (45, 60 + 30 + 50, 15)
    # the raise limit counts the same values: 120 + 30 + 50
    assert legal(at_contract(rules)) == contracts(*range(100, 200, 5), 200)


def test_marriage_trick_required_false() -> None:
    rules = russian({"marriage.trick_required": False})
    state = after_passing(hands_from_tricks(DEAL_E11), rules=rules)
    assert legal(state) == tokens("As Ac Ad Td Kd Qd Kh Qh Kd+ Qd+ Kh+ Qh+")
    state = play(state, "Kd+")
    assert state.marriages == ((), (DIAMONDS,), ())


def test_marriage_min_hand() -> None:
    # seat 1 holds 7 cards on its second lead
    rules = russian({"marriage.min_hand": 8})
    state = scripted(DEAL_E11, upto=1, rules=rules)
    assert legal(state) == tokens("Ac Ad Td Kd Qd Kh Qh")
    refused(state, "Kd+", "min_hand")
    rules = russian({"marriage.min_hand": 7})
    state = scripted(DEAL_E11, upto=1, rules=rules)
    assert legal(state) == tokens("Ac Ad Td Kd Qd Kh Qh Kd+ Qd+ Kh+ Qh+")


def test_marriage_trump_from_this_trick() -> None:
    rules = russian({"marriage.trump_from": "this-trick"})
    state = play(scripted(DEAL_E11, upto=2, rules=rules), "Kh+")
    # hearts are trump in this very trick: seat 2, void in hearts, holds no trump now
    assert legal(state) == tokens("9d Ts Js Qc Jc 9c")
    state = play(state, "Js")
    assert legal(state) == tokens("Ah Th")  # the trick's best card is still of the suit led
    state = play(state, "Th")
    assert state.completed_tricks[-1][2] == 0


def test_marriage_one_trump() -> None:
    rules = russian({"marriage.one_trump": True})
    state = scripted(DEAL_E11, upto=3, rules=rules)
    assert state.marriages == ((), (DIAMONDS, HEARTS), ())
    assert state.trump == DIAMONDS
    state = play(state, "Ts Ks")
    assert legal(state) == tokens("Ad Td Qd")  # diamonds stay trump


# --- scoring -------------------------------------------------------------------------------


def test_scoring_round_to_1() -> None:
    rules = russian({"scoring.round_to": 1})
    out = outcome_of(scripted(DEAL_EX3, rules=rules))
    assert out.deal_points == (0, 53, 67 + 60)
    out = outcome_of(scripted(DEAL_2A, rules=rules))
    assert out.deal_points == (15, 98, 7)
    assert (out.result, out.scores) == ("failed", (15, -100, 7))


def test_scoring_round_to_10() -> None:
    rules = russian({"scoring.round_to": 10})
    out = outcome_of(scripted(DEAL_2A, rules=rules))
    assert out.card_points == (15, 98, 7)
    assert out.deal_points == (20, 100, 10)  # half up: 15 -> 20
    assert (out.result, out.scores) == ("made", (20, 100, 10))


def test_scoring_round_before_check_false() -> None:
    rules = russian({"scoring.round_before_check": False})
    out = outcome_of(scripted(DEAL_2A, rules=rules))  # 98 raw
    assert out.deal_points == (15, 100, 5)  # still the rounded deal score
    assert (out.result, out.scores) == ("failed", (15, -100, 5))
    out = outcome_of(scripted(DEAL_2C, rules=rules))  # 58 + 40 = 98 raw
    assert (out.result, out.scores) == ("failed", (0, -100, 60))


def test_scoring_round_before_check_false_counts_the_last_trick_bonus() -> None:
    # decided: the unrounded check is the deal score before rounding, bonuses included
    rules = russian({"scoring.round_before_check": False, "play.last_trick_bonus": 50})
    out = outcome_of(scripted(DEAL_EX3, rules=rules))  # 53 raw + 50
    assert (out.result, out.scores) == ("made", (0, 100, 125))


def test_scoring_declarer_gains_max_of_contract_and_score() -> None:
    rules = russian({"scoring.declarer_gains": "max-of-contract-and-score"})
    assert outcome_of(scripted(DEAL_E11, rules=rules)).scores == (45, 240, 15)
    assert outcome_of(scripted(DEAL_2A, rules=rules)).scores == (15, 100, 5)
    assert outcome_of(scripted(DEAL_E11, rules=rules, contract=250)).scores == (45, -250, 15)


def test_scoring_declarer_gains_score_plus_contract() -> None:
    rules = russian({"scoring.declarer_gains": "score-plus-contract"})
    assert outcome_of(scripted(DEAL_E11, rules=rules)).scores == (45, 240 + 100, 15)
    assert outcome_of(scripted(DEAL_2B, rules=rules)).scores == (0, -100, 65)


def test_scoring_failed_contract_split_to_defenders() -> None:
    rules = russian({"scoring.failed_contract": "split-to-defenders"})
    assert outcome_of(scripted(DEAL_2B, rules=rules)).scores == (50, -100, 65 + 50)
    out = outcome_of(scripted(DEAL_E11, rules=rules, contract=300))
    assert out.scores == (45 + 150, -300, 15 + 150)


def test_scoring_failed_contract_each_defender() -> None:
    rules = russian({"scoring.failed_contract": "each-defender"})
    assert outcome_of(scripted(DEAL_2B, rules=rules)).scores == (100, -100, 65 + 100)


def test_scoring_only_bids_above() -> None:
    rules = russian({"scoring.only_bids_above": 800})
    match = start(rules, (850, 0, 800))
    _, report = settle(match, played((40, 100, 45), declarer=1))
    assert report.changes == (0, 100, 45)  # 850 is above 800, 800 is not
    _, report = settle(match, written_off(1, 100))
    assert report.changes == (0, -100, 50)
    # penalties still apply to it
    match = replace(match, no_wins=(2, 0, 0))
    _, report = settle(match, played((0, 100, 45), declarer=1, tricks=(1, 5, 2)))
    assert report.changes == (-120, 100, 45)
    assert events(report) == [(0, "no-win-penalty")]


def test_scoring_zero_penalty_from() -> None:
    rules = russian({"scoring.zero_penalty_from": 500})
    match = start(rules, (500, 499, 600))
    zero_defenders = played((0, 0, 100), declarer=2, tricks=(1, 1, 6))
    _, report = settle(match, zero_defenders)
    assert report.changes == (-100, 0, 100)  # 500 is at the mark, 499 below it
    failed_zero = played((20, 20, -100), declarer=2, made=False, tricks=(4, 4, 0))
    _, report = settle(match, failed_zero)
    assert report.changes[2] == -100 - 100  # a declarer too, on top of its contract
    _, report = settle(match, written_off(2, 100))
    assert report.changes == (50, 50, -100)  # a written-off deal has no deal score
    rules = russian({"scoring.zero_penalty_from": 500, "scoring.zero_penalty": 40})
    _, report = settle(start(rules, (500, 499, 600)), zero_defenders)
    assert report.changes == (-40, 0, 100)


# --- barrel and end of the match -----------------------------------------------------------


def test_barrel_threshold_none() -> None:
    rules = russian({"barrel.threshold": None})
    match, report = settle(start(rules, (860, 0, 0)), played((60, 100, 20), declarer=1))
    assert report.totals == (920, 100, 20)
    assert events(report) == [] and not match.on_barrel[0]
    match, report = settle(match, played((80, 100, 20), declarer=1))
    assert report.totals[0] == 1000 and match.winner == 0


def test_barrel_threshold_555_the_dump_truck_takes_the_seat_off_the_barrel() -> None:
    # 1.9 step 3: a total that lands on 555 drops to 0 and leaves the barrel
    rules = russian({"barrel.threshold": 555})
    match, report = settle(start(rules, (500, 0, 0)), played((60, 100, 20), declarer=1))
    assert report.totals == (0, 100, 20)
    assert events(report) == [(0, "barrel-on"), (0, "dump-truck")]
    assert match.on_barrel == (False, False, False)
    # a fall that lands on 555 (675 - 120) is dumped too
    rules = russian({"barrel.threshold": 675})
    match = start(rules, (640, 0, 0))
    match, report = settle(match, played((40, 100, 20), declarer=1))
    assert report.totals[0] == 675 and match.on_barrel[0]
    for _ in range(3):
        match, report = settle(match, played((45, 100, 20), declarer=1))
    assert report.totals[0] == 0
    assert events(report) == [(0, "barrel-fall"), (0, "dump-truck")]
    assert match.falls[0] == 1


def test_barrel_deals_2() -> None:
    rules = russian({"barrel.deals": 2})
    match = mounted(rules)
    assert match.barrel_left[0] == 2
    match, report = settle(match, played((45, 100, 20), declarer=1))
    assert report.totals[0] == 880
    match, report = settle(match, played((45, 100, 20), declarer=1))
    assert report.totals[0] == 760
    assert events(report) == [(0, "barrel-fall")]


def test_barrel_deals_0() -> None:
    rules = russian({"barrel.deals": 0})
    match = mounted(rules)
    for _ in range(6):
        match, report = settle(match, played((45, -100, 20), declarer=1, made=False))
        assert report.totals[0] == 880 and match.on_barrel[0]
    match, report = settle(match, played((120, 20, 20), contract=120))
    assert report.totals[0] == 1000 and match.winner == 0


def test_barrel_fall() -> None:
    rules = russian({"barrel.fall": 200})
    match = mounted(rules)
    for _ in range(3):
        match, report = settle(match, played((45, 100, 20), declarer=1))
    assert report.totals[0] == 680
    # a knock-off drops to the same threshold - fall
    _, totals, evs = _collision(rules)
    assert totals[:2] == (680, 880)
    assert evs == [(1, "barrel-on"), (0, "barrel-knocked-off")]


def _collision(rules: Rules) -> tuple[MatchState, tuple[int, ...], list[tuple[int, str]]]:
    """Seat 0 mounts in one deal, seat 1 in the next."""
    match = mounted(rules, 0, (700, 0))
    match, report = settle(match, played((45, 100, 20), declarer=1))
    return match, report.totals, events(report)


def test_barrel_collision_last_mounted() -> None:
    _, totals, evs = _collision(RUSSIAN)
    assert totals[:2] == (760, 880)
    assert evs == [(1, "barrel-on"), (0, "barrel-knocked-off")]


def test_barrel_collision_first_mounted() -> None:
    match, totals, evs = _collision(russian({"barrel.collision": "first-mounted"}))
    assert totals[:2] == (880, 760)
    assert evs == [(1, "barrel-on"), (1, "barrel-knocked-off")]
    assert match.on_barrel == (True, False, False) and match.barrel_left[0] == 2
    # mounted in the same deal: the declarer stays
    rules = russian({"barrel.collision": "first-mounted"})
    match, report = settle(start(rules, (780, 845, 790)), played((100, 35, 90), declarer=0))
    assert report.totals == (880, 760, 760)


def test_barrel_collision_all_fall() -> None:
    match, totals, evs = _collision(russian({"barrel.collision": "all-fall"}))
    assert totals[:2] == (760, 760)
    assert evs == [(1, "barrel-on"), (0, "barrel-knocked-off"), (1, "barrel-knocked-off")]
    assert match.on_barrel == (False, False, False)
    assert match.falls == (0, 0, 0)


def test_barrel_collision_coexist() -> None:
    match, totals, evs = _collision(russian({"barrel.collision": "coexist"}))
    assert totals[:2] == (880, 880)
    assert evs == [(1, "barrel-on")]
    assert match.on_barrel == (True, True, False)
    assert match.barrel_left[:2] == (2, 3)  # each keeps its own count
    match, report = settle(match, played((45, 20, 100), declarer=2))
    match, report = settle(match, played((45, 20, 100), declarer=2))
    assert report.totals[:2] == (760, 880)
    assert events(report) == [(0, "barrel-fall")]


def test_barrel_three_falls_reset_false() -> None:
    rules = russian({"barrel.three_falls_reset": False})
    match = mounted(rules)
    seat_0 = []
    for fall in range(3):
        if fall:
            match, report = settle(match, played((120, 20, 20), contract=120))
            assert report.totals[0] == 880
        for _ in range(3):
            match, report = settle(match, played((45, -100, 20), declarer=1, made=False))
        seat_0.append((report.totals[0], [e for e in events(report) if e[0] == 0]))
    assert seat_0 == [(760, [(0, "barrel-fall")])] * 3
    assert match.falls[0] == 3


def test_game_target() -> None:
    rules = russian({"game.target": 1200})
    match, report = settle(start(rules, (860, 0, 0)), played((160, 20, 20), contract=160))
    assert report.totals[0] == 880 and match.on_barrel[0] and match.winner is None
    after, report = settle(match, played((120, 20, 20), contract=120))
    assert report.totals[0] == 880 and after.winner is None  # 120 is not enough now
    after, report = settle(match, played((320, 20, 20), contract=320))
    assert report.totals[0] == 1200 and after.winner == 0


def test_game_tiebreak_highest() -> None:
    tie = played((130, 20, 130), declarer=2, contract=130)
    match, report = settle(start(RUSSIAN, (870, 0, 870)), tie)
    assert report.totals == (1000, 20, 1000) and match.winner == 2
    rules = russian({"game.tiebreak": "highest"})
    match, report = settle(start(rules, (870, 0, 870)), tie)
    assert report.totals == (1000, 20, 1000) and match.winner == 0
    assert events(report) == [(0, "win")]
    match, report = settle(start(rules, (870, 0, 880)), tie)
    assert report.totals == (1000, 20, 1010) and match.winner == 2


def _dump(rules: Rules, totals: tuple[int, int, int]) -> tuple[int, ...]:
    failed_120 = played((100, -120, 20), declarer=1, contract=120, made=False)
    return settle(start(rules, totals), failed_120)[1].totals


def test_game_dump_truck_off() -> None:
    assert _dump(RUSSIAN, (455, -435, 0)) == (0, 0, 20)
    assert _dump(russian({"game.dump_truck": "off"}), (455, -435, 0)) == (555, -555, 20)


def test_game_dump_truck_positive() -> None:
    assert _dump(russian({"game.dump_truck": "positive"}), (455, -435, 0)) == (0, -555, 20)


def test_game_dump_truck_both() -> None:
    assert _dump(russian({"game.dump_truck": "both"}), (455, -435, 0)) == (0, 0, 20)


def test_game_dump_truck_at() -> None:
    rules = russian({"game.dump_truck_at": 300})
    assert _dump(rules, (200, -180, 0)) == (0, 0, 20)
    assert _dump(rules, (455, -435, 0)) == (555, -555, 20)


# --- penalties -----------------------------------------------------------------------------

STICK_2 = played((100, 20, 0), declarer=0, tricks=(5, 3, 0))
NO_STICK_2 = played((100, 20, 10), declarer=0, tricks=(5, 2, 1))


def _seat_2_changes(rules: Rules, deals: list[DealOutcome]) -> list[int]:
    match = start(rules)
    changes = []
    for out in deals:
        match, report = settle(match, out)
        changes.append(report.changes[2])
    return changes


def test_penalty_sticks_off() -> None:
    rules = russian({"penalty.sticks": "off", "penalty.no_win": "off"})
    assert _seat_2_changes(rules, [STICK_2] * 4) == [0, 0, 0, 0]


def test_penalty_sticks_any() -> None:
    rules = russian({"penalty.sticks": "any", "penalty.no_win": "off"})
    deals: list[DealOutcome] = [STICK_2, STICK_2, NO_STICK_2, STICK_2, STICK_2, STICK_2]
    assert _seat_2_changes(rules, deals) == [0, 0, 10, -120, 0, 0]


def test_penalty_sticks_in_a_row() -> None:
    rules = russian({"penalty.sticks": "in-a-row", "penalty.no_win": "off"})
    deals: list[DealOutcome] = [STICK_2, STICK_2, NO_STICK_2, STICK_2, STICK_2, STICK_2]
    assert _seat_2_changes(rules, deals) == [0, 0, 10, 0, 0, -120]
    # a write-off between sticks neither adds nor resets
    deals = [STICK_2, STICK_2, written_off(1, 100), STICK_2]
    assert _seat_2_changes(rules, deals) == [0, 0, 50, -120]


def test_penalty_sticks_count() -> None:
    rules = russian({"penalty.sticks_count": 2, "penalty.no_win": "off"})
    assert _seat_2_changes(rules, [STICK_2] * 4) == [0, -120, 0, -120]


def test_penalty_sticks_amount() -> None:
    rules = russian({"penalty.sticks_amount": 50, "penalty.no_win": "off"})
    assert _seat_2_changes(rules, [STICK_2] * 3) == [0, 0, -50]


def test_penalty_sticks_on_points() -> None:
    # seat 2 takes a trick worth 2 card points: a deal score of 0, but not a trickless deal
    zero_score = played((100, 20, 0), declarer=0, tricks=(5, 2, 1))
    by_tricks = russian({"penalty.no_win": "off"})
    assert _seat_2_changes(by_tricks, [zero_score] * 3) == [0, 0, 0]
    by_points = russian({"penalty.sticks_on": "points", "penalty.no_win": "off"})
    assert _seat_2_changes(by_points, [zero_score] * 3) == [0, 0, -120]


def test_penalty_sticks_declarer_exempt() -> None:
    trickless_declarer = played((20, 100, -100), declarer=2, made=False, tricks=(4, 4, 0))
    plain = russian({"penalty.no_win": "off"})
    assert _seat_2_changes(plain, [trickless_declarer] * 3) == [-100, -100, -220]
    exempt = russian({"penalty.sticks_declarer_exempt": True, "penalty.no_win": "off"})
    assert _seat_2_changes(exempt, [trickless_declarer] * 3) == [-100, -100, -100]
    # a trickless defender still counts
    assert _seat_2_changes(exempt, [STICK_2] * 3) == [0, 0, -120]


FAIL_2 = played((20, 20, -100), declarer=2, made=False, tricks=(3, 3, 2))
WIN_2 = played((20, 20, 100), declarer=2, tricks=(1, 2, 5))


def test_penalty_no_win_off() -> None:
    rules = russian({"penalty.no_win": "off"})
    assert _seat_2_changes(rules, [FAIL_2] * 4) == [-100] * 4


def test_penalty_no_win_any() -> None:
    deals: list[DealOutcome] = [FAIL_2, FAIL_2, WIN_2, FAIL_2]
    assert _seat_2_changes(RUSSIAN, deals) == [-100, -100, 100, -220]


def test_penalty_no_win_in_a_row() -> None:
    rules = russian({"penalty.no_win": "in-a-row"})
    deals: list[DealOutcome] = [FAIL_2, FAIL_2, WIN_2, FAIL_2, FAIL_2, FAIL_2]
    assert _seat_2_changes(rules, deals) == [-100, -100, 100, -100, -100, -220]


def test_penalty_no_win_count() -> None:
    rules = russian({"penalty.no_win_count": 2})
    assert _seat_2_changes(rules, [FAIL_2] * 4) == [-100, -220, -100, -220]


def test_penalty_no_win_amount() -> None:
    rules = russian({"penalty.no_win_amount": 50})
    assert _seat_2_changes(rules, [FAIL_2] * 3) == [-100, -100, -150]
