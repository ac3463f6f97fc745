"""The heuristic bot (level medium): rules of thumb that a good club player uses.

It bids from its hand's strength, its marriages and what the talon is expected to bring; passes
cards that build voids and keeps its marriages; writes off a hopeless contract; raises when the
talon completed a marriage; declares marriages as soon as it may (the one it wants as trump
last); as a defender it plays against the declarer; and it remembers every card played (what is
still out, who has shown a void). It reads only its view and the rules, so any number of seats
works.
"""

from __future__ import annotations

import random

from ..cards import (
    ACE,
    CARD_POINTS,
    FULL_DECK,
    KING,
    QUEEN,
    SUIT_MASKS,
    TEN,
    card_list,
    mask_of,
    points_of,
)
from ..engine.actions import (
    BID,
    CONTRACT,
    DECLARE,
    GIVE,
    PASS,
    WRITE_OFF,
    give_parts,
    is_bid,
    is_contract,
    is_give,
    played_card,
)
from ..engine.deal import Phase
from ..engine.scoring import writeoff_share
from ..engine.views import SeatView
from ..rules import Rules
from .base import Limit
from .knowledge import outstanding, trick_trumps, voids

_PAIR = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))

#: The margin (points) by which the estimate must clear a bid or contract.
BID_MARGIN = 5
RAISE_MARGIN = 10
#: Bid when this share of the drawn talons makes the hand worth the bid.
BID_CONFIDENCE = 0.6
#: How many talons the bidding draws.
TALONS = 16
#: A contract is hopeless when the estimate falls this far short of it.
HOPELESS = 35


#: The linear model of :func:`hand_estimate`: least squares on 3,000 random ``russian`` deals,
#: the target being the open-card solver's value of the declarer's 8 cards after passing
#: (``benchmarks/fit_estimate.py`` refits it). Residual error about 16 points.
_MODEL = {
    "const": -30.9,
    "aces": 29.8,
    "guarded_tens": 19.9,
    "bare_tens": 7.8,
    "kings": 4.9,
    "queens": 2.2,
    "marriages": -0.1,
    "marriages_with_ace": 1.04,
    "marriage_count": -0.25,
    "longest": 5.8,
    "voids": 9.6,
    "marriage_length": 5.3,
    "card_points": -0.58,
}


def hand_features(hand: int, rules: Rules) -> dict[str, int]:
    """The features of a hand that :func:`hand_estimate` weighs."""
    f = dict.fromkeys(_MODEL, 0)
    f["const"] = 1
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        n = m.bit_count()
        f["longest"] = max(f["longest"], n)
        if not n:
            f["voids"] += 1
        ace = m >> (6 * s + ACE) & 1
        ten = m >> (6 * s + TEN) & 1
        f["aces"] += ace
        if ten:
            f["guarded_tens" if ace else "bare_tens"] += 1
        if hand & _PAIR[s] == _PAIR[s]:
            f["marriages"] += rules.marriage_values[s]
            f["marriage_count"] += 1
            f["marriage_length"] = max(f["marriage_length"], n)
        else:
            f["kings"] += m >> (6 * s + KING) & 1
            f["queens"] += m >> (6 * s + QUEEN) & 1
    if f["aces"] or not rules.marriage_trick_required:
        f["marriages_with_ace"] = f["marriages"]
    f["card_points"] = points_of(hand)
    return f


def hand_estimate(hand: int, rules: Rules) -> int:
    """The points a declarer can expect to take with ``hand``, the cards it plays with (its
    tricks' card points and its marriages), from the linear model above (fit on 8-card hands)."""
    f = hand_features(hand, rules)
    value = sum(_MODEL[k] * v for k, v in f.items())
    return max(0, round(value))


def talons(hand: int, rules: Rules, count: int) -> list[int]:
    """``count`` talons drawn from the cards not in ``hand``; the same hand draws the same."""
    size = rules.deal_talon_size
    if size <= 0:
        return [0]
    rng = random.Random(hand)
    rest = card_list(FULL_DECK & ~hand)
    return [mask_of(rng.sample(rest, size)) for _ in range(count)]


def keep_value(c: int, hand: int, trump: int) -> int:
    """How much the declarer wants to keep card ``c`` of ``hand`` (passing the lowest)."""
    suit = c // 6
    rank = c % 6
    in_suit = (hand & SUIT_MASKS[suit]).bit_count()
    value = (0, 2, 5, 8, 20, 60)[rank]
    if rank == TEN and hand >> (c + 1) & 1:
        value = 50
    if rank in (QUEEN, KING) and hand & _PAIR[suit] == _PAIR[suit]:
        value = 80
    if suit == trump:
        value += 15
    if in_suit <= 2 and rank < TEN:
        value -= 6  # a short suit: giving it away builds a void
    return value * 10 + rank


#: What emptying a suit by passing is worth, in keep-value units (a void lets the declarer
#: trump, and keeps the defenders from cashing that suit).
VOID_BONUS = 120


