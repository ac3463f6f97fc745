"""Handing the talon's cards over without taking it (rules.md part 4: pass-without-taking and
keep-one): the declarer gives one talon card to each other active seat; then the card set aside
(pass-without-taking) or the talon card kept (keep-one) joins the declarer's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .talon import apply_give, legal_gives

if TYPE_CHECKING:
    from .deal import Deal


def legal(d: Deal) -> list[int]:
    """A give of a talon card still in the pool to a seat still due one; the write-off before
    the first give, where the rules allow it."""
    return legal_gives(d, d.pool)


def apply(d: Deal, action: int) -> None:
    apply_give(d, action, from_pool=True)
