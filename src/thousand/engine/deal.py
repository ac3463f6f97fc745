"""The deal state machine: the mutable core that both the checked API and search run on.

A :class:`Deal` is mutated in place by :meth:`Deal.apply`, which does not check legality: it is
the fast path for search and self-play. :class:`thousand.engine.state.DealState` wraps a deal
that is never mutated again, and is the checked, immutable API that people and bots use.

Which phase follows which is said once, here; what is legal in a phase, and what a move does,
lives in one module per phase (``auction``, ``talon``, ``tricks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final

from ..cards import DECK_SIZE, FULL_DECK
from ..rules import Rules
from . import auction, talon, tricks


class Phase(IntEnum):
    """Where a deal stands. AUCTION → PASSING → CONTRACT → PLAY → DONE (some phases skipped)."""

    AUCTION = 0
    PASSING = 1
    CONTRACT = 2
    PLAY = 3
    DONE = 4


_PLAY: Final = Phase.PLAY
_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _order(n: int, dealer: int) -> tuple[int, ...]:
    """The seats clockwise from forehand (the seat after the dealer)."""
    order = _ORDERS.get((n, dealer))
    if order is None:
        order = _ORDERS[n, dealer] = tuple((dealer + 1 + i) % n for i in range(n))
    return order


class Deal:
    """The full state of one deal, all cards known. Mutable; copy before you branch."""

    __slots__ = (
        "active_mask",
        "auction",
        "bid",
        "completed",
        "contract",
        "dealer",
        "dealt",
        "declarer",
        "given",
        "hands",
        "high_bid",
        "lead_trump_due",
        "leader",
        "marriages",
        "n",
        "order",
        "passed",
        "phase",
        "result",
        "rules",
        "talon",
        "to_act",
        "trick",
        "trick_best",
        "trick_best_seat",
        "trick_trump",
        "tricks",
        "trump",
        "won",
    )

    rules: Rules
    n: int
    dealer: int
    order: tuple[int, ...]
    active_mask: int
    dealt: tuple[int, ...]
    talon: int
    hands: list[int]
    phase: Phase
    to_act: int
    high_bid: int
    passed: int
    auction: tuple[tuple[int, int], ...]
    declarer: int
    bid: int
    contract: int
    given: tuple[int, ...]
    result: str | None
    leader: int
    trick: list[int]
    trick_trump: int
    trick_best: int
    trick_best_seat: int
    trump: int
    won: list[int]
    tricks: list[int]
    marriages: tuple[tuple[int, ...], ...]
    completed: tuple[tuple[int, tuple[int, ...], int], ...]
    lead_trump_due: int

    @classmethod
    def new(cls, rules: Rules, dealer: int, hands: Sequence[int], talon_mask: int) -> Deal:
        """A deal as dealt: ``hands`` are masks per seat, ``talon_mask`` the talon's cards."""
        n = rules.players_count
        if len(hands) != n:
            raise ValueError(f"{len(hands)} hands for {n} seats")
        total = talon_mask
        count = talon_mask.bit_count()
        for h in hands:
            total |= h
            count += h.bit_count()
        if total != FULL_DECK or count != DECK_SIZE:
            raise ValueError(f"the deal is not the {DECK_SIZE}-card deck, each card once")
        d = cls()
        d.rules = rules
        d.n = n
        d.dealer = dealer
        d.order = order = _order(n, dealer)
        d.active_mask = (1 << n) - 1
        d.dealt = tuple(hands)
        d.talon = talon_mask
        d.hands = list(hands)
        d.phase = Phase.AUCTION
        d.to_act = order[0]
        d.high_bid = 0
        d.passed = 0
        d.auction = ()
        d.declarer = -1
        d.bid = 0
        d.contract = 0
        d.given = (-1,) * n
        d.result = None
        d.leader = -1
        d.trick = []
        d.trick_trump = -1
        d.trick_best = -1
        d.trick_best_seat = -1
        d.trump = -1
        d.won = [0] * n
        d.tricks = [0] * n
        d.marriages = ((),) * n
        d.completed = ()
        d.lead_trump_due = 0
        return d

    def copy(self) -> Deal:
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.n = self.n
        d.dealer = self.dealer
        d.order = self.order
        d.active_mask = self.active_mask
        d.dealt = self.dealt
        d.talon = self.talon
        d.hands = self.hands[:]
        d.phase = self.phase
        d.to_act = self.to_act
        d.high_bid = self.high_bid
        d.passed = self.passed
        d.auction = self.auction
        d.declarer = self.declarer
        d.bid = self.bid
        d.contract = self.contract
        d.given = self.given
        d.result = self.result
        d.leader = self.leader
        d.trick = self.trick[:]
        d.trick_trump = self.trick_trump
        d.trick_best = self.trick_best
        d.trick_best_seat = self.trick_best_seat
        d.trump = self.trump
        d.won = self.won[:]
        d.tricks = self.tricks[:]
        d.marriages = self.marriages
        d.completed = self.completed
        d.lead_trump_due = self.lead_trump_due
        return d

    # -- the seats ---------------------------------------------------------------------------

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that take part in this deal, forehand first."""
        return self.order

    def spoke(self, seat: int) -> bool:
        """Whether ``seat`` has bid or passed in this deal's auction."""
        return any(s == seat for s, _ in self.auction)

    def marriage_points(self, seat: int) -> int:
        """The value of the marriages ``seat`` has declared."""
        values = self.rules.marriage_values
        return sum(values[s] for s in self.marriages[seat])

    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        return (seat + 1) % self.n

    # -- legal actions and moves -------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act ([] once the deal is over)."""
        phase = self.phase
        if phase is _PLAY:
            return tricks.legal(self)
        if phase is Phase.AUCTION:
            return auction.legal(self)
        if phase is Phase.PASSING:
            return talon.legal_passing(self)
        if phase is Phase.CONTRACT:
            return talon.legal_contract(self)
        return []

    def apply(self, action: int) -> None:
        """Apply an action in place, unchecked: the caller vouches that it is legal."""
        phase = self.phase
        if phase is _PLAY:
            tricks.apply(self, action)
        elif phase is Phase.AUCTION:
            auction.apply(self, action)
        elif phase is Phase.PASSING:
            talon.apply_passing(self, action)
        elif phase is Phase.CONTRACT:
            talon.apply_contract(self, action)
        else:
            raise ValueError("the deal is over: no move may follow it")

    # -- phase transitions (the one place that says which phase follows which) ---------------

    def end_auction(self, declarer: int, amount: int) -> None:
        """The auction is won: show the talon and hand it to the declarer."""
        self.declarer = declarer
        self.bid = amount
        self.contract = amount
        self.hands[declarer] |= self.talon
        self.phase = Phase.PASSING
        self.to_act = declarer

    def end_passing(self) -> None:
        if self.rules.contract_raise:
            self.phase = Phase.CONTRACT
        else:
            self.start_play()

    def start_play(self) -> None:
        self.phase = Phase.PLAY
        self.leader = self.declarer
        self.to_act = self.declarer
        self.trick_trump = self.trump

    def finish(self, result: str) -> None:
        """End the deal with ``result`` (made, failed, written-off, redealt, passed-on)."""
        self.phase = Phase.DONE
        self.result = result
        self.to_act = -1
