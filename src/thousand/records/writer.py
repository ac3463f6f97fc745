"""A game as a record."""

from __future__ import annotations

from ..cards import CARD_TEXT, hand_text
from ..engine import DealLog, Game, action_text
from ..rules import TEMPLATES, template_rules
from .model import Record, RecordDeal
from .replay import DealShape


def _deal(game: Game, log: DealLog) -> RecordDeal:
    """A deal as the record writes it, with the keys its layout has."""
    shape = DealShape.of(game.rules, log.dealer)
    if shape.talons > 1:
        talons = tuple(hand_text(t) for t in log.talons)
    elif shape.talons == 1:
        talons = (hand_text(log.talon),)
    else:
        talons = ()
    return RecordDeal(
        log.dealer,
        tuple(hand_text(h) for h in log.hands),
        talons,
        tuple(action_text(a) for a in log.moves),
        stock=" ".join(CARD_TEXT[c] for c in log.stock) if shape.stock_size else None,
        aside=hand_text(log.aside) if shape.aside_size else None,
        shown=CARD_TEXT[log.shown] if shape.shown else None,
    )


def record_of_game(game: Game, variant: str) -> Record:
    """The record of ``game``, written as the built-in ``variant`` plus its differences."""
    if variant not in TEMPLATES:
        raise ValueError(f"unknown variant {variant!r}")
    overrides = game.rules.overrides_from(template_rules(variant))
    start = game.start_totals if any(game.start_totals) else None
    return Record(
        variant=variant,
        deals=tuple(_deal(game, log) for log in game.logs),
        rules=tuple(overrides.items()),
        players=game.players,
        start_totals=start,
    )
