"""``thousand selfplay``: three bots play deals (or a whole match) and the record is written."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..bots import Bot, RandomBot, derive_seed
from ..engine import DealLog, DealReport, Game
from ..engine.views import game_view
from ..records import record_of_game, write_record
from ..rules import Rules, RulesError, rules_from_record
from ..rules.custom import ChosenTemplate, TemplateError, find_template, overrides_from_json

#: --match stops after this many deals unless told otherwise; random bots seldom win a match
DEFAULT_MAX_DEALS = 1000


class OptionError(ValueError):
    """A command-line option that cannot be used; the message is one line for standard error."""


def load_template(template: str, overrides: str | None = None) -> tuple[ChosenTemplate, Rules]:
    """A template by name or file (built-in or custom) plus a record-style ``rules`` object
    given as JSON text: the template found and the rules to play, checked for support."""
    try:
        chosen = find_template(template)
    except TemplateError as e:
        raise OptionError("; ".join(e.problems)) from None
    extra: dict[str, object] = {}
    if overrides is not None:
        try:
            extra = overrides_from_json(overrides)
        except ValueError as e:
            raise OptionError(str(e)) from None
    try:
        return chosen, rules_from_record(chosen.variant, {**chosen.record_rules(), **extra})
    except RulesError as e:
        raise OptionError(str(e).replace("\n", " ")) from None


def load_rules(template: str, overrides: str | None = None) -> Rules:
    """The rules of :func:`load_template`."""
    return load_template(template, overrides)[1]


def random_bots(seed: int, seats: int) -> list[Bot]:
    """One random bot per seat, each seeded from ``seed`` and its seat."""
    return [RandomBot(derive_seed(seed, "seat", s)) for s in range(seats)]


def play_deal(game: Game, bots: Sequence[Bot]) -> Game:
    """Play the current deal to its end, each seat's bot choosing from its own view."""
    while game.in_deal:
        assert game.deal is not None
        seat = game.deal.to_act
        assert seat is not None
        game = game.apply(bots[seat].choose(game_view(game, seat)))
    return game


def selfplay(
    rules: Rules,
    seed: int,
    deals: int,
    bots: Sequence[Bot] | None = None,
) -> Game:
    """Play up to ``deals`` deals, stopping when a seat wins the match (no deal may follow the
    win). Dealing uses ``random.Random(seed)``; the default bots are seeded from ``seed`` too."""
    n = rules.players_count
    players = bots if bots is not None else random_bots(seed, n)
    names = [f"{b.name}-{s}" for s, b in enumerate(players)]
    game = Game.start(rules, players=names)
    rng = random.Random(seed)
    # Each deal is played on the match without the earlier deals' logs and reports, which are
    # kept here and put back at the end: a Game copies its logs on every move (and both on
    # every deal), so carrying them along would make each deal cost more than the one before.
    logs: list[DealLog] = []
    reports: list[DealReport] = []
    for _ in range(deals):
        if game.over:
            break
        game = play_deal(replace(game, logs=(), reports=()).shuffle_and_deal(rng), players)
        logs += game.logs
        reports += game.reports
    return replace(game, logs=tuple(logs), reports=tuple(reports))


def run(
    template: str,
    deals: int | None,
    seed: int,
    out: str | None,
    match: bool,
    max_deals: int,
    overrides: str | None = None,
) -> int:
    """The command: 0 when done, 1 when --match hit its cap without a winner, 2 on bad options."""
    try:
        chosen, rules = load_template(template, overrides)
        count = max_deals if match else (1 if deals is None else deals)
        if count < 1:
            raise OptionError(f"{'--max-deals' if match else '--deals'} must be at least 1")
    except OptionError as e:
        print(f"selfplay: {e}", file=sys.stderr)
        return 2
    game = selfplay(rules, seed, count)
    text = write_record(record_of_game(game, chosen.variant))
    if out is None or out == "-":
        sys.stdout.write(text)
    else:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as e:
            print(f"selfplay: cannot write {out}: {e.strerror}", file=sys.stderr)
            return 2
        totals = " ".join(str(t) for t in game.match.totals)
        winner = game.match.winner
        end = f", seat {winner} wins" if winner is not None else ""
        print(f"{len(game.logs)} deals, totals {totals}{end}; record written to {out}")
    if match and not game.over:
        print(
            f"selfplay: no seat won within {count} deals (random bots seldom win a match;"
            " raise --max-deals or lower game.target with --rules); the record holds them",
            file=sys.stderr,
        )
        return 1
    return 0
