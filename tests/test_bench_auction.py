"""benchmarks/bench_auction.py: a smoke run on a couple of deals, its figures checked against
its own seats (no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench_support import ROOT, run_benchmark


def test_the_seats_where_two_bots_bid_apart_are_played_out_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "auction.json"
    args = ["--a", "medium", "--b", "easy", "--deals", "2", "--seed", "30000", "--workers", "1"]
    result = run_benchmark("bench_auction.py", args, out)
    rows = result["rows"]
    assert (result["a"], result["b"], result["template"]) == ("medium", "easy", "russian")
    assert result["seats"] == len(rows) == 2 * 3
    differ = [r for r in rows if "a" in r]
    assert result["differ"] == len(differ) > 0
    leads = []
    for r in differ:
        assert r["a"]["action"] != r["b"]["action"]
        for side in (r["a"], r["b"]):
            # russian: a declarer gains its contract where made and loses it where not
            if side["declared"]:
                stake = side["contract"]
                assert side["score"] == (stake if side["made"] else -stake)
            else:
                assert side["contract"] is None and not side["made"]
        leads.append(r["a"]["lead"] - r["b"]["lead"])
    assert result["difference"][0] == pytest.approx(sum(leads) / len(rows))
    assert sum(k["seats"] for k in result["by kind"].values()) == len(differ)
    assert sum(result["turns"].values()) == len(differ)
    assert result["through"] == "auction"
    assert set(result["phases"]) <= {"auction", "redeal"}
    for side in ("a", "b"):
        declared = [r[side] for r in differ if r[side]["declared"]]
        assert result["branches"][side]["declared"] == len(declared)
        assert result["branches"][side]["made"] == sum(d["made"] for d in declared)


def test_through_the_deal_the_two_may_first_differ_after_the_auction(tmp_path: Path) -> None:
    """With ``--through deal`` the seat's two bots go on side by side to the deal's end: on
    these deals medium and hard first differ in every phase of a russian deal with a choice."""
    out = tmp_path / "deal.json"
    args = ["--a", "medium", "--b", "hard", "--deals", "2", "--seed", "30000", "--workers", "1"]
    result = run_benchmark("bench_auction.py", [*args, "--through", "deal"], out)
    differ = [r for r in result["rows"] if "a" in r]
    assert result["through"] == "deal"
    assert result["phases"] == dict.fromkeys(("auction", "contract", "passing", "play"), 1)
    assert sorted(r["phase"] for r in differ) == ["auction", "contract", "passing", "play"]
    for r in differ:
        assert r["a"]["action"] != r["b"]["action"]
    leads = [r["a"]["lead"] - r["b"]["lead"] for r in differ]
    assert result["difference"][0] == pytest.approx(sum(leads) / len(result["rows"]))


def test_an_unknown_bot_is_refused_in_one_line(tmp_path: Path) -> None:
    script = str(ROOT / "benchmarks" / "bench_auction.py")
    done = subprocess.run(
        [sys.executable, script, "--a", "nobody", "--deals", "1", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "bench_auction: unknown bot level 'nobody': the levels are easy, medium, hard, expert"
    ]
