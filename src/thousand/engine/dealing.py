"""Shuffling and dealing (rules.md 1.2), with an explicit, seeded random generator."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..cards import CARD_TEXT, DECK_SIZE, FULL_DECK, JACK, NINE
from ..rules import Rules
from ..rules.layout import ASIDE, STOCK, TALON, Layout

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


@dataclass(frozen=True, slots=True)
class Dealt:
    """What one deal handed out, in every layout of rules.md part 4: the hands (card masks by
    seat; a seat that sits out holds 0), the talons (masks; one in most layouts, two in
    choose-talon, none in no-talon and draw-stock), the draw stock (cards, top first, the last
    face up), the cards set aside (a mask), the card shown to all (or -1) and the seat that sits
    the deal out (the dealer in dealer-sits-out, or None).

    The one value the deal state, the game log, the record and the server's storage carry.
    """

    hands: tuple[int, ...]
    talons: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()
    aside: int = 0
    shown: int = -1
    sitter: int | None = None

    @property
    def talon(self) -> int:
        """The talon, where there is exactly one (0 otherwise)."""
        return self.talons[0] if len(self.talons) == 1 else 0

    def __reduce__(self) -> tuple[type[Dealt], tuple[object, ...]]:
        """Copied and pickled by its fields (the compiled build's frozen slots take no
        ``__setstate__``): search copies states that hold a Dealt."""
        return (Dealt, (self.hands, self.talons, self.stock, self.aside, self.shown, self.sitter))

    def check(self, layout: Layout, dealer: int) -> None:
        """Raise ValueError, saying what is wrong, unless these are the 24 cards, each once,
        dealt as ``layout`` deals them when ``dealer`` deals."""
        n = layout.players
        if len(self.hands) != n:
            raise ValueError(f"{len(self.hands)} hands for {n} seats")
        if self.sitter != layout.sitter(dealer):
            raise ValueError(
                f"seat {self.sitter} sits out, the layout has {layout.sitter(dealer)} sit out"
            )
        for seat, hand in enumerate(self.hands):
            size = layout.hand_size_of(seat, dealer)
            if hand.bit_count() != size:
                raise ValueError(f"seat {seat} holds {hand.bit_count()} cards, not {size}")
        if len(self.talons) != layout.talons:
            raise ValueError(f"{len(self.talons)} talons, the layout has {layout.talons}")
        for i, t in enumerate(self.talons):
            if t.bit_count() != layout.talon_size:
                raise ValueError(f"talon {i} has {t.bit_count()} cards, not {layout.talon_size}")
        if len(self.stock) != layout.stock_size:
            raise ValueError(f"the stock has {len(self.stock)} cards, not {layout.stock_size}")
        if self.aside.bit_count() != layout.aside_size:
            raise ValueError(
                f"{self.aside.bit_count()} cards are set aside, not {layout.aside_size}"
            )
        if layout.shown != (self.shown >= 0):
            raise ValueError("a shown card where the layout has none, or none where it has one")
        forehand = layout.seats(dealer)[0]
        if self.shown >= 0 and not self.hands[forehand] >> self.shown & 1:
            raise ValueError(
                f"the shown card {CARD_TEXT[self.shown]} is not in forehand's"
                f" (seat {forehand}'s) hand"
            )
        self.check_deck()

    def check_deck(self) -> None:
        """Raise ValueError unless the deal is the 24-card deck, each card once."""
        total = self.aside
        count = self.aside.bit_count()
        for m in (*self.hands, *self.talons):
            total |= m
            count += m.bit_count()
        for c in self.stock:
            total |= 1 << c
            count += 1
        if total != FULL_DECK or count != DECK_SIZE:
            raise ValueError(f"the deal is not the {DECK_SIZE}-card deck, each card once")

    def to_json(self) -> dict[str, Any]:
        """The deal as JSON: masks for hands, talons and the cards set aside, card numbers for
        the stock and the shown card (null: none), the seat that sits out (null: none)."""
        return {
            "hands": list(self.hands),
            "talons": list(self.talons),
            "stock": list(self.stock),
            "aside": self.aside,
            "shown": self.shown if self.shown >= 0 else None,
            "sitter": self.sitter,
        }

    @classmethod
    def from_json(cls, data: Any) -> Dealt:
        """The deal :meth:`to_json` wrote; ValueError, saying what is wrong, for anything else
        (the cards themselves are checked by :meth:`check`)."""
        if not isinstance(data, dict) or set(data) != _JSON_KEYS:
            raise ValueError(f"a dealt deal is an object with the keys {sorted(_JSON_KEYS)}")

        def ints(key: str, bound: int) -> tuple[int, ...]:
            value = data[key]
            if not isinstance(value, list) or not all(_is_int(v, bound) for v in value):
                raise ValueError(f"{key!r} must be a list of whole numbers below {bound}")
            return tuple(value)

        def one(key: str, bound: int, null: bool) -> Any:
            value = data[key]
            if (value is None and null) or _is_int(value, bound):
                return value
            raise ValueError(f"{key!r} must be a whole number below {bound}")

        shown = one("shown", DECK_SIZE, True)
        return cls(
            hands=ints("hands", 1 << DECK_SIZE),
            talons=ints("talons", 1 << DECK_SIZE),
            stock=ints("stock", DECK_SIZE),
            aside=one("aside", 1 << DECK_SIZE, False),
            shown=-1 if shown is None else shown,
            sitter=one("sitter", 8, True),
        )


_JSON_KEYS: Final = frozenset({"hands", "talons", "stock", "aside", "shown", "sitter"})


def _is_int(value: Any, bound: int) -> bool:
    return type(value) is int and 0 <= value < bound


def deal_layout(rules: Rules, rng: random.Random, dealer: int) -> Dealt:
    """Deal a shuffled deck in the rules' layout, as :meth:`Layout.places` says. (No promise is
    made across implementations about how a seed deals.)"""
    return dealt_from_deck(Layout.of(rules), shuffled_deck(rules, rng), dealer)


def dealt_from_deck(layout: Layout, deck: Sequence[int], dealer: int) -> Dealt:
    """The deal of the 24 cards of ``deck`` (top first) in ``layout`` when ``dealer`` deals."""
    if len(deck) != DECK_SIZE:
        raise ValueError(f"a deck of {len(deck)} cards, not {DECK_SIZE}")
    hands = [0] * layout.players
    talons = [0] * layout.talons
    stock: tuple[int, ...] = ()
    aside = 0
    for start, end, place in layout.blocks(dealer):
        if place == STOCK:
            stock += tuple(deck[start:end])
            continue
        m = 0
        for c in deck[start:end]:
            m |= 1 << c
        if place >= 0:
            hands[place] |= m
        elif place == ASIDE:
            aside |= m
        else:
            talons[TALON - place] |= m
    shown = deck[0] if layout.shown else -1
    return Dealt(tuple(hands), tuple(talons), stock, aside, shown, layout.sitter(dealer))
