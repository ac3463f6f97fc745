"""The exact open-card solver: the trick play of a deal with every card known.

The declarer (with its partner, where partners play) plays against the defenders as one side;
any number of active seats works (dealer-sits-out skips the sitter via the deal's next-seat
table). The value of a position is the points the declarer still gains from it to the end of
the deal: the card points of the tricks its side wins, the marriages its side declares and the
last-trick bonus. The declarer maximises it, the defenders minimise it (or, asked for other
seats, ``side``: those seats' gain, every other seat minimising it). The search is alpha-beta
over single card plays (a principal variation search: after a position's first move, each move
is tried with a null window and searched again with the full window only where it beats the
best so far) with a transposition table (at the start of each trick, keyed by the
cards left, which fix the hands, with the seat to lead, the trump, the duty to lead a trump and
the seats that took a trick; each entry a lower and an upper bound and the best move in one int)
and move ordering (the table's best move, then a rule of thumb built from card masks). The rules
of the play are the engine's, asked on the solver's own light state: which cards may be led and
followed (:func:`~thousand.engine.tricks.lead_cards`,
:func:`~thousand.engine.tricks.follow_cards`), which card takes the trick
(:func:`~thousand.engine.tricks.beats`) and what a declared marriage does to the trump
(:func:`~thousand.engine.tricks.marriage_trumps`). From-hand declarations and the crawl are not
among the solver's moves: under ``marriage.announce`` from-hand and ``play.crawl`` its values
are those of the game without them.
"""

from __future__ import annotations

import time
from typing import Final

from ..cards import (
    CARD_POINTS,
    DECK_SIZE,
    HIGH_CARDS,
    KING,
    LOW_CARDS,
    QUEEN,
    SUIT_MASKS,
    points_of,
)
from ..engine.actions import DECLARE
from ..engine.deal import Deal, Phase
from ..engine.scoring import round_points
from ..engine.tricks import ABOVE, beats, follow_cards, lead_cards, marriage_trumps

_PAIR: Final[tuple[int, ...]] = tuple(
    (1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4)
)
#: the queens: ``hand & hand >> 1 & _QUEENS`` holds the queen of each marriage in ``hand``
_QUEENS: Final = sum(1 << (6 * s + QUEEN) for s in range(4))
_INF: Final = 10_000
_NO_LIMIT: Final = 1 << 62
#: with a deadline, the solver looks at the clock once in this many positions (about 3 ms of
#: pure-Python search, a third of a millisecond compiled)
CLOCK_EVERY: Final = 1024
#: a bound in the table: 14 bits (the gain stays far below; _FIELD stands for no bound)
_FIELD: Final = (1 << 14) - 1


