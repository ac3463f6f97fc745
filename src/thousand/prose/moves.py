"""Moves in words for the terminal client and the line-based game, by kind.

A move comes as the view's typed object (``{"token": "give Qs 2", "kind": "give", "card":
"Qs", "seat": 2}``, see docs/protocol.md); its label is the kind's sentence from the translated
prose (:func:`thousand.i18n.tr`, in the language in force) with the move's parts put in. Nothing
here reads a move token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..i18n import tr
from .words import SUIT_WORDS

SUIT_SIGNS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

#: each kind's sentence; ``play`` and ``named`` have one per case below
LABELS: Final = {
    "give": "give {card} to {seat}",
    "pass": "pass",
    "writeoff": "write the deal off",
    "redeal": "ask for a redeal",
    "contra": "contra: double the contract",
    "recontra": "recontra: redouble the contract",
    "concede": "concede the forced contract",
    "buyback": "throw in before the talon",
    "rebuy": "take the contract over",
    "blind": "bid {amount} blind",
    "bid": "bid {amount}",
    "contract": "contract {amount}",
    "crawl": "crawl: {card} face down",
    "discard": "discard {card} face down",
    "talon": "take talon {number}",
    "declare": "declare the marriage: {suit}",
}
PLAY: Final = "play {card}"
PLAY_DECLARE: Final = "{card} and declare the marriage: {suit}"
PLAY_ACES: Final = "{card} and declare the four aces"
NAMED: Final = {
    "misere": "misère: take no trick",
    "open": "open hand: play with the hand shown",
    "slam": "slam: take every trick",
}
UNKNOWN: Final = "a move the client does not know ({token})"

GIVING_UP: Final = ("writeoff", "concede", "buyback")
"""The kinds of move that give a deal up: the terminal games list them last, so that the first
move offered (pre-selected in the client, number 1 in the line game) is never one of them."""


def card(text: str) -> str:
    """A card with its suit sign: ``Q♥``."""
    return text[0] + SUIT_SIGNS.get(text[1], text[1])


def move_label(move: dict[str, Any], seat_name: Callable[[int], str] = str) -> str:
    """A typed move in words, in the language in force; ``seat_name`` names a seat."""
    kind = move["kind"]
    if kind == "play":
        if not move["declare"]:
            return tr(PLAY).format(card=card(move["card"]))
        if move["marriage"] == "a":
            return tr(PLAY_ACES).format(card=card(move["card"]))
        return tr(PLAY_DECLARE).format(
            card=card(move["card"]), suit=tr(SUIT_WORDS[move["marriage"]])
        )
    if kind == "named":
        return tr(NAMED[move["named"]])
    text = LABELS.get(kind)
    if text is None:
        return tr(UNKNOWN).format(token=move.get("token", kind))
    return tr(text).format(
        card=card(move["card"]) if "card" in move else "",
        seat=seat_name(move["seat"]) if "seat" in move else "",
        amount=move.get("amount", ""),
        number=move.get("talon", 0) + 1,
        suit=tr(SUIT_WORDS[move["marriage"]]) if "marriage" in move else "",
    )


def strings() -> set[str]:
    """Every string :func:`move_label` passes to ``tr`` (for the catalogues)."""
    return {*LABELS.values(), PLAY, PLAY_DECLARE, PLAY_ACES, *NAMED.values(), UNKNOWN}
