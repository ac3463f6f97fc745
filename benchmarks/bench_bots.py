"""Move latency per bot level on one core: CPU time per decision, median, p95 and max.

A script that prints figures, never a test:

    python benchmarks/bench_bots.py [--deals 10] [--levels easy,medium,hard,expert]
        [--time S] [--json FILE]

The level plays every seat of ``--deals`` seeded deals (``russian`` unless ``--template``);
only decisions with more than one legal action count. Times are CPU seconds of this process
(``time.process_time``), so other work on the machine does not inflate them; ``wall`` gives
the wall-clock seconds of every decision beside them. With ``--time S`` each decision is given
``Limit(time_s=S)``, as the server and ``thousand play`` give 1 s; without it, none, as the
arena. Goals: expert at most 1 s a move, heuristic (medium) at most 5 ms.
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

from thousand.bots import Limit, derive_seed, make_bot
from thousand.engine import Game
from thousand.engine.views import game_view
from thousand.rules import template_rules


def latencies(
    level: str, template: str, deals: int, seed: int, time_s: float | None = None
) -> dict[str, list[float]]:
    """CPU seconds per decision with a choice, by phase name, and under ``wall`` the
    wall-clock seconds of every one."""
    rules = template_rules(template)
    limit = None if time_s is None else Limit(time_s)
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
            start, wall = time.process_time(), time.perf_counter()
            action = bots[seat].choose(view, limit)
            spent, wall = time.process_time() - start, time.perf_counter() - wall
            if len(view.legal_actions) > 1:
                out.setdefault(view.phase.name.lower(), []).append(spent)
                out.setdefault(WALL, []).append(wall)
            game = game.apply(action, checked=False)
    return out


#: the key of the wall-clock seconds (not a phase)
WALL = "wall"


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
    parser.add_argument("--time", type=float, metavar="S", help="each move's Limit.time_s")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    import thousand.bots.solver as solver

    result: dict[str, Any] = {
        "template": args.template,
        "deals": args.deals,
        "time_s": args.time,
        "compiled_solver": not str(solver.__file__).endswith(".py"),
        "levels": {},
    }
    for level in args.levels.split(","):
        phases = latencies(level, args.template, args.deals, args.seed, args.time)
        every = [t for phase, ts in phases.items() if phase != WALL for t in ts]
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
