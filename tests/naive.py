"""A deliberately naive second implementation of one deal under ``russian`` (rules.md part 1).

It exists only to cross-check the engine (perft counts, legal-move lists): it is written from the
text of rules.md 1.3 to 1.6, not from :mod:`thousand`, and it favours being obviously right over
being fast. Cards are strings such as ``"Qh"``, hands are lists, the state is a plain dataclass,
moves are the record's tokens, and :func:`apply` deep-copies the state.

Covered: the auction with the forced dealer 100 and the 120 cap (1.3), taking the talon, the
write-off, passing and the contract move with its limit (1.4), the four trick rules (1.5), and
marriages with the trick-required rule and trump from the next trick (1.6). Also the card points
each seat captured and the marriages it declared (for cross-checking outcomes). Not covered:
deal scoring beyond that, and everything that runs across deals.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

SEATS = 3
RANKS = "9JQKTA"  # 1.1: in every suit a trick ranks A > 10 > K > Q > J > 9 (low to high here)
SUITS = "cdhs"
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGE_VALUE = {"h": 100, "d": 80, "c": 60, "s": 40}  # 1.6 rule 3
LOWEST_BID = 100  # 1.3 rule 3
HIGHEST_BID = 120  # 1.3 rule 4
TRICKS = 8  # 1.5


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


def suit_of(card: str) -> str:
    return card[1]


def points_of(cards: list[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def step_ok(amount: int) -> bool:
    """Multiples of 5 below 200, of 10 from 200 up (1.3 rule 3, 1.4 rule 4)."""
    return amount % 5 == 0 if amount < 200 else amount % 10 == 0


@dataclass
class NaiveState:
    """One deal, every card known. Mutated only on a deep copy, inside :func:`apply`."""

    dealer: int
    hands: list[list[str]]
    talon: list[str]
    phase: str = "auction"  # auction, passing, contract, play, done
    to_act: int = -1
    passed: list[int] = field(default_factory=list)  # seats that passed in the auction
    high_bid: int = 0  # 0 while nobody has bid
    declarer: int = -1
    bid: int = 0
    contract: int = 0
    given_to: list[int] = field(default_factory=list)  # seats that received a passed card
    leader: int = -1
    trick: list[tuple[int, str]] = field(default_factory=list)  # (seat, card), leader first
    trick_trump: str | None = None  # the trump in force when this trick was led (1.5)
    trump: str | None = None  # the trump in force now: the last marriage declared (1.6 rule 4)
    tricks_taken: list[int] = field(default_factory=lambda: [0] * SEATS)
    captured: list[list[str]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    marriages: list[list[str]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    tricks_played: int = 0
    result: str | None = None


def new_deal(dealer: int, hands: list[str], talon: str) -> NaiveState:
    """A deal as dealt: ``hands[seat]`` and ``talon`` are space-separated cards."""
    state = NaiveState(
        dealer=dealer,
        hands=[h.split() for h in hands],
        talon=talon.split(),
    )
    state.to_act = forehand(state)
    return state


def forehand(state: NaiveState) -> int:
    return (state.dealer + 1) % SEATS


def middlehand(state: NaiveState) -> int:
    return (state.dealer + 2) % SEATS


def next_seat(seat: int) -> int:
    return (seat + 1) % SEATS


def opponents(state: NaiveState) -> list[int]:
    return [s for s in range(SEATS) if s != state.declarer]


def holds_marriage(hand: list[str], suit: str) -> bool:
    return "K" + suit in hand and "Q" + suit in hand


# -- legal moves ----------------------------------------------------------------------------------


def legal_moves(state: NaiveState) -> list[str]:
    """The record tokens the seat to act may play ([] once the deal is over)."""
    if state.phase == "auction":
        return auction_moves(state)
    if state.phase == "passing":
        return passing_moves(state)
    if state.phase == "contract":
        return contract_moves(state)
    if state.phase == "play":
        return play_moves(state)
    return []


def auction_moves(state: NaiveState) -> list[str]:
    # 1.3 rules 2-4: bid higher than the last bid, at least 100, at most 120, in steps; or pass.
    moves = [
        str(amount)
        for amount in range(LOWEST_BID, HIGHEST_BID + 1)
        if amount > state.high_bid and step_ok(amount)
    ]
    moves.append("pass")
    return moves


def passing_moves(state: NaiveState) -> list[str]:
    hand = state.hands[state.declarer]
    moves = []
    if not state.given_to:
        moves.append("writeoff")  # 1.4 rule 2: only before the first card is passed
    for seat in opponents(state):
        if seat in state.given_to:
            continue
        for card in hand:
            moves.append(f"give {card} {seat}")
    return moves


def contract_limit(state: NaiveState) -> int:
    """1.4 rule 4: 120 plus the marriages the declarer now holds."""
    hand = state.hands[state.declarer]
    return HIGHEST_BID + sum(MARRIAGE_VALUE[s] for s in SUITS if holds_marriage(hand, s))


def contract_moves(state: NaiveState) -> list[str]:
    top = max(state.bid, contract_limit(state))
    return [
        f"contract {amount}"
        for amount in range(state.bid, top + 1)
        if amount == state.bid or step_ok(amount)
    ]


def play_moves(state: NaiveState) -> list[str]:
    seat = state.to_act
    hand = state.hands[seat]
    if not state.trick:
        # The leader may lead any card; 1.6: a K or Q of a held marriage may declare it, once
        # the seat has won a trick in this deal.
        moves = list(hand)
        if state.tricks_taken[seat] > 0:
            for card in hand:
                if card[0] in "KQ" and holds_marriage(hand, suit_of(card)):
                    moves.append(card + "+")
        return moves
    return following_cards(state, hand)


def winning_entry(state: NaiveState) -> tuple[int, str]:
    """The (seat, card) winning the trick so far: highest trump if any, else highest of the led
    suit (1.5)."""
    led = suit_of(state.trick[0][1])
    trump = state.trick_trump
    trumps = [e for e in state.trick if trump is not None and suit_of(e[1]) == trump]
    if trumps:
        return max(trumps, key=lambda e: rank_of(e[1]))
    followers = [e for e in state.trick if suit_of(e[1]) == led]
    return max(followers, key=lambda e: rank_of(e[1]))


def following_cards(state: NaiveState, hand: list[str]) -> list[str]:
    led = suit_of(state.trick[0][1])
    trump = state.trick_trump
    winning = winning_entry(state)[1]
    same_suit = [c for c in hand if suit_of(c) == led]
    if same_suit:
        # Rule 1 follow suit; rule 2 beat if you can, while the winning card is of the led suit.
        if suit_of(winning) == led:
            higher = [c for c in same_suit if rank_of(c) > rank_of(winning)]
            if higher:
                return higher
        return same_suit
    # Rule 3 trump if void.
    if trump is not None:
        my_trumps = [c for c in hand if suit_of(c) == trump]
        if my_trumps:
            in_trick = [c for _, c in state.trick if suit_of(c) == trump]
            if in_trick:
                best = max(rank_of(c) for c in in_trick)
                over = [c for c in my_trumps if rank_of(c) > best]
                if over:
                    return over
            return my_trumps
    # Rule 4 otherwise any card.
    return list(hand)


# -- applying a move ------------------------------------------------------------------------------


def apply(state: NaiveState, token: str) -> NaiveState:
    """A new state with ``token`` played. Raises ValueError for a move not in legal_moves."""
    if token not in legal_moves(state):
        raise ValueError(f"{token!r} is not legal here")
    new = copy.deepcopy(state)
    if new.phase == "auction":
        apply_auction(new, token)
    elif new.phase == "passing":
        apply_passing(new, token)
    elif new.phase == "contract":
        new.contract = int(token.split()[1])
        start_play(new)
    else:
        apply_play(new, token)
    return new


def apply_auction(state: NaiveState, token: str) -> None:
    seat = state.to_act
    if token == "pass":
        state.passed.append(seat)
    else:
        state.high_bid = int(token)
    # 1.3 rule 6: forehand and middlehand both passed without any bid: the dealer is declarer at
    # 100 at once and never speaks.
    if (
        state.high_bid == 0
        and forehand(state) in state.passed
        and middlehand(state) in state.passed
    ):
        win_auction(state, state.dealer, LOWEST_BID)
        return
    # 1.3 rule 5: the auction ends when all but one seat have passed.
    remaining = [s for s in range(SEATS) if s not in state.passed]
    if len(remaining) == 1 and state.high_bid > 0:
        win_auction(state, remaining[0], state.high_bid)
        return
    # 1.3 rule 1: clockwise, skipping seats that have passed.
    nxt = next_seat(seat)
    while nxt in state.passed:
        nxt = next_seat(nxt)
    state.to_act = nxt


def win_auction(state: NaiveState, declarer: int, amount: int) -> None:
    # 1.4 rule 1: the talon is shown and the declarer takes it; not a move.
    state.declarer = declarer
    state.bid = amount
    state.contract = amount
    state.hands[declarer] = state.hands[declarer] + state.talon
    state.phase = "passing"
    state.to_act = declarer


def apply_passing(state: NaiveState, token: str) -> None:
    if token == "writeoff":
        state.phase = "done"
        state.result = "written-off"
        state.to_act = -1
        return
    _, card, seat_text = token.split()
    seat = int(seat_text)
    state.hands[state.declarer].remove(card)
    state.hands[seat].append(card)
    state.given_to.append(seat)
    if len(state.given_to) == len(opponents(state)):
        state.phase = "contract"  # 1.4 rule 4: the contract move is required in russian


def start_play(state: NaiveState) -> None:
    state.phase = "play"
    state.leader = state.declarer  # 1.5: the declarer leads the first trick
    state.to_act = state.declarer


def apply_play(state: NaiveState, token: str) -> None:
    seat = state.to_act
    declares = token.endswith("+")
    card = token.rstrip("+")
    state.hands[seat].remove(card)
    if not state.trick:
        state.trick_trump = state.trump  # the trump for a trick is the one in force at its lead
        if declares:
            state.marriages[seat].append(suit_of(card))
            state.trump = suit_of(card)  # from the next trick on
    state.trick.append((seat, card))
    if len(state.trick) < SEATS:
        state.to_act = next_seat(seat)
        return
    winner = winning_entry(state)[0]
    state.captured[winner].extend(c for _, c in state.trick)
    state.tricks_taken[winner] += 1
    state.tricks_played += 1
    state.trick = []
    if state.tricks_played == TRICKS:
        state.phase = "done"
        state.result = "played"
        state.to_act = -1
        return
    state.leader = winner
    state.to_act = winner


# -- reading the result ---------------------------------------------------------------------------


def card_points(state: NaiveState) -> list[int]:
    """Card points each seat captured in tricks."""
    return [points_of(cards) for cards in state.captured]


def perft(state: NaiveState, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``state``."""
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, m), depth - 1) for m in moves)
