"""How fast the engine plays random deals, against OpenSpiel's Skat as a yardstick.

A script that prints figures, never a test: run it on a quiet machine and read the medians.

    pip install -e '.[bench]'
    python benchmarks/bench_engine.py [--seconds 5] [--rounds 3] [--template russian] [--json FILE]
    python benchmarks/bench_engine.py --all [--seconds 2] [--json FILE]

Three measurements, each given ``--seconds`` in all, split over ``--rounds`` rounds that are
interleaved (checked, unchecked, OpenSpiel; then the next round in a rotated order), so that a
noisy machine slows them all alike; the figure reported is the median round. Rates are per second
of this process's CPU time (``time.process_time``), so that time the process spends waiting for
a core that other work holds does not count against it; on an idle machine they are the
wall-clock rates.

- **checked**: the immutable API, as people, bots and records use it:
  ``DealState.shuffled(...)``, then ``state = state.apply(rng.choice(state.legal_actions()))``
  until ``state.over``, then ``state.outcome``.
- **unchecked**: the mutable fast path that search uses: ``Deal.from_dealt(...)`` from a
  shuffled deal, ``d.apply(rng.choice(d.legal_actions()))`` in place until ``Phase.DONE``,
  then ``score(d)``.
- **OpenSpiel Skat**: random Skat games through ``pyspiel`` (C++ behind a Python API), chance
  nodes resolved with ``rng.choice(state.chance_outcomes())``, players with
  ``rng.choice(state.legal_actions())``, until terminal, then ``state.returns()``.

Goals: checked at least as fast as OpenSpiel (1x), unchecked at least three times (3x).
Without ``pyspiel`` installed the script says so and prints the engine's figures only.

``--all`` measures the checked and unchecked paths for every template of rules.md part 3 instead
(``--seconds`` each, in ``--rounds`` rounds), and prints each template's deals per second with its
ratio to ``russian`` measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thousand.engine import DealState, Phase
from thousand.engine.deal import Deal
from thousand.engine.dealing import deal_layout
from thousand.engine.scoring import score
from thousand.rules import TEMPLATES, Rules, RulesError, template_rules

GOALS = {"checked": 1.0, "unchecked": 3.0}
"""Deals per second against OpenSpiel Skat games per second, at least."""

# One run of a measurement: play deals for ``budget`` wall seconds from ``rng``; it returns
# (deals, moves, CPU seconds of this process).
Runner = Callable[[float, random.Random], tuple[int, int, float]]


def run_checked(rules: Rules) -> Runner:
    """Random full deals through the checked, immutable :class:`DealState` API."""

    def run(budget: float, rng: random.Random) -> tuple[int, int, float]:
        deals = moves = 0
        n = rules.players_count
        cpu = time.process_time()
        now = time.perf_counter()
        end = now + budget
        while now < end:
            state = DealState.shuffled(rules, deals % n, rng)
            while not state.over:
                state = state.apply(rng.choice(state.legal_actions()))
                moves += 1
            if state.outcome is None:
                raise AssertionError("a finished deal has no outcome")
            deals += 1
            now = time.perf_counter()
        return deals, moves, time.process_time() - cpu

    return run


def run_unchecked(rules: Rules) -> Runner:
    """Random full deals through the mutable, unchecked :class:`Deal` core."""

    def run(budget: float, rng: random.Random) -> tuple[int, int, float]:
        deals = moves = 0
        n = rules.players_count
        done = Phase.DONE
        cpu = time.process_time()
        now = time.perf_counter()
        end = now + budget
        while now < end:
            dealer = deals % n
            d = Deal.from_dealt(rules, dealer, deal_layout(rules, rng, dealer))
            while d.phase is not done:
                d.apply(rng.choice(d.legal_actions()))
                moves += 1
            score(d)
            deals += 1
            now = time.perf_counter()
        return deals, moves, time.process_time() - cpu

    return run


def run_openspiel(pyspiel: Any) -> Runner:
    """Random Skat games through OpenSpiel's Python API."""
    game = pyspiel.load_game("skat")

    def run(budget: float, rng: random.Random) -> tuple[int, int, float]:
        deals = moves = 0
        cpu = time.process_time()
        now = time.perf_counter()
        end = now + budget
        while now < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            state.returns()
            deals += 1
            now = time.perf_counter()
        return deals, moves, time.process_time() - cpu

    return run


@dataclass
class Measurement:
    """One path's rounds: deals (or games) per second, and moves per deal."""

    name: str
    label: str
    runner: Runner
    rates: list[float] = field(default_factory=list)
    deals: int = 0
    moves: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    @property
    def moves_per_deal(self) -> float:
        return self.moves / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "per_second": round(self.median, 1),
            "rounds": [round(r, 1) for r in self.rates],
            "deals": self.deals,
            "moves_per_deal": round(self.moves_per_deal, 2),
        }


def load_pyspiel() -> Any | None:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def playable_templates() -> list[str]:
    names = []
    for name in TEMPLATES:
        try:
            template_rules(name)
        except RulesError:
            continue
        names.append(name)
    return names


def measure(measurements: Sequence[Measurement], seconds: float, rounds: int, seed: int) -> None:
    """Run every measurement ``rounds`` times, interleaved and rotated, ``seconds`` each in all."""
    per_round = seconds / rounds
    for m in measurements:  # warm up caches and code paths; not counted
        m.runner(min(0.2, per_round), random.Random(f"{seed}/warm-up/{m.name}"))
    for r in range(rounds):
        k = r % len(measurements)
        for m in [*measurements[k:], *measurements[:k]]:
            deals, moves, elapsed = m.runner(per_round, random.Random(f"{seed}/{r}/{m.name}"))
            m.rates.append(deals / elapsed)
            m.deals += deals
            m.moves += moves


