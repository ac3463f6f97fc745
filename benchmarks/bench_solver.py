"""How fast the open-card solver solves a deal, beside a naive minimax, in one run.

A script that prints figures, never a test:

    python benchmarks/bench_solver.py [--deals 200] [--template russian] [--seed 1] [--json FILE]
        [--baseline REV]

Deals are random: a random auction and passing (no write-off), then the solver from the opening
lead. Per deal it times (CPU time of this process) two questions:

- **value**: the declarer's best total with all cards open (``Solver.value``);
- **make**: can the declarer make the contract in force (``Solver.at_least``, one zero-window
  search).

The naive minimax (plain minimax over the engine's moves, no pruning, no table) cannot finish a
deal from the opening lead: the script gives it ``--naive-seconds`` on a few deals and reports
that it did not finish. So that both appear on the same positions, it also times both on the same
deals with ``--tricks-left`` tricks to go (4 by default), where the naive search finishes.
With ``--baseline REV`` it also times the solver of git revision ``REV`` (``main``, say), loaded
from ``git show REV:src/thousand/bots/solver.py`` into a temporary module, on the same deals in
the same run, interleaved deal by deal, and prints new over old ratios. That module is pure
Python: for the compiled comparison run the script under each build with the same ``--seed``
and ``--deals`` (the installed package's solver is the one timed).
Goal: a median of 3 ms or less (compiled) for the value of the deal from the opening lead.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from thousand.bots.solver import Solver, declarer_points, points_needed
from thousand.engine import DealState, Phase
from thousand.engine.actions import WRITE_OFF
from thousand.engine.deal import Deal
from thousand.rules import Rules, template_rules


class OutOfTime(Exception):
    pass


def naive(d: Deal, deadline: float) -> int:
    """Plain minimax: the declarer's final points."""
    if time.process_time() > deadline:
        raise OutOfTime
    if d.phase is Phase.DONE:
        return declarer_points(d)
    values = []
    for a in d.legal_actions():
        e = d.copy()
        e.apply(a)
        values.append(naive(e, deadline))
    return max(values) if d.to_act == d.declarer else min(values)


def opening_lead(rules: Rules, rng: random.Random) -> Deal:
    while True:
        d = DealState.shuffled(rules, rng.randrange(rules.players_count), rng).core()
        while d.phase not in (Phase.PLAY, Phase.DONE):
            d.apply(rng.choice([a for a in d.legal_actions() if a != WRITE_OFF]))
        if d.phase is Phase.PLAY:
            return d


def baseline_solver(rev: str) -> ModuleType:
    """The solver module as it is at git revision ``rev``, loaded beside the installed one."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{rev}:src/thousand/bots/solver.py"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    name = "thousand.bots._baseline_solver"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "thousand.bots"
    sys.modules[name] = module
    exec(compile(source, f"{rev}:solver.py", "exec"), module.__dict__)
    return module


def timed(fn: Any) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(1000 * s for s in seconds)
    return {
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3),
        "max_ms": round(ms[-1], 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--template", default="russian")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tricks-left", type=int, default=4)
    parser.add_argument("--naive-deals", type=int, default=3)
    parser.add_argument("--naive-seconds", type=float, default=10.0)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument(
        "--baseline", metavar="REV", help="also time the solver of this git revision"
    )
    args = parser.parse_args(argv)
    rules = template_rules(args.template)
    rng = random.Random(args.seed)
    deals = [opening_lead(rules, rng) for _ in range(args.deals)]

    old: ModuleType | None = baseline_solver(args.baseline) if args.baseline else None
    value: list[float] = []
    old_value: list[float] = []
    for d in deals:
        value.append(timed(lambda d=d: Solver(d).value()))
        if old is not None:
            old_value.append(timed(lambda d=d: old.Solver(d).value()))
            if old.Solver(d).value() != Solver(d).value():
                raise SystemExit("the baseline's value differs")
    make = [
        timed(lambda d=d: Solver(d).at_least(points_needed(d, d.contract) - declarer_points(d)))
        for d in deals
    ]
    naive_done = 0
    for d in deals[: args.naive_deals]:
        try:
            naive(d.copy(), time.process_time() + args.naive_seconds)
            naive_done += 1
        except OutOfTime:
            pass

    late = []
    for d in deals:
        e = d.copy()
        while e.phase is Phase.PLAY and e.hands[e.to_act].bit_count() > args.tricks_left:
            e.apply(rng.choice(e.legal_actions()))
        if e.phase is Phase.PLAY and not e.trick:
            late.append(e)
    late_solver = [timed(lambda e=e: Solver(e).value()) for e in late]
    late_naive = [timed(lambda e=e: naive(e.copy(), float("inf"))) for e in late]

    result = {
        "template": args.template,
        "deals": args.deals,
        "compiled": _compiled(),
        "opening_lead": {
            "solver_value": summary(value),
            "solver_make_contract": summary(make),
            "naive_minimax": f"{naive_done} of {args.naive_deals} deals finished within"
            f" {args.naive_seconds:g} s each",
        },
        f"{args.tricks_left}_tricks_left": {
            "positions": len(late),
            "solver_value": summary(late_solver),
            "naive_minimax": summary(late_naive),
            "naive_over_solver_median": round(
                statistics.median(late_naive) / max(statistics.median(late_solver), 1e-9), 1
            ),
        },
    }
    if old is not None:
        new_sum, old_sum = summary(value), summary(old_value)
        result["baseline"] = {
            "revision": args.baseline,
            "compiled": False,
            "solver_value": old_sum,
            "old_over_new_median": round(old_sum["median_ms"] / new_sum["median_ms"], 2),
            "old_over_new_p95": round(old_sum["p95_ms"] / new_sum["p95_ms"], 2),
        }
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


def _compiled() -> bool:
    import thousand.bots.solver as module

    return not str(module.__file__).endswith(".py")


if __name__ == "__main__":
    sys.exit(main())
