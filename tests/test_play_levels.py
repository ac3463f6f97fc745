"""``thousand play --level``: every level seats its bots at the table."""

from __future__ import annotations

import subprocess
import sys

import pytest

NAMES = {"easy": "random", "medium": "heuristic", "hard": "pimc", "expert": "pimc-expert"}


@pytest.mark.parametrize("level", list(NAMES))
def test_play_at_each_level(level: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--level", level, "--seed", "3"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"the others are bots ({NAMES[level]})" in proc.stdout
    assert "Quit." in proc.stdout


def test_play_unknown_level_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--level", "grandmaster"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "play: unknown --level 'grandmaster': the levels are easy, medium, hard, expert\n"
    )