def ratios(measurements: Sequence[Measurement]) -> dict[str, float]:
    by_name = {m.name: m for m in measurements}
    yardstick = by_name.get("openspiel")
    if yardstick is None or not yardstick.median:
        return {}
    return {name: by_name[name].median / yardstick.median for name in GOALS if name in by_name}


def engine_build() -> str:
    """Whether the engine's hot modules are compiled (``THOUSAND_COMPILE=1``) or pure Python."""
    from thousand.engine import deal

    return "compiled with mypyc" if not deal.__file__.endswith(".py") else "pure Python"


def report(
    measurements: Sequence[Measurement], template: str, seconds: float, rounds: int
) -> list[str]:
    lines = [
        f"thousand engine benchmark: template {template}, {seconds:g} s per measurement "
        f"in {rounds} interleaved rounds; median round, per CPU second",
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"engine {engine_build()}",
        "",
    ]
    for m in measurements:
        unit = "games/s" if m.name == "openspiel" else "deals/s"
        spread = " ".join(f"{r:,.0f}" for r in m.rates)
        lines.append(
            f"  {m.label:<30} {m.median:>9,.0f} {unit}   "
            f"({m.moves_per_deal:.1f} moves each; rounds {spread})"
        )
    found = ratios(measurements)
    if found:
        lines.append("")
        for name, ratio in found.items():
            goal = GOALS[name]
            verdict = "meets the goal" if ratio >= goal else "below the goal"
            lines.append(
                f"  {name + ' / OpenSpiel':<30} {ratio:>9.2f}x   (goal >= {goal:g}x: {verdict})"
            )
    return lines


def measure_all(seconds: float, rounds: int, seed: int) -> dict[str, dict[str, Measurement]]:
    """The checked and unchecked paths for every playable template, interleaved by round."""
    found: dict[str, dict[str, Measurement]] = {}
    for name in playable_templates():
        rules = template_rules(name)
        found[name] = {
            "checked": Measurement("checked", f"{name} checked", run_checked(rules)),
            "unchecked": Measurement("unchecked", f"{name} unchecked", run_unchecked(rules)),
        }
    every = [m for pair in found.values() for m in pair.values()]
    measure(every, seconds, rounds, seed)
    return found


def report_all(found: dict[str, dict[str, Measurement]], seconds: float, rounds: int) -> list[str]:
    lines = [
        f"thousand engine benchmark, every template: {seconds:g} s per measurement in {rounds}"
        " interleaved rounds; median round, per CPU second",
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
        f"engine {engine_build()}",
        "",
        f"  {'template':<16} {'checked deals/s':>16} {'vs russian':>10}"
        f" {'unchecked deals/s':>18} {'vs russian':>10} {'moves/deal':>10}",
    ]
    base = found.get("russian")
    for name, pair in found.items():
        checked, unchecked = pair["checked"], pair["unchecked"]
        rc = checked.median / base["checked"].median if base else 0.0
        ru = unchecked.median / base["unchecked"].median if base else 0.0
        lines.append(
            f"  {name:<16} {checked.median:>16,.0f} {rc:>9.2f}x"
            f" {unchecked.median:>18,.0f} {ru:>9.2f}x {checked.moves_per_deal:>10.1f}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    templates = playable_templates()
    parser = argparse.ArgumentParser(
        description="Random deals per second: checked API, unchecked core, OpenSpiel Skat."
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="time for each measurement, in all (5)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument(
        "--template", default="russian", choices=templates, help="the rules (russian)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument(
        "--all", action="store_true", help="every template, checked and unchecked (no yardstick)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be above 0 and --rounds at least 1")

    if args.all:
        every = measure_all(args.seconds, args.rounds, args.seed)
        print("\n".join(report_all(every, args.seconds, args.rounds)))
        if args.json:
            data_all = {
                "seconds": args.seconds,
                "rounds": args.rounds,
                "seed": args.seed,
                "python": platform.python_version(),
                "engine": engine_build(),
                "templates": {
                    name: {path: m.to_json() for path, m in pair.items()}
                    for name, pair in every.items()
                },
            }
            Path(args.json).write_text(json.dumps(data_all, indent=2) + "\n", encoding="utf-8")
        return 0

    rules = template_rules(args.template)
    measurements = [
        Measurement("checked", "checked (DealState.apply)", run_checked(rules)),
        Measurement("unchecked", "unchecked (Deal.apply)", run_unchecked(rules)),
    ]
    pyspiel = load_pyspiel()
    if pyspiel is None:
        print(
            "pyspiel is not installed (pip install -e '.[bench]'): "
            "the engine's figures only, no OpenSpiel yardstick",
            file=sys.stderr,
        )
    else:
        measurements.append(
            Measurement("openspiel", "OpenSpiel skat (pyspiel)", run_openspiel(pyspiel))
        )

    measure(measurements, args.seconds, args.rounds, args.seed)
    print("\n".join(report(measurements, args.template, args.seconds, args.rounds)))

    if args.json:
        found = ratios(measurements)
        data = {
            "template": args.template,
            "seconds": args.seconds,
            "rounds": args.rounds,
            "seed": args.seed,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "engine": engine_build(),
            "checked": measurements[0].to_json(),
            "unchecked": measurements[1].to_json(),
            "openspiel_skat": measurements[2].to_json() if len(measurements) > 2 else None,
            "ratios": {f"{name}_vs_openspiel": round(r, 3) for name, r in found.items()},
            "goals": {f"{name}_vs_openspiel": goal for name, goal in GOALS.items()},
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
