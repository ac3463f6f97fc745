"""What a seat can infer from its view: who played what, known voids, cards known to be held.

Every function reads only a :class:`~thousand.engine.views.SeatView`: who played each card and
which trump each trick was played under are the view's facts, never worked out again here.
"""

from __future__ import annotations

from ..cards import FULL_DECK, KING, QUEEN, SUIT_MASKS
from ..engine.actions import ANNOUNCE, CRAWL
from ..engine.deal import next_seats
from ..engine.tricks import beats, follow_cards
from ..engine.views import SeatView
from ..rules.layout import Layout


def played_by(view: SeatView) -> list[int]:
    """The cards each seat has played to tricks, as masks by seat."""
    out = [0] * view.seats
    for trick in view.tricks_in_play_order():
        for seat, c in trick:
            out[seat] |= 1 << c
    return out


def tricks_in_play_order(view: SeatView) -> list[list[tuple[int, int]]]:
    """Every trick so far (the current one last, if started) as (seat, card) in play order."""
    return [list(trick) for trick in view.tricks_in_play_order()]


def trick_trumps(view: SeatView) -> list[int]:
    """The trump each trick of :func:`tricks_in_play_order` is played under (-1: none), as the
    view says."""
    return [-1 if t is None else t for t in view.tricks_trumps()]


def voids(view: SeatView) -> list[int]:
    """For each seat, the suits (as a card mask) it has shown it no longer holds: it did not
    follow the suit led, and, where it then had to trump, it did not trump either. The tricks
    played while a draw stock lasts show none: any card may be played then."""
    out = [0] * view.seats
    rules = view.rules
    face_down = {a - CRAWL for _, a in view.plays if CRAWL <= a < ANNOUNCE}
    free = Layout.of(rules).stock_tricks
    tricks = zip(tricks_in_play_order(view), trick_trumps(view), strict=True)
    for t, (trick, trump) in enumerate(tricks):
        if t < free:
            continue
        if trick[0][1] in face_down:
            continue  # a crawl's cards are played face down, any card: they show no void
        led = trick[0][1] // 6
        for seat, c in trick[1:]:
            if c // 6 == led:
                continue
            out[seat] |= SUIT_MASKS[led]
            if trump >= 0 and c // 6 != trump and rules.play_must_trump != "off":
                out[seat] |= SUIT_MASKS[trump]
    return out


def not_held(view: SeatView) -> list[int]:
    """For each seat, the cards its plays show it does not hold (as a card mask): a card it
    followed with would not have been legal (rules.md 1.5: follow suit, beat, trump, over-trump)
    had it also held one of these. Wider than :func:`voids` where ``play.must_beat`` or the
    trumping rules name cards, not suits (a seat that followed low under a must-beat rule holds
    no higher card of the suit). The engine's own follow rule decides, card by card: a rule that
    makes a card illegal in a hand makes it illegal in every larger hand, and no card comes to a
    hand in the play."""
    out = [0] * view.seats
    rules = view.rules
    if Layout.of(rules).stock_size:
        return out  # while the stock lasts, any card may be played (draw-stock)
    nxt = next_seats(view.seats, view.dealer, Layout.of(rules).dealer_sits_out)
    declarer = -1 if view.declarer is None else view.declarer
    face_down = {a - CRAWL for _, a in view.plays if CRAWL <= a < ANNOUNCE}
    for trick, trump in zip(tricks_in_play_order(view), trick_trumps(view), strict=True):
        if trick[0][1] in face_down:
            continue
        leader = trick[0][0]
        cards = [trick[0][1]]
        best = cards[0]
        for seat, c in trick[1:]:
            for x in range(24):
                if x == c or out[seat] >> x & 1:
                    continue
                hand = (1 << c) | (1 << x)
                if (
                    not follow_cards(rules, hand, seat, cards, leader, best, trump, declarer, nxt)
                    >> c
                    & 1
                ):
                    out[seat] |= 1 << x
            if beats(c, best, trump):
                best = c
            cards.append(c)
    return out


def known_held(view: SeatView) -> list[int]:
    """For each seat, the cards this seat knows the other holds now: the cards the declarer
    passed (for the declarer), and the partner card of a declared marriage."""
    me = view.seat
    out = [0] * view.seats
    played = view.played
    if view.passed is not None and me is not None and me == view.declarer:
        for seat, c in enumerate(view.passed):
            if c is not None and seat != me:
                out[seat] |= 1 << c
    for seat, suits in enumerate(view.marriages):
        if seat == me:
            continue
        for s in suits:
            out[seat] |= ((1 << (6 * s + QUEEN)) | (1 << (6 * s + KING))) & ~played
    for seat in range(view.seats):
        out[seat] &= ~played
    return out


def outstanding(view: SeatView) -> int:
    """The cards not in this seat's hand and not yet played (in other hands or the talon)."""
    hand = view.hand or 0
    return FULL_DECK & ~hand & ~view.played