def _rank_major(mask: int, base: int) -> int:
    """The cards of a 12-bit ``mask`` (cards ``base`` to ``base + 11``) re-laid rank by rank:
    card ``c`` at bit ``4 * rank + suit``."""
    out = 0
    for i in range(12):
        if mask >> i & 1:
            c = base + i
            out |= 1 << (4 * (c % 6) + c // 6)
    return out


#: each 12-bit half of a card mask re-laid rank by rank (cards by rank, then suit)
_BY_RANK_LOW: Final[tuple[int, ...]] = tuple(_rank_major(m, 0) for m in range(1 << 12))
_BY_RANK_HIGH: Final[tuple[int, ...]] = tuple(_rank_major(m, 12) for m in range(1 << 12))


def _cards(mask: int) -> list[int]:
    return [*LOW_CARDS[mask & 0xFFF], *HIGH_CARDS[mask >> 12]]


def _by_rank(acts: list[int], n: int, mask: int, up: bool, skip: int) -> int:
    """Write the cards of ``mask`` into ``acts`` from index ``n`` by rank (lowest first if
    ``up``, else highest first), leaving out ``skip``; return the new count."""
    m = _BY_RANK_LOW[mask & 0xFFF] | _BY_RANK_HIGH[mask >> 12]
    while m:
        if up:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
        else:
            i = m.bit_length() - 1
            m ^= 1 << i
        c = 6 * (i & 3) + (i >> 2)
        if c != skip:
            acts[n] = c
            n += 1
    return n


def declarer_points(d: Deal) -> int:
    """The points the declarer holds so far: card points won, marriages declared, the bonus."""
    side = declarer_side(d)
    bonus = 0
    if d.rules.play_last_trick_bonus and d.phase is Phase.DONE and d.completed:
        bonus = d.rules.play_last_trick_bonus if d.completed[-1][2] in side else 0
    return sum(points_of(d.won[s]) + d.marriage_points(s) for s in side) + bonus


def declarer_side(d: Deal) -> tuple[int, ...]:
    """The seats whose points count toward the contract: the declarer, and its partner where it
    plays (``players.partnerships`` across; a sitting partner takes no tricks)."""
    decl = d.declarer
    partner = d.partner(decl)
    if partner >= 0 and partner in d.order:
        return (decl, partner)
    return (decl,)


def points_needed(d: Deal, contract: int) -> int:
    """The fewest raw points (cards, marriages and bonus) that make ``contract``.

    With ``scoring.round_before_check`` the card points are rounded first; marriage values and
    the bonus are multiples of the rounding step in every template, so rounding the sum is the
    same thing.
    """
    rules = d.rules
    if not rules.scoring_round_before_check:
        return contract
    to = rules.scoring_round_to
    p = max(0, contract - to)
    while round_points(p, to) < contract:
        p += 1
    return p


class OutOfNodes(Exception):
    """A solver searched more positions than its ``limit``, or went on past its ``deadline``:
    its answer is lost, and the solver is spent (its position is left mid-search)."""


class Solver:
    """Solve a deal in its play phase with all cards open. Build one per position; the
    transposition table is kept across the questions asked of it. With a ``limit``, a question
    that would search more positions than that in all raises :class:`OutOfNodes`; so does one
    still searching at ``deadline`` (a :func:`time.perf_counter` time). With
    ``side`` (seats), the values are the gain of those seats instead of the declarer's side's,
    the other seats playing against them: ``side=(defender,)`` asks what one defender itself
    can take (its own deal score) if every other seat plays to keep it down."""

    def __init__(
        self,
        d: Deal,
        limit: int | None = None,
        side: tuple[int, ...] | None = None,
        deadline: float | None = None,
    ) -> None:
        if d.phase is not Phase.PLAY:
            raise ValueError("the solver needs a deal in its play phase")
        rules = d.rules
        self.n = d.n
        #: the seats in a trick, and the next active seat of each (dealer-sits-out skips one)
        self.k = d.k
        self.nxt = d.nxt
        self.declarer = d.declarer
        #: the seats whose gain is the value, as a seat mask: the declarer's side (its partner
        #: too, in partnerships) unless ``side`` says otherwise
        self.side = sum(1 << s for s in (declarer_side(d) if side is None else side))
        self.hands = list(d.hands)
        #: every card still in a hand: each card's holder is fixed, so with the seat to lead,
        #: the trump and the marriage state it keys a position at the start of a trick
        self.rest = 0
        for h in d.hands:
            self.rest |= h
        self.trick = list(d.trick)
        #: an empty list for the trick that starts with ``n`` cards left in the hands: a
        #: completed trick switches to it, and its undo switches back (no list per trick)
        self.spare: list[list[int]] = [[] for _ in range(DECK_SIZE + 1)]
        #: the list of ordered actions of the search at ``n`` cards left (one search at a time
        #: per count, as the count falls with each card)
        self.buffers: list[list[int]] = [[0] * 32 for _ in range(DECK_SIZE + 1)]
        #: how many cards are left in the hands
        self.left = self.rest.bit_count()
        self.to_act = d.to_act
        self.leader = d.leader
        self.best = d.trick_best
        self.best_seat = d.trick_best_seat
        self.trick_trump = d.trick_trump
        self.trump = d.trump
        self.due = d.lead_trump_due
        self.won_mask = sum(1 << s for s in range(d.n) if d.tricks[s])
        self.rules = rules
        self.values = rules.marriage_values
        self.lead_trump = rules.play_lead_trump_after_marriage
        self.trick_required = rules.marriage_trick_required
        self.min_hand = rules.marriage_min_hand
        self.bonus = rules.play_last_trick_bonus
        #: position key -> lower bound | upper bound << 14 | (best action + 1) << 28
        self.table: dict[int, int] = {}
        self.nodes = 0
        #: the most positions to search, and when to stop searching (None: no deadline)
        self.budget = _NO_LIMIT if limit is None else limit
        self.deadline = deadline
        #: the count of positions at which to look at the budget and the clock again
        self.limit = self.budget if deadline is None else min(self.budget, CLOCK_EVERY)

    # -- moves ------------------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The legal actions of the seat to act (the engine's play-phase actions)."""
        seat = self.to_act
        hand = self.hands[seat]
        if self.trick:
            return _cards(self._follow(seat, hand))
        leads = lead_cards(hand, self.trump, bool(self.due >> seat & 1))
        return _cards(leads) + self._declarations(seat, hand, leads)

    def _declarations(self, seat: int, hand: int, leads: int) -> list[int]:
        """The marriage declarations among ``seat``'s leads (``leads``, of ``hand``)."""
        acts: list[int] = []
        if (self.trick_required and not self.won_mask >> seat & 1) or (
            hand.bit_count() < self.min_hand
        ):
            return acts
        for s in range(4):
            if hand & _PAIR[s] == _PAIR[s]:
                for c in (6 * s + QUEEN, 6 * s + KING):
                    if leads >> c & 1:
                        acts.append(c + DECLARE)
        return acts

    def _follow(self, seat: int, hand: int) -> int:
        """The engine's follow rules (:func:`~thousand.engine.tricks.follow_cards`) on the
        solver's own state."""
        return follow_cards(
            self.rules,
            hand,
            seat,
            self.trick,
            self.leader,
            self.best,
            self.trick_trump,
            self.declarer,
            self.nxt,
        )

    def _ordered(self, first: int, acts: list[int]) -> int:
        """Write the legal actions into ``acts``, likely best first: the table's move
        (``first``, -1 for none), then by a rule of thumb; return how many. Built from masks in
        that order, with no sorting."""
        seat = self.to_act
        hand = self.hands[seat]
        n = 0
        if first >= 0:
            acts[0] = first
            n = 1
        if self.trick:
            m = self._follow(seat, hand)
            best = self.best
            trump = self.trick_trump
            take = 0
            x = m
            while x:
                low = x & -x
                x ^= low
                if beats(low.bit_length() - 1, best, trump):
                    take |= low
            # the lowest card that takes the trick; else, on our side's trick the most points,
            # on theirs the fewest (a card's points rise with its rank)
            n = _by_rank(acts, n, take, True, first)
            ours = (self.side >> self.best_seat & 1) == (self.side >> seat & 1)
            return _by_rank(acts, n, m ^ take, not ours, first)
        leads = lead_cards(hand, self.trump, bool(self.due >> seat & 1))
        if hand & hand >> 1 & _QUEENS:
            for a in self._declarations(seat, hand, leads):
                if a != first:
                    acts[n] = a  # marriages first
                    n += 1
        rest = self.rest
        top = 0
        x = leads
        while x:
            low = x & -x
            x ^= low
            if not rest & ABOVE[low.bit_length() - 1]:
                top |= low
        trumps = SUIT_MASKS[self.trump] if self.trump >= 0 else 0
        # the highest cards left of their suits (side suits, then trumps), then the others;
        # high ranks first
        n = _by_rank(acts, n, top & ~trumps, False, first)
        n = _by_rank(acts, n, top & trumps, False, first)
        return _by_rank(acts, n, leads ^ top, False, first)

    # -- search -----------------------------------------------------------------------------

    def _child(self, a: int, alpha: int, beta: int) -> int:
        """Play ``a``, search on with the window (``alpha``, ``beta``), undo it: the declarer's
        gain from here through ``a`` (exact inside the window, a bound outside it)."""
        seat = self.to_act
        hands = self.hands
        hand = hands[seat]
        trick = self.trick
        rest = self.rest
        leader = self.leader
        best = self.best
        best_seat = self.best_seat
        trick_trump = self.trick_trump
        trump = self.trump
        due = self.due
        mine = self.side >> seat & 1
        gain = 0
        if a >= DECLARE:
            c = a - DECLARE
        else:
            c = a
        bit = 1 << c
        hands[seat] = hand ^ bit
        self.rest = rest ^ bit
        left = self.left
        self.left = left - 1
        if not trick:
            # a lead (a declaration is a lead too)
            self.leader = seat
            self.trick_trump = trump
            trick.append(c)
            self.best = c
            self.best_seat = seat
            self.due = due & ~(1 << seat)
            if a >= DECLARE:
                suit = c // 6
                if mine:
                    gain = self.values[suit]
                self.trump, self.trick_trump = marriage_trumps(self.rules, trump, trump, suit)
                if self.lead_trump:
                    self.due |= 1 << seat
            self.to_act = self.nxt[seat]
            v = gain + self.search(alpha - gain, beta - gain)
            trick.pop()
            self.trump = trump
            self.due = due
        elif len(trick) + 1 < self.k:
            if beats(c, best, trick_trump):
                self.best = c
                self.best_seat = seat
            trick.append(c)
            self.to_act = self.nxt[seat]
            v = self.search(alpha, beta)
            trick.pop()
        else:
            # the trick's last card
            w = best_seat
            if beats(c, best, trick_trump):
                w = seat
            won_mask = self.won_mask
            if self.side >> w & 1:
                gain = CARD_POINTS[c]
                for x in trick:
                    gain += CARD_POINTS[x]
                if self.bonus and not hands[w]:
                    gain += self.bonus
            self.trick = self.spare[left - 1]
            self.leader = w
            self.to_act = w
            self.trick_trump = trump
            self.won_mask = won_mask | 1 << w
            v = gain + self.search(alpha - gain, beta - gain)
            self.trick = trick
            self.won_mask = won_mask
        hands[seat] = hand
        self.rest = rest
        self.left = left
        self.to_act = seat
        self.leader = leader
        self.best = best
        self.best_seat = best_seat
        self.trick_trump = trick_trump
        return v

    def _upper(self) -> int:
        """The most the declarer can still gain: every card point left, its own marriages
        still in hand, and the bonus."""
        up = points_of(self.rest) + self.bonus
        for c in self.trick:
            up += CARD_POINTS[c]
        hand = 0
        for seat in range(self.n):
            if self.side >> seat & 1:
                hand |= self.hands[seat]
        for s in range(4):
            if hand & _PAIR[s] == _PAIR[s]:
                up += self.values[s]
        return up

    def _last_trick(self) -> int:
        """The gain from the last trick, every seat holding one card (no choice is left)."""
        seat = self.to_act
        hands = self.hands
        best = hands[seat].bit_length() - 1
        best_seat = seat
        total = CARD_POINTS[best]
        trump = self.trump
        s = seat
        for _ in range(1, self.k):
            s = self.nxt[s]
            c = hands[s].bit_length() - 1
            total += CARD_POINTS[c]
            if beats(c, best, trump):
                best, best_seat = c, s
        return total + self.bonus if self.side >> best_seat & 1 else 0

    def search(self, alpha: int, beta: int) -> int:
        """The declarer's gain from here, exact when it lies strictly inside (alpha, beta)."""
        self.nodes += 1
        if self.nodes > self.limit:
            self._check()
        if beta <= 0:
            return 0  # the gain is never negative: at least beta already
        leading = not self.trick
        key = 0
        first = -1
        entry = -1
        if leading:
            seat = self.to_act
            hand = self.hands[seat]
            if hand & (hand - 1) == 0:
                return self._last_trick() if hand else 0
            key = (
                (((self.rest << 2 | seat) << 3 | (self.trump + 1)) << 4 | self.due) << 4
            ) | self.won_mask
            entry = self.table.get(key, -1)
            if entry >= 0:
                lo = entry & _FIELD
                hi = entry >> 14 & _FIELD
                first = (entry >> 28) - 1
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            elif alpha > 0:
                hi = self._upper()
                if hi <= alpha:
                    return hi
        a0 = alpha
        b0 = beta
        maximise = self.side >> self.to_act & 1 == 1
        best_value = -_INF if maximise else _INF
        best_move = -1
        acts = self.buffers[self.left]
        for i in range(self._ordered(first, acts)):
            a = acts[i]
            if i and beta - alpha > 1:
                # a null window first: does this move beat the best so far?
                if maximise:
                    v = self._child(a, alpha, alpha + 1)
                    if alpha < v < beta:
                        v = self._child(a, v - 1, beta)
                else:
                    v = self._child(a, beta - 1, beta)
                    if alpha < v < beta:
                        v = self._child(a, alpha, v + 1)
            else:
                v = self._child(a, alpha, beta)
            if maximise:
                if v > best_value:
                    best_value = v
                    best_move = a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best_value:
                best_value = v
                best_move = a
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if leading:
            lo = 0
            hi = _FIELD
            if entry >= 0:
                lo = entry & _FIELD
                hi = entry >> 14 & _FIELD
            if best_value <= a0:
                if best_value < hi:
                    hi = best_value
            elif best_value >= b0:
                if best_value > lo:
                    lo = best_value
            else:
                lo = hi = best_value
            self.table[key] = lo | hi << 14 | (best_move + 1) << 28
        return best_value

    def _check(self) -> None:
        """At a checkpoint: :class:`OutOfNodes` where the budget is spent or the deadline has
        passed, else the next checkpoint."""
        if self.nodes > self.budget:
            raise OutOfNodes
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise OutOfNodes
        self.limit = min(self.budget, self.nodes + CLOCK_EVERY)

    # -- questions --------------------------------------------------------------------------

    def value(self) -> int:
        """The declarer's gain from here with best play on both sides."""
        return self.search(-_INF, _INF)

    def at_least(self, points: int) -> bool:
        """Whether the declarer gains at least ``points`` from here against any defence."""
        return self.search(points - 1, points) >= points

    def move_values(self) -> dict[int, int]:
        """The declarer's gain from here after each legal action, best play afterwards."""
        return {a: self._child(a, -_INF, _INF) for a in self.legal()}

    def move_makes(self, points: int) -> dict[int, bool]:
        """For each legal action, whether the declarer still gains ``points`` after it."""
        return {a: self._child(a, points - 1, points) >= points for a in self.legal()}


def solve(d: Deal) -> int:
    """The declarer's final points (raw: cards, marriages, bonus) with best play from ``d``."""
    return declarer_points(d) + Solver(d).value()


def can_make(d: Deal, contract: int) -> bool:
    """Whether the declarer makes ``contract`` from ``d`` against the best defence."""
    need = points_needed(d, contract) - declarer_points(d)
    return need <= 0 or Solver(d).at_least(need)
