"""The open-card solver: exact against a brute-force minimax, the engine's legal moves, and
pinned positions."""

from __future__ import annotations

import random

import pytest

from tests.positions import after_passing, play_tricks
from thousand.bots.solver import (
    Solver,
    can_make,
    declarer_points,
    declarer_side,
    points_needed,
    solve,
)
from thousand.cards import points_of
from thousand.engine.actions import WRITE_OFF
from thousand.engine.deal import Deal, Phase
from thousand.engine.state import DealState
from thousand.rules import template_rules

TEMPLATES = (
    "russian",
    "russian-classic",
    "ukrainian",
    "tysiac",
    "four-player-b",
    "four-player",
    "polish-2card",
    "soviet-book",
    "two-player-b",
)


def brute(d: Deal) -> int:
    """The declarer's final raw points by plain minimax over the engine's own moves."""
    if d.phase is Phase.DONE:
        return declarer_points(d)
    values = []
    for a in d.legal_actions():
        e = d.copy()
        e.apply(a)
        values.append(brute(e))
    return max(values) if d.to_act in declarer_side(d) else min(values)


def random_play_deal(template: str, rng: random.Random) -> Deal:
    """A random deal at its first lead (random auction and passing, no write-off)."""
    rules = template_rules(template)
    while True:
        d = DealState.shuffled(rules, rng.randrange(rules.players_count), rng).core()
        while d.phase not in (Phase.PLAY, Phase.DONE):
            acts = [a for a in d.legal_actions() if a != WRITE_OFF]
            d.apply(rng.choice(acts))
        if d.phase is Phase.PLAY:
            return d


def small_position(template: str, rng: random.Random) -> Deal:
    """A random position with three or four tricks left, sometimes in the middle of a trick."""
    while True:
        d = random_play_deal(template, rng)
        for _ in range(rng.randrange(12, 16)):
            d.apply(rng.choice(d.legal_actions()))
        if d.phase is Phase.PLAY:
            return d


@pytest.mark.parametrize("template", TEMPLATES)
def test_solver_equals_brute_force(template: str) -> None:
    rng = random.Random(template)
    for _ in range(12):
        d = small_position(template, rng)
        assert solve(d) == brute(d)


@pytest.mark.parametrize("template", TEMPLATES)
def test_value_of_each_card_equals_brute_force(template: str) -> None:
    rng = random.Random(template + "cards")
    for _ in range(6):
        d = small_position(template, rng)
        values = Solver(d).move_values()
        assert sorted(values) == sorted(d.legal_actions())
        have = declarer_points(d)
        for a, v in values.items():
            e = d.copy()
            e.apply(a)
            assert have + v == brute(e)


def seat_points(d: Deal, seat: int) -> int:
    """What ``seat`` holds so far on its own: card points, its marriages, the last trick's
    bonus once the deal is done."""
    bonus = 0
    if d.rules.play_last_trick_bonus and d.phase is Phase.DONE and d.completed:
        bonus = d.rules.play_last_trick_bonus if d.completed[-1][2] == seat else 0
    return points_of(d.won[seat]) + d.marriage_points(seat) + bonus


def brute_seat(d: Deal, seat: int) -> int:
    """``seat``'s own final raw points by plain minimax: it maximises them, every other seat
    minimises them."""
    if d.phase is Phase.DONE:
        return seat_points(d, seat)
    values = []
    for a in d.legal_actions():
        e = d.copy()
        e.apply(a)
        values.append(brute_seat(e, seat))
    return max(values) if d.to_act == seat else min(values)


@pytest.mark.parametrize("template", TEMPLATES)
def test_one_seats_own_gain_equals_brute_force(template: str) -> None:
    """Asked for one seat's gain (``side``), the solver's value of each card is that seat's own
    points against every other seat, declarer and partner included."""
    rng = random.Random(template + "own")
    for _ in range(4):
        d = small_position(template, rng)
        for seat in d.order:
            have = seat_points(d, seat)
            solver = Solver(d, side=(seat,))
            assert have + solver.value() == brute_seat(d, seat)
            for a, v in solver.move_values().items():
                e = d.copy()
                e.apply(a)
                assert have + v == brute_seat(e, seat)


