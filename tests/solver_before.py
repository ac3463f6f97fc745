"""The open-card solver as it was before its speed-up (main at 0cfdda7, verbatim but for absolute
imports, and for the helpers it shares with today's solver, which are imported from it): the
reference that ``tests/test_solver_before.py`` holds the faster solver to, answer for answer. Not
used by the package.
"""

from __future__ import annotations

from thousand.bots.solver import declarer_side
from thousand.cards import CARD_POINTS, HIGH_CARDS, KING, LOW_CARDS, QUEEN, points_of
from thousand.engine.actions import DECLARE
from thousand.engine.deal import Deal, Phase
from thousand.engine.tricks import beats, follow_cards, lead_cards, marriage_trumps

_PAIR = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))
_INF = 10_000


def _cards(mask: int) -> list[int]:
    return [*LOW_CARDS[mask & 0xFFF], *HIGH_CARDS[mask >> 12]]


class Solver:
    """Solve a deal in its play phase with all cards open. Build one per position; the
    transposition table is kept across the questions asked of it."""

    def __init__(self, d: Deal) -> None:
        if d.phase is not Phase.PLAY:
            raise ValueError("the solver needs a deal in its play phase")
        rules = d.rules
        self.n = d.n
        #: the seats in a trick, and the next active seat of each (dealer-sits-out skips one)
        self.k = d.k
        self.nxt = d.nxt
        self.declarer = d.declarer
        #: the declarer's side as a seat mask (its partner too, in partnerships)
        self.side = sum(1 << s for s in declarer_side(d))
        self.hands = list(d.hands)
        self.trick = list(d.trick)
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
        self.table: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0

    # -- moves ------------------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The legal actions of the seat to act (the engine's play-phase actions)."""
        seat = self.to_act
        hand = self.hands[seat]
        if self.trick:
            return _cards(self._follow(seat, hand))
        leads = lead_cards(hand, self.trump, bool(self.due >> seat & 1))
        acts = _cards(leads)
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

    def _ordered(self, acts: list[int], first: int) -> list[int]:
        """Likely best moves first: the table's move, marriages, then a rule of thumb."""
        seat = self.to_act
        mine = self.side >> seat & 1
        if self.trick:
            best = self.best
            ours = self.side >> self.best_seat & 1 == mine
            trump = self.trick_trump

            def key(a: int) -> int:
                beats = (a // 6 == best // 6 and a > best) or (
                    a // 6 == trump and best // 6 != trump
                )
                if ours and not beats:
                    return -CARD_POINTS[a]
                if beats:
                    return -100 + a % 6
                return 100 + CARD_POINTS[a]

            acts.sort(key=key)
        else:
            acts.sort(key=lambda a: -1000 if a >= DECLARE else -(a % 6))
        if first >= 0 and first in acts:
            acts.remove(first)
            acts.insert(0, first)
        return acts

    # -- search -----------------------------------------------------------------------------

    def _key(self) -> int:
        k = 0
        for h in self.hands:
            k = (k << 24) | h
        return (((k << 4 | self.to_act) << 3 | (self.trump + 1)) << 4 | self.due) << 4 | (
            self.won_mask
        )

    def _play(self, a: int) -> int:
        """Play ``a``; the declarer's gain from it."""
        seat = self.to_act
        gain = 0
        if a >= DECLARE:
            c = a - DECLARE
            suit = c // 6
            if self.side >> seat & 1:
                gain = self.values[suit]
            self.hands[seat] ^= 1 << c
            self._lead(seat, c)
            self.trump, self.trick_trump = marriage_trumps(
                self.rules, self.trump, self.trick_trump, suit
            )
            if self.lead_trump:
                self.due |= 1 << seat
            self.to_act = self.nxt[seat]
            return gain
        c = a
        self.hands[seat] ^= 1 << c
        trick = self.trick
        if not trick:
            self._lead(seat, c)
            self.to_act = self.nxt[seat]
            return 0
        if beats(c, self.best, self.trick_trump):
            self.best = c
            self.best_seat = seat
        trick.append(c)
        if len(trick) < self.k:
            self.to_act = self.nxt[seat]
            return 0
        w = self.best_seat
        if self.side >> w & 1:
            for x in trick:
                gain += CARD_POINTS[x]
            if self.bonus and not self.hands[w]:
                gain += self.bonus
        self.trick = []
        self.leader = w
        self.to_act = w
        self.trick_trump = self.trump
        self.won_mask |= 1 << w
        return gain

    def _lead(self, seat: int, c: int) -> None:
        self.leader = seat
        self.trick_trump = self.trump
        self.trick = [c]
        self.best = c
        self.best_seat = seat
        self.due &= ~(1 << seat)

    def _save(self) -> tuple[list[int], int, int, int, int, int, int, int, int]:
        """The state a play changes (the trick list itself, not a copy: see _restore)."""
        return (
            self.trick,
            self.to_act,
            self.leader,
            self.best,
            self.best_seat,
            self.trick_trump,
            self.trump,
            self.due,
            self.won_mask,
        )

    def _restore(self, saved: tuple[list[int], int, int, int, int, int, int, int, int]) -> None:
        """Undo a play. A lead replaced the (empty) trick list; a card played to a trick was
        appended to the saved list, so it is popped again."""
        if saved[0]:
            saved[0].pop()
        (
            self.trick,
            self.to_act,
            self.leader,
            self.best,
            self.best_seat,
            self.trick_trump,
            self.trump,
            self.due,
            self.won_mask,
        ) = saved

    def _upper(self) -> int:
        """The most the declarer can still gain: every card point left, its own marriages
        still in hand, and the bonus."""
        rest = 0
        for h in self.hands:
            rest |= h
        up = points_of(rest) + self.bonus
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
        if beta <= 0:
            return 0  # the gain is never negative: at least beta already
        leading = not self.trick
        key = 0
        first = -1
        if leading:
            hand = self.hands[self.to_act]
            if hand & (hand - 1) == 0:
                return self._last_trick() if hand else 0
            key = self._key()
            entry = self.table.get(key)
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
            elif alpha > 0:
                hi = self._upper()
                if hi <= alpha:
                    return hi
        a0, b0 = alpha, beta
        maximise = self.side >> self.to_act & 1 == 1
        best_value = -_INF if maximise else _INF
        best_move = -1
        hands = self.hands
        for a in self._ordered(self.legal(), first):
            saved = self._save()
            hand = hands[self.to_act]
            gain = self._play(a)
            v = gain + self.search(alpha - gain, beta - gain)
            self._restore(saved)
            hands[saved[1]] = hand
            if maximise:
                if v > best_value:
                    best_value, best_move = v, a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best_value:
                best_value, best_move = v, a
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if leading:
            lo, hi = 0, _INF
            old = self.table.get(key)
            if old is not None:
                lo, hi = old[0], old[1]
            if best_value <= a0:
                hi = min(hi, best_value)
            elif best_value >= b0:
                lo = max(lo, best_value)
            else:
                lo = hi = best_value
            self.table[key] = (lo, hi, best_move)
        return best_value

    # -- questions --------------------------------------------------------------------------

    def value(self) -> int:
        """The declarer's gain from here with best play on both sides."""
        return self.search(-_INF, _INF)

    def at_least(self, points: int) -> bool:
        """Whether the declarer gains at least ``points`` from here against any defence."""
        return self.search(points - 1, points) >= points

    def move_values(self) -> dict[int, int]:
        """The declarer's gain from here after each legal action, best play afterwards."""
        out: dict[int, int] = {}
        for a in self.legal():
            saved = self._save()
            hand = self.hands[self.to_act]
            gain = self._play(a)
            out[a] = gain + self.search(-_INF, _INF)
            self._restore(saved)
            self.hands[saved[1]] = hand
        return out

    def move_makes(self, points: int) -> dict[int, bool]:
        """For each legal action, whether the declarer still gains ``points`` after it."""
        out: dict[int, bool] = {}
        for a in self.legal():
            saved = self._save()
            hand = self.hands[self.to_act]
            gain = self._play(a)
            out[a] = gain + self.search(points - gain - 1, points - gain) >= points
            self._restore(saved)
            self.hands[saved[1]] = hand
        return out
