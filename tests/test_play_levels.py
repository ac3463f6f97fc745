"""``thousand play --level``: every level seats its bots at the table."""

from __future__ import annotations

import subprocess
import sys

import pytest

LEVELS = ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("level", LEVELS)
def test_play_at_each_level(level: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--plain", "--level", level, "--seed", "3"],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    # each bot by the name the record gives it, as a server names its bots
    assert f"the others are bots ({level}-bot-1, {level}-bot-2)" in proc.stdout
    assert "Quit." in proc.stdout


@pytest.mark.parametrize("plain", [True, False], ids=["plain", "textual"])
def test_play_unknown_level_exits_2(plain: bool) -> None:
    """Refused before any table or server is made, by the line game and the client alike."""
    proc = subprocess.run(
        [sys.executable, "-m", "thousand", "play", "--level", "grandmaster"]
        + (["--plain"] if plain else []),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr == (
        "play: unknown --level 'grandmaster': the levels are easy, medium, hard, expert\n"
    )
