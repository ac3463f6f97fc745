"""Every combination of the layout parameters of rules.md part 2, refused or played.

The combinations are every value of ``players.count`` × ``players.layout`` ×
``players.partnerships`` × ``talon.distribution`` × ``deal.hand_size`` × ``deal.talon_size``, each
on the built-in template that plays its layout. One that the rules refuse says why in sentences
that name a layout parameter; one that they accept plays 20 random deals (seeded random legal
moves) in which every deal finishes, and its record replays to the same totals. One test per
layout, so that a parallel run can spread them (about 11 s in all on one core).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from thousand.cli.main import main
from thousand.engine import Game
from thousand.records import read_record, record_of_game, replay, write_record
from thousand.rules import PARAM_BY_NAME, TEMPLATES, Param, RulesError, rules_from_record
from thousand.rules.custom import FORMAT
from thousand.rules.params import Value
from thousand.rules.playable import NAMES as DEAL_NAMES

from .web_support import web_client

LAYOUT_NAMES = (
    "players.count",
    "players.layout",
    "players.partnerships",
    "talon.distribution",
    "deal.hand_size",
    "deal.talon_size",
)
DEALS = 20
MOVES_PER_DEAL = 200
"""More moves than any deal has (an auction to 400 in steps of 5 and 12 tricks of 2 seats)."""

ACCEPTED = {
    # take-and-pass and keep-one 3 × 7 + 3; pass-without-taking 3 × 7 + 2 + 1 set aside;
    # choose-talon 2 × 10 + 2 × 2, 2 × 9 + 2 × 3 and 3 × 6 + 2 × 3
    "standard": 6,
    # two seats with 6..10 cards and three with 6 or 7 leave a stock; the layout deals no
    # talon, so any talon.distribution (4) and deal.talon_size (3) goes
    "draw-stock": (5 + 2) * 4 * 3,
    # two seats of 6..10 cards and a talon of 3; any talon.distribution but choose-talon
    "fixed-deal": 5 * 3,
    # 4 × 6 (with or without partners) or 3 × 8; any talon.distribution and deal.talon_size
    "no-talon": (2 + 1) * 4 * 3,
    # four seats, three active, as standard with 3 seats (with or without partners), or three
    # seats, two active, with choose-talon
    "dealer-sits-out": 4 * 2 + 2,
}
"""How many combinations of each layout are accepted: the card arithmetic of part 4."""


def values(param: Param) -> tuple[Value, ...]:
    """Every valid value of a parameter with a few values."""
    if param.choices:
        return param.choices
    if param.allowed_ints is not None:
        return param.allowed_ints
    assert param.low is not None and param.high is not None
    return tuple(range(param.low, param.high + 1))


def base_template(combination: dict[str, Value]) -> str:
    """The built-in template that plays the combination's layout (and, in the standard layout,
    its talon distribution; with a sitting dealer, its partnerships)."""
    layout = combination["players.layout"]
    if layout == "standard":
        return {
            "take-and-pass": "russian",
            "pass-without-taking": "polish-2card",
            "keep-one": "soviet-book",
            "choose-talon": "tysiac-2p",
        }[str(combination["talon.distribution"])]
    if layout == "dealer-sits-out":
        return "four-player" if combination["players.partnerships"] == "none" else "four-player-b"
    return {
        "draw-stock": "two-player-a",
        "fixed-deal": "two-player-b",
        "no-talon": "four-player-a",
    }[str(layout)]


def combinations(layout: str) -> Iterator[dict[str, Value]]:
    params = [PARAM_BY_NAME[name] for name in LAYOUT_NAMES]
    for chosen in itertools.product(*(values(p) for p in params)):
        combination = dict(zip(LAYOUT_NAMES, chosen, strict=True))
        if combination["players.layout"] == layout:
            yield combination


def play(game: Game, rng: random.Random) -> Game:
    """One deal of random legal moves, to its end."""
    game = game.shuffle_and_deal(rng)
    for _ in range(MOVES_PER_DEAL):
        if not game.in_deal:
            return game
        assert game.deal is not None
        moves = game.deal.legal_moves()
        assert moves, f"no legal move in phase {game.deal.phase.name}"
        game = game.apply(rng.choice(moves))
    raise AssertionError(f"a deal did not finish in {MOVES_PER_DEAL} moves")


def check_replay(game: Game, base: str) -> None:
    """The match's record, written and read back, replays to the same totals."""
    replayed = replay(read_record(write_record(record_of_game(game, base))))
    assert replayed.unfinished is None
    assert replayed.game.match.totals == game.match.totals
    assert replayed.game.reports == game.reports


def test_the_layout_parameters_are_those_of_the_deal() -> None:
    assert set(DEAL_NAMES) | {"players.partnerships"} == set(LAYOUT_NAMES)
    assert sum(1 for layout in ACCEPTED for _ in combinations(layout)) == 3 * 5 * 2 * 4 * 5 * 3


@pytest.mark.parametrize("layout", list(ACCEPTED))
def test_every_accepted_combination_deals_finishes_and_replays(layout: str) -> None:
    accepted = 0
    for number, combination in enumerate(combinations(layout)):
        base = base_template(combination)
        try:
            rules = rules_from_record(base, combination)
        except RulesError as e:
            for problem in e.problems:
                # one sentence each, naming what is wrong
                assert "\n" not in problem and ". " not in problem, problem
                assert not problem.endswith("."), problem
            named = [n for n in LAYOUT_NAMES if any(n in p for p in e.problems)]
            assert named, e.problems
            continue
        accepted += 1
        rng = random.Random(f"{layout} {number}")
        game = Game.start(rules)
        for _ in range(DEALS):
            if game.over:
                check_replay(game, base)
                game = Game.start(rules)
            game = play(game, rng)
        check_replay(game, base)
    assert accepted == ACCEPTED[layout]


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_no_built_in_template_is_refused(name: str) -> None:
    rules = rules_from_record(name, {})
    assert rules.problems(supported_only=False) == []


FIXED_DEAL_FOR_THREE = {"players.layout": "fixed-deal"}
FIXED_DEAL_REFUSED = (
    "rules players.layout = 'fixed-deal' needs players.count = 2, but players.count = 3:"
    " the declarer takes the talon, hands one card to each other seat and discards one,"
    " which takes a talon of 4"
)


def test_every_entry_refuses_a_layout_with_the_same_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """thousand rules check, POST /api/rules/check and POST /tables."""
    monkeypatch.setenv("THOUSAND_HOME", str(tmp_path / "home"))
    path = tmp_path / "fixed.json"
    template = {"format": FORMAT, "name": "fixed", "base": "russian", "rules": FIXED_DEAL_FOR_THREE}
    path.write_text(json.dumps(template), encoding="utf-8")
    assert main(["rules", "check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{path}: {FIXED_DEAL_REFUSED}\n")
    with web_client(tmp_path / "web") as client:
        body = {"template": "russian", "rules": FIXED_DEAL_FOR_THREE}
        checked = client.post("/api/rules/check", json=body)
        assert checked.status_code == 200
        assert (checked.json()["ok"], checked.json()["problems"]) == (False, [FIXED_DEAL_REFUSED])
        seats = [{"kind": "human"}] * 3  # an open table would be listed
        made = client.post("/tables", json={**body, "seats": seats})
        assert (made.status_code, made.json()) == (422, {"detail": FIXED_DEAL_REFUSED})
        assert client.get("/tables").json() == []
