"""Cards, suits and sets of cards.

A card is an int 0..23: ``suit * 6 + rank``, suits in the order clubs, diamonds, hearts, spades
(``c d h s``) and ranks in trick order 9, J, Q, K, 10, A (so a higher index of the same suit is a
higher card). A set of cards is a 24-bit mask; :class:`CardSet` wraps one for people, while the
engine's hot paths keep the raw ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

SUITS = "cdhs"
RANKS = "9JQKTA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("nine", "jack", "queen", "king", "ten", "ace")
RANK_POINTS = (0, 2, 3, 4, 10, 11)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)

DECK_SIZE: Final = 24
FULL_DECK: Final = (1 << DECK_SIZE) - 1
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x3F << (6 * s) for s in range(4))

_SYMBOL_SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = 9 .. 5 = A) in ``suit`` (0 = clubs .. 3 = spades)."""
    return suit * 6 + rank


def suit_of(c: int) -> int:
    return c // 6


def rank_of(c: int) -> int:
    return c % 6


CARD_POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[c % 6] for c in range(DECK_SIZE))


def card_text(c: int) -> str:
    """The canonical two-character code: ``Th`` for the ten of hearts."""
    return RANKS[c % 6] + SUITS[c // 6]


def card_name(c: int) -> str:
    """A card in words: ``ten of hearts``."""
    return f"{RANK_NAMES[c % 6]} of {SUIT_NAMES[c // 6]}"


CARD_TEXT: Final[tuple[str, ...]] = tuple(card_text(c) for c in range(DECK_SIZE))


class CardError(ValueError):
    """A string that is not a card, or not a hand."""


def parse_card(text: str) -> int:
    """Read one card: ``Th``, ``10h``, ``TH``, ``10♥`` all give the ten of hearts."""
    t = text
    if len(t) < 2:
        raise CardError(f"unknown card code {text!r}")
    rank_text, suit_text = t[:-1], t[-1]
    suit_text = _SYMBOL_SUITS.get(suit_text, suit_text).lower()
    rank_text = "T" if rank_text == "10" else rank_text.upper()
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
        raise CardError(f"unknown card code {text!r}")
    return SUITS.index(suit_text) * 6 + RANKS.index(rank_text)


def parse_cards(text: str) -> list[int]:
    """Read a hand written as cards separated by single spaces (an empty string is no card)."""
    if text == "":
        return []
    return [parse_card(part) for part in text.split(" ")]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _table(shift: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(c + shift for c in range(12) if m >> c & 1) for m in range(1 << 12))


LOW_CARDS: Final = _table(0)
HIGH_CARDS: Final = _table(12)


_LOW_POINTS: Final[tuple[int, ...]] = tuple(
    sum(CARD_POINTS[c] for c in cards) for cards in LOW_CARDS
)
_HIGH_POINTS: Final[tuple[int, ...]] = tuple(
    sum(CARD_POINTS[c] for c in cards) for cards in HIGH_CARDS
)


def card_list(mask: int) -> list[int]:
    """The cards of a mask as a list, lowest index first (table-driven: the fast way)."""
    return [*LOW_CARDS[mask & 0xFFF], *HIGH_CARDS[mask >> 12]]


def points_of(mask: int) -> int:
    """The card points of a set of cards."""
    return _LOW_POINTS[mask & 0xFFF] + _HIGH_POINTS[mask >> 12]


def marriage_suits(mask: int) -> list[int]:
    """The suits in which ``mask`` holds both the king and the queen."""
    return [s for s in range(4) if (mask >> (6 * s + QUEEN)) & 3 == 3]


class CardSet:
    """A friendly, immutable set of cards over a 24-bit mask."""

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | int | str = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK:
                raise CardError(f"{cards} is not a set of the 24 cards")
            self.mask = cards
        elif isinstance(cards, str):
            self.mask = mask_of(parse_cards(cards))
        else:
            self.mask = mask_of(cards)

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < DECK_SIZE and bool(self.mask >> c & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, s: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[s])

    @property
    def points(self) -> int:
        return points_of(self.mask)

    def __str__(self) -> str:
        return hand_text(self.mask)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


def hand_text(mask: int) -> str:
    """A hand in the record's canonical form: suits c d h s, each from the ace down."""
    parts = []
    for s in range(4):
        for r in range(5, -1, -1):
            if mask >> (6 * s + r) & 1:
                parts.append(CARD_TEXT[6 * s + r])
    return " ".join(parts)
