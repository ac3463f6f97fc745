"""The named templates of rules.md part 3, and the rules of a record (variant plus overrides)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from thousand.rules.model import Rules, RulesError, apply_overrides


@dataclass(frozen=True)
class Template:
    """A named rule set: its base template plus the parameters that differ from it."""

    name: str
    base: str | None
    summary: str
    overrides: Mapping[str, object]


# "the penalties of ukrainian off (three-falls reset, dump truck, sticks, no-win)"
_PENALTIES_OFF: dict[str, object] = {
    "barrel.three_falls_reset": False,
    "game.dump_truck": "off",
    "penalty.sticks": "off",
    "penalty.no_win": "off",
}


def _template(name: str, base: str | None, summary: str, overrides: dict[str, object]) -> Template:
    return Template(name, base, summary, MappingProxyType(overrides))


_ALL = (
    _template(
        "russian",
        None,
        "The canonical Russian rules: what the table plays when it picks nothing.",
        {},
    ),
    _template(
        "russian-classic",
        "russian",
        "The rules of the big Russian online rooms: forehand must bid, bids to 400 by marriages,"
        " no duty to beat.",
        {
            "bidding.forced": "forehand",
            "bidding.max": 400,
            "bidding.marriage_cap": "plus-marriages",
            "bidding.step": 5,
            "bidding.big_step": 5,
            "play.must_beat": "off",
            "play.must_overtrump": False,
            "scoring.round_before_check": False,
            "writeoff.opponents_get": "fixed",
            "writeoff.fixed": 60,
            "writeoff.penalty_every": 0,
            "penalty.sticks": "in-a-row",
            "penalty.no_win": "off",
            "barrel.three_falls_reset": False,
            "game.dump_truck": "positive",
        },
    ),
    _template(
        "ukrainian",
        "russian",
        "Ukrainian tables: two deals on the barrel, no write-off, no dump truck, no penalties.",
        {
            "barrel.deals": 2,
            "writeoff.allowed": False,
            "barrel.three_falls_reset": False,
            "game.dump_truck": "off",
            "penalty.sticks": "off",
            "penalty.no_win": "off",
        },
    ),
    _template(
        "polish-2card",
        "russian",
        "The Polish layout: the declarer hands out a two-card talon; bids in tens, no raise.",
        {
            "talon.distribution": "pass-without-taking",
            "deal.talon_size": 2,
            "bidding.step": 10,
            "bidding.forced": "none",
            "contract.raise": False,
            "writeoff.allowed": False,
            "play.must_beat": "highest",
            "play.must_trump": "highest",
            "play.defender_overtrumps_declarer": True,
            "barrel.three_falls_reset": False,
            "game.dump_truck": "off",
            "penalty.sticks": "off",
            "penalty.no_win": "off",
            "writeoff.penalty_every": 0,
        },
    ),
    _template(
        "tysiac",
        "russian",
        "Polish Tysiąc as online Polish rooms play it: a three-card musik, bids in tens, no"
        " barrel.",
        {
            "bidding.forced": "forehand",
            "bidding.step": 10,
            "bidding.marriage_cap": "plus-marriages",
            "bidding.max": 400,
            "scoring.round_to": 10,
            "writeoff.opponents_get": "fixed",
            "writeoff.fixed": 60,
            "writeoff.penalty_every": 0,
            "barrel.threshold": None,
            "scoring.only_bids_above": 800,
            "game.dump_truck": "off",
            "penalty.sticks": "off",
            "penalty.no_win": "off",
        },
    ),
    _template(
        "tysiac-2p",
        "tysiac",
        "Polish Tysiąc for two players: 10 cards each and two talons of two to choose from.",
        {
            "players.count": 2,
            "deal.hand_size": 10,
            "deal.talon_size": 2,
            "talon.distribution": "choose-talon",
        },
    ),
    _template(
        "two-player-a",
        "russian",
        "Two players with a draw stock: 9 cards each, trump turned up, a draw after each trick.",
        {
            "players.count": 2,
            "players.layout": "draw-stock",
            "deal.hand_size": 9,
            "deal.talon_size": 0,
            "bidding.forced": "none",
            "writeoff.allowed": False,
            **_PENALTIES_OFF,
        },
    ),
    _template(
        "two-player-b",
        "russian",
        "Two players with a fixed deal: 7 cards each, a talon of 3, and 7 cards unused.",
        {
            "players.count": 2,
            "players.layout": "fixed-deal",
            "bidding.forced": "none",
            "writeoff.allowed": False,
            **_PENALTIES_OFF,
        },
    ),
    _template(
        "four-player-a",
        "russian",
        "Four players in partnerships across the table: 6 cards each and no talon.",
        {
            "players.count": 4,
            "players.partnerships": "across",
            "players.layout": "no-talon",
            "deal.hand_size": 6,
            "deal.talon_size": 0,
            "bidding.forced": "none",
            "writeoff.allowed": False,
            **_PENALTIES_OFF,
        },
    ),
    _template(
        "four-player-b",
        "russian",
        "Four players in partnerships across the table; the dealer sits each deal out.",
        {
            "players.count": 4,
            "players.partnerships": "across",
            "players.layout": "dealer-sits-out",
            "bidding.forced": "none",
            "writeoff.allowed": False,
            **_PENALTIES_OFF,
        },
    ),
    _template(
        "four-player",
        "four-player-b",
        "Four players each for themselves; the dealer sits each deal out and scores the talon.",
        {
            "players.partnerships": "none",
            "four.sitter_scores": "talon-points-and-marriage",
        },
    ),
    _template(
        "estonian",
        "russian",
        "Estonian Tuhat: clubs the dearest marriage, exact card points, the crawl, no barrel.",
        {
            "marriage.values": {"c": 100, "s": 80, "h": 60, "d": 40},
            "bidding.forced": "last-seat",
            "bidding.marriage_cap": "needs-marriage",
            "bidding.max": 400,
            "marriage.min_hand": 3,
            "marriage.four_nines_bonus": 100,
            "play.crawl": True,
            "play.must_beat": "off",
            "play.must_overtrump": False,
            "scoring.round_to": 1,
            "writeoff.allowed": False,
            "barrel.threshold": None,
            "scoring.only_bids_above": 800,
            "game.dump_truck": "off",
            "penalty.sticks": "in-a-row",
            "penalty.sticks_on": "points",
            "penalty.sticks_count": 3,
            "penalty.sticks_amount": 100,
            "penalty.no_win": "off",
        },
    ),
    _template(
        "soviet-book",
        "russian",
        "The old Soviet book rules: bids from 60 in tens, the contract named before the talon.",
        {
            "deal.first_card_shown": True,
            "bidding.min": 60,
            "bidding.step": 10,
            "bidding.max": 400,
            "bidding.marriage_cap": "needs-marriage",
            "bidding.forced": "last-seat",
            "contract.before_talon": True,
            "contract.raise": False,
            "talon.distribution": "keep-one",
            "play.must_beat": "on",
            "play.must_overtrump": False,
            "scoring.round_to": 10,
            "scoring.declarer_gains": "score-plus-contract",
            "writeoff.opponents_get": "fixed",
            "writeoff.fixed": 60,
            "writeoff.penalty_every": 0,
            "barrel.threshold": None,
            "scoring.zero_penalty_from": 850,
            "scoring.zero_penalty": 100,
            "game.dump_truck": "off",
            "penalty.sticks": "off",
            "penalty.no_win": "off",
        },
    ),
)

TEMPLATES: dict[str, Template] = {t.name: t for t in _ALL}
"""Every template of rules.md part 3, in the spec's order."""


