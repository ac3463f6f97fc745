"""``thousand analyze``: each deal against the open-card solver."""

from __future__ import annotations

from pathlib import Path

import pytest

from thousand.bots.analysis import analyze_deal
from thousand.cli.main import main
from thousand.records import read_record, replay


def selfplay_record(tmp_path: Path, deals: int = 3) -> Path:
    path = tmp_path / "games.json"
    assert main(["selfplay", "--deals", str(deals), "--seed", "4", "--out", str(path)]) == 0
    return path


def test_slips_account_for_the_difference(tmp_path: Path) -> None:
    """The points played equal the open-card value, less the declarer's slips, plus the
    defenders': every move's cost is measured against the solver's best."""
    path = selfplay_record(tmp_path, 2)
    result = replay(read_record(path.read_text()))
    played = 0
    for number, log in enumerate(result.game.logs, start=1):
        a = analyze_deal(result.game.rules, number, log)
        if a.open_value is None:
            continue
        played += 1
        assert a.played_value is not None
        mine = sum(s.cost for s in a.slips if s.seat == a.declarer)
        theirs = sum(s.cost for s in a.slips if s.seat != a.declarer)
        assert a.played_value == a.open_value - mine + theirs
        assert all(s.cost > 0 for s in a.slips)
    assert played


def test_the_command_prints_each_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = selfplay_record(tmp_path, 1)
    capsys.readouterr()
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    heads = [line for line in out if line.startswith("deal ")]
    assert [h.split(":")[0] for h in heads] == ["deal 1"]
    assert any("with all cards open it could take" in h for h in heads)
    assert any(line.startswith("  trick ") and "points away" in line for line in out)


def test_a_bad_record_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "thousand/2"}')
    assert main(["analyze", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert main(["analyze", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
