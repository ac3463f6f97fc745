"""The random bot and ``thousand selfplay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from thousand.bots import Bot, Limit, RandomBot, derive_seed
from thousand.cli.main import main
from thousand.cli.selfplay import load_rules, play_deal, random_bots, selfplay
from thousand.engine import Game
from thousand.engine.views import game_view
from thousand.records import read_record, record_of_game, replay, replay_json, write_record
from thousand.rules import TEMPLATES, template_rules

RULES = template_rules("russian")
SHORT_MATCH = '{"game.target": 200, "barrel.threshold": null}'


def bot_choices(seed: int, deals: int = 3) -> list[int]:
    """Seat 1's bot choices over seeded deals in which every seat is played by a bot."""
    bots: list[Bot] = [RandomBot(seed + s) for s in range(3)]
    rng = random.Random(99)
    game = Game.start(RULES)
    chosen = []
    for _ in range(deals):
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            action = bots[seat].choose(game_view(game, seat))
            if seat == 1:
                chosen.append(action)
            game = game.apply(action)
    return chosen


def test_random_bot_is_reproducible() -> None:
    assert bot_choices(5) == bot_choices(5)
    assert bot_choices(5) != bot_choices(6)


def test_random_bot_chooses_only_legal_actions() -> None:
    rng = random.Random(1)
    bot = RandomBot(3)
    game = Game.start(RULES)
    for _ in range(20):
        game = game.shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            view = game_view(game, seat)
            action = bot.choose(view)
            assert action in game.deal.legal_actions()
            game = game.apply(action)
    assert game.deal is not None
    with pytest.raises(ValueError, match="no legal action"):
        bot.choose(game_view(game, 0))


def test_a_limit_seed_fixes_one_choice() -> None:
    game = Game.start(RULES).shuffle_and_deal(random.Random(4))
    assert game.deal is not None and game.deal.to_act is not None
    view = game_view(game, game.deal.to_act)
    a, b = RandomBot(1), RandomBot(2)
    limit = Limit(time_s=None, iterations=None, seed=17)
    assert a.choose(view, limit) == b.choose(view, limit)
    fresh = RandomBot(1)
    assert a.choose(view) == fresh.choose(view)  # the limit left a's own stream alone


def test_derive_seed_is_stable() -> None:
    assert derive_seed(1, "seat", 0) == 2991856370335146673
    assert derive_seed(0, "seat", 2) == 7790251462878035654
    assert len({derive_seed(7, "seat", s) for s in range(3)}) == 3


# -- thousand selfplay -------------------------------------------------------------------------


def test_selfplay_same_seed_same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    args = ["selfplay", "--template", "russian", "--deals", "4"]
    assert main([*args, "--seed", "3", "--out", str(a)]) == 0
    assert main([*args, "--seed", "3", "--out", str(b)]) == 0
    assert main([*args, "--seed", "4", "--out", str(c)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert "4 deals" in capsys.readouterr().out


def test_selfplay_record_replays_to_the_games_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    assert main(["selfplay", "--deals", "6", "--seed", "11", "--out", str(out)]) == 0
    game = selfplay(RULES, 11, 6)
    result = replay_json(replay(read_record(out.read_text())))
    assert len(result["deals"]) == 6
    assert result["totals"] == list(game.match.totals)
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == list(game.match.totals)


def _logs_per_move(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, for every move applied to a Game: how many deal logs and reports it holds."""
    held: list[int] = []
    apply = Game.apply

    def counted(game: Game, move: int | str, checked: bool = True) -> Game:
        held.append(len(game.logs) + len(game.reports))
        return apply(game, move, checked)

    monkeypatch.setattr(Game, "apply", counted)
    return held


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_selfplay_moves_do_not_carry_the_earlier_deals(
    template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's cost does not grow with the match: every move of self-play (the bots' view of
    a write-off included) is applied to a game holding the current deal's log alone, never the
    earlier deals' logs and reports; the match is the one played carrying them all along."""
    rules = template_rules(template)
    bots = random_bots(5, rules.players_count)
    carried = Game.start(rules, players=[f"{b.name}-{s}" for s, b in enumerate(bots)])
    rng = random.Random(5)
    for _ in range(25):
        if carried.over:
            break
        carried = play_deal(carried.shuffle_and_deal(rng), bots)
    held = _logs_per_move(monkeypatch)
    game = selfplay(rules, 5, 25)
    assert game == carried
    assert len(game.logs) == len(game.reports) == len(carried.logs) > 1
    assert set(held) == {1}


def test_replay_moves_do_not_carry_the_earlier_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying a record likewise: its cost per deal does not grow with the record."""
    game = selfplay(RULES, 8, 40)
    text = write_record(record_of_game(game, "russian"))
    held = _logs_per_move(monkeypatch)
    result = replay(read_record(text))
    assert result.game == game
    assert len(held) == sum(len(log.moves) for log in game.logs)
    assert set(held) == {1}


def test_selfplay_writes_to_stdout_without_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--deals", "2", "--seed", "1"]) == 0
    record = read_record(capsys.readouterr().out)
    assert len(record.deals) == 2


def test_selfplay_match_ends_with_a_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.json"
    argv = ["selfplay", "--match", "--seed", "3", "--rules", SHORT_MATCH, "--out", str(out)]
    assert main(argv) == 0
    assert "wins" in capsys.readouterr().out
    result = replay(read_record(out.read_text()))
    assert result.game.over
    assert result.game.match.winner is not None
    assert result.game.reports[-1].events[-1].event == "win"
    assert result.game == selfplay(load_rules("russian", SHORT_MATCH), 3, 1000)


def test_selfplay_match_cap_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cap.json"
    argv = ["selfplay", "--match", "--max-deals", "3", "--seed", "1", "--out", str(out)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no seat won within 3 deals" in err
    assert len(read_record(out.read_text()).deals) == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--template", "no-such-game"],
        ["selfplay", "--rules", "{not json"],
        ["selfplay", "--rules", '{"game.target": "far"}'],
        ["selfplay", "--deals", "0"],
    ],
)
def test_selfplay_bad_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("selfplay: ")


def test_levels_make_bots_and_refuse_unknown_levels() -> None:
    from thousand.bots import LEVELS, available_levels, make_bot

    assert available_levels()[0] == "easy"
    assert set(available_levels()) <= set(LEVELS)
    assert isinstance(make_bot("easy", 3), RandomBot)
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'"):
        make_bot("grandmaster")
