"""benchmarks/arena_fates.py: the open-card fates of the arena's contracts agree with the
arena's own counts and with one another, on every template (no timing is asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench_support import arena_records, run_benchmark
from thousand.bots.arena import ArenaConfig
from thousand.rules import TEMPLATES
from thousand.rules.layout import Layout


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_the_fates_add_up(tmp_path: Path, template: str) -> None:
    config = ArenaConfig(bots=("medium", "easy"), template=template, deals=2, seed=5)
    folder = tmp_path / "records"
    result = arena_records(config, folder)
    figures = run_benchmark("arena_fates.py", [str(folder), "--workers", "1"], tmp_path / "f.json")
    stock = Layout.of(config.make_rules()).stock_size > 0
    for index, name in enumerate(config.bots):
        c = figures.get(name, dict.fromkeys(("played", "made"), 0))
        bot = result["bots"][index]
        if stock:  # the solver draws no card: no deal of a stock is asked
            assert c["played"] == 0
            continue
        assert c["played"] == bot["made"] + bot["failed"]
        assert c["made"] == bot["made"]
        if not c["played"]:
            continue
        assert c["made"] == c["open_makes"] - c["lost"] + c["let_through"]
        assert c["give_makes_bid"] <= c["any_give_makes_bid"] <= c["gives"] <= c["played"]
        assert c["named"] <= c["played"]
        assert c["stake_named"] <= c["stake_top"]
        assert c["below_top"] + c["above_top"] <= c["named"]
