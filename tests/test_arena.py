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
from thousand.cli.arena import record_name, record_writer
from thousand.cli.main import main
from thousand.engine import Game
from thousand.engine.actions import PASS, is_bid
from thousand.engine.dealing import deal_layout
from thousand.engine.views import SeatView
from thousand.records import read_record_file, replay, replay_json
from thousand.rules import TEMPLATES, template_rules


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
        (["--bots", "medium,expert-nodes-0"], "--bots: unknown bot 'expert-nodes-0'"),
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


def per_bot(bots: int, changes: dict[tuple[int, ...], list[int]]) -> list[float]:
    """Each bot's points per deal in a deal-set, from each seating's deal ``changes``, as the
    arena's ``per_deal_set`` gives them: the mean over the seats the bot held."""
    sums, counts = [0.0] * bots, [0] * bots
    for seating, row in changes.items():
        for seat, b in enumerate(seating):
            sums[b] += row[seat]
            counts[b] += 1
    return [round(s / c, 4) for s, c in zip(sums, counts, strict=True)]


def replayed_points(folder: Path, result: dict[str, Any], index: int) -> list[float]:
    """Each bot's points per deal in deal-set ``index``, from the records of its seatings
    replayed."""
    bots = result["config"]["bots"]
    changes = {}
    for seating in map(tuple, result["config"]["seatings"]):
        record = read_record_file(str(folder / record_name("deal-set", index, seating)))
        assert record.players == tuple(bots[b] for b in seating)
        (deal,) = replay_json(replay(record))["deals"]
        changes[seating] = deal["changes"]
    return per_bot(len(bots), changes)


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_game_is_written_as_a_record_that_replays_to_the_arenas_points(
    template: str, tmp_path: Path
) -> None:
    config = ArenaConfig(bots=("medium", "easy"), template=template, deals=2, seed=3)
    result = run_arena(config, on_game=record_writer(tmp_path, config))
    seatings_ = [tuple(s) for s in result["config"]["seatings"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        record_name("deal-set", i, s) for i in range(2) for s in seatings_
    )
    for i in range(2):
        assert replayed_points(tmp_path, result, i) == result["per_deal_set"][i]


def test_the_command_writes_records_that_replay_and_analyze(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--records``: a record per game, deal-sets and match-sets, that ``thousand replay``
    replays to the points and winners the arena reported and ``thousand analyze`` reads; the
    same seed writes the same files, whatever the number of workers."""
    rules = '{"game.target": 300, "barrel.threshold": null}'
    args = ["arena", "--bots", "medium,easy", "--deals", "2", "--matches", "1", "--seed", "4"]
    args += ["--rules", rules, "--quiet"]
    out = tmp_path / "result.json"
    folder = tmp_path / "games" / "arena"  # made, parents too
    assert main([*args, "--workers", "2", "--out", str(out), "--records", str(folder)]) == 0
    result = json.loads(out.read_text())
    seatings_ = [tuple(s) for s in result["config"]["seatings"]]
    names = [record_name(kind, 0, s) for kind in ("deal-set", "match-set") for s in seatings_]
    names += [record_name("deal-set", 1, s) for s in seatings_]
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    capsys.readouterr()
    for i in range(2):
        changes = {}
        for seating in seatings_:
            path = folder / record_name("deal-set", i, seating)
            assert main(["replay", str(path), "--json"]) == 0
            (deal,) = json.loads(capsys.readouterr().out)["deals"]
            changes[seating] = deal["changes"]
        assert per_bot(2, changes) == result["per_deal_set"][i]
    wins = [0, 0]
    for seating in seatings_:
        assert main(["replay", str(folder / record_name("match-set", 0, seating)), "--json"]) == 0
        winner = json.loads(capsys.readouterr().out)["winner"]
        assert winner is not None  # every match is won within the deal limit
        wins[seating[winner]] += 1
    rates = [round(w / len(seatings_), 4) for w in wins]
    assert rates == [b["match_win_rate"] for b in result["bots"]]
    assert main(["analyze", str(folder / record_name("deal-set", 0, seatings_[0]))]) == 0
    assert capsys.readouterr().out.startswith("deal 1:")
    again = tmp_path / "again"
    assert main([*args, "--workers", "1", "--records", str(again)]) == 0
    for name in names:
        assert (again / name).read_bytes() == (folder / name).read_bytes()


def test_records_where_no_folder_can_be_made_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    args = ["arena", "--bots", "medium,easy", "--deals", "1", "--quiet"]
    assert main([*args, "--records", str(blocker / "games")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: --records: cannot make the folder ")
    assert len(err.strip().splitlines()) == 1


def test_the_auction_is_counted_per_bot() -> None:
    """Each bot's pass-rate (passes over the auction turns on which it could pass), the share of
    its contracts that were forced and its mean contract, worked out again from the games."""
    config = ArenaConfig(bots=("medium", "easy"), deals=4, seed=5)
    games: list[tuple[tuple[int, ...], Game]] = []
    result = run_arena(config, on_game=lambda _k, _i, seating, game: games.append((seating, game)))
    rules = config.make_rules()
    turns = [0, 0]
    passes = [0, 0]
    declared = [0, 0]
    contracts = [0, 0]
    forced = [0, 0]
    for seating, game in games:
        chose: set[int] = set()
        log = game.logs[0]
        again = Game.start(rules, dealer=log.dealer).new_deal(log.dealt)
        for action in log.moves:
            assert again.deal is not None
            seat = again.deal.to_act
            assert seat is not None
            if again.deal.phase.name == "AUCTION" and PASS in again.deal.legal_actions():
                turns[seating[seat]] += 1
                passes[seating[seat]] += action == PASS
                if is_bid(action):
                    chose.add(seat)
            again = again.apply(action)
        outcome = game.reports[-1].outcome
        if outcome.declarer is not None:
            declared[seating[outcome.declarer]] += 1
            contracts[seating[outcome.declarer]] += outcome.contract or 0
            forced[seating[outcome.declarer]] += outcome.declarer not in chose
    for b, entry in enumerate(result["bots"]):
        assert turns[b] > 0
        assert (entry["auction_turns"], entry["passes"]) == (turns[b], passes[b])
        assert entry["pass_rate"] == pytest.approx(passes[b] / turns[b], abs=1e-4)
        assert entry["mean_contract"] == pytest.approx(contracts[b] / declared[b], abs=1e-4)
        assert entry["forced_share"] == pytest.approx(forced[b] / declared[b], abs=1e-4)


@pytest.mark.parametrize("width", [320, 640, 1000])
@pytest.mark.parametrize(
    "names",
    [
        ("expert", "hard"),
        ("expert", "expert-no-policy", "expert-no-tiebreak"),
        ("expert-no-inference", "expert-12-samples", "expert-by-points-35", "medium"),
        ("a-bot-with-a-name-far-too-long-for-any-column", "easy"),
    ],
)
def test_the_chart_keeps_each_bots_lines_in_its_own_column(
    names: tuple[str, ...], width: int
) -> None:
    from thousand.bots.plot import bar_labels

    bots = [
        {"bot": name, "points_per_deal": -123.4 + 50 * i, "make_rate": 0.666}
        for i, name in enumerate(names)
    ]
    labels = bar_labels(bots, width, 228)
    assert len(labels) == 3 * len(names)
    columns = sorted({label.x for label in labels})
    assert len(columns) == len(names)
    for label in labels:
        after = [x for x in columns if x > label.x]
        assert label.right < (after[0] - 4 if after else width - 10), label
    # the bot's name comes first: whole, or cut short with a dot where no scale fits it
    firsts = [label.text for label in labels if label.y == 228]
    for name, first in zip(names, firsts, strict=True):
        assert first == name or (first.endswith(".") and name.startswith(first[:-1]))
    if width >= 640 and len(names) > 2:
        assert firsts == list(names)  # the ablation's names, each whole
    if width == 320 and len(names[0]) > 40:
        assert firsts[0] != names[0]
    assert {label.text for label in labels if label.y > 228} >= {"make 67%", "-123.4/deal"}
