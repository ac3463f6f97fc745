"""Choosing a talon and discarding (rules.md part 4: choose-talon and fixed-deal).

choose-talon: the declarer picks one of two talons (``talon 0``, ``talon 1``), which is shown and
taken; the other stays unseen. Where write-off is allowed, its window is then, before the first
discard. The declarer discards face down (``discard Js``) until its hand is no bigger than the
others'; fixed-deal discards one card after its hand-over. Discards count for the declarer: they
are in its card points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import CARD_TEXT, card_list
from . import actions as A
from .actions import DISCARD, REDEAL, TALON, WRITE_OFF
from .talon import may_redeal

if TYPE_CHECKING:
    from .deal import Deal


def legal_choice(d: Deal) -> list[int]:
    return [TALON + i for i in range(len(d.talons))]


def apply_choice(d: Deal, action: int) -> None:
    chosen = d.talons[action - TALON]
    d.talon = chosen
    d.talon_open = True
    d.hands[d.declarer] |= chosen
    d.start_discard()


def may_write_off(d: Deal) -> bool:
    """choose-talon's write-off window: the talon taken, no card discarded yet."""
    return d.rules.writeoff_allowed and not d.discarded and len(d.talons) > 1


def discards_due(d: Deal) -> int:
    """How many cards the declarer must still discard: down to the largest other hand."""
    decl = d.declarer
    most = max(d.hands[s].bit_count() for s in d.order if s != decl)
    return d.hands[decl].bit_count() - most


def legal_discard(d: Deal) -> list[int]:
    acts = [WRITE_OFF] if may_write_off(d) else []
    if not d.discarded and may_redeal(d):
        acts.append(REDEAL)
    return acts + [DISCARD + c for c in card_list(d.hands[d.declarer])]


def apply_discard(d: Deal, action: int) -> None:
    if action == WRITE_OFF:
        d.finish("written-off")
        return
    if action == REDEAL:
        d.finish("redealt")
        return
    c = action - DISCARD
    decl = d.declarer
    d.hands[decl] ^= 1 << c
    d.won[decl] |= 1 << c
    d.discarded |= 1 << c
    if discards_due(d) <= 0:
        d.end_exchange()


def explain_choice(d: Deal, action: int) -> str:
    """Why ``talon N`` is not allowed."""
    return f"talon {action - A.TALON} is not one of the {len(d.talons)} talons"


def explain_discard(d: Deal, seat: int, action: int) -> str:
    if action == A.REDEAL:
        return "the declarer may not ask for a redeal with this talon now"
    if action == A.WRITE_OFF:
        if not d.rules.writeoff_allowed:
            return "write-off is not allowed at this table (`writeoff.allowed` false)"
        if not may_write_off(d):
            return "the write-off window closed with the first discard"
        return "write-off is not allowed here"
    c = action - A.DISCARD
    return f"the declarer (seat {seat}) discards {CARD_TEXT[c]}, which it does not hold"
