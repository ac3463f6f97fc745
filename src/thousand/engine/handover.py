"""Handing the talon's cards over without taking it (rules.md part 4: pass-without-taking and
keep-one): the declarer gives one talon card to each other active seat; then the card set aside
(pass-without-taking) or the talon card kept (keep-one) joins the declarer's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import card_list
from .actions import GIVE, REDEAL, WRITE_OFF
from .talon import may_redeal, may_write_off, receivers_left

if TYPE_CHECKING:
    from .deal import Deal


def legal(d: Deal) -> list[int]:
    """A give of a talon card still in the pool to a seat still due one; the write-off before
    the first give, where the rules allow it."""
    acts = [WRITE_OFF] if may_write_off(d) else []
    if may_redeal(d):
        acts.append(REDEAL)
    cards = card_list(d.pool)
    for seat in receivers_left(d):
        base = GIVE + seat * 24
        acts += [base + c for c in cards]
    return acts


def apply(d: Deal, action: int) -> None:
    if action == WRITE_OFF:
        d.finish("written-off")
        return
    if action == REDEAL:
        d.finish("redealt")
        return
    seat, c = divmod(action - GIVE, 24)
    d.pool ^= 1 << c
    d.hands[seat] |= 1 << c
    given = d.given = (*d.given[:seat], c, *d.given[seat + 1 :])
    if given.count(-1) == d.n - d.k + 1:
        d.end_passing()
