"""benchmarks/arena_join.py: arena results joined give the arena's own figures (no timing is
asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from thousand.bots.arena import ArenaConfig, mean_ci, run_arena

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = str(ROOT / "benchmarks" / "arena_join.py")


def joined(tmp_path: Path, *results: Path | str) -> dict[str, Any]:
    out = tmp_path / "joined.json"
    plot = tmp_path / "joined.png"
    subprocess.run(
        [sys.executable, SCRIPT, *map(str, results), "--json", str(out), "--plot", str(plot)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert plot.read_bytes().startswith(b"\x89PNG")
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def write(path: Path, result: dict[str, Any]) -> Path:
    path.write_text(json.dumps(result), encoding="utf-8")
    return path


def exact(bot: dict[str, Any]) -> dict[str, Any]:
    """A bot's figures that a join gives back exactly: its counts and rates, not its timing
    nor the figures worked out from rounded rows."""
    skip = ("ms_per_decision", "points_per_deal", "points_per_deal_ci95")
    return {k: v for k, v in bot.items() if k not in skip}


def test_one_result_joined_is_the_result(tmp_path: Path) -> None:
    result = run_arena(ArenaConfig(bots=("medium", "easy"), deals=4, seed=3), workers=1)
    one = joined(tmp_path, write(tmp_path / "a.json", result))
    assert one["per_deal_set"] == result["per_deal_set"]
    # the rows are rounded to 4 places, so figures worked out again from them may differ in the last
    mine, theirs = one["paired_difference"], result["paired_difference"]
    assert mine["points_per_deal"] == pytest.approx(theirs["points_per_deal"], abs=2e-4)
    assert mine["ci95"] == pytest.approx(theirs["ci95"], abs=2e-4)
    assert [exact(b) for b in one["bots"]] == [exact(b) for b in result["bots"]]
    for bot, other in zip(one["bots"], result["bots"], strict=True):
        assert bot["points_per_deal"] == pytest.approx(other["points_per_deal"], abs=2e-4)
        assert bot["points_per_deal_ci95"] == pytest.approx(other["points_per_deal_ci95"], abs=2e-4)


def test_a_folder_of_runs_joins_their_deal_sets_and_counts(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    runs = [
        run_arena(ArenaConfig(bots=("medium", "easy"), deals=2, seed=s), workers=1) for s in (1, 2)
    ]
    for s, run in zip((1, 2), runs, strict=True):
        write(folder / f"seed-{s}.json", run)
    both = joined(tmp_path, folder)
    rows = runs[0]["per_deal_set"] + runs[1]["per_deal_set"]
    assert both["per_deal_set"] == rows
    assert both["config"]["deal_sets"] == 4 and both["config"]["seeds"] == [1, 2]
    m, lo, hi = mean_ci([r[0] - r[1] for r in rows])
    assert both["paired_difference"]["points_per_deal"] == pytest.approx(m, abs=1e-4)
    assert both["paired_difference"]["ci95"] == pytest.approx([lo, hi], abs=1e-4)
    for b, bot in enumerate(both["bots"]):
        made = sum(r["bots"][b]["made"] for r in runs)
        failed = sum(r["bots"][b]["failed"] for r in runs)
        assert bot["made"] == made and bot["failed"] == failed
        assert bot["make_rate"] == pytest.approx(made / (made + failed), abs=1e-4)


def test_a_join_joined_again_with_more_runs_is_the_join_of_them_all(tmp_path: Path) -> None:
    runs = [
        run_arena(ArenaConfig(bots=("medium", "easy"), deals=1, seed=s), workers=1)
        for s in (1, 2, 3)
    ]
    files = [write(tmp_path / f"seed-{s}.json", r) for s, r in zip((1, 2, 3), runs, strict=True)]
    first = write(tmp_path / "first.json", joined(tmp_path, *files[:2]))
    again = joined(tmp_path, first, files[2])
    at_once = joined(tmp_path, *files)
    assert again["config"]["seeds"] == at_once["config"]["seeds"] == [1, 2, 3]
    assert again["per_deal_set"] == at_once["per_deal_set"]
    assert again["paired_difference"] == at_once["paired_difference"]
    assert [exact(b) for b in again["bots"]] == [exact(b) for b in at_once["bots"]]


def test_results_of_other_bots_are_refused(tmp_path: Path) -> None:
    a = run_arena(ArenaConfig(bots=("medium", "easy"), deals=1, seed=1), workers=1)
    b = run_arena(ArenaConfig(bots=("easy", "medium"), deals=1, seed=1), workers=1)
    done = subprocess.run(
        [
            sys.executable,
            SCRIPT,
            str(write(tmp_path / "a.json", a)),
            str(write(tmp_path / "b.json", b)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "different bots" in done.stderr


def test_a_result_without_auction_counts_leaves_the_pass_rate_unknown(tmp_path: Path) -> None:
    result = run_arena(ArenaConfig(bots=("medium", "easy"), deals=1, seed=4), workers=1)
    older = json.loads(json.dumps(result))
    for bot in older["bots"]:
        del bot["auction_turns"], bot["passes"]
    both = joined(tmp_path, write(tmp_path / "a.json", result), write(tmp_path / "b.json", older))
    assert [b["pass_rate"] for b in both["bots"]] == [None, None]
    assert all(b["passes"] is None for b in both["bots"])
    one = joined(tmp_path, tmp_path / "a.json")
    assert [b["pass_rate"] for b in one["bots"]] == [b["pass_rate"] for b in result["bots"]]


def paired(tmp_path: Path, results: list[Path], baseline: list[Path]) -> dict[str, Any]:
    """``--baseline``: the join of ``results`` paired with ``baseline``."""
    out = tmp_path / "paired.json"
    args = [*map(str, results), "--json", str(out), "--baseline", *map(str, baseline)]
    subprocess.run(
        [sys.executable, SCRIPT, *args],
        check=True,
        capture_output=True,
        timeout=120,
    )
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))["against_baseline"]
    return result


@pytest.mark.parametrize("template", ["russian", "tysiac", "two-player-b"])
def test_a_baseline_is_paired_on_the_deal_sets_both_played(tmp_path: Path, template: str) -> None:
    def run(bots: tuple[str, str], seed: int) -> dict[str, Any]:
        config = ArenaConfig(bots=bots, template=template, deals=1, seed=seed)
        return run_arena(config, workers=1)

    # the variant: easy (as "random") in medium's seat, against the same easy opponent
    variant = {s: run(("random", "easy"), s) for s in (1, 2, 3)}
    base = {s: run(("medium", "easy"), s) for s in (2, 3, 4)}
    same = {s: run(("medium", "easy"), s) for s in (2, 3)}
    files = [write(tmp_path / f"v{s}.json", r) for s, r in variant.items()]
    folder = tmp_path / "base"
    folder.mkdir()
    for s, r in base.items():
        write(folder / f"seed-{s}.json", r)
    # the baseline as a joined result, one deal-set a seed, as the README's are kept
    joined_base = joined(tmp_path, folder)
    write(tmp_path / "joined-base.json", joined_base)
    for baseline in ([folder], [tmp_path / "joined-base.json"]):
        got = paired(tmp_path, files, baseline)
        rows = [(variant[s]["per_deal_set"][0], base[s]["per_deal_set"][0]) for s in (2, 3)]
        diffs = [(v[0] - v[1]) - (b[0] - b[1]) for v, b in rows]
        m, lo, hi = mean_ci(diffs)
        assert got["deal_sets"] == 2  # seeds 2 and 3: the only ones both played
        assert got["points_per_deal"] == pytest.approx(m, abs=2e-4)
        assert got["ci95"] == pytest.approx([lo, hi], abs=2e-4)
        assert got["changed"] == sum(1 for d in diffs if abs(d) > 1e-9)
        assert got["of"] == "(random - easy) - (medium - easy)"
    # the same bots on the same seeds: nothing changed
    again = [write(tmp_path / f"s{s}.json", r) for s, r in same.items()]
    got = paired(tmp_path, again, [folder])
    assert got["points_per_deal"] == 0 and got["changed"] == 0 and got["deal_sets"] == 2


def test_a_baseline_against_another_opponent_is_refused(tmp_path: Path) -> None:
    a = run_arena(ArenaConfig(bots=("medium", "easy"), deals=1, seed=1), workers=1)
    b = run_arena(ArenaConfig(bots=("easy", "medium"), deals=1, seed=1), workers=1)
    args = [str(write(tmp_path / "a.json", a)), "--baseline", str(write(tmp_path / "b.json", b))]
    done = subprocess.run(
        [sys.executable, SCRIPT, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "another template, rules or opponent" in done.stderr