def pass_plan(hand: int, rules: Rules, count: int) -> list[int]:
    """The ``count`` cards to pass: the least worth keeping, preferring a pair that leaves a
    suit empty (two cards: every pair is tried; more: one at a time)."""
    trump = _best_trump(hand, rules)
    cards = card_list(hand)
    if count <= 0:
        return []
    if count == 1 or count > 2 or len(cards) < 2:
        out = []
        for _ in range(min(count, len(cards))):
            c = min(card_list(hand), key=lambda x: keep_value(x, hand, trump))
            out.append(c)
            hand &= ~(1 << c)
        return out
    best: tuple[int, int] = (cards[0], cards[1])
    best_score = 1 << 30
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            left = hand & ~(1 << a) & ~(1 << b)
            emptied = sum(
                1 for s in {a // 6, b // 6} if hand & SUIT_MASKS[s] and not left & SUIT_MASKS[s]
            )
            score = keep_value(a, hand, trump) + keep_value(b, hand, trump) - VOID_BONUS * emptied
            if score < best_score:
                best, best_score = (a, b), score
    return list(best)


class HeuristicBot:
    """Level medium: a fast rule-of-thumb player (well under 5 ms a move). It is deterministic:
    the seed is kept for :func:`~thousand.bots.levels.make_bot`'s sake, and the limit does not
    concern it."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        actions = view.legal_actions
        if not actions:
            raise ValueError("this seat has no legal action: it is not its turn")
        if len(actions) == 1:
            return actions[0]
        phase = view.phase
        if phase is Phase.AUCTION:
            return self.bid(view)
        if phase is Phase.PASSING:
            return self.pass_card(view)
        if phase is Phase.CONTRACT:
            return self.contract(view)
        return self.play(view)

    # -- the auction --------------------------------------------------------------------------

    def bid_share(self, view: SeatView, amount: int) -> float:
        """The share of drawn talons with which this hand, after passing, is worth ``amount``."""
        hand = view.hand or 0
        rules = view.rules
        passes = len(view.active) - 1
        worth = [
            hand_estimate(self.kept_hand(hand | t, rules, passes), rules)
            for t in talons(hand, rules, TALONS)
        ]
        return sum(1 for w in worth if w >= amount + BID_MARGIN) / len(worth)

    def bid(self, view: SeatView) -> int:
        actions = view.legal_actions
        bids = sorted(a for a in actions if is_bid(a))
        if PASS not in actions:
            return bids[0]
        if bids and self.bid_share(view, bids[0] - BID) >= BID_CONFIDENCE:
            return bids[0]
        return PASS

    # -- the talon ----------------------------------------------------------------------------

    def pass_card(self, view: SeatView) -> int:
        actions = view.legal_actions
        hand = view.hand or 0
        rules = view.rules
        if WRITE_OFF in actions and self.hopeless(view):
            return WRITE_OFF
        gives = [a for a in actions if is_give(a)]
        # The weakest card goes to the first seat still due one.
        seat = min(give_parts(a)[1] for a in gives)
        due = len({give_parts(a)[1] for a in gives})
        # Keep to the plan made before the first card went (the passed cards are in the view).
        already = [c for c in view.passed or () if c is not None]
        before = hand | mask_of(already)
        chosen = [c for c in pass_plan(before, rules, due + len(already)) if hand >> c & 1]
        if not chosen:
            chosen = pass_plan(hand, rules, due)
        return GIVE + seat * 24 + min(chosen, key=lambda c: keep_value(c, hand, -1))

    def kept_hand(self, hand: int, rules: Rules, passes: int) -> int:
        """The hand after passing the cards of :func:`pass_plan`."""
        for c in pass_plan(hand, rules, passes):
            hand &= ~(1 << c)
        return hand

    def hopeless(self, view: SeatView) -> bool:
        """Whether the contract is out of reach by far, and writing off costs no more than
        failing would: the opponents' write-off gain is at most what they would score."""
        hand = view.hand or 0
        rules = view.rules
        contract = view.contract or 0
        opponents = len(view.active) - 1
        kept = self.kept_hand(hand, rules, opponents)
        est = hand_estimate(kept, rules)
        if est + HOPELESS > contract:
            return False
        match = view.match
        every = rules.writeoff_penalty_every
        if (
            match is not None
            and view.seat is not None
            and every
            and match.writeoffs[view.seat] + 1 >= every
        ):
            return False  # this write-off would cost the penalty too
        defenders_expect = (120 - est) // max(opponents, 1)
        return writeoff_share(rules, contract, opponents) <= defenders_expect

    def contract(self, view: SeatView) -> int:
        hand = view.hand or 0
        rules = view.rules
        est = hand_estimate(hand, rules) - RAISE_MARGIN
        amounts = sorted(a for a in view.legal_actions if is_contract(a))
        best = amounts[0]
        for a in amounts:
            if a - CONTRACT <= est:
                best = a
        return best

    # -- the play -----------------------------------------------------------------------------

    def play(self, view: SeatView) -> int:
        actions = list(view.legal_actions)
        if view.trick:
            return self.follow(view, actions)
        return self.lead(view, actions)

    def lead(self, view: SeatView, actions: list[int]) -> int:
        hand = view.hand or 0
        rules = view.rules
        declares = [a for a in actions if a >= DECLARE]
        if declares:
            # Declare now; with several, the suit wanted as trump last. Lead the queen.
            trump = _best_trump(hand, rules)
            suits = {(a - DECLARE) // 6 for a in declares}
            suit = min(suits, key=lambda s: (s == trump, rules.marriage_values[s]))
            queen = 6 * suit + QUEEN + DECLARE
            return queen if queen in declares else next(a for a in declares if a // 6 == suit)
        me = view.seat
        declarer = view.declarer
        out = outstanding(view)
        trump = -1 if view.trump is None else view.trump
        shown = voids(view)
        opponents = [s for s in view.active if s != me and (s == declarer) != (me == declarer)]
        cards = [a for a in actions if a < DECLARE]
        # A master card (nothing higher out) in a suit no opponent is known to trump.
        masters = []
        for c in cards:
            suit = c // 6
            if out & SUIT_MASKS[suit] & ~((1 << (c + 1)) - 1):
                continue
            ruffed = any(
                shown[s] & SUIT_MASKS[suit] and trump >= 0 and trump != suit for s in opponents
            )
            if not ruffed and not _keeps_marriage(c, hand):
                masters.append(c)
        if masters:
            return max(masters, key=lambda c: (CARD_POINTS[c], c))
        # Otherwise a low card that keeps marriages and tens guarded, from a short suit.
        return min(
            cards,
            key=lambda c: (
                _keeps_marriage(c, hand),
                c // 6 == trump,
                CARD_POINTS[c],
                (hand & SUIT_MASKS[c // 6]).bit_count(),
            ),
        )

    def follow(self, view: SeatView, actions: list[int]) -> int:
        me = view.seat
        declarer = view.declarer
        n = view.seats
        trick = view.trick
        led = trick[0][1] // 6
        trump = _trick_trump(view)
        best_seat, best = trick[0]
        for seat, c in trick[1:]:
            if _beats(c, best, trump):
                best_seat, best = seat, c
        ours = (best_seat == declarer) == (me == declarer)
        later = [(trick[0][0] + i) % n for i in range(len(trick) + 1, len(view.active))]
        foes_after = [s for s in later if (s == declarer) != (me == declarer)]
        out = outstanding(view)
        cards = [played_card(a) for a in actions]
        winners = [c for c in cards if _beats(c, best, trump)]
        hand = view.hand or 0
        if ours and (not foes_after or _safe(best, trump, out)):
            # Our side has the trick: give it points, but not a trump or a master needlessly.
            return max(
                cards,
                key=lambda c: (
                    not _keeps_marriage(c, hand),
                    c // 6 != trump or led == trump,
                    CARD_POINTS[c],
                ),
            )
        if winners:
            if not foes_after:
                # Last against the trick: win it as cheaply as the points allow.
                return min(winners, key=lambda c: (c // 6 == trump and led != trump, c % 6))
            safe = [c for c in winners if _safe(c, trump, out)]
            if safe:
                return min(safe, key=lambda c: (c // 6 == trump and led != trump, c % 6))
            if ours:
                return min(cards, key=lambda c: (CARD_POINTS[c], c))
        # Cannot take it: throw the least.
        return min(
            cards,
            key=lambda c: (_keeps_marriage(c, hand), c // 6 == trump, CARD_POINTS[c], c % 6),
        )


def _beats(c: int, best: int, trump: int) -> bool:
    return (c // 6 == best // 6 and c > best) or (c // 6 == trump and best // 6 != trump)


def _safe(c: int, trump: int, out: int) -> bool:
    """Whether nothing still out can beat card ``c`` in its suit (trumps aside)."""
    return not (out & SUIT_MASKS[c // 6] & ~((1 << (c + 1)) - 1)) and (
        c // 6 == trump or trump < 0 or not out & SUIT_MASKS[trump]
    )


def _keeps_marriage(c: int, hand: int) -> bool:
    suit = c // 6
    return c % 6 in (QUEEN, KING) and hand & _PAIR[suit] == _PAIR[suit]


def _best_trump(hand: int, rules: Rules) -> int:
    """The marriage suit this hand would like as trump (the longest, then the dearest), or -1."""
    suits = [s for s in range(4) if hand & _PAIR[s] == _PAIR[s]]
    if not suits:
        return -1
    return max(suits, key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), rules.marriage_values[s]))


def _trick_trump(view: SeatView) -> int:
    """The trump for the current trick (a marriage declared on its lead may not count yet)."""
    trumps = trick_trumps(view)
    return trumps[-1] if trumps else -1
