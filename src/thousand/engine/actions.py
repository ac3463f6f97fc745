"""Actions: small ints for the engine, short tokens (the record's move words) for people.

Every action of a deal is one int, so legal-action lists are cheap and search can hash them:

========================  ==========================  ===============
range                     action                      token
========================  ==========================  ===============
0..23                     play card c                 ``Qs``
24..47                    lead card c-24, declaring   ``Qs+``
                          its marriage
GIVE + seat*24 + card     the declarer hands a card   ``give Qs 2``
PASS                      pass                        ``pass``
WRITE_OFF                 write the deal off          ``writeoff``
REDEAL                    ask for a redeal            ``redeal``
CONTRA, RECONTRA          double, redouble            ``contra``
CONCEDE                   concede a forced contract   ``concede``
BUYBACK                   throw in before the talon   ``buyback``
REBUY                     take the contract over      ``rebuy``
BLIND + amount            a blind bid (first-bid)     ``blind 120``
MISERE, OPEN, SLAM        a named bid                 ``misere``, ``open``, ``slam``
BID + amount              a bid                       ``105``
CONTRACT + amount         the final contract          ``contract 120``
CRAWL + card              crawl: a card face down     ``crawl Qh``
DISCARD + card            the declarer discards       ``discard Js``
TALON + i                 the declarer picks talon i  ``talon 0``
ANNOUNCE + suit           declare from the hand       ``declare h``
========================  ==========================  ===============
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from ..cards import CARD_TEXT, SUITS, CardError, parse_card
from ..rules.model import MAX_CONTRACT

DECLARE: Final = 24
GIVE: Final = 48
PASS: Final = 150
WRITE_OFF: Final = 151
REDEAL: Final = 152
CONTRA: Final = 153
RECONTRA: Final = 154
CONCEDE: Final = 155
BUYBACK: Final = 156
REBUY: Final = 157
CRAWL: Final = 160
DISCARD: Final = 184
TALON: Final = 208
TALONS_MAX: Final = 2
ANNOUNCE: Final = 212
MISERE: Final = 216
OPEN: Final = 217
SLAM: Final = 218
NAMED_AMOUNT: Final = 1000
"""A named bid's place in the auction is ``NAMED_AMOUNT + kind`` (1 misère, 2 open, 3 slam):
above every number bid, in the order misère < open hand < slam."""
NAMED_WORDS: Final = ("", "misere", "open", "slam")
BLIND: Final = 500
_BLIND_TOP: Final = 499
BID: Final = 1000
CONTRACT: Final = 2000
_MAX_AMOUNT: Final = MAX_CONTRACT
MAX_ACTION: Final = CONTRACT + _MAX_AMOUNT


class MoveKind(StrEnum):
    """The family of a move: one per row of the table above, named by the record's move word
    (``play`` for a card, declaring or not; ``bid`` for a number; ``named`` for misère, open
    hand and slam). Clients label a move by its kind."""

    PLAY = "play"
    GIVE = "give"
    PASS = "pass"
    WRITE_OFF = "writeoff"
    REDEAL = "redeal"
    CONTRA = "contra"
    RECONTRA = "recontra"
    CONCEDE = "concede"
    BUYBACK = "buyback"
    REBUY = "rebuy"
    BLIND = "blind"
    NAMED = "named"
    BID = "bid"
    CONTRACT = "contract"
    CRAWL = "crawl"
    DISCARD = "discard"
    TALON = "talon"
    DECLARE = "declare"


_WORD_KINDS: Final = {
    PASS: MoveKind.PASS,
    WRITE_OFF: MoveKind.WRITE_OFF,
    REDEAL: MoveKind.REDEAL,
    CONTRA: MoveKind.CONTRA,
    RECONTRA: MoveKind.RECONTRA,
    CONCEDE: MoveKind.CONCEDE,
    BUYBACK: MoveKind.BUYBACK,
    REBUY: MoveKind.REBUY,
}


def move_kind(a: int) -> MoveKind:
    """The kind of an action."""
    if a < GIVE:
        return MoveKind.PLAY
    if a < PASS:
        return MoveKind.GIVE
    word = _WORD_KINDS.get(a)
    if word is not None:
        return word
    if is_crawl(a):
        return MoveKind.CRAWL
    if is_discard(a):
        return MoveKind.DISCARD
    if is_talon(a):
        return MoveKind.TALON
    if is_announce(a):
        return MoveKind.DECLARE
    if is_named(a):
        return MoveKind.NAMED
    if is_bid(a):
        return MoveKind.BID
    if is_contract(a):
        return MoveKind.CONTRACT
    if is_blind(a):
        return MoveKind.BLIND
    raise ValueError(f"{a} is not an action")


class MoveSyntaxError(ValueError):
    """A string that is no move at all (as opposed to a move that is illegal here)."""


def play(c: int, declare: bool = False) -> int:
    return c + DECLARE if declare else c


def give(c: int, seat: int) -> int:
    return GIVE + seat * 24 + c


def bid(amount: int) -> int:
    """The bid action of an auction amount (a named bid's amount gives its named action)."""
    if amount > NAMED_AMOUNT:
        return MISERE + amount - NAMED_AMOUNT - 1
    return BID + amount


def is_named(a: int) -> bool:
    """A named bid: ``misere``, ``open`` or ``slam``."""
    return MISERE <= a <= SLAM


def named_kind(a: int) -> int:
    """1 misère, 2 open hand, 3 slam, of a named bid action."""
    return a - MISERE + 1


def contract(amount: int) -> int:
    return CONTRACT + amount


def is_play(a: int) -> bool:
    return a < GIVE


def played_card(a: int) -> int:
    """The card of a play action (declaring or not)."""
    return a - DECLARE if a >= DECLARE else a


def is_give(a: int) -> bool:
    return GIVE <= a < PASS


def give_parts(a: int) -> tuple[int, int]:
    """(card, seat) of a give action."""
    seat, c = divmod(a - GIVE, 24)
    return c, seat


def crawl(c: int) -> int:
    return CRAWL + c


def discard(c: int) -> int:
    return DISCARD + c


def talon_choice(i: int) -> int:
    return TALON + i


def is_crawl(a: int) -> bool:
    return CRAWL <= a < DISCARD


def is_discard(a: int) -> bool:
    return DISCARD <= a < TALON


def is_talon(a: int) -> bool:
    return TALON <= a < TALON + TALONS_MAX


def is_announce(a: int) -> bool:
    return ANNOUNCE <= a < ANNOUNCE + 4


def is_bid(a: int) -> bool:
    return BID <= a < CONTRACT


def is_blind(a: int) -> bool:
    return BLIND <= a <= BLIND + _BLIND_TOP


def blind(amount: int) -> int:
    return BLIND + amount


def is_contract(a: int) -> bool:
    return CONTRACT <= a <= CONTRACT + _MAX_AMOUNT


def amount_of(a: int) -> int:
    """The points of a bid, blind bid or contract action."""
    if a >= CONTRACT:
        return a - CONTRACT
    return a - BID if a >= BID else a - BLIND


def action_text(a: int) -> str:
    """The record's token for an action (canonical form)."""
    if a < DECLARE:
        return CARD_TEXT[a]
    if a < GIVE:
        return CARD_TEXT[a - DECLARE] + "+"
    if a < PASS:
        c, seat = give_parts(a)
        return f"give {CARD_TEXT[c]} {seat}"
    if a == PASS:
        return "pass"
    if a == WRITE_OFF:
        return "writeoff"
    if a == REDEAL:
        return "redeal"
    if a == CONTRA:
        return "contra"
    if a == RECONTRA:
        return "recontra"
    if a == CONCEDE:
        return "concede"
    if a == BUYBACK:
        return "buyback"
    if a == REBUY:
        return "rebuy"
    if is_crawl(a):
        return f"crawl {CARD_TEXT[a - CRAWL]}"
    if is_discard(a):
        return f"discard {CARD_TEXT[a - DISCARD]}"
    if is_talon(a):
        return f"talon {a - TALON}"
    if is_announce(a):
        return f"declare {SUITS[a - ANNOUNCE]}"
    if is_bid(a):
        return str(a - BID)
    if is_contract(a):
        return f"contract {a - CONTRACT}"
    if is_blind(a):
        return f"blind {a - BLIND}"
    if is_named(a):
        return NAMED_WORDS[named_kind(a)]
    raise ValueError(f"{a} is not an action")


def _amount(text: str, token: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise MoveSyntaxError(f"{token!r} is not a move")
    return int(text)


def parse_action(token: str) -> int:
    """Read a move token. Raises :class:`MoveSyntaxError` for a string that is no move.

    The reader only reads; whether the move is legal is the deal's question.
    """
    parts = token.split(" ")
    word = parts[0]
    try:
        if len(parts) == 1:
            if word == "pass":
                return PASS
            if word == "writeoff":
                return WRITE_OFF
            if word == "redeal":
                return REDEAL
            if word == "contra":
                return CONTRA
            if word == "recontra":
                return RECONTRA
            if word == "concede":
                return CONCEDE
            if word == "buyback":
                return BUYBACK
            if word == "rebuy":
                return REBUY
            if word in NAMED_WORDS[1:]:
                return MISERE + NAMED_WORDS.index(word) - 1
            if word.isascii() and word.isdigit():
                return BID + _amount(word, token)
            if word.endswith("+"):
                return parse_card(word[:-1]) + DECLARE
            return parse_card(word)
        if word == "give" and len(parts) == 3:
            seat = _amount(parts[2], token)
            if seat > 3:
                raise MoveSyntaxError(f"{token!r} names no seat")
            return give(parse_card(parts[1]), seat)
        if word == "contract" and len(parts) == 2:
            return CONTRACT + _amount(parts[1], token)
        if word == "blind" and len(parts) == 2:
            amount = _amount(parts[1], token)
            if amount > _BLIND_TOP:
                raise MoveSyntaxError(f"{token!r} is above any bid (blind bids go up to 499)")
            return BLIND + amount
        if word == "crawl" and len(parts) == 2:
            return CRAWL + parse_card(parts[1])
        if word == "discard" and len(parts) == 2:
            return DISCARD + parse_card(parts[1])
        if word == "declare" and len(parts) == 2:
            suit = SUITS.find(parts[1].lower())
            if len(parts[1]) != 1 or suit < 0:
                raise MoveSyntaxError(f"{token!r} names no suit (c, d, h or s)")
            return ANNOUNCE + suit
        if word == "talon" and len(parts) == 2:
            i = _amount(parts[1], token)
            if i >= TALONS_MAX:
                raise MoveSyntaxError(f"{token!r} names no talon (0 or 1)")
            return TALON + i
    except CardError as e:
        raise MoveSyntaxError(f"{token!r} is not a move ({e})") from None
    raise MoveSyntaxError(f"{token!r} is not a move")
