"""A game as a record."""

from __future__ import annotations

from ..cards import hand_text
from ..engine import Game, action_text
from ..rules import TEMPLATES, template_rules
from .model import Record, RecordDeal


def record_of_game(game: Game, variant: str) -> Record:
    """The record of ``game``, written as the built-in ``variant`` plus its differences."""
    if variant not in TEMPLATES:
        raise ValueError(f"unknown variant {variant!r}")
    overrides = game.rules.overrides_from(template_rules(variant))
    start = game.start_totals if any(game.start_totals) else None
    return Record(
        variant=variant,
        deals=tuple(
            RecordDeal(
                log.dealer,
                tuple(hand_text(h) for h in log.hands),
                (hand_text(log.talon),),
                tuple(action_text(a) for a in log.moves),
            )
            for log in game.logs
        ),
        rules=tuple(overrides.items()),
        players=game.players,
        start_totals=start,
    )