def _resolve(name: str) -> Rules:
    """A template's rules through its base chain, checked for valid values but not support."""
    template = TEMPLATES.get(name) if isinstance(name, str) else None
    if template is None:
        raise RulesError(f"unknown variant {name!r}")
    base = Rules() if template.base is None else _resolve(template.base)
    return base.with_overrides(template.overrides, supported_only=False)


def rules_from_record(
    variant: str, overrides: Mapping[str, object], *, supported_only: bool = True
) -> Rules:
    """The rules of a record: its ``variant`` template with its ``rules`` object applied.

    Raises :class:`RulesError` with every problem: an unknown variant, an unknown parameter, a
    value out of range, an impossible combination, or (unless ``supported_only`` is false) a
    value the engine does not play yet. Values that the template itself sets and the engine does
    not play are reported together as ``template 'NAME' is not supported yet: ...``.
    """
    rules, found = apply_overrides(_resolve(variant), overrides)
    found += rules.problems(supported_only=False)
    if supported_only:
        named = overrides if isinstance(overrides, Mapping) else {}
        from_template: list[str] = []
        from_record: list[str] = []
        for name, problem in rules.support_problems():
            (from_record if name in named else from_template).append(problem)
        if from_template:
            found.append(f"template {variant!r} is not supported yet: {'; '.join(from_template)}")
        found += from_record
    if found:
        raise RulesError(found)
    return rules


def template_rules(name: str, *, supported_only: bool = True) -> Rules:
    """The rules of a template of rules.md part 3 by name (``russian``, ``tysiac``, ...).

    Raises :class:`RulesError` for a name that is not a template, and, unless
    ``supported_only`` is false, for a template whose values the engine does not play yet.
    """
    return rules_from_record(name, {}, supported_only=supported_only)
