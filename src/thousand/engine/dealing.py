"""Shuffling and dealing (rules.md 1.2), with an explicit, seeded random generator."""

from __future__ import annotations

import math
import random
from typing import Final

from ..cards import DECK_SIZE, JACK, NINE
from ..rules import Rules

_HALF: Final = DECK_SIZE // 2
_LOW_ORDERS: Final = math.factorial(_HALF)
"""The choices for the last 12 places: 12!, below 2^29."""
_HIGH_ORDERS: Final = math.factorial(DECK_SIZE) // _LOW_ORDERS
"""The choices for the first 12 places: 24 x 23 x ... x 13, below 2^51."""
_BITS: Final = 62


def _below(rng: random.Random, bound: int) -> int:
    """A uniform number below ``bound`` from 62 random bits (exact: rejection above the largest
    multiple of ``bound``; small enough to stay a machine word in the compiled build)."""
    accept = (1 << _BITS) // bound * bound
    while True:
        x = rng.getrandbits(_BITS)
        if x < accept:
            return x % bound


def random_order(rng: random.Random) -> list[int]:
    """A uniformly random order of the 24 cards, as a Lehmer code.

    The place of each card in the cards left is one digit of a mixed-radix number; the digits
    for the first 12 places come from one uniform draw below 24!/12!, the last 12 from one below
    12!, so every order is exactly as likely. About twice as fast as ``random.shuffle``.
    """
    high = _below(rng, _HIGH_ORDERS)
    low = _below(rng, _LOW_ORDERS)
    left = list(range(DECK_SIZE))
    deck = []
    for i in range(DECK_SIZE, _HALF, -1):
        high, j = divmod(high, i)
        deck.append(left.pop(j))
    for i in range(_HALF, 0, -1):
        low, j = divmod(low, i)
        deck.append(left.pop(j))
    return deck


def shuffled_deck(rules: Rules, rng: random.Random) -> list[int]:
    """A shuffled deck; with ``deal.bottom_card_guard`` its last card is never a 9 or a J."""
    deck = random_order(rng)
    if rules.deal_bottom_card_guard and deck[-1] % 6 in (NINE, JACK):
        for i in range(DECK_SIZE - 2, -1, -1):
            if deck[i] % 6 not in (NINE, JACK):
                deck[i], deck[-1] = deck[-1], deck[i]
                break
    return deck


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[tuple[int, ...], int]:
    """Deal a shuffled deck: hands (masks, by seat) and the talon (a mask).

    Forehand takes the first ``deal.hand_size`` cards, then the next seats clockwise; the talon
    is the rest. (No promise is made across implementations about how a seed deals.)
    """
    deck = shuffled_deck(rules, rng)
    n = rules.players_count
    size = rules.deal_hand_size
    hands = [0] * n
    pos = 0
    for i in range(n):
        m = 0
        for c in deck[pos : pos + size]:
            m |= 1 << c
        hands[(dealer + 1 + i) % n] = m
        pos += size
    talon = 0
    for c in deck[pos:]:
        talon |= 1 << c
    return tuple(hands), talon


class Dealt:
    """The cards of one deal in every layout of rules.md part 4: hands (masks by seat), the
    talons (masks), the draw stock (cards, top first, the last face up), the cards set aside (a
    mask) and the card shown to all (or -1)."""

    __slots__ = ("aside", "hands", "shown", "stock", "talons")

    def __init__(
        self,
        hands: tuple[int, ...],
        talons: tuple[int, ...],
        stock: tuple[int, ...] = (),
        aside: int = 0,
        shown: int = -1,
    ) -> None:
        self.hands = hands
        self.talons = talons
        self.stock = stock
        self.aside = aside
        self.shown = shown

    @property
    def talon(self) -> int:
        """The talon, where there is exactly one (0 otherwise)."""
        return self.talons[0] if len(self.talons) == 1 else 0


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def deal_layout(rules: Rules, rng: random.Random, dealer: int) -> Dealt:
    """Deal a shuffled deck in the rules' layout, in blocks from the top.

    The active seats take ``deal.hand_size`` cards each from forehand on (a sitting dealer none);
    then the talons, then what the layout sets apart (the stock, the set-aside cards). With
    ``deal.first_card_shown`` forehand's first card is the deck's first, shown to all, and the
    talon comes after forehand's cards, never first or last. The standard layout deals exactly
    as :func:`deal_cards`.
    """
    deck = shuffled_deck(rules, rng)
    n = rules.players_count
    size = rules.deal_hand_size
    layout = rules.players_layout
    seats = [(dealer + 1 + i) % n for i in range(n)]
    if layout == "dealer-sits-out":
        seats = seats[:-1]
    hands = [0] * n
    pos = 0
    dist = rules.talon_distribution
    no_talon = layout in ("no-talon", "draw-stock")
    talon_size = 0 if no_talon else rules.deal_talon_size
    count = 2 if dist == "choose-talon" and not no_talon else 1 if talon_size else 0
    shown = -1
    talons: list[int] = []
    for i, seat in enumerate(seats):
        hands[seat] = _mask(deck[pos : pos + size])
        pos += size
        if i == 0 and rules.deal_first_card_shown:
            shown = deck[0]
            talons.append(_mask(deck[pos : pos + talon_size]))
            pos += talon_size
    while len(talons) < count:
        talons.append(_mask(deck[pos : pos + talon_size]))
        pos += talon_size
    rest = deck[pos:]
    if layout == "draw-stock":
        return Dealt(tuple(hands), (), tuple(rest), 0, shown)
    return Dealt(tuple(hands), tuple(talons), (), _mask(rest), shown)
