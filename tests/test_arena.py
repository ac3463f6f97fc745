"""The arena (duplicate deals, statistics, JSON and PNG) and ``thousand arena``."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path
from typing import Any

import pytest

from thousand.bots import Limit
from thousand.bots.arena import (
    ArenaConfig,
    mean_ci,
    play_deal_set,
    play_out,
    run_arena,
    seatings,
)
from thousand.cli.main import main
from thousand.engine import Game
from thousand.engine.actions import PASS, is_bid
from thousand.engine.dealing import deal_layout
from thousand.engine.views import SeatView
from thousand.rules import template_rules


def test_seatings_put_every_bot_at_the_table() -> None:
    two = seatings(2, 3)
    assert len(two) == 6
    assert all(set(s) == {0, 1} for s in two)
    assert sorted(seatings(3, 3)) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )
    assert seatings(1, 3) == [(0, 0, 0)]


def test_mean_ci_numbers() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5
    # stdev 1.2910, / sqrt(4) = 0.6455, x 1.96 = 1.2652
    assert round(lo, 4) == 1.2348 and round(hi, 4) == 3.7652


def test_a_deal_set_plays_the_same_cards_in_every_seating() -> None:
    """Two copies of the same bot, seated both ways, score the same deal identically."""
    config = ArenaConfig(bots=("medium", "heuristic"), deals=1, seed=5)
    played = play_deal_set(config, 0)
    assert len(played) == 6
    assert len({p.scores for p in played}) == 1  # same cards, same (deterministic) play
    assert len({p.declarer for p in played}) == 1


def untimed(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its timings (the clock is the one thing a seed does not fix)."""
    out = dict(result)
    out["bots"] = [{k: v for k, v in b.items() if k != "ms_per_decision"} for b in result["bots"]]
    return out


def test_results_are_reproducible_and_independent_of_workers() -> None:
    config = ArenaConfig(bots=("medium", "easy"), deals=6, seed=11)
    one = untimed(run_arena(config, workers=1))
    assert untimed(run_arena(config, workers=1)) == one
    assert untimed(run_arena(config, workers=2)) == one
    other = run_arena(ArenaConfig(bots=("medium", "easy"), deals=6, seed=12), workers=1)
    assert untimed(other) != one


def test_match_sets_give_win_rates() -> None:
    config = ArenaConfig(
        bots=("medium", "easy"),
        deals=0,
        matches=2,
        seed=1,
        rules=(("barrel.threshold", None), ("game.target", 300)),
    )
    result = run_arena(config)
    rates = [b["match_win_rate"] for b in result["bots"]]
    assert all(0 <= r <= 1 for r in rates)
    assert abs(sum(rates) - 1) < 1e-9  # every match has a winner within the deal limit
    assert rates[0] > rates[1]


def test_the_command_prints_and_writes_json_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "result.json"
    plot = tmp_path / "result.png"
    args = ["arena", "--bots", "medium,easy", "--deals", "5", "--seed", "2", "--workers", "1"]
    code = main([*args, "--out", str(out), "--plot", str(plot)])
    assert code == 0
    captured = capsys.readouterr()
    assert "sets" in captured.err  # the progress bar
    lines = captured.out.splitlines()
    assert lines[0] == "russian, 5 duplicate deal-sets (6 seatings each), seed 2"
    assert lines[1].strip().startswith("medium:") and "points per deal" in lines[1]
    assert "make-rate" in lines[1]
    assert lines[3].startswith("paired difference medium - easy:")
    result = json.loads(out.read_text())
    assert result["config"]["bots"] == ["medium", "easy"]
    assert len(result["per_deal_set"]) == 5
    png = plot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (640, 480)
    # The same seed prints the same result.
    main([*args, "--quiet"])
    again = capsys.readouterr().out.splitlines()
    assert [line.split(";")[:2] for line in again] == [line.split(";")[:2] for line in lines]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "medium"], "--bots: name at least two bots, comma-separated"),
        (["--bots", "medium,grandmaster"], "--bots: unknown bot 'grandmaster'"),
        (["--bots", "medium,medium"], "--bots: each bot may be named once"),
        (["--bots", "medium,easy", "--deals", "0"], "--deals and --matches: play at least one"),
        (["--bots", "medium,easy", "--template", "nope"], "template"),
    ],
)
def test_bad_options_say_what_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


class Scripted:
    """Passes whenever it may, else makes the first legal move."""

    name = "scripted"

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        return PASS if PASS in view.legal_actions else view.legal_actions[0]


class Bidder(Scripted):
    """Bids the lowest legal bid whenever it may bid, else as Scripted."""

    def choose(self, view: SeatView, limit: Limit | None = None) -> int:
        bids = [a for a in view.legal_actions if is_bid(a)]
        return min(bids) if bids else super().choose(view, limit)


def test_forced_contracts_are_told_apart() -> None:
    rules = template_rules("russian")
    game = Game.start(rules).new_deal(deal_layout(rules, random.Random(1), 0))
    chosen: set[int] = set()
    done = play_out(game, [Scripted(), Scripted(), Scripted()], (0, 0, 0), {}, chosen)
    assert done.reports[-1].outcome.declarer == 0  # the forced dealer
    assert chosen == set()
    chosen = set()
    done = play_out(game, [Scripted(), Bidder(), Scripted()], (0, 0, 0), {}, chosen)
    assert done.reports[-1].outcome.declarer == 1
    assert chosen == {1}


def test_the_chart_is_a_valid_png_for_any_result() -> None:
    import zlib

    from thousand.bots.plot import arena_png

    one = run_arena(ArenaConfig(bots=("medium",), deals=2, seed=1))
    for result in (one, run_arena(ArenaConfig(bots=("medium", "easy"), deals=3, seed=1))):
        png = arena_png(result, width=320, height=240)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (320, 240)
        start = png.index(b"IDAT") + 4
        length = struct.unpack(">I", png[start - 8 : start - 4])[0]
        raw = zlib.decompress(png[start : start + length])
        assert len(raw) == 240 * (1 + 3 * 320)
        assert set(raw[:: 1 + 3 * 320]) == {0}  # every row starts with filter type 0
