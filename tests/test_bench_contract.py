"""benchmarks/bench_contract.py: a smoke run on a couple of deals, its figures checked against
its own deals (no timing is asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench_support import run_benchmark


def test_each_margin_names_a_contract_that_is_played_out(tmp_path: Path) -> None:
    out = tmp_path / "contract.json"
    args = ["--deals", "2", "--seed", "20000", "--workers", "1", "--margins", "0,15"]
    result = run_benchmark("bench_contract.py", args, out)
    deals = result["deals"]
    assert deals
    for deal in deals:
        for named in deal["named"].values():
            assert named["contract"] >= deal["bid"]
            assert 0 <= named["share"] <= 1
            outcome = deal["outcomes"][str(named["contract"])]
            # russian: the declarer gains its contract where made and loses it where not
            stake = named["contract"]
            assert outcome["score"] == (stake if outcome["made"] else -stake)
        assert set(deal["outcomes"]) == {str(n["contract"]) for n in deal["named"].values()}
    base, margin = result["figures"]
    assert (base["margin"], margin["margin"]) == (0, 15)
    assert base["differs"] == 0 and base["difference"][0] == 0
    leads = [
        d["outcomes"][str(d["named"]["15"]["contract"])]["lead"]
        - d["outcomes"][str(d["named"]["0"]["contract"])]["lead"]
        for d in deals
    ]
    assert margin["difference"][0] == pytest.approx(sum(leads) / len(leads))
    assert margin["contract"] == pytest.approx(
        sum(d["named"]["15"]["contract"] for d in deals) / len(deals)
    )
