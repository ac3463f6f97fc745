"""Perft counts: the number of legal move sequences of length n from fixed positions.

Each count is computed three ways and must agree: the engine's checked path
(:meth:`DealState.legal_actions` / :meth:`DealState.apply`), its fast path (:meth:`DealState.core`
with ``copy`` / ``apply``), and the naive second implementation in :mod:`tests.naive`, written from
the text of rules.md. The engine's numbers are also pinned as literals (computed once and checked
against the naive implementation), so a change to either side shows up here.

A lockstep walk compares the legal token lists node by node as well, so that two implementations
that agree on a count by accident still disagree here, with the path that leads to the difference.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from thousand.cards import mask_of, parse_cards
from thousand.engine import Deal, DealState
from thousand.rules import template_rules

from . import naive

RUSSIAN = template_rules("russian")

# Deal A, dealer 0 (forehand seat 1): one marriage in each of the three hands.
DEAL_A = (0, ("Kc Qc As Ts Ah Th 9d", "Kh Qh Ad Td 9c Js Qs", "Kd Qd Ac Tc Jh 9h Ks"), "Jd Jc 9s")
# Deal B, dealer 1 (forehand seat 2): seat 0 holds two marriages, seat 2 two, the talon diamonds.
DEAL_B = (1, ("Kd Qd Kc Qc Th 9h Js", "Ac Tc Ah Jh As Ts 9s", "Kh Qh Ks Qs 9c Jc Ad"), "Td Jd 9d")

# A played line of deal B: forced dealer 100, passing, a raise to 115; seat 2 declares spades on
# the second lead (trump from the third trick), then hearts on the fourth.
LINE_B = (
    "pass", "pass", "give Td 0", "give Ts 2", "contract 115",
    "Jd", "Ad", "Kd",
    "Ks+", "Js", "As",
    "9s", "Ts", "Qd",
    "Kh+", "Th", "Ah",
)  # fmt: skip

# Deal C, dealer 0: the spades marriage is declared on the second lead; then the declarer leads
# Qd+ under spades trump, and seat 2, void in diamonds, must ruff with a spade (rules.md part 5,
# example 11: the diamonds marriage is trump from the next trick only).
DEAL_C = (0, ("Ac Ad Kd Qd 9d As 9s", "Tc Kc 9c Jd Kh Qh 9h", "Td Ah Th Jh Ks Qs Js"), "Qc Jc Ts")
LINE_C = (
    "pass", "pass", "give Jc 2", "give 9s 1", "contract 100",
    "9d", "Jd", "Td",
    "Qs+", "As", "9s",
)  # fmt: skip

# Deal D, dealer 0: clubs declared on the second lead, trump from the third; seat 1 may lead Qh+
# or Kh+ under it, and in a trick after, under hearts, a seat void in the led suit must
# under-trump.
DEAL_D = (0, ("Kc Qc Jc Ad Kd Ah Qs", "Ac Jd Kh Qh As Ts 9s", "9c Qd 9d Th Jh Ks Js"), "Tc Td 9h")
LINE_D = (
    "pass", "pass", "give Td 2", "give Qs 1", "contract 100",
    "Ad", "Jd", "Td",
    "Qc+", "Ac", "9c",
)  # fmt: skip

# Deal E, dealer 0: clubs trump (from the fourth trick); seat 1 leads Qh+ under it and seat 0,
# void in hearts, ruffs with Jc and wins; under hearts, a void seat must over-trump if it can.
DEAL_E = (0, ("Kc Qc Td Kh Ts Js 9s", "Ac Qd Jd Qh As Ks Qs", "Tc Ad 9d Ah Th Jh 9h"), "Jc 9c Kd")
LINE_E = (
    "pass", "pass", "give Kh 1", "give Js 2", "contract 100",
    "Kd", "Jd", "Ad",
    "9d", "Td", "Qd",
    "Kc+", "Ac", "Tc",
)  # fmt: skip

# A line of deal A: forehand 100, middlehand 110, dealer 115, forehand 120, the others pass.
LINE_A = ("100", "110", "115", "120", "pass", "pass", "give 9c 0", "give Qs 2", "contract 120")


@dataclass(frozen=True)
class Position:
    name: str
    deal: tuple[int, tuple[str, ...], str]
    moves: tuple[str, ...]
    counts: tuple[int, ...]  # perft(1), perft(2), ... as the engine computes them


POSITIONS = (
    Position("auction-start-A", DEAL_A, (), (6, 21, 71, 465, 4740, 48663)),
    Position("auction-start-B", DEAL_B, (), (6, 21, 71, 465, 3396, 46111)),
    # Forehand bid 100, middlehand passed: the dealer speaks, up to 120.
    Position("auction-dealer-speaks-A", DEAL_A, ("100", "pass"), (5, 31, 274, 3767, 31669)),
    # Forced dealer 100: take-and-pass with write-off, then the contract, then the first lead.
    Position("after-auction-forced-B", DEAL_B, LINE_B[:2], (21, 180, 900, 7200, 12960)),
    # Seat 0 declarer at 105 with two marriages: contracts up to 260, in tens from 200.
    Position(
        "after-auction-raise-B", DEAL_B, ("100", "105", "pass", "pass"), (21, 180, 3496, 27968)
    ),
    Position("after-auction-120-A", DEAL_A, LINE_A[:6], (21, 180, 2196, 17568)),
    Position("first-trick-B", DEAL_B, LINE_B[:5], (8, 16, 26, 222, 399, 610, 4260, 7966)),
    Position("first-trick-A", DEAL_A, LINE_A, (8, 16, 28, 264, 430, 940, 7560, 13408)),
    # Spades trump in force (declared on the second lead); seat 2 on lead may declare hearts.
    Position("mid-deal-trump-B", DEAL_B, LINE_B[:14], (7, 13, 37, 198, 252, 332, 1028, 1712)),
    Position("marriage-under-old-trump-C", DEAL_C, LINE_C, (8, 41, 77, 419, 906, 1748, 7660)),
    Position("under-trump-D", DEAL_D, LINE_D, (8, 11, 25, 125, 451, 1570, 6280, 17824)),
    Position("over-trump-E", DEAL_E, LINE_E, (9, 13, 30, 128, 308, 760, 2568, 5592)),
    # Four tricks played, hearts trump, seat 0 still holds the clubs marriage: to the very end.
    Position("near-end-B", DEAL_B, LINE_B, (4, 6, 10, 30, 36, 50, 100, 132, 160, 160, 160, 160, 0)),
)


def engine_state(position: Position) -> DealState:
    dealer, hands, talon = position.deal
    state = DealState.new(
        RUSSIAN, dealer, [mask_of(parse_cards(h)) for h in hands], mask_of(parse_cards(talon))
    )
    for move in position.moves:
        state = state.apply(move)
    return state


def naive_state(position: Position) -> naive.NaiveState:
    dealer, hands, talon = position.deal
    state = naive.new_deal(dealer, list(hands), talon)
    for move in position.moves:
        state = naive.apply(state, move)
    return state


def perft_checked(state: DealState, depth: int) -> int:
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft_checked(state.apply(a), depth - 1) for a in actions)


def perft_fast(deal: Deal, depth: int) -> int:
    if depth == 0:
        return 1
    actions = deal.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = deal.copy()
        child.apply(a)
        total += perft_fast(child, depth - 1)
    return total


def lockstep(state: DealState, model: naive.NaiveState, depth: int, path: tuple[str, ...]) -> int:
    """perft(depth), asserting at every node that both implementations offer the same tokens."""
    engine_moves = sorted(state.legal_moves())
    naive_moves = sorted(naive.legal_moves(model))
    assert engine_moves == naive_moves, (
        f"after {' '.join(path) or 'no move'}: engine only "
        f"{sorted(set(engine_moves) - set(naive_moves))}, naive only "
        f"{sorted(set(naive_moves) - set(engine_moves))}"
    )
    if depth == 0:
        return 1
    return sum(
        lockstep(state.apply(m), naive.apply(model, m), depth - 1, (*path, m)) for m in engine_moves
    )


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_perft_engine_matches_pinned_counts(position: Position) -> None:
    state = engine_state(position)
    checked = tuple(perft_checked(state, d) for d in range(1, len(position.counts) + 1))
    fast = tuple(perft_fast(state.core(), d) for d in range(1, len(position.counts) + 1))
    assert checked == position.counts
    assert fast == position.counts


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_perft_naive_matches_pinned_counts(position: Position) -> None:
    model = naive_state(position)
    got = tuple(naive.perft(model, d) for d in range(1, len(position.counts) + 1))
    assert got == position.counts


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.name)
def test_legal_moves_agree_node_by_node(position: Position) -> None:
    depth = len(position.counts) - 1
    got = lockstep(engine_state(position), naive_state(position), depth, position.moves)
    assert got == position.counts[depth - 1]


def test_positions_are_what_their_names_say() -> None:
    """The fixed positions hold the features they were chosen for."""
    by_name = {p.name: engine_state(p) for p in POSITIONS}
    forced = by_name["after-auction-forced-B"]
    assert (forced.declarer, forced.bid) == (1, 100)
    assert "writeoff" in forced.legal_moves()
    raised = by_name["after-auction-raise-B"]
    assert (raised.declarer, raised.bid) == (0, 105)
    mid = by_name["mid-deal-trump-B"]
    assert mid.trump == 3 and mid.marriages[2] == (3,)
    assert {"Kh+", "Qh+"} <= set(mid.legal_moves())
    end = by_name["near-end-B"]
    assert len(end.completed_tricks) == 4 and end.trump == 2
    for name, trump, leader, declarable in (
        ("marriage-under-old-trump-C", 3, 0, {"Qd+", "Kd+"}),
        ("under-trump-D", 0, 1, {"Qh+", "Kh+"}),
        ("over-trump-E", 0, 1, {"Qh+", "Kh+", "Qs+", "Ks+"}),
    ):
        state = by_name[name]
        assert (state.trump, state.to_act, state.trick) == (trump, leader, ())
        assert {m for m in state.legal_moves() if m.endswith("+")} == declarable
    # Rules.md part 5, example 11: after Qd+ under spades, seat 2 (void in diamonds) must ruff.
    c = by_name["marriage-under-old-trump-C"].apply("Qd+").apply("9c")
    assert c.to_act == 2 and set(c.legal_moves()) == {"Ks", "Js"}
