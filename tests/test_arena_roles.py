"""benchmarks/arena_roles.py: the arena's records taken apart by role give back the arena's own
counts, on every template (no timing is asserted)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.bench_support import arena_records, run_benchmark
from thousand.bots.arena import ArenaConfig
from thousand.rules import TEMPLATES

DECLARED = ("made", "failed", "written-off", "conceded", "bought-back")


def declared(role: str, result: str | None = None) -> bool:
    """Whether a class's role is a declarer's (with ``result``, that result)."""
    head = role.split(",")[0]
    return head in DECLARED and (result is None or head == result)


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_the_roles_count_what_the_arena_counts(tmp_path: Path, template: str) -> None:
    config = ArenaConfig(bots=("medium", "easy"), template=template, deals=3, seed=11)
    folder = tmp_path / "records"
    result = arena_records(config, folder)
    figures = run_benchmark("arena_roles.py", [str(folder)], tmp_path / "roles.json")
    assert figures["bots"] == ["medium", "easy"]
    seats = config.make_rules().players_count
    # every seat of the first bot in every seating, paired once: half of all the seats
    seatings = 2**seats - 2
    assert figures["pairs"] == config.deals * seatings * seats // 2
    classes = figures["classes"]
    assert sum(c["pairs"] for c in classes) == figures["pairs"]
    parts = sum(c["part"] for c in classes)
    assert parts == pytest.approx(figures["mean_lead_difference"], abs=1e-2)
    groups = {(g["a"], g["b"]): g for g in figures["groups"]}
    assert sum(g["pairs"] for g in groups.values()) == figures["pairs"]
    both = [g["pairs"] for (a, b), g in groups.items() if a == b == "declared"]
    assert sum(both) == sum(c["pairs"] for c in classes if declared(c["a"]) and declared(c["b"]))
    for index, side in enumerate(("a", "b")):
        bot = result["bots"][index]

        def count(result: str | None = None, *, forced: bool = False, side: str = side) -> int:
            return sum(
                c["pairs"]
                for c in classes
                if declared(c[side], result) and (not forced or "forced" in c[side])
            )

        assert count() == bot["declared"]
        assert count("made") == bot["made"]
        assert count("failed") == bot["failed"]
        assert count("written-off") == bot["written_off"]
        if bot["declared"]:
            assert count(forced=True) == round(bot["forced_share"] * bot["declared"])


def test_a_folder_without_records_is_refused(tmp_path: Path) -> None:
    with pytest.raises(subprocess.CalledProcessError):
        run_benchmark("arena_roles.py", [str(tmp_path)], tmp_path / "roles.json")
