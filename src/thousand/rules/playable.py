"""Whether a layout of rules.md part 4 can deal the deck and play a deal to its end.

The card arithmetic of the deal, in the numbers the dealing uses: each active seat gets
``deal.hand_size`` cards, then come the talons, then the rest is the draw stock or set aside.
The talon's procedure must leave every active seat the same number of cards for the tricks, and
the deal must use the 24 cards exactly where the layout sets nothing apart. One sentence for
each combination that breaks this, naming the parameters and their values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from thousand.cards import DECK_SIZE
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


def _talon_needed(distribution: str, active: int) -> tuple[int, str] | None:
    """The talon that ``distribution`` needs with ``active`` seats so that every active seat
    holds as many cards after it, and why; None for choose-talon (any talon: the declarer
    discards as many cards as it took)."""
    if distribution == "take-and-pass":
        return active, "the declarer takes it and passes one card to each other seat"
    if distribution == "keep-one":
        return active, "the declarer keeps one card and gives one to each other seat"
    if distribution == "pass-without-taking":
        return active - 1, "the declarer gives one card to each other seat"
    return None


def _active_seats(rules: Rules) -> int:
    """The seats dealt a hand: all but a dealer who sits out."""
    return rules.players_count - (1 if rules.players_layout == "dealer-sits-out" else 0)


def deal_problems(rules: Rules) -> list[str]:
    """Every reason why ``rules`` cannot deal the deck or finish a deal, one sentence each.

    Where a layout has its own procedure (no-talon, draw-stock, fixed-deal) it wins over
    ``talon.distribution``; no-talon and draw-stock deal no talon, whatever ``deal.talon_size``.
    """
    layout = rules.players_layout
    active = _active_seats(rules)
    if active < 2:
        return [
            f"rules players.layout = {show(layout)} needs players.count = 3 or 4,"
            f" but players.count = {rules.players_count}: one seat cannot play alone"
        ]
    if layout == "fixed-deal":
        return _fixed_deal(rules, active)
    if layout in ("no-talon", "draw-stock"):
        return _no_talon(rules, active)
    return _with_talon(rules, active)


def _fixed_deal(rules: Rules, active: int) -> list[str]:
    """fixed-deal: the declarer takes the talon, hands one card to each other seat and discards
    one; the cards left over are set aside."""
    found: list[str] = []
    if rules.talon_distribution == "choose-talon":
        found.append(
            "rules talon.distribution = 'choose-talon' cannot go with"
            " players.layout = 'fixed-deal': fixed-deal deals one talon, which the declarer takes"
        )
    needed = active + 1
    why = "the declarer takes the talon, hands one card to each other seat and discards one"
    if needed > max(_TALON_SIZES):
        found.append(
            f"rules players.layout = 'fixed-deal' needs players.count = {max(_TALON_SIZES) - 1},"
            f" but players.count = {rules.players_count}: {why}, which takes a talon of {needed}"
        )
    elif rules.deal_talon_size != needed:
        found.append(
            f"rules players.layout = 'fixed-deal' needs deal.talon_size = {needed}"
            f" with {active} seats, but deal.talon_size = {rules.deal_talon_size}: {why}"
        )
    dealt = active * rules.deal_hand_size + rules.deal_talon_size
    if dealt > DECK_SIZE:
        found.append(_deck(rules, active, dealt, [f"deal.talon_size {rules.deal_talon_size}"]))
    return found


def _no_talon(rules: Rules, active: int) -> list[str]:
    """no-talon deals every card to the hands; draw-stock leaves a stock to draw from."""
    dealt = active * rules.deal_hand_size
    if rules.players_layout == "no-talon":
        return [] if dealt == DECK_SIZE else [_deck(rules, active, dealt, [])]
    if dealt > DECK_SIZE:
        return [_deck(rules, active, dealt, [])]
    if dealt == DECK_SIZE:
        return [
            f"rules players.layout = 'draw-stock' needs a stock, but {_hands(active, rules)}"
            f" take all {DECK_SIZE} cards (players.count = {rules.players_count}):"
            " the stock's face-up bottom card names the trump"
        ]
    return []


def _with_talon(rules: Rules, active: int) -> list[str]:
    """standard and dealer-sits-out: the talon goes as ``talon.distribution`` says, and the
    deal uses the whole deck (pass-without-taking sets one card aside for the declarer)."""
    dist = rules.talon_distribution
    talon = rules.deal_talon_size
    talons = 2 if dist == "choose-talon" else 1
    aside = 1 if dist == "pass-without-taking" else 0
    found: list[str] = []
    dealt = active * rules.deal_hand_size + talons * talon + aside
    if dealt != DECK_SIZE:
        parts = [
            f"{talons} × deal.talon_size {talon}" if talons > 1 else f"deal.talon_size {talon}"
        ]
        if aside:
            parts.append("1 card set aside")
        found.append(_deck(rules, active, dealt, parts))
    need = _talon_needed(dist, active)
    if need is not None and talon != need[0]:
        found.append(
            f"rules talon.distribution = {show(dist)} needs a talon of {need[0]}"
            f" with {active} active seats, but deal.talon_size = {talon}: {need[1]}"
        )
    if need is None and not talon:
        found.append(
            f"rules talon.distribution = {show(dist)} needs a talon,"
            " but deal.talon_size = 0: the declarer picks one of two talons and discards as many"
            " cards"
        )
    return found


def _hands(active: int, rules: Rules) -> str:
    return f"{active} hands of deal.hand_size {rules.deal_hand_size}"


def _deck(rules: Rules, active: int, dealt: int, parts: list[str]) -> str:
    """The deal's cards do not add up to the deck."""
    shown = [
        f"players.count = {rules.players_count}",
        f"players.layout = {show(rules.players_layout)}",
    ]
    if rules.players_layout in ("standard", "dealer-sits-out"):
        shown.append(f"talon.distribution = {show(rules.talon_distribution)}")
    return (
        f"rules deal: {' + '.join([_hands(active, rules), *parts])} = {dealt} cards does not fit"
        f" the {DECK_SIZE}-card deck ({', '.join(shown)})"
    )
