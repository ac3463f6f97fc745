"""OpenSpiel's ISMCTS as a bot of this project (``ismcts-N``): legal moves from a seat's view,
seeded, and reachable by name in the arena."""

from __future__ import annotations

import random
import sys

import pytest

pytest.importorskip("pyspiel")

from thousand.bots.ismcts_bot import IsmctsBot, plays, simulations_of
from thousand.bots.levels import make_bot
from thousand.cli import arena
from thousand.cli.arena import parse_bots
from thousand.engine import Game
from thousand.engine.dealing import deal_layout
from thousand.engine.views import game_view
from thousand.rules import TEMPLATES, template_rules

#: the templates where no world is drawn at some moment of the deal: the talon handed over
#: without being taken (polish-2card, soviet-book), two talons to choose from (tysiac-2p), a
#: draw stock (two-player-a), a fixed deal (two-player-b); the arena does not seat the bot
#: there (partners without a talon, four-player-a, have their worlds drawn since the sampler
#: replays a deal without a contract move)
NO_WORLD = {
    "polish-2card",
    "soviet-book",
    "tysiac-2p",
    "two-player-a",
    "two-player-b",
}


def dealt(template: str, seed: int) -> Game:
    rules = template_rules(template)
    rng = random.Random(seed)
    dealer = seed % rules.players_count
    return Game.start(rules, dealer=dealer).new_deal(deal_layout(rules, rng, dealer))


@pytest.mark.parametrize("template", [t for t in TEMPLATES if t not in NO_WORLD])
def test_ismcts_plays_legal_moves_through_a_whole_deal(template: str) -> None:
    game = dealt(template, 4)
    bots = [IsmctsBot(10, seed) for seed in range(template_rules(template).players_count)]
    moves = 0
    while game.in_deal:
        assert game.deal is not None and game.deal.to_act is not None
        seen = game_view(game, game.deal.to_act)
        action = bots[game.deal.to_act].choose(seen)
        assert action in seen.legal_actions
        game = game.apply(action)
        moves += 1
    assert moves >= 2 and game.reports[-1].outcome is not None


def test_the_arena_refuses_it_where_no_world_is_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    assert {t for t in TEMPLATES if not plays(template_rules(t))} == NO_WORLD
    for template in sorted(NO_WORLD):
        code = arena.run("expert,ismcts-10", 1, 0, template, 1, None, None, None, None)
        said = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(said) == 1 and f"not {template}" in said[0]


def test_the_same_seed_gives_the_same_move() -> None:
    game = dealt("russian", 3)
    for _ in range(4):  # into the auction, past the forced moves
        assert game.deal is not None and game.deal.to_act is not None
        seen = game_view(game, game.deal.to_act)
        game = game.apply(seen.legal_actions[0])
    assert game.deal is not None and game.deal.to_act is not None
    seen = game_view(game, game.deal.to_act)
    assert len(seen.legal_actions) > 1
    picks = {IsmctsBot(20, 11).choose(seen) for _ in range(2)}
    assert len(picks) == 1
    # a different seed searches differently (the same move or not, but a real search)
    assert IsmctsBot(20, 12).choose(seen) in seen.legal_actions


def test_the_arena_names_it_ismcts_n() -> None:
    assert simulations_of("ismcts-1000") == 1000
    assert simulations_of("ismcts-0") is None and simulations_of("ismcts-x") is None
    assert simulations_of("expert") is None
    bot = make_bot("ismcts-20", 1)
    assert isinstance(bot, IsmctsBot) and bot.name == "ismcts-20" and bot.simulations == 20
    assert parse_bots("expert,ismcts-1000") == ("expert", "ismcts-1000")
    with pytest.raises(ValueError, match="ismcts-N"):
        parse_bots("expert,ismcts-lots")


def test_without_openspiel_the_arena_says_so_in_one_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel: ImportError
    with pytest.raises(ValueError, match="need OpenSpiel") as caught:
        parse_bots("expert,ismcts-1000")
    assert str(caught.value).count(". ") == 0
    with pytest.raises(ValueError, match="need OpenSpiel"):
        make_bot("ismcts-10", 1)
