"""The heuristic bot (level medium): rules of thumb that a good club player uses.

It bids from its hand's strength, its marriages and what the talon is expected to bring; passes
cards that build voids and keeps its marriages; writes off a hopeless contract; raises when the
talon completed a marriage; declares marriages as soon as it may (the one it wants as trump
last); as a defender it plays against the declarer; and it remembers every card played (what is
still out, who has shown a void). It reads only its view and the rules, so any number of seats
works.
"""

from __future__ import annotations

import math
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
    ANNOUNCE,
    BID,
    BUYBACK,
    CONCEDE,
    CONTRA,
    CONTRACT,
    CRAWL,
    DECLARE,
    DISCARD,
    GIVE,
    PASS,
    REBUY,
    RECONTRA,
    REDEAL,
    TALON,
    WRITE_OFF,
    give_parts,
    is_announce,
    is_bid,
    is_contract,
    is_crawl,
    is_discard,
    is_give,
    played_card,
)
from ..engine.deal import Phase
from ..engine.scoring import writeoff_share
from ..engine.views import SeatView
from ..rules import Rules
from ..rules.layout import Layout
from .base import Limit
from .knowledge import outstanding, voids

_PAIR = tuple((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING)) for s in range(4))

#: The margin (points) by which the estimate must clear a bid or contract.
BID_MARGIN = 5
RAISE_MARGIN = 10
#: Bid when this share of the drawn talons makes the hand worth the bid.
BID_CONFIDENCE = 0.6
#: The share that opens the bidding at a table where nobody is forced to bid.
OPEN_CONFIDENCE = 0.35
#: How many talons the bidding draws.
TALONS = 16
#: A contract is hopeless when the estimate falls this far short of it.
HOPELESS = 35
#: Ask for an optional redeal when the hand's estimate falls this far below ``bidding.min``.
REDEAL_BELOW = 40
#: Double (or redouble) when the contract looks beaten (made) by this margin.
CONTRA_MARGIN = 20


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
    size = Layout.of(rules).talon_size
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
        if phase is Phase.PLAY:
            return self.play(view)
        if phase is Phase.TALON:
            return self.choose_talon(view)
        if phase is Phase.DISCARD:
            return self.discard(view)
        if phase is Phase.REDEAL:
            return self.redeal(view)
        if phase is Phase.CONTRA:
            return self.contra(view)
        if phase is Phase.CONCESSION:
            return self.concession(view)
        if phase is Phase.REBUY:
            return self.rebuy(view)
        raise ValueError(f"the heuristic bot has no rule for the phase {phase.name.lower()}")

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

    def bid_limit(self, hand: int, rules: Rules, passes: int) -> int:
        """The highest amount ``hand`` bids to by :meth:`bid_share`'s reckoning: at least
        :data:`BID_CONFIDENCE` of the drawn talons make it worth that amount plus
        :data:`BID_MARGIN`."""
        worth = sorted(
            hand_estimate(self.kept_hand(hand | t, rules, passes), rules)
            for t in talons(hand, rules, TALONS)
        )
        return worth[len(worth) - math.ceil(BID_CONFIDENCE * len(worth))] - BID_MARGIN

    def bid(self, view: SeatView) -> int:
        actions = view.legal_actions
        bids = sorted(a for a in actions if is_bid(a))
        if PASS not in actions:
            return bids[0]
        confidence = BID_CONFIDENCE
        if view.rules.bidding_forced == "none" and not any(a for _, a in view.auction):
            # Nobody is forced to bid: an auction of passes throws the deal in, so open more
            # readily (the contracts opened so are mostly made).
            confidence = OPEN_CONFIDENCE
        if bids and self.bid_share(view, bids[0] - BID) >= confidence:
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
        mine = {give_parts(a)[0] for a in gives if give_parts(a)[1] == seat}
        if not mine.issubset(card_list(hand)) or not hand:
            # The talon is handed over without being taken (polish-2card, keep-one): the
            # opponent gets the talon card least worth keeping, in the declarer's eyes.
            whole = hand | mask_of(list(mine))
            return GIVE + seat * 24 + min(mine, key=lambda c: keep_value(c, whole, -1))
        due = len({give_parts(a)[1] for a in gives})
        # Keep to the plan made before the first card went (the passed cards are in the view).
        already = [c for c in view.passed or () if c is not None]
        before = hand | mask_of(already)
        chosen = [c for c in pass_plan(before, rules, due + len(already)) if c in mine]
        if not chosen:
            chosen = [c for c in pass_plan(hand, rules, due) if c in mine] or sorted(mine)
        return GIVE + seat * 24 + min(chosen, key=lambda c: keep_value(c, hand, -1))

    # -- the layouts' and house rules' other decisions ------------------------------------------

    def choose_talon(self, view: SeatView) -> int:
        """choose-talon: the talons are unseen, so the first one (any is as good)."""
        return min(a for a in view.legal_actions if a >= TALON)

    def discard(self, view: SeatView) -> int:
        """Write off a hopeless contract; else discard the card least worth keeping (its points
        count for the declarer, so a bare ten or a lone king goes before a useful low card)."""
        actions = view.legal_actions
        if WRITE_OFF in actions and self.hopeless(view):
            return WRITE_OFF
        hand = view.hand or 0
        trump = _best_trump(hand, view.rules)
        cards = [a - DISCARD for a in actions if is_discard(a)]
        return DISCARD + min(
            cards, key=lambda c: keep_value(c, hand, trump) - 10 * CARD_POINTS[c] // 2
        )

    def redeal(self, view: SeatView) -> int:
        """Ask for the redeal the rules offer when the dealt hand is weak."""
        hand = view.hand or 0
        weak = hand_estimate(hand, view.rules) < view.rules.bidding_min - REDEAL_BELOW
        return REDEAL if weak and REDEAL in view.legal_actions else PASS

    def contra(self, view: SeatView) -> int:
        """Double a declarer whose contract this hand looks able to beat; the declarer
        redoubles when its hand clears the contract by far."""
        actions = view.legal_actions
        hand = view.hand or 0
        rules = view.rules
        contract = view.contract or view.bid or 0
        est = hand_estimate(hand, rules)
        if RECONTRA in actions and view.seat == view.declarer:
            return RECONTRA if est >= contract + CONTRA_MARGIN else PASS
        if CONTRA in actions:
            # The declarer's expected take: 120 less this hand's worth and 20 for each other
            # defender.
            others = len(view.active) - 2
            declarer_expects = 120 - est - 20 * max(others, 0)
            return CONTRA if declarer_expects + CONTRA_MARGIN <= contract else PASS
        return PASS

    def concession(self, view: SeatView) -> int:
        """Concede (or buy back) a forced contract that is out of reach; else play it."""
        actions = view.legal_actions
        hand = view.hand or 0
        contract = view.contract or view.bid or 0
        hopeless = hand_estimate(hand, view.rules) + HOPELESS < contract
        for quit in (CONCEDE, BUYBACK):
            if hopeless and quit in actions:
                return quit
        return PASS

    def rebuy(self, view: SeatView) -> int:
        """Take the contract over when the shown talon makes this hand worth it."""
        hand = view.hand or 0
        rules = view.rules
        contract = view.contract or view.bid or 0
        kept = self.kept_hand(hand | (view.talon or 0), rules, len(view.active) - 1)
        worth = hand_estimate(kept, rules) >= contract + RAISE_MARGIN
        return REBUY if worth and REBUY in view.legal_actions else PASS

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
        announces = [a for a in actions if is_announce(a)]
        if announces:
            # marriage.announce from-hand: declare at once, the suit wanted as trump last.
            hand = view.hand or 0
            trump = _best_trump(hand, view.rules)
            return min(announces, key=lambda a: (a - ANNOUNCE == trump, a))
        crawls = [a - CRAWL for a in actions if is_crawl(a)]
        if crawls and (view.trick or view.crawl_hidden or len(crawls) == len(actions)):
            # A crawl is answered face down: throw the least, keeping marriages.
            hand = view.hand or 0
            return CRAWL + min(
                crawls, key=lambda c: (_keeps_marriage(c, hand), CARD_POINTS[c], c % 6)
            )
        actions = [a for a in actions if a < GIVE]
        if view.trick:
            return self.follow(view, actions)
        return self.lead(view, actions)

    def lead(self, view: SeatView, actions: list[int]) -> int:
        hand = view.hand or 0
        rules = view.rules
        declares = [a for a in actions if DECLARE <= a < GIVE]
        if declares:
            # Declare now; with several, the suit wanted as trump last. Lead the queen.
            trump = _best_trump(hand, rules)
            suits = {(a - DECLARE) // 6 for a in declares}
            suit = min(suits, key=lambda s: (s == trump, _marriage_value(rules, s)))
            queen = 6 * suit + QUEEN + DECLARE
            return (
                queen
                if queen in declares
                else next(a for a in declares if (a - DECLARE) // 6 == suit)
            )
        me = view.seat
        out = outstanding(view)
        trump = -1 if view.trump is None else view.trump
        shown = voids(view)
        opponents = [s for s in view.active if s != me and not _same_side(view, s, me)]
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
        trick = view.trick
        led = trick[0][1] // 6
        trump = -1 if view.trick_trump is None else view.trick_trump
        best_seat, best = trick[0]
        for seat, c in trick[1:]:
            if _beats(c, best, trump):
                best_seat, best = seat, c
        ours = _same_side(view, best_seat, me)
        order = view.play_order(trick[0][0])
        later = order[len(trick) + 1 :]
        foes_after = [s for s in later if not _same_side(view, s, me)]
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


def _marriage_value(rules: Rules, suit: int) -> int:
    values = rules.marriage_values
    return values[suit] if suit < len(values) else 0


def _same_side(view: SeatView, a: int | None, b: int | None) -> bool:
    """Whether seats ``a`` and ``b`` play on the same side: the declarer (with its partner, in
    partnerships) against the rest."""
    declarer = view.declarer
    if declarer is None:
        return a == b
    side = {declarer}
    if view.rules.players_partnerships == "across":
        side.add((declarer + 2) % 4)
    return (a in side) == (b in side)


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
