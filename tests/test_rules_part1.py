"""rules.md part 1, clause by clause: each test is named after the clause it pins.

Positions come from :mod:`tests.positions`: seat 0 deals, seat 1 is forehand (and the declarer
of the scripted deals), a trick led by seat 1 goes 1, 2, 0.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from thousand.cards import (
    CARD_POINTS,
    FULL_DECK,
    JACK,
    NINE,
    hand_text,
    parse_card,
    parse_cards,
    points_of,
)
from thousand.engine import (
    DealState,
    Event,
    Game,
    IllegalAction,
    MatchState,
    Phase,
    round_points,
    settle,
)
from thousand.engine.dealing import Dealt, shuffled_deck

from .positions import (
    BEAT,
    CLUBS,
    DEAL_2A,
    DEAL_2B,
    DEAL_E11,
    DEAL_EX3,
    DEAL_UNEVEN,
    DIAMONDS,
    FOUR_ACES,
    HEARTS,
    OVERTRUMP,
    OVERTRUMP_TRICKS,
    RUSSIAN,
    SPADES,
    SPADES_RUFFED,
    SPADES_RUFFED_TRICKS,
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
    russian,
    scripted,
    settle_all,
    setup,
    tokens,
    trick_moves,
    written_off,
)

ALL_BIDS = bids(100, 105, 110, 115, 120)


def refused(state: DealState, move: str, *words: str) -> None:
    """``move`` is refused with a message holding ``words``, and the state is unchanged."""
    before = state.legal_moves()
    snapshot = DealState(state.core())
    with pytest.raises(IllegalAction) as caught:
        state.apply(move)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert not state.is_legal(move)
    assert state == snapshot
    assert state.legal_moves() == before


def std_declarer(*moves: str) -> DealState:
    """The standard deal, seat 1 declarer at 100 with the talon taken, then ``moves``."""
    return apply(new_deal(), "100", "pass", "pass", *moves)


# --- 1.1 cards -----------------------------------------------------------------------------


def test_1_1_card_points() -> None:
    by_rank = {r: CARD_POINTS[parse_card(r + "h")] for r in "9JQKTA"}
    assert by_rank == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    assert points_of(FULL_DECK) == 120
    assert FULL_DECK.bit_count() == 24


def test_1_1_rank_order_in_a_trick() -> None:
    state = after_passing(BEAT)
    assert legal(play(state, "9h")) == tokens("Ah Jh")  # A and J both beat the 9
    state = play(state, "9h Jh Kh")  # K > J > 9
    assert state.completed_tricks[-1][2] == 0
    state = play(state, "Th Qh")
    assert legal(state) == tokens("Ah")  # only the ace beats the ten
    state = play(state, "Ah")  # A > 10 > Q
    assert state.completed_tricks[-1][2] == 2
    state = play(state, "Ts 9s Ks")  # 10 > K
    assert state.completed_tricks[-1][2] == 2


# --- 1.2 the deal --------------------------------------------------------------------------


def test_1_2_seven_cards_each_and_three_to_the_talon() -> None:
    state = DealState.shuffled(RUSSIAN, 0, random.Random(7))
    assert [h.bit_count() for h in state.hands] == [7, 7, 7]
    assert state.talon.bit_count() == 3
    union = state.talon
    for h in state.hands:
        assert union & h == 0
        union |= h
    assert union == FULL_DECK


def test_1_2_same_seed_same_deal() -> None:
    a = DealState.shuffled(RUSSIAN, 1, random.Random(2024))
    b = DealState.shuffled(RUSSIAN, 1, random.Random(2024))
    assert (a.hands, a.talon) == (b.hands, b.talon)
    assert a == b


def test_1_2_bottom_card_guard() -> None:
    for seed in range(300):
        last = shuffled_deck(RUSSIAN, random.Random(seed))[-1]
        assert last % 6 not in (NINE, JACK), seed
    unguarded = russian({"deal.bottom_card_guard": False})
    lasts = [shuffled_deck(unguarded, random.Random(seed))[-1] % 6 for seed in range(300)]
    assert NINE in lasts and JACK in lasts


def test_1_2_first_dealer_is_seat_0() -> None:
    game = Game.start(RUSSIAN)
    assert game.match.dealer == 0
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    assert game.deal is not None
    assert game.deal.dealer == 0
    assert game.deal.to_act == 1


def test_1_2_dealer_rotates_after_each_scored_deal() -> None:
    hands, talon, moves = setup(hands_from_tricks(DEAL_E11))
    game = Game.start(RUSSIAN)
    dealers = []
    # a played deal
    game = game.new_deal(Dealt(tuple(hands), (talon,)))
    for move in (*moves, *trick_moves(DEAL_E11)):
        game = game.apply(move)
    dealers.append(game.match.dealer)
    # then written-off deals, each won by the forehand of the new dealer
    for _ in range(3):
        game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
        game = _apply_all(game, "100", "pass", "pass", "writeoff")
        dealers.append(game.match.dealer)
    assert dealers == [1, 2, 0, 1]
    assert [log.dealer for log in game.logs] == [0, 1, 2, 0]
    assert [r.outcome.result for r in game.reports] == ["made"] + ["written-off"] * 3


def test_1_2_no_rotation_after_a_redeal() -> None:
    rules = russian({"bidding.forced": "none"})
    game = Game.start(rules, dealer=2)
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    game = _apply_all(game, "pass", "pass")
    assert game.reports[-1].outcome.result == "redealt"
    assert game.match.dealer == 2
    game = game.new_deal(Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),)))
    assert game.deal is not None and game.deal.dealer == 2 and game.deal.to_act == 0


def _apply_all(game: Game, *moves: str) -> Game:
    for move in moves:
        game = game.apply(move)
    return game


def _e11_hands() -> tuple[str, ...]:
    return hands_from_tricks(DEAL_E11)


# --- 1.3 the auction -----------------------------------------------------------------------


def test_1_3_1_forehand_speaks_first_then_clockwise() -> None:
    assert new_deal(dealer=0).to_act == 1
    assert new_deal(dealer=1).to_act == 2
    assert new_deal(dealer=2).to_act == 0
    state = new_deal()
    seen = []
    for move in ("100", "105", "110", "115"):
        seen.append(state.to_act)
        state = state.apply(move)
    assert seen == [1, 2, 0, 1]


def test_1_3_1_bidding_order_skips_passed_seats() -> None:
    state = apply(new_deal(), "100", "pass", "105")
    assert state.to_act == 1  # seat 2 passed: skipped
    state = state.apply("110")
    assert state.to_act == 0
    state = state.apply("115")
    assert state.to_act == 1
    assert state.auction == ((1, 100), (2, 0), (0, 105), (1, 110), (0, 115))


def test_1_3_2_a_pass_is_final() -> None:
    state = apply(new_deal(), "pass", "100", "105", "110")
    assert state.to_act == 0  # seat 1 never speaks again
    state = apply(state, "pass")
    assert state.phase is Phase.PASSING
    assert (state.declarer, state.bid) == (2, 110)
    assert [seat for seat, _ in state.auction] == [1, 2, 0, 2, 0]


def test_1_3_3_first_bid_at_least_100() -> None:
    state = new_deal()
    assert legal(state) == ALL_BIDS | {"pass"}
    refused(state, "95", "lowest bid 100")
    refused(state, "90", "lowest bid 100")


def test_1_3_3_each_bid_higher_in_fives_and_jumps_allowed() -> None:
    state = new_deal().apply("105")
    assert legal(state) == bids(110, 115, 120) | {"pass"}
    refused(state, "105", "does not exceed")
    refused(state, "100", "does not exceed")
    refused(state, "112", "multiple of 5")
    jumped = new_deal().apply("120")  # 100 straight to 120
    assert jumped.high_bid == 120


def test_1_3_4_no_bid_above_120() -> None:
    state = new_deal()
    refused(state, "125", "120")
    refused(state, "200", "120")
    state = state.apply("115")
    assert legal(state) == bids(120) | {"pass"}
    state = state.apply("120")
    assert legal(state) == {"pass"}


def test_1_3_5_auction_ends_when_all_but_one_passed() -> None:
    state = apply(new_deal(), "100", "pass")
    assert state.phase is Phase.AUCTION and state.to_act == 0
    state = state.apply("pass")
    assert state.phase is Phase.PASSING
    assert (state.declarer, state.bid, state.contract) == (1, 100, 100)
    assert state.to_act == 1


def test_1_3_5_after_120_the_others_still_pass_explicitly() -> None:
    state = new_deal().apply("120")
    assert state.phase is Phase.AUCTION
    assert (state.to_act, legal(state)) == (2, {"pass"})
    state = state.apply("pass")
    assert (state.to_act, legal(state)) == (0, {"pass"})
    state = state.apply("pass")
    assert state.phase is Phase.PASSING
    assert (state.declarer, state.bid) == (1, 120)
    assert state.auction == ((1, 120), (2, 0), (0, 0))


def test_1_3_5_declarer_speaks_no_more() -> None:
    state = apply(new_deal(), "pass", "100", "105", "pass")
    assert state.phase is Phase.PASSING
    assert (state.declarer, state.bid) == (0, 105)
    assert state.auction == ((1, 0), (2, 100), (0, 105), (2, 0))
    refused(state, "pass", "auction is over")
    refused(state, "110", "auction is over")


def test_1_3_6_forced_dealer_100() -> None:
    state = apply(new_deal(), "pass", "pass")
    assert state.phase is Phase.PASSING
    assert (state.declarer, state.bid, state.contract) == (0, 100, 100)
    assert state.auction == ((1, 0), (2, 0))  # the dealer never spoke
    assert state.to_act == 0
    assert state.hands[0] == cards(STD_HANDS[0]) | cards(STD_TALON)


def test_1_3_6_dealer_bids_or_passes_as_usual_after_a_bid() -> None:
    state = apply(new_deal(), "pass", "100")
    assert state.to_act == 0
    assert legal(state) == bids(105, 110, 115, 120) | {"pass"}
    state = state.apply("pass")
    assert (state.declarer, state.bid) == (2, 100)


# --- 1.4 talon, write-off, passing, raising -----------------------------------------------


def test_1_4_1_talon_shown_and_taken_without_a_move() -> None:
    state = apply(new_deal(), "100", "pass")
    assert not state.talon_shown
    state = state.apply("pass")
    assert state.talon_shown
    assert state.hands[1] == cards(STD_HANDS[1]) | cards(STD_TALON)
    assert [h.bit_count() for h in state.hands] == [7, 10, 7]
    assert state.to_act == 1 and state.phase is Phase.PASSING
    assert len(state.auction) == 3


def test_1_4_2_writeoff_offered_with_the_first_pass() -> None:
    state = std_declarer()
    hand = hand_text(state.hands[1]).split()
    expected = {"writeoff"} | {f"give {c} {seat}" for c in hand for seat in (0, 2)}
    assert legal(state) == expected
    assert len(expected) == 21


def test_1_4_2_writeoff_amounts() -> None:
    state = apply(new_deal(), "105", "pass", "pass", "writeoff")
    assert state.over and state.completed_tricks == ()
    out = outcome_of(state)
    assert out.result == "written-off"
    assert (out.declarer, out.bid, out.contract) == (1, 105, 105)
    assert out.scores == (52, -105, 52)
    assert out.card_points is None and out.tricks is None
    game = Game.start(RUSSIAN).new_deal(
        Dealt(tuple(cards(h) for h in STD_HANDS), (cards(STD_TALON),))
    )
    game = _apply_all(game, "105", "pass", "pass", "writeoff")
    assert game.match.totals == (52, -105, 52)
    assert game.reports[-1].changes == (52, -105, 52)


def test_1_4_2_writeoff_window_closes_after_first_give() -> None:
    state = std_declarer("give 9c 2")
    assert "writeoff" not in legal(state)
    refused(state, "writeoff", "write-off window closed")
    state = state.apply("give Jc 0")
    assert state.phase is Phase.CONTRACT
    refused(state, "writeoff", "write-off window is closed")


def test_1_4_3_one_card_to_each_opponent() -> None:
    state = std_declarer("give 9c 2")
    left = hand_text(state.hands[1]).split()
    assert len(left) == 9
    assert legal(state) == {f"give {c} 0" for c in left}
    refused(state, "give Jc 2", "already got a card")
    refused(state, "give Jc 1", "to itself")
    refused(state, "give As 0", "does not hold")
    state = state.apply("give Jc 0")
    assert [h.bit_count() for h in state.hands] == [8, 8, 8]
    assert state.given == (parse_card("Jc"), None, parse_card("9c"))
    assert state.hands[2] & cards("9c") and state.hands[0] & cards("Jc")


def test_1_4_4_contract_choices_up_to_120_plus_marriages() -> None:
    # the declarer keeps hearts (100) and diamonds (80): up to 300, steps 5 below 200, 10 from 200
    state = std_declarer("give 9c 2", "give Jc 0")
    assert state.phase is Phase.CONTRACT
    expected = contracts(*range(100, 200, 5), *range(200, 301, 10))
    assert legal(state) == expected
    refused(state, "contract 310", "above the limit 300")
    refused(state, "contract 205", "steps")


def test_1_4_4_raise_limit_120_plus_marriages_held() -> None:
    # hearts kept, the queen of diamonds passed: 120 + 100
    state = std_declarer("give Qd 2", "give 9c 0")
    assert legal(state) == contracts(*range(100, 200, 5), 200, 210, 220)
    # both queens passed: no marriage left, 120
    state = std_declarer("give Qd 2", "give Qh 0")
    assert legal(state) == contracts(100, 105, 110, 115, 120)


def test_1_4_4_contract_never_goes_down() -> None:
    state = apply(new_deal(), "110", "pass", "pass", "give Qd 2", "give Qh 0")
    assert legal(state) == contracts(110, 115, 120)
    refused(state, "contract 105", "never goes down")
    refused(state, "contract 100", "never goes down")


def test_1_4_4_contract_move_required_once() -> None:
    state = std_declarer("give 9c 2", "give Jc 0")
    refused(state, "Ah", "must name its contract")
    refused(state, "pass", "auction is over")
    state = state.apply("contract 120")
    assert state.phase is Phase.PLAY
    assert (state.bid, state.contract) == (100, 120)
    assert legal(state) == set(hand_text(state.hands[1]).split())
    refused(state, "contract 125", "must play a card")


# --- 1.5 tricks ----------------------------------------------------------------------------


def test_1_5_declarer_leads_first_and_the_winner_leads_next() -> None:
    state = after_passing(_e11_hands())
    assert state.to_act == 1
    state = play_tricks(state, DEAL_E11[:3])
    assert state.completed_tricks[-1][2] == 2
    assert state.to_act == 2


def test_1_5_eight_tricks() -> None:
    state = scripted(DEAL_E11)
    assert state.over
    assert len(state.completed_tricks) == 8
    assert sum(state.tricks_won) == 8


def test_1_5_highest_card_of_the_suit_led_wins_without_trump() -> None:
    state = scripted(DEAL_2A)
    assert state.trump is None
    # "1: 9s Ad Ah": two aces of other suits never win
    assert state.completed_tricks[5] == (1, tuple(parse_cards("9s Ad Ah")), 1)


def test_1_5_highest_trump_wins() -> None:
    state = play_tricks(after_passing(OVERTRUMP), OVERTRUMP_TRICKS)
    state = play(state, "Ah Qd Ad")
    assert state.completed_tricks[-1][2] == 2
    state = scripted(DEAL_E11, upto=4)
    # "2: Ts Ks Qh": the queen of trumps beats the king and ten of spades
    assert state.completed_tricks[-1][2] == 1


def test_1_5_trump_of_trick_is_trump_when_led() -> None:
    state = scripted(DEAL_E11, upto=2)
    assert state.trump == DIAMONDS
    state = play(state, "Kh+")
    assert state.trump == HEARTS  # declared now, in force from the next trick
    assert legal(state) == tokens("9d")  # seat 2 is void in hearts: diamonds still trump here
    state = play(state, "9d")
    assert legal(state) == tokens("Ah Th Jh 9h")
    state = play(state, "Ah")
    assert state.completed_tricks[-1] == (1, tuple(parse_cards("Kh 9d Ah")), 2)


def test_1_5_rule1_follow_suit() -> None:
    state = play(after_passing(BEAT), "Qh Ah")
    assert legal(state) == tokens("Kh Th")
    refused(state, "Kd", "must follow suit")


def test_1_5_rule2_beat_if_you_can() -> None:
    state = play(after_passing(BEAT), "Qh")
    assert legal(state) == tokens("Ah")
    refused(state, "Jh", "must beat Qh")
    # unable to beat: any card of the suit
    assert legal(play(state, "Ah")) == tokens("Kh Th")


def test_1_5_rule2_holds_when_trump_is_led() -> None:
    state = play_tricks(after_passing(TRUMP_LED), TRUMP_LED_TRICKS)
    assert state.trump == HEARTS
    state = play(state, "Qh")
    assert legal(state) == tokens("Ah")


def test_1_5_rule2_no_duty_to_beat_once_trumped() -> None:
    state = play_tricks(after_passing(SPADES_RUFFED), SPADES_RUFFED_TRICKS)
    state = play(state, "Ks 9d")
    assert legal(state) == tokens("As 9s")


def test_1_5_rule3_trump_if_void() -> None:
    state = play_tricks(after_passing(SPADES_RUFFED), SPADES_RUFFED_TRICKS)
    state = play(state, "Ks")
    assert legal(state) == tokens("9d")
    refused(state, "Tc", "must play a trump")
    state = play_tricks(after_passing(OVERTRUMP), OVERTRUMP_TRICKS)
    state = play(state, "Ah")
    assert legal(state) == tokens("Qd 9d")  # no trump in the trick yet: any trump


def test_1_5_rule3_trump_if_void_and_undertrump_forced() -> None:
    state = play_tricks(after_passing(OVERTRUMP), OVERTRUMP_TRICKS)
    assert legal(play(state, "Ah Qd")) == tokens("Ad")  # must over-trump the queen
    refused(play(state, "Ah Qd"), "Jd", "over-trump")
    assert legal(play(state, "Ah 9d")) == tokens("Ad Jd")  # both beat the nine
    state = play_tricks(after_passing(UNDERTRUMP), UNDERTRUMP_TRICKS)
    state = play(state, "Ah Qd")
    assert legal(state) == tokens("Jd")  # cannot over-trump: must under-trump
    refused(state, "Kc", "must play a trump")


def test_1_5_rule4_otherwise_any_card() -> None:
    state = play(after_passing(BEAT), "Kc Tc")
    assert legal(state) == set(hand_text(state.hands[0]).split())
    assert len(legal(state)) == 8


def test_1_5_leader_may_lead_any_card() -> None:
    state = after_passing(BEAT)
    assert legal(state) == tokens(BEAT[1])


def test_1_5_no_move_after_the_last_trick() -> None:
    state = scripted(DEAL_E11)
    assert state.phase is Phase.DONE and state.over
    assert state.to_act is None
    assert state.legal_moves() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply("Ac")
    with pytest.raises(IllegalAction, match="over"):
        state.apply("pass")


# --- 1.6 marriages -------------------------------------------------------------------------


def test_1_6_1_declare_by_leading_the_k_or_q() -> None:
    state = scripted(DEAL_E11, upto=1)
    assert legal(state) == tokens("Ac Ad Td Kd Qd Kh Qh Kd+ Qd+ Kh+ Qh+")


def test_1_6_1_leading_k_or_q_without_declaring() -> None:
    state = play(scripted(DEAL_E11, upto=1), "Kd Jd Tc")
    assert state.marriages == ((), (), ())
    assert state.trump is None
    # the captured king never makes a marriage with the queen still held
    assert legal(state) == tokens("Ac Ad Td Qd Kh Qh Kh+ Qh+")
    refused(state, "Qd+", "without Kd")


def test_1_6_2_trick_required() -> None:
    state = after_passing(_e11_hands())
    assert legal(state) == tokens("As Ac Ad Td Kd Qd Kh Qh")
    refused(state, "Kd+", "has not won a trick")
    refused(state, "Qh+", "has not won a trick")


def test_1_6_2_marriage_completed_by_the_talon() -> None:
    # seat 1 was dealt Qd; the king of diamonds came with the talon
    state = std_declarer("give 9c 2", "give Jc 0", "contract 100")
    state = play(state, "Ah 9c Jh")
    assert state.to_act == 1
    assert {"Kd+", "Qd+", "Kh+", "Qh+"} <= legal(state)


def test_1_6_2_marriage_completed_by_a_passed_card() -> None:
    state = after_passing(OVERTRUMP, gives={0: "Kh"})
    assert not state.dealt[0] & cards("Kh")
    state = play_tricks(state, OVERTRUMP_TRICKS)
    assert state.to_act == 0
    assert {"Kh+", "Qh+"} <= legal(state)


def test_1_6_3_marriage_values_exact() -> None:
    e11 = outcome_of(scripted(DEAL_E11))  # diamonds 80 + hearts 100
    assert e11.marriages[1] == (DIAMONDS, HEARTS)
    assert e11.deal_points is not None and e11.deal_points[1] == 60 + 80 + 100
    ex3 = outcome_of(scripted(DEAL_EX3))  # clubs 60
    assert ex3.marriages[2] == (CLUBS,)
    assert ex3.deal_points is not None and ex3.deal_points[2] == 65 + 60
    d2b = outcome_of(scripted(DEAL_2B))  # spades 40
    assert d2b.marriages[1] == (SPADES,)
    assert d2b.deal_points is not None and d2b.deal_points[1] == 55 + 40


def test_1_6_3_marriage_scores_at_once() -> None:
    state = scripted(DEAL_E11, upto=1)
    state = play(state, "Kd+")
    assert state.marriages == ((), (DIAMONDS,), ())


def test_1_6_3_any_seat_may_declare_several() -> None:
    assert scripted(DEAL_E11).marriages == ((), (DIAMONDS, HEARTS), ())
    assert scripted(DEAL_EX3).marriages == ((), (), (CLUBS,))  # a defender


def test_1_6_4_trump_from_the_next_trick_replacing_the_earlier() -> None:
    states = [scripted(DEAL_E11, upto=k) for k in range(5)]
    assert [s.trump for s in states] == [None, None, DIAMONDS, HEARTS, HEARTS]
    # trick 4: seat 1, void in spades, must trump with hearts, no longer with diamonds
    state = play(states[3], "Ts Ks")
    assert legal(state) == tokens("Qh")


def test_1_6_4_no_trump_until_the_first_marriage() -> None:
    state = scripted(DEAL_2A)
    assert state.trump is None
    assert outcome_of(state).marriages == ((), (), ())


def test_1_6_5_no_four_aces_marriage() -> None:
    state = play(after_passing(FOUR_ACES), "Ac Jc Th")
    assert state.to_act == 1
    assert legal(state) == tokens("Ad Ah As 9c 9d 9h 9s")
    refused(state, "As+", "only a K or Q")


# --- 1.7 deal scoring ----------------------------------------------------------------------


def test_1_7_1_rounding_per_seat() -> None:
    table = {73: 75, 67: 65, 98: 100, 2: 0, 71: 70, 72: 70, 74: 75, 75: 75, 0: 0, 120: 120}
    assert {p: round_points(p, 5) for p in table} == table
    out = outcome_of(scripted(DEAL_2A))
    assert out.card_points == (15, 98, 7)
    assert out.deal_points == (15, 100, 5)


def test_1_7_1_rounded_figures_need_not_add_up_to_120() -> None:
    out = outcome_of(scripted(DEAL_UNEVEN))
    assert out.card_points == (16, 97, 7)
    assert out.deal_points == (15, 95, 5)


def test_1_7_2_deal_score_is_rounded_points_plus_marriages() -> None:
    out = outcome_of(scripted(DEAL_E11))
    assert out.card_points == (43, 62, 15)
    assert out.deal_points == (45, 60 + 180, 15)


def test_1_7_3_made_gains_the_contract_never_more() -> None:
    out = outcome_of(scripted(DEAL_E11))
    assert out.result == "made"
    assert out.scores[1] == 100  # its deal score is 240
    state = scripted(DEAL_E11, contract=120)
    assert outcome_of(state).scores[1] == 120


def test_1_7_3_failed_loses_the_contract() -> None:
    out = outcome_of(scripted(DEAL_EX3))
    assert out.result == "failed"
    assert out.deal_points is not None and out.deal_points[1] == 55
    assert out.scores[1] == -100
    out = outcome_of(scripted(DEAL_E11, contract=300))  # 240 < 300
    assert (out.result, out.scores[1]) == ("failed", -300)


def test_1_7_4_defenders_gain_their_own_deal_score() -> None:
    assert outcome_of(scripted(DEAL_E11)).scores == (45, 100, 15)
    assert outcome_of(scripted(DEAL_EX3)).scores == (0, -100, 125)
    assert outcome_of(scripted(DEAL_2B)).scores == (0, -100, 65)


# --- 1.8 counters and penalties ------------------------------------------------------------


def test_1_8_sticks() -> None:
    match = MatchState.start(RUSSIAN)
    stick_for_2 = played((100, 20, 0), tricks=(5, 3, 0))
    neutral = played((100, 20, 10), tricks=(4, 3, 1))
    deals = [stick_for_2, neutral, stick_for_2, neutral]
    match, reports = settle_all(match, deals)
    assert [r.changes[2] for r in reports] == [0, 10, 0, 10]
    assert match.sticks == (0, 0, 2)
    match, report = settle(match, stick_for_2)  # the third, not in a row
    # under russian a trickless defender also scored 0: its no-win count reaches 3 too
    assert report.changes[2] == -240
    assert events(report) == [(2, "stick-penalty"), (2, "no-win-penalty")]
    assert (match.sticks[2], match.no_wins[2]) == (0, 0)


def test_1_8_sticks_count_the_declarer_too() -> None:
    rules = russian({"penalty.no_win": "off"})
    match = MatchState.start(rules)
    failed_trickless = played((10, -100, 110), declarer=1, made=False, tricks=(3, 0, 5))
    match, reports = settle_all(match, [failed_trickless] * 3)
    assert [r.changes[1] for r in reports] == [-100, -100, -220]
    assert events(reports[2]) == [(1, "stick-penalty")]
    assert match.sticks == (0, 0, 0)


def test_1_8_no_win() -> None:
    match = MatchState.start(RUSSIAN)
    deals = [
        played((-100, 20, 30), made=False, tricks=(2, 3, 3)),  # seat 0 fails
        played((0, 100, 30), declarer=1, tricks=(1, 4, 3)),  # seat 0 defends for 0
        played((20, 0, 100), declarer=2, tricks=(2, 1, 5)),  # seat 0 wins; seat 1 scores 0
        played((-100, 20, 30), made=False, tricks=(2, 3, 3)),  # seat 0's third no-win deal
    ]
    match, reports = settle_all(match, deals)
    assert [r.changes[0] for r in reports] == [-100, 0, 20, -220]
    assert events(reports[3]) == [(0, "no-win-penalty")]
    assert match.no_wins == (0, 1, 0)
    assert match.sticks == (0, 0, 0)


def test_1_8_every_third_writeoff() -> None:
    match = MatchState.start(RUSSIAN)
    deals = [
        written_off(1, 100),
        written_off(2, 100),
        written_off(1, 105),
        written_off(1, 110),
    ]
    match, reports = settle_all(match, deals)
    assert reports[3].changes == (55, -230, 55)
    assert events(reports[3]) == [(1, "write-off-penalty")]
    assert match.writeoffs == (0, 0, 1)
    assert match.totals == (50 + 50 + 52 + 55, -100 + 50 - 105 - 230, 50 - 100 + 52 + 55)


def test_1_8_writeoff_adds_no_stick_and_no_mark_and_resets_none() -> None:
    rules = russian({"penalty.sticks": "in-a-row", "penalty.no_win": "in-a-row"})
    match = MatchState.start(rules)
    trickless_2 = played((100, 20, 0), tricks=(5, 3, 0))
    match, _ = settle_all(match, [trickless_2, trickless_2])
    assert (match.sticks, match.no_wins) == ((0, 0, 2), (0, 0, 2))
    match, _ = settle_all(match, [written_off(0, 100), written_off(2, 100)])
    assert (match.sticks, match.no_wins) == ((0, 0, 2), (0, 0, 2))
    match, report = settle(match, trickless_2)
    assert events(report) == [(2, "stick-penalty"), (2, "no-win-penalty")]


def test_1_8_counts_advance_on_the_barrel() -> None:
    match = MatchState.start(RUSSIAN, totals=(0, 0, 845))
    match, report = settle(match, played((100, 20, 55), tricks=(4, 3, 1)))
    assert match.on_barrel[2] and match.totals[2] == 880
    trickless_2 = played((100, 20, 0), tricks=(5, 3, 0))
    match, report = settle(match, trickless_2)
    assert (match.sticks[2], match.no_wins[2], report.totals[2]) == (1, 1, 880)
    match, report = settle(match, trickless_2)
    assert (match.sticks[2], match.no_wins[2], match.totals[2]) == (2, 2, 880)


def test_1_8_penalty_on_the_barrel_is_not_felt_but_lowers_the_change() -> None:
    # Pipeline only: a hand-built deal in which seat 2, on the barrel, scores 130 and yet takes
    # its third stick (no russian deal can do both; the clause is about the arithmetic).
    match = MatchState.start(russian({"penalty.no_win": "off"}), totals=(0, 0, 845))
    match, _ = settle(match, played((100, 20, 55), tricks=(4, 3, 1)))
    match = replace(match, sticks=(0, 0, 2))
    match, report = settle(match, played((100, 20, 130), tricks=(5, 3, 0)))
    assert report.changes[2] == 0  # 130 - 120 = 10 < 120: frozen at 880
    assert report.totals[2] == 880
    assert events(report) == [(2, "stick-penalty")]
    assert match.barrel_left[2] == 2


# --- 1.9 the running totals ----------------------------------------------------------------


def test_1_9_step1_mount() -> None:
    match = MatchState.start(RUSSIAN, totals=(845, 0, 0))
    match, report = settle(match, played((55, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert report.totals == (880, 100, 30)
    assert report.changes == (35, 100, 30)
    assert events(report) == [(0, "barrel-on")]
    assert (match.on_barrel, match.barrel_left[0]) == ((True, False, False), 3)
    match = MatchState.start(RUSSIAN, totals=(0, 850, 0))
    match, report = settle(match, played((20, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert report.totals == (20, 880, 30)
    assert events(report) == [(1, "barrel-on")]


def test_1_9_step1_target_without_cap() -> None:
    match = MatchState.start(RUSSIAN, totals=(860, 0, 0))
    match, report = settle(match, played((160, 20, 30), contract=160))
    assert report.totals == (1020, 20, 30)
    assert events(report) == [(0, "win")]
    assert match.winner == 0


def test_1_9_step1_mounting_deal_is_not_a_barrel_deal() -> None:
    match = MatchState.start(RUSSIAN, totals=(845, 0, 0))
    match, _ = settle(match, played((55, 100, 30), declarer=1, tricks=(3, 4, 1)))
    totals = []
    for _ in range(3):
        match, report = settle(match, played((45, 100, 30), declarer=1, tricks=(3, 4, 1)))
        totals.append(report.totals[0])
    assert totals == [880, 880, 760]


def test_1_9_step2_on_the_barrel_120_or_more_reaches_1000() -> None:
    mounted = _mounted_seat_0()
    match, report = settle(mounted, played((120, 20, 30), contract=120))
    assert report.totals[0] == 1000 and report.changes[0] == 120
    assert match.winner == 0
    match, report = settle(mounted, played((160, 100, 20), declarer=1, tricks=(3, 4, 1)))
    assert report.totals[0] == 1000 and report.changes[0] == 120
    assert events(report) == [(0, "win")]


def test_1_9_step2_frozen_at_880_and_one_deal_used() -> None:
    mounted = _mounted_seat_0()
    match, report = settle(mounted, played((45, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert (report.totals[0], report.changes[0], match.barrel_left[0]) == (880, 0, 2)
    match, report = settle(match, played((100, 20, 30)))
    assert (report.totals[0], match.barrel_left[0]) == (880, 1)
    match, report = settle(match, played((-100, 20, 30), made=False, tricks=(2, 3, 3)))
    assert report.totals[0] == 760


def test_1_9_step2_fall_to_760() -> None:
    match = _mounted_seat_0()
    for _ in range(3):
        match, report = settle(match, played((45, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert report.totals[0] == 760
    assert events(report) == [(0, "barrel-fall")]
    assert (match.on_barrel[0], match.falls[0]) == (False, 1)


def test_1_9_step2_third_fall_resets_to_0() -> None:
    # seat 0 mounts, falls, climbs back with a made 120, ... three times; seat 1 keeps failing
    match = _mounted_seat_0()
    on_barrel = played((45, -100, 30), declarer=1, made=False, tricks=(3, 2, 3))
    falls = []
    for climb in range(3):
        if climb:
            match, report = settle(match, played((120, 20, 30), contract=120))
            assert report.totals[0] == 880 and match.on_barrel[0]
        for _ in range(3):
            match, report = settle(match, on_barrel)
        falls.append((report.totals[0], [e for e in events(report) if e[0] == 0]))
    assert falls == [
        (760, [(0, "barrel-fall")]),
        (760, [(0, "barrel-fall")]),
        (0, [(0, "barrel-fall"), (0, "three-falls-reset")]),
    ]
    assert match.falls[0] == 0


def test_1_9_step2_writeoff_uses_a_barrel_deal() -> None:
    match = _mounted_seat_0()
    match, report = settle(match, written_off(1, 100))
    assert (report.totals[0], match.barrel_left[0]) == (880, 2)
    match, report = settle(match, written_off(0, 120))  # its own write-off: frozen too
    assert (report.totals[0], match.barrel_left[0]) == (880, 1)
    match, report = settle(match, written_off(2, 100))
    assert report.totals[0] == 760
    assert events(report) == [(0, "barrel-fall")]


def test_1_9_step3_dump_truck() -> None:
    match = MatchState.start(RUSSIAN, totals=(455, -435, 555))
    failed_120 = played((100, -120, 20), declarer=1, contract=120, made=False, tricks=(4, 2, 2))
    match, report = settle(match, failed_120)
    assert report.totals == (0, 0, 575)
    assert events(report) == [(0, "dump-truck"), (1, "dump-truck")]


def test_1_9_step3_dump_truck_only_when_the_total_changed() -> None:
    match = MatchState.start(RUSSIAN, totals=(0, 555, 0))
    match, report = settle(match, played((100, 0, 20), tricks=(5, 1, 2), deal_points=(100, 0, 20)))
    assert report.totals == (100, 555, 20)
    assert events(report) == []


def test_1_9_step4_collision_last_mounted_stays() -> None:
    match = MatchState.start(RUSSIAN, totals=(845, 700, 0))
    match, _ = settle(match, played((35, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert match.on_barrel == (True, False, False)
    match, report = settle(match, played((45, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert report.totals[:2] == (760, 880)
    assert events(report) == [(1, "barrel-on"), (0, "barrel-knocked-off")]
    assert match.on_barrel == (False, True, False)
    assert match.falls == (0, 0, 0)  # being knocked off is not a fall


def test_1_9_step4_collision_same_deal_declarer_stays() -> None:
    match = MatchState.start(RUSSIAN, totals=(780, 845, 790))
    match, report = settle(match, played((100, 35, 90), tricks=(4, 2, 2)))
    assert report.totals == (880, 760, 760)  # all three mounted; seat 0 declared
    assert events(report) == [
        (0, "barrel-on"),
        (1, "barrel-on"),
        (2, "barrel-on"),
        (1, "barrel-knocked-off"),
        (2, "barrel-knocked-off"),
    ]
    match = MatchState.start(RUSSIAN, totals=(0, 845, 790))
    match, report = settle(match, played((100, 35, 90), tricks=(4, 2, 2)))
    assert report.totals == (100, 880, 760)  # no declarer among them: the lowest seat


def test_1_9_step5_winner_highest_total() -> None:
    match = MatchState.start(RUSSIAN, totals=(0, 870, 850))
    match, report = settle(match, played((-100, 150, 150), made=False, tricks=(2, 3, 3)))
    assert report.totals == (-100, 1020, 1000)
    assert events(report) == [(1, "win")]
    assert match.winner == 1


def test_1_9_step5_tie_goes_to_the_declarer_else_the_lowest_seat() -> None:
    match = MatchState.start(RUSSIAN, totals=(870, 0, 870))
    match, report = settle(match, played((130, 20, 130), declarer=2, contract=130))
    assert report.totals == (1000, 20, 1000)
    assert match.winner == 2
    assert events(report) == [(2, "win")]
    match = MatchState.start(RUSSIAN, totals=(870, 870, 0))
    match, report = settle(match, played((130, 130, -100), declarer=2, made=False))
    assert report.totals == (1000, 1000, -100)
    assert match.winner == 0


def test_1_9_step5_no_deal_after_the_win() -> None:
    hands, talon, moves = setup(_e11_hands(), declarer=1)
    game = Game.start(RUSSIAN, totals=(0, 900, 0))
    game = game.new_deal(Dealt(tuple(hands), (talon,)))
    for move in (*moves, *trick_moves(DEAL_E11)):
        game = game.apply(move)
    assert game.reports[-1].totals == (45, 1000, 15)
    assert game.over and game.match.winner == 1
    assert game.reports[-1].events == (Event(1, "win"),)
    with pytest.raises(ValueError):
        game.new_deal(Dealt(tuple(hands), (talon,)))


def _mounted_seat_0() -> MatchState:
    match = MatchState.start(RUSSIAN, totals=(845, 0, 0))
    match, report = settle(match, played((35, 100, 30), declarer=1, tricks=(3, 4, 1)))
    assert report.totals[0] == 880 and match.on_barrel[0]
    return match
