"""Move latency per bot level on one core: CPU time per decision, median, p95 and max.

A script that prints figures, never a test:

    python benchmarks/bench_bots.py [--deals 10] [--levels easy,medium,hard,expert] [--json FILE]

The level plays every seat of ``--deals`` seeded deals (``russian`` unless ``--template``);
only decisions with more than one legal action count. Times are CPU seconds of this process
(``time.process_time``), so other work on the machine does not inflate them. Goals: expert at
most 1 s a move, heuristic (medium) at most 5 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from thousand.bots import derive_seed, make_bot
from thousand.engine import Game
from thousand.engine.views import game_view
from thousand.rules import template_rules


def latencies(level: str, template: str, deals: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds per decision with a choice, by phase name."""
    rules = template_rules(template)
    out: dict[str, list[float]] = {}
    for i in range(deals):
        rng = random.Random(derive_seed(seed, "deal", i))
        bots = [make_bot(level, derive_seed(seed, i, s)) for s in range(rules.players_count)]
        game = Game.start(rules).shuffle_and_deal(rng)
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            view = game_view(game, seat)
            start = time.process_time()
            action = bots[seat].choose(view)
            spent = time.process_time() - start
            if len(view.legal_actions) > 1:
                out.setdefault(view.phase.name.lower(), []).append(spent)
            game = game.apply(action, checked=False)
    return out


def summary(seconds: list[float]) -> dict[str, Any]:
    ms = sorted(1000 * s for s in seconds)
    return {
        "decisions": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3),
        "max_ms": round(ms[-1], 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--levels", default="easy,medium,hard,expert")
    parser.add_argument("--template", default="russian")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    import thousand.bots.solver as solver

    result: dict[str, Any] = {
        "template": args.template,
        "deals": args.deals,
        "compiled_solver": not str(solver.__file__).endswith(".py"),
        "levels": {},
    }
    for level in args.levels.split(","):
        phases = latencies(level, args.template, args.deals, args.seed)
        every = [t for ts in phases.values() for t in ts]
        result["levels"][level] = {
            "all": summary(every),
            **{phase: summary(ts) for phase, ts in sorted(phases.items())},
        }
        print(level, json.dumps(result["levels"][level]["all"]), flush=True)
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
