"""rules.md part 2: house rules beyond the templates, each pinned in numbers.

``talon.shown``, ``talon.open_pass``, ``play.slam``, ``marriage.half_bonus``,
``scoring.pooled_defenders``, ``game.over_target`` and ``penalty.cross``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from thousand.cards import mask_of, parse_cards
from thousand.engine import (
    DealState,
    Game,
    IllegalAction,
    MatchState,
    Phase,
    round_points,
    settle,
)
from thousand.engine.dealing import Dealt
from thousand.engine.redeal import weak
from thousand.engine.views import view
from thousand.rules import Rules

from .positions import (
    DEAL_2A,
    DEAL_2B,
    FOUR_ACES,
    after_passing,
    apply,
    events,
    hands_from_tricks,
    new_deal,
    outcome_of,
    play_tricks,
    played,
    russian,
    scripted,
    setup,
)


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


# The declarer (seat 1) holds every ace and ten and takes all eight tricks.
SLAM = (
    "1: As Ks Qs",
    "1: Ts Js 9s",
    "1: Ah Kh Qh",
    "1: Th Jh 9h",
    "1: Ac Kc Qc",
    "1: Tc Jc 9c",
    "1: Ad Kd Qd",
    "1: Td Jd 9d",
)


def test_talon_shown() -> None:
    # always: everyone sees it once the auction is won
    state = apply(new_deal(rules=russian()), "100", "pass", "pass")
    assert view(state, 0).talon == state.talon and view(state, None).talon == state.talon
    # never: only the declarer sees it
    state = apply(new_deal(rules=russian({"talon.shown": "never"})), "100", "pass", "pass")
    assert view(state, 1).talon == state.talon
    assert view(state, 0).talon is None and view(state, 2).talon is None
    assert view(state, None).talon is None
    # not-on-minimum: hidden at the minimum contract with no other bid, shown after a raise bid
    rules = russian({"talon.shown": "not-on-minimum"})
    state = apply(new_deal(rules=rules), "100", "pass", "pass")
    assert view(state, 0).talon is None and view(state, 1).talon == state.talon
    state = apply(new_deal(rules=rules), "pass", "pass")  # the forced dealer 100
    assert state.declarer == 0 and view(state, 1).talon is None
    state = apply(new_deal(rules=rules), "100", "105", "pass", "pass")
    assert view(state, 0).talon == state.talon


def test_talon_open_pass() -> None:
    moves = ("100", "pass", "pass", "give Kd 0", "give 9h 2")
    hidden = apply(new_deal(rules=russian()), *moves)
    assert view(hidden, 0).passed is None and view(hidden, 0).received is not None
    shown = apply(new_deal(rules=russian({"talon.open_pass": True})), *moves)
    given = shown.given
    assert view(shown, 0).passed == given and view(shown, 2).passed == given
    assert view(shown, None).passed == given


def test_play_slam() -> None:
    plain = outcome_of(scripted(SLAM))
    assert plain.tricks == (0, 8, 0) and plain.scores == (0, 100, 0)
    fixed = outcome_of(scripted(SLAM, rules=russian({"play.slam": "fixed"})))
    assert fixed.scores == (0, 100 + 60, 0)
    bonus = outcome_of(scripted(SLAM, rules=russian({"play.slam": "fixed", "play.slam_bonus": 90})))
    assert bonus.scores == (0, 190, 0)
    double = outcome_of(scripted(SLAM, rules=russian({"play.slam": "double"})))
    assert double.scores == (0, 200, 0)
    # no slam without every trick: the declarer of DEAL_2A takes seven
    assert outcome_of(scripted(DEAL_2A, rules=russian({"play.slam": "fixed"}))).scores[1] == 100


def test_marriage_half_bonus() -> None:
    plain = outcome_of(scripted(DEAL_2A))
    assert plain.deal_points == (15, 100, 5)
    out = outcome_of(scripted(DEAL_2A, rules=russian({"marriage.half_bonus": 20})))
    # seat 1 captured Kh Qh and Ks Qs, seat 2 Kd Qd, none of them declared
    assert out.deal_points == (15, 100 + 40, 5 + 20)
    assert out.scores == (15, 100, 25)
    # a declared marriage is no half marriage: in DEAL_2B seat 1 declared spades (55 + 40) and
    # captured the K and Q of clubs, diamonds and hearts: 95 + 3 x 20
    b = outcome_of(scripted(DEAL_2B, rules=russian({"marriage.half_bonus": 20})))
    assert b.marriages[1] == (3,)
    assert b.deal_points == (0, 95 + 60, 65)


def test_scoring_pooled_defenders() -> None:
    out = outcome_of(scripted(DEAL_2A, rules=russian({"scoring.pooled_defenders": True})))
    assert out.deal_points == (15, 100, 5)  # each seat's own deal score is kept
    assert out.scores == (10, 100, 10)  # (15 + 5) / 2 each


def test_game_over_target_exact() -> None:
    rules = russian({"game.over_target": "exact", "barrel.threshold": None})
    match = MatchState.start(rules, totals=(900, 0, 0))
    match, report = settle(match, played([120, -100, 20], declarer=1, made=False))
    assert report.totals == (999, -100, 20) and match.winner is None
    match = MatchState.start(rules, totals=(880, 0, 0))
    match, report = settle(match, played([120, -100, 20], declarer=1, made=False))
    assert report.totals == (1000, -100, 20) and match.winner == 0


def test_penalty_cross() -> None:
    rules = russian({"penalty.cross": True, "penalty.no_win": "off"})
    match = MatchState.start(rules)
    failed = played([30, -110, 40], declarer=1, contract=110, made=False)
    match, report = settle(match, failed)
    assert report.changes == (30, 0, 40) and match.crosses == (0, 1, 0)
    match, report = settle(match, failed)
    assert report.changes == (30, -120, 40) and match.crosses == (0, 0, 0)
    assert (1, "cross-penalty") in events(report)
    amount = russian({"penalty.cross": True, "penalty.cross_amount": 50, "penalty.no_win": "off"})
    match = MatchState.start(amount)
    for _ in range(2):
        match, report = settle(match, failed)
    assert report.changes[1] == -50


# --- redeals asked for by a seat ------------------------------------------------------------

NINES_HANDS = ["9c 9d 9h 9s Ac Ad Ah", "Jc Jd Jh Js Kc Kd Kh", "Qc Qd Qh Tc Td Th Ts"]
NINES_TALON = "As Ks Qs"


def nines_deal(overrides: dict[str, object], talon: str = NINES_TALON) -> DealState:
    hands = [cards(h) for h in NINES_HANDS]
    return DealState.new(russian(overrides), 2, hands, cards(talon))


def test_redeal_four_nines_optional_and_mandatory() -> None:
    assert nines_deal({}).phase is Phase.AUCTION  # off: nobody is asked
    state = nines_deal({"redeal.four_nines": "optional"})
    assert (state.phase, state.to_act) == (Phase.REDEAL, 0)
    assert state.legal_moves() == ["redeal", "pass"]
    declined = state.apply("pass")
    assert (declined.phase, declined.to_act) == (Phase.AUCTION, 0)
    asked = state.apply("redeal")
    out = outcome_of(asked)
    assert (out.result, out.declarer, out.card_points, out.scores) == (
        "redealt",
        None,
        None,
        (0,) * 3,
    )
    match, report = settle(MatchState.start(russian(), dealer=2), out)
    assert (match.dealer, report.changes) == (2, (0, 0, 0))  # the same dealer deals again
    mandatory = nines_deal({"redeal.four_nines": "mandatory"})
    assert mandatory.legal_moves() == ["redeal"]
    assert not mandatory.is_legal("pass")


def test_redeal_three_nines_four_jacks_and_seats_in_turn_from_forehand() -> None:
    # exactly three 9s: four 9s are not three
    assert nines_deal({"redeal.three_nines": "optional"}).phase is Phase.AUCTION
    state = nines_deal({"redeal.four_nines": "optional", "redeal.four_jacks": "mandatory"})
    assert state.to_act == 0 and state.legal_moves() == ["redeal", "pass"]
    state = state.apply("pass")  # then seat 1, with four jacks, must redeal
    assert (state.phase, state.to_act, state.legal_moves()) == (Phase.REDEAL, 1, ["redeal"])
    hands = ["9c 9d 9h Js Ac Ad Ah", "Jc Jd Jh 9s Kc Kd Kh", "Qc Qd Qh Tc Td Th Ts"]
    three = DealState.new(
        russian({"redeal.three_nines": "optional"}),
        2,
        [cards(h) for h in hands],
        cards(NINES_TALON),
    )
    assert (three.phase, three.to_act) == (Phase.REDEAL, 0)


def test_redeal_weak_hand() -> None:
    strict = russian({"redeal.weak_hand": "strict"})
    loose = russian({"redeal.weak_hand": "loose"})
    counted = russian({"redeal.weak_hand": "counted"})
    low = cards("9c 9d Jh Js Qc Kd Jc")  # 2+2+3+4+2 = 13 points, no ace, no marriage
    tens = cards("9c 9d Th Ts Qc Kd Jc")  # 31 points
    married = cards("Kc Qc 9d 9h 9s Jd Jh")  # a marriage
    assert weak(strict, cards("9c 9d Jh Js Qc 9h Jc")) and not weak(strict, low)
    assert weak(loose, low) and weak(loose, tens) and not weak(loose, married)
    assert weak(counted, low) and not weak(counted, tens)  # below 14 card points
    assert weak(russian({"redeal.weak_hand": "counted", "redeal.weak_hand_below": 40}), tens)
    assert not weak(russian(), low)


def test_redeal_bad_talon_and_two_nines_in_talon() -> None:
    rules = {"redeal.bad_talon": "any"}
    hands = ["Qs Ks 9c Ac Ad Ah 9s", "Jc Jd Jh Js Kc Kd Kh", "Qc Qd Qh Tc Td Th Ts"]
    low = DealState.new(russian(rules), 2, [cards(h) for h in hands], cards("9d 9h As"))
    assert "redeal" not in apply(low, "100", "pass", "pass").legal_moves()  # 11 points
    poor = ["Qs Ks 9c Ac Ad Ah 9s", "Jc Jd Jh As Kc Kd Kh", "Qc Qd Qh Tc Td Th Ts"]
    state = apply(
        DealState.new(russian(rules), 2, [cards(h) for h in poor], cards("9d 9h Js")),
        "100",
        "pass",
        "pass",
    )
    assert "redeal" in state.legal_moves()  # 2 card points, below 4
    assert outcome_of(state.apply("redeal")).result == "redealt"
    bad = DealState.new(
        russian(rules),
        2,
        [cards(h) for h in hands[:2]] + [cards("Qc Qd Qh Tc Td Th As")],
        cards("9d 9h Ts"),
    )
    assert "redeal" not in apply(bad, "100", "pass", "pass").legal_moves()  # 10 points
    two = DealState.new(
        russian({"redeal.two_nines_in_talon": "any"}),
        2,
        [cards(h) for h in hands[:2]] + [cards("Qc Qd Qh Tc Td Th As")],
        cards("9d 9h Ts"),
    )
    state = apply(two, "100", "pass", "pass")
    assert "redeal" in state.legal_moves()
    assert outcome_of(state.apply("redeal")).result == "redealt"
    assert "redeal" not in state.apply("give 9d 1").legal_moves()  # only before the first pass
    only_min = DealState.new(
        russian({"redeal.two_nines_in_talon": "minimum-only"}),
        2,
        [cards(h) for h in hands[:2]] + [cards("Qc Qd Qh Tc Td Th As")],
        cards("9d 9h Ts"),
    )
    assert "redeal" in apply(only_min, "100", "pass", "pass").legal_moves()
    assert "redeal" not in apply(only_min, "105", "pass", "pass").legal_moves()
    few = {"redeal.bad_talon": "any", "redeal.bad_talon_below": 11}
    tiny = DealState.new(
        russian(few),
        2,
        [cards(h) for h in hands[:2]] + [cards("Qc Qd Qh Tc Td Th As")],
        cards("9d 9h Ts"),
    )
    assert "redeal" in apply(tiny, "100", "pass", "pass").legal_moves()  # 10 below 11


def test_barrel_overshoot() -> None:
    rules = russian({"barrel.overshoot": True, "bidding.max": 300})
    on = MatchState.start(rules, totals=(845, 0, 0))
    on, report = settle(on, played([35, 100, 20], declarer=1))
    assert on.on_barrel[0]
    # failing 160 on the barrel: 880 - 160 = 720 at once, a fall
    match, report = settle(on, played([-160, 40, 60], declarer=0, contract=160, made=False))
    assert report.totals[0] == 720 and not match.on_barrel[0]
    assert match.falls[0] == 1 and (0, "barrel-fall") in events(report)
    # a failed 120 is no overshoot: it only uses up a barrel deal
    match, report = settle(on, played([-120, 40, 60], declarer=0, contract=120, made=False))
    assert report.totals[0] == 880 and match.on_barrel[0] and match.barrel_left[0] == 2
    # without the rule, a failed 160 only uses up a deal too
    plain = MatchState.start(russian({"bidding.max": 300}), totals=(845, 0, 0))
    plain, _ = settle(plain, played([35, 100, 20], declarer=1))
    plain, report = settle(plain, played([-160, 40, 60], declarer=0, contract=160, made=False))
    assert report.totals[0] == 880


def test_bidding_silence_below() -> None:
    rules = russian({"bidding.silence_below": -100})
    hands = [cards(h) for h in NINES_HANDS]
    game = Game.start(rules, totals=(0, -105, -100), dealer=0).new_deal(
        Dealt(tuple(hands), (cards(NINES_TALON),))
    )
    assert game.deal is not None and game.deal.to_act == 1
    assert game.deal.legal_moves() == ["pass"]  # -105 is below -100
    with pytest.raises(IllegalAction, match="silence_below"):
        game.apply("100")
    game = game.apply("pass")
    assert game.deal is not None and "100" in game.deal.legal_moves()  # -100 is not below
    # a silent seat forced to bid still bids
    forced = russian({"bidding.silence_below": -100, "bidding.forced": "forehand"})
    game = Game.start(forced, totals=(0, -105, -100), dealer=0).new_deal(
        Dealt(tuple(hands), (cards(NINES_TALON),))
    )
    assert game.deal is not None and "pass" not in game.deal.legal_moves()
    assert "100" in game.deal.legal_moves()


def at_contra(tricks: tuple[str, ...], rules: Rules) -> DealState:
    """A scripted deal (seat 1 declares 100) stopped when its contract is named."""
    hands, talon, moves = setup(hands_from_tricks(tricks), rules=rules)
    return apply(DealState.new(rules, 0, hands, talon), *moves)


def test_bidding_contra_and_recontra() -> None:
    # DEAL_2A: seat 1 makes 100 (98 card points); DEAL_2B: it fails 100
    plain = outcome_of(scripted(DEAL_2A))
    assert plain.scores == (15, 100, 5)
    rules = russian({"bidding.contra": "contra"})
    state = at_contra(DEAL_2A, rules)
    # after the contract move, defenders from the declarer's left: seat 2, then seat 0
    assert (state.phase, state.to_act, state.legal_moves()) == (Phase.CONTRA, 2, ["contra", "pass"])
    assert apply(state, "pass", "pass").phase is Phase.PLAY
    doubled = apply(state, "pass", "contra")
    assert doubled.phase is Phase.PLAY  # no recontra under contra alone
    assert outcome_of(play_tricks(doubled, DEAL_2A)).scores == (15, 200, 5)
    both = russian({"bidding.contra": "contra-recontra", "bidding.contra_multiplier": 3})
    state = apply(at_contra(DEAL_2B, both), "contra")
    assert (state.to_act, state.legal_moves()) == (1, ["recontra", "pass"])
    once = outcome_of(play_tricks(state.apply("pass"), DEAL_2B))
    assert once.result == "failed" and once.scores[1] == -300
    twice = outcome_of(play_tricks(state.apply("recontra"), DEAL_2B))
    assert twice.scores[1] == -900


def test_bidding_forced_concession() -> None:
    split = russian({"bidding.forced_concession": "equal-split"})
    # the forced dealer 100: seat 0 (the dealer) may concede before the talon is shown
    state = apply(new_deal(rules=split), "pass", "pass")
    assert (state.phase, state.to_act, state.legal_moves()) == (
        Phase.CONCESSION,
        0,
        ["concede", "pass"],
    )
    assert not state.talon_shown
    out = outcome_of(state.apply("concede"))
    assert (out.result, out.card_points, out.scores) == ("conceded", None, (-100, 50, 50))
    match, report = settle(MatchState.start(split), out)
    assert report.changes == (-100, 50, 50) and match.dealer == 1
    played_on = state.apply("pass")
    assert played_on.phase is Phase.PASSING and played_on.talon_shown
    each = russian({"bidding.forced_concession": "each-full"})
    out = outcome_of(apply(new_deal(rules=each), "pass", "pass", "concede"))
    assert out.scores == (-100, 100, 100)
    # a bid nobody forced is no forced contract: no concession
    assert apply(new_deal(rules=split), "100", "pass", "pass").phase is Phase.PASSING
    last = russian({"bidding.forced_concession": "equal-split", "bidding.forced": "last-seat"})
    assert apply(new_deal(rules=last), "pass", "pass", "100").phase is Phase.CONCESSION
    assert apply(new_deal(rules=last), "pass", "100", "pass").phase is Phase.PASSING


def test_game_tiebreak_continue() -> None:
    rules = russian({"game.tiebreak": "continue"})
    match = MatchState.start(rules, totals=(850, 870, 0))
    # both defenders reach 1000: nobody wins, the target and the barrel go up by 500
    match, report = settle(match, played([150, 130, -100], declarer=2, made=False))
    assert report.totals == (1000, 1000, -100) and match.winner is None
    assert match.target == 1500 and (0, "target-raised") in events(report)
    # 1000 + 380 = 1380: on the raised barrel (1380), not a win
    match, report = settle(match, played([380, 20, -100], declarer=2, made=False))
    assert report.totals[0] == 1380 and match.on_barrel[0]
    # a single seat at the raised target wins
    match, report = settle(match, played([120, 20, -100], declarer=2, made=False))
    assert report.totals[0] == 1500 and match.winner == 0
    # under the default tiebreak the highest total wins at once
    plain = MatchState.start(russian(), totals=(850, 870, 0))
    plain, report = settle(plain, played([150, 140, -100], declarer=2, made=False))
    assert plain.winner == 1


def test_marriage_aces() -> None:
    free = {"marriage.trick_required": False}
    plain = after_passing(FOUR_ACES, rules=russian(free))
    assert "As+" not in plain.legal_moves()  # off: an ace declares nothing
    rules = russian({**free, "marriage.aces": "on", "marriage.aces_value": 150})
    state = after_passing(FOUR_ACES, rules=rules)
    assert {"Ac+", "Ad+", "Ah+", "As+"} <= set(state.legal_moves())
    state = state.apply("As+")
    assert state.marriages[1] == (4,) and state.trump is None  # on: it scores, sets no trump
    while not state.over:
        state = state.apply(state.legal_actions()[0])
    out = outcome_of(state)
    assert out.card_points is not None and out.deal_points is not None
    assert out.deal_points[1] == round_points(out.card_points[1], 5) + 150
    trump = russian({**free, "marriage.aces": "sets-trump"})
    state = after_passing(FOUR_ACES, rules=trump).apply("Ah+")
    assert state.trump == 2 and state.core().trick_trump == 2  # hearts, from this very trick
    state = after_passing(FOUR_ACES, rules=russian({"marriage.aces": "on"}))
    assert "As+" not in state.legal_moves()  # no trick won yet: the same rule as marriages


def test_marriage_announce_from_hand() -> None:
    on_lead = scripted(DEAL_2B, upto=1)  # seat 1 won the first trick and holds Ks Qs
    assert "declare s" not in on_lead.legal_moves() and "Ks+" in on_lead.legal_moves()
    rules = russian({"marriage.announce": "from-hand"})
    state = scripted(DEAL_2B, rules=rules, upto=1)
    assert {"declare s", "Ks+", "Qs+"} <= set(state.legal_moves())
    state = state.apply("declare s")
    assert state.marriages[1] == (3,) and state.to_act == 1
    # the seat still leads, any card, and declares nothing more on this lead
    assert not any(m.startswith("declare") or m.endswith("+") for m in state.legal_moves())
    assert "Tc" in state.legal_moves()
    state = state.apply("Js")
    assert state.core().trick_trump == -1  # spades are trump from the next trick
    assert state.trump == 3
    out = outcome_of(scripted(DEAL_2B))
    assert out.deal_points is not None and out.deal_points[1] == 95  # 55 + spades 40
    this = russian({"marriage.announce": "from-hand", "marriage.trump_from": "this-trick"})
    state = scripted(DEAL_2B, rules=this, upto=1).apply("declare s").apply("Js")
    assert state.core().trick_trump == 3


def golden_game(overrides: dict[str, object], writeoffs: int) -> Game:
    """A match whose first ``writeoffs`` deals (dealt from seed 5) are written off at once."""
    rng = random.Random(5)
    game = Game.start(russian(overrides))
    for _ in range(writeoffs):
        game = game.shuffle_and_deal(rng)
        assert game.deal is not None
        game = game.apply("writeoff")
    return game


def test_golden_deals() -> None:
    rules: dict[str, object] = {"golden.deals": 2, "writeoff.penalty_every": 0}
    game = Game.start(russian(rules)).shuffle_and_deal(random.Random(5))
    state = game.deal
    assert state is not None and state.core().golden
    # no auction: forehand (seat 1) declares at 1000 - 880 = 120, the talon already taken
    assert (state.phase, state.declarer, state.bid, state.auction) == (Phase.PASSING, 1, 120, ())
    game = golden_game(rules, 2)
    assert game.reports[0].outcome.golden and game.reports[1].outcome.golden
    assert game.reports[0].changes == (60, -120, 60)
    assert game.match.golden_played == 2
    game = game.shuffle_and_deal(random.Random(6))
    assert game.deal is not None and not game.deal.core().golden  # the third deal is not
    assert game.deal.phase is Phase.AUCTION


def test_golden_doubled_marriages_and_contract() -> None:
    rng = random.Random(3)
    for overrides in ({}, {"golden.marriages_doubled": True, "golden.contract_doubled": True}):
        game = Game.start(russian({"golden.deals": 1, **overrides})).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            legal = game.deal.legal_actions()
            game = game.apply(max(legal) if game.deal.phase is Phase.PLAY else legal[-1])
        out = game.reports[-1].outcome
        assert out.golden and out.contract is not None
        factor = 2 if overrides else 1
        assert abs(out.scores[out.declarer or 0]) == out.contract * factor


def test_golden_if_all_fail() -> None:
    rules: dict[str, object] = {"golden.deals": 2, "writeoff.penalty_every": 0}
    reset = golden_game({**rules, "golden.if_all_fail": "reset"}, 2)
    assert reset.reports[0].totals == (60, -120, 60)
    assert reset.match.totals == (0, 0, 0)  # every golden deal failed: back to 0
    assert (0, "golden-reset") in events(reset.reports[1])
    again = golden_game({**rules, "golden.if_all_fail": "replay"}, 3)
    assert all(r.outcome.golden for r in again.reports)  # the golden deals are played again
    carry = golden_game({**rules, "golden.if_all_fail": "continue"}, 2)
    assert carry.match.totals == (60 + 60, -120 + 60, 60 - 120)
    assert carry.shuffle_and_deal(random.Random(1)).deal is not None


def test_penalty_sticks_doubled_golden() -> None:
    rules = russian({"penalty.sticks_doubled": "golden", "penalty.no_win": "off"})
    match = MatchState.start(rules)
    golden = replace(played([0, 100, 20], declarer=1, tricks=(0, 5, 3)), golden=True)
    match, report = settle(match, golden)
    assert match.sticks == (2, 0, 0)
    match, report = settle(match, played([0, 100, 20], declarer=1, tricks=(0, 5, 3)))
    assert (0, "stick-penalty") in events(report) and report.changes[0] == -120


def test_bidding_reentry() -> None:
    plain = apply(new_deal(rules=russian()), "100", "pass", "105", "110")
    assert plain.to_act == 0  # seat 2 passed: it is skipped
    rules = russian({"bidding.reentry": True})
    state = apply(new_deal(rules=rules), "100", "pass", "105", "110")
    assert state.to_act == 2 and {"115", "120", "pass"} == set(state.legal_moves())
    state = apply(state, "115", "pass", "120")
    assert state.to_act == 2 and state.phase is Phase.AUCTION  # back in: asked as usual
    state = state.apply("pass")
    assert (state.declarer, state.bid) == (1, 120)
    # a second pass is final: seat 2 passes twice and is not asked again
    state = apply(new_deal(rules=rules), "100", "pass", "105", "110", "pass")
    assert state.to_act == 0
    state = apply(state, "115", "120")
    assert state.to_act == 0 and state.phase is Phase.AUCTION
    # all but one passed: the auction ends, whoever could still have come back
    state = apply(new_deal(rules=rules), "100", "pass", "pass")
    assert state.declarer == 1


def test_barrel_pit() -> None:
    rules = russian({"barrel.pit": 500})
    match = MatchState.start(rules, totals=(460, 0, 0))
    # 460 + 65 crosses 500: held at 500
    match, report = settle(match, played([65, 100, 20], declarer=1))
    assert report.totals[0] == 500 and match.in_pit[0] and (0, "pit") in events(report)
    # defending for 40 more: still 500
    match, report = settle(match, played([40, 100, 20], declarer=1))
    assert report.totals[0] == 500 and report.changes[0] == 0
    # making a contract lets it out: 500 + 100
    out, report = settle(match, played([100, 40, 20], declarer=0))
    assert report.totals[0] == 600 and not out.in_pit[0]
    # so does losing points: 500 - 100
    out, report = settle(match, played([-100, 40, 20], declarer=0, made=False))
    assert report.totals[0] == 400 and not out.in_pit[0]
    # without the rule nothing stops it
    _, report = settle(
        MatchState.start(russian(), totals=(460, 0, 0)), played([65, 100, 20], declarer=1)
    )
    assert report.totals[0] == 525


def test_talon_buyback() -> None:
    rules = russian({"talon.buyback": True, "talon.buyback_cost": 70})
    state = apply(new_deal(rules=rules), "100", "pass", "pass")
    # before the talon is shown, the declarer may throw in
    assert (state.phase, state.legal_moves()) == (Phase.CONCESSION, ["buyback", "pass"])
    assert not state.talon_shown and view(state, 1).talon is None
    out = outcome_of(state.apply("buyback"))
    assert (out.result, out.declarer, out.card_points, out.scores) == (
        "redealt",
        1,
        None,
        (0, -70, 0),
    )
    match, report = settle(MatchState.start(rules, totals=(0, 100, 0), dealer=0), out)
    assert report.changes == (0, -70, 0) and report.totals == (0, 30, 0)
    assert match.dealer == 0  # the same dealer deals again
    assert state.apply("pass").talon_shown
    assert apply(new_deal(rules=russian()), "100", "pass", "pass").phase is Phase.PASSING


def test_redeal_all_pass_raspasy() -> None:
    rules = russian({"bidding.forced": "none", "redeal.all_pass": "raspasy"})
    state = apply(new_deal(rules=rules), "pass", "pass")
    # no declarer; each seat takes one talon card (8 each), forehand leads, no trump
    assert (state.phase, state.declarer, state.to_act) == (Phase.PLAY, None, 1)
    assert [h.bit_count() for h in state.hands] == [8, 8, 8]
    while not state.over:
        legal = state.legal_moves()
        assert not any(m.endswith("+") for m in legal)  # no marriage in raspasy
        state = state.apply(legal[0])
    assert state.trump is None
    out = outcome_of(state)
    assert out.result == "raspasy" and out.declarer is None
    assert out.card_points is not None and sum(out.card_points) == 120
    assert out.tricks is not None and sum(out.tricks) == 8
    rounded = tuple(round_points(p, 5) for p in out.card_points)
    assert out.deal_points == rounded and out.scores == tuple(-r for r in rounded)
    match, report = settle(MatchState.start(rules), out)
    assert report.changes == out.scores and match.dealer == 1


def test_talon_rebuy() -> None:
    rules = russian({"talon.rebuy": True, "talon.rebuy_contract": 160, "bidding.max": 300})
    state = apply(new_deal(rules=rules), "100", "pass", "pass")
    # the talon is shown; seat 2, then seat 0 (from the declarer's left) may take it over
    assert (state.phase, state.to_act, state.legal_moves()) == (Phase.REBUY, 2, ["rebuy", "pass"])
    assert view(state, 2).talon == state.talon
    nobody = apply(state, "pass", "pass")
    assert (nobody.phase, nobody.declarer, nobody.to_act) == (Phase.PASSING, 1, 1)
    taken = apply(state, "pass", "rebuy")
    assert (taken.declarer, taken.bid, taken.contract, taken.to_act) == (0, 160, 160, 0)
    assert taken.hands[0] & taken.talon == taken.talon and not taken.hands[1] & taken.talon
    assert taken.hands[1] == taken.dealt[1]
    taken = apply(taken, *[m for m in taken.legal_moves() if m.startswith("give")][:1])
    assert taken.phase is Phase.PASSING
    assert apply(new_deal(rules=russian()), "100", "pass", "pass").phase is Phase.PASSING
