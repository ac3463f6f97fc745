"""A game as a record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

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


def record_of_game(
    game: Game,
    variant: str,
    played_for: Mapping[int, Sequence[tuple[int, str]]] | None = None,
) -> Record:
    """The record of ``game``, written as the built-in ``variant`` plus its differences;
    ``played_for``: by deal (from 1), the moves a bot made for a person (a timed table's:
    each one's number in the deal, from 1, and why)."""
    marks = played_for or {}
    if variant not in TEMPLATES:
        raise ValueError(f"unknown variant {variant!r}")
    overrides = game.rules.overrides_from(template_rules(variant))
    start = game.start_totals if any(game.start_totals) else None
    return Record(
        variant=variant,
        deals=tuple(
            replace(_deal(game, log), played_for=tuple(marks.get(number, ())))
            for number, log in enumerate(game.logs, start=1)
        ),
        rules=tuple(overrides.items()),
        players=game.players,
        start_totals=start,
    )
