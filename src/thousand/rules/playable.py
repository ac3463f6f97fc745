"""Whether a layout of rules.md part 4 can deal the deck and play a deal to its end.

It reads the rules' :class:`~thousand.rules.layout.Layout`, the numbers the dealing uses: each
active seat gets ``deal.hand_size`` cards, then come the talons, then what is left is the draw
stock or set aside. The talon's procedure must leave every active seat the same number of cards
for the tricks, and the deal must use the 24 cards exactly where the layout sets nothing apart.
One sentence for each combination that breaks this, naming the parameters and their values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from thousand.cards import DECK_SIZE
from thousand.rules.layout import (
    CHOOSE_TALON,
    FIXED_DEAL,
    KEEP_ONE,
    NO_TALON,
    TAKE_AND_PASS,
    WITHOUT_TAKING,
    Layout,
)
from thousand.rules.params import PARAM_BY_NAME, show

if TYPE_CHECKING:
    from thousand.rules.model import Rules

NAMES = (
    "players.count",
    "players.layout",
    "deal.hand_size",
    "deal.talon_size",
    "talon.distribution",
)
"""The parameters that say how the deck is dealt."""

_TALON_SIZES = PARAM_BY_NAME["deal.talon_size"].allowed_ints or ()

#: the cards each procedure sets aside beside the hands and talons (pass-without-taking keeps one
#: for the declarer to take)
_SET_ASIDE = {TAKE_AND_PASS: 0, KEEP_ONE: 0, CHOOSE_TALON: 0, WITHOUT_TAKING: 1}


def _talon_needed(procedure: int, active: int) -> tuple[int, str] | None:
    """The talon that ``procedure`` needs with ``active`` seats so that every active seat holds
    as many cards after it, and why; None for choose-talon (any talon: the declarer discards as
    many cards as it took)."""
    if procedure == TAKE_AND_PASS:
        return active, "the declarer takes it and passes one card to each other seat"
    if procedure == KEEP_ONE:
        return active, "the declarer keeps one card and gives one to each other seat"
    if procedure == WITHOUT_TAKING:
        return active - 1, "the declarer gives one card to each other seat"
    return None


def deal_problems(rules: Rules) -> list[str]:
    """Every reason why ``rules`` cannot deal the deck or finish a deal, one sentence each.

    Where a layout has its own procedure (no-talon, draw-stock, fixed-deal) it wins over
    ``talon.distribution``; no-talon and draw-stock deal no talon, whatever ``deal.talon_size``.
    """
    layout = Layout.derive(rules)
    if layout.active < 2:
        return [
            f"rules players.layout = {show(rules.players_layout)} needs players.count = 3 or 4,"
            f" but players.count = {rules.players_count}: one seat cannot play alone"
        ]
    if layout.procedure == FIXED_DEAL:
        return _fixed_deal(rules, layout)
    if layout.procedure == NO_TALON:
        return _no_talon(rules, layout)
    return _with_talon(rules, layout)


def _fixed_deal(rules: Rules, layout: Layout) -> list[str]:
    """fixed-deal: the declarer takes the talon, hands one card to each other seat and discards
    one; the cards left over are set aside."""
    found: list[str] = []
    if layout.talons > 1:
        found.append(
            "rules talon.distribution = 'choose-talon' cannot go with"
            " players.layout = 'fixed-deal': fixed-deal deals one talon, which the declarer takes"
        )
    needed = layout.active + 1
    why = "the declarer takes the talon, hands one card to each other seat and discards one"
    if needed > max(_TALON_SIZES):
        found.append(
            f"rules players.layout = 'fixed-deal' needs players.count = {max(_TALON_SIZES) - 1},"
            f" but players.count = {rules.players_count}: {why}, which takes a talon of {needed}"
        )
    elif layout.talon_size != needed:
        found.append(
            f"rules players.layout = 'fixed-deal' needs deal.talon_size = {needed}"
            f" with {layout.active} seats, but deal.talon_size = {layout.talon_size}: {why}"
        )
    if layout.active * layout.hand_size + layout.talon_size > DECK_SIZE:
        found.append(_deck(rules, layout, [f"deal.talon_size {layout.talon_size}"]))
    return found


def _no_talon(rules: Rules, layout: Layout) -> list[str]:
    """no-talon deals every card to the hands; draw-stock leaves a stock to draw from."""
    if rules.players_layout == "no-talon":
        return [] if layout.left_over == 0 else [_deck(rules, layout, [])]
    if layout.left_over < 0:
        return [_deck(rules, layout, [])]
    if layout.left_over == 0:
        return [
            f"rules players.layout = 'draw-stock' needs a stock, but {_hands(layout)}"
            f" take all {DECK_SIZE} cards (players.count = {rules.players_count}):"
            " the stock's face-up bottom card names the trump"
        ]
    return []


def _with_talon(rules: Rules, layout: Layout) -> list[str]:
    """standard and dealer-sits-out: the talon goes as ``talon.distribution`` says, and the
    deal uses the whole deck (pass-without-taking sets one card aside for the declarer)."""
    talon = layout.talon_size
    talons = 2 if layout.procedure == CHOOSE_TALON else 1
    aside = _SET_ASIDE[layout.procedure]
    found: list[str] = []
    if layout.left_over != aside:
        parts = [
            f"{talons} × deal.talon_size {talon}" if talons > 1 else f"deal.talon_size {talon}"
        ]
        if aside:
            parts.append("1 card set aside")
        found.append(_deck(rules, layout, parts, aside))
    dist = rules.talon_distribution
    need = _talon_needed(layout.procedure, layout.active)
    if need is not None and talon != need[0]:
        found.append(
            f"rules talon.distribution = {show(dist)} needs a talon of {need[0]}"
            f" with {layout.active} active seats, but deal.talon_size = {talon}: {need[1]}"
        )
    if need is None and not talon:
        found.append(
            f"rules talon.distribution = {show(dist)} needs a talon,"
            " but deal.talon_size = 0: the declarer picks one of two talons and discards as many"
            " cards"
        )
    return found


def _hands(layout: Layout) -> str:
    return f"{layout.active} hands of deal.hand_size {layout.hand_size}"


def _deck(rules: Rules, layout: Layout, parts: list[str], aside: int = 0) -> str:
    """The deal's cards do not add up to the deck."""
    dealt = DECK_SIZE - layout.left_over + aside
    shown = [
        f"players.count = {rules.players_count}",
        f"players.layout = {show(rules.players_layout)}",
    ]
    if rules.players_layout in ("standard", "dealer-sits-out"):
        shown.append(f"talon.distribution = {show(rules.talon_distribution)}")
    return (
        f"rules deal: {' + '.join([_hands(layout), *parts])} = {dealt} cards does not fit"
        f" the {DECK_SIZE}-card deck ({', '.join(shown)})"
    )
