"""A game as a record."""

from __future__ import annotations

from ..cards import CARD_TEXT, hand_text
from ..engine import DealLog, Game, Layout, action_text
from ..rules import TEMPLATES, template_rules
from .model import Record, RecordDeal


def _deal(game: Game, log: DealLog) -> RecordDeal:
    """A deal as the record writes it, with the keys its layout has."""
    layout = Layout.of(game.rules)
    dealt = log.dealt
    return RecordDeal(
        log.dealer,
        tuple(hand_text(h) for h in dealt.hands),
        tuple(hand_text(t) for t in dealt.talons),
        tuple(action_text(a) for a in log.moves),
        stock=" ".join(CARD_TEXT[c] for c in dealt.stock) if layout.stock_size else None,
        aside=hand_text(dealt.aside) if layout.aside_size else None,
        shown=CARD_TEXT[dealt.shown] if layout.shown else None,
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