@pytest.mark.parametrize("template", TEMPLATES)
def test_can_make_agrees_with_the_value(template: str) -> None:
    rng = random.Random(template + "make")
    for _ in range(6):
        d = small_position(template, rng)
        best = solve(d)
        assert Solver(d).at_least(best - declarer_points(d))
        assert not Solver(d).at_least(best - declarer_points(d) + 1)
        for contract in (100, 110, 120):
            need = points_needed(d, contract)
            assert can_make(d, contract) == (best >= need)
        makes = Solver(d).move_makes(best - declarer_points(d))
        values = Solver(d).move_values()
        assert makes == {a: declarer_points(d) + v >= best for a, v in values.items()}


@pytest.mark.parametrize("template", TEMPLATES)
def test_solver_moves_are_the_engine_moves(template: str) -> None:
    rng = random.Random(template + "legal")
    for _ in range(20):
        d = random_play_deal(template, rng)
        while d.phase is Phase.PLAY:
            assert sorted(Solver(d).legal()) == sorted(d.legal_actions())
            d.apply(rng.choice(d.legal_actions()))


def test_points_needed_follows_the_rounding() -> None:
    d = random_play_deal("russian", random.Random(1))
    # russian rounds to 5 before the check: 98 rounds to 100, 97 to 95.
    assert points_needed(d, 100) == 98
    assert points_needed(d, 120) == 118
    t = random_play_deal("tysiac", random.Random(1))
    assert points_needed(t, 100) == 95  # tysiac rounds to 10: 95 rounds up to 100
    c = random_play_deal("russian-classic", random.Random(1))
    assert points_needed(c, 100) == 100  # russian-classic checks the raw points


def test_a_pinned_position() -> None:
    """Seat 1 declares with every ace and ten and the hearts marriage: it takes all 120 card
    points and the marriage (220), and can make 220 but not 225."""
    state = after_passing(
        ["Kc Qc Jc 9c Kd Qd Jd 9d", "Ac Tc Ad Td Ah Th Kh Qh", "As Ts Ks Qs Js 9s Jh 9h"],
        bid=120,
        contract=220,
    )
    d = state.core()
    assert solve(d) == 220
    assert can_make(d, 220)
    assert not can_make(d, 225)
    # Leading the king of hearts at once (no trick yet) gives up the marriage: 120 only.
    king_of_hearts = 15
    assert king_of_hearts in Solver(d).legal()
    d.apply(king_of_hearts)
    assert solve(d) == 120


def test_a_pinned_endgame() -> None:
    """Two tricks left, no trump, seat 1 to lead with Ac 9c against Kc 9s (seat 2) and Tc Jc
    (seat 0). The ace first takes Ac Kc Jc (17) and loses 9c to the ten; the nine first loses
    to the ten, and the ace then takes seat 0's jack lead: 13."""
    state = after_passing(
        ["Tc Jc Qc Jd 9d Jh 9h Js", "Ac 9c Ad Td Ah Th As Ts", "Kc Kd Qd Kh Qh Ks Qs 9s"]
    )
    state = play_tricks(
        state,
        ["1: Ad Kd Jd", "1: Td Qd 9d", "1: Ah Kh Jh", "1: Th Qh 9h", "1: As Ks Js", "1: Ts Qs Qc"],
    )
    d = state.core()
    assert declarer_points(d) == 93
    ace, nine = 5, 0
    assert Solver(d).move_values() == {ace: 17, nine: 13}
    assert solve(d) == 110
    assert brute(d) == 110


@pytest.mark.parametrize("template", ["russian", "four-player-b"])
def test_declarer_points_decide_the_result_as_the_engine_does(template: str) -> None:
    """The side the solver counts is the engine's: with partners, the partner's points count."""
    rng = random.Random(template + "result")
    for _ in range(30):
        d = random_play_deal(template, rng)
        while d.phase is Phase.PLAY:
            d.apply(rng.choice(d.legal_actions()))
        outcome = DealState(d).outcome
        assert outcome is not None and d.contract is not None
        made = declarer_points(d) >= points_needed(d, d.contract)
        assert made == (outcome.result == "made")
