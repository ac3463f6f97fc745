"""Contra and recontra (``bidding.contra``): once the contract is named, before the first lead,
each defender in turn from the declarer's left may double it (``contra``) or decline (``pass``);
after a contra the declarer may redouble (``recontra``, with ``contra-recontra``) or decline. The
contract's gain or loss is multiplied by ``bidding.contra_multiplier`` for each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CONTRA, PASS, RECONTRA
from .flags import BLIND_HIGH, DOUBLED, REDOUBLED

if TYPE_CHECKING:
    from .deal import Deal


def defenders(d: Deal) -> tuple[int, ...]:
    """The declarer's opponents among the active seats, from its left."""
    order = d.order
    i = order.index(d.declarer)
    partner = d.partner(d.declarer)
    seats = order[i + 1 :] + order[:i]
    return tuple(s for s in seats if s != partner)


def legal(d: Deal) -> list[int]:
    if d.special & DOUBLED:
        return [RECONTRA, PASS]
    return [CONTRA, PASS]


def apply(d: Deal, action: int) -> None:
    if action == CONTRA:
        d.special |= DOUBLED
        if d.rules.bidding_contra == "contra-recontra":
            d.askers = ()
            d.to_act = d.declarer
            return
        d.begin_play()
        return
    if action == RECONTRA:
        d.special |= REDOUBLED
        d.begin_play()
        return
    if d.special & DOUBLED:  # the declarer declines to redouble
        d.begin_play()
        return
    left = d.askers[1:]
    d.askers = left
    if left:
        d.to_act = left[0]
    else:
        d.begin_play()


def factor(d: Deal) -> int:
    """What the contract's gain or loss is multiplied by (contra, recontra, a blind bid)."""
    m = d.rules.bidding_contra_multiplier
    f = (m if d.special & DOUBLED else 1) * (m if d.special & REDOUBLED else 1)
    return f * d.rules.bidding_blind_multiplier if d.special & BLIND_HIGH else f


def explain(d: Deal, seat: int, action: int) -> str:
    """Why contra or recontra ``action`` of ``seat`` is not allowed."""
    if action == CONTRA:
        return f"seat {seat} is the declarer: it may only redouble (recontra) or pass"
    return f"seat {seat} may not redouble: only the declarer redoubles a contra"
