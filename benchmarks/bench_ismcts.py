"""How long OpenSpiel's ISMCTS (the arena's ``ismcts-N``) thinks a move, against ``expert``.

A script that prints figures, never a test:

    python benchmarks/bench_ismcts.py [--simulations 1000 10000] [--moves 3] [--seed 1]
                                      [--json FILE]
    python benchmarks/bench_ismcts.py --combine DIR --json FILE

It deals one russian deal (seeded), lets the medium bot play it, and at the first ``--moves``
decisions with more than one legal action times ``ismcts-N`` for each N and ``expert`` on the
same views (in the same run, so the ratio holds on a loaded machine): seconds a move, and each N
as a multiple of expert's time. Needs OpenSpiel (the ``bench`` extra).

``--combine DIR`` instead joins the results of ``thousand arena --bots expert,ismcts-N
--deals 1 --seed S --out DIR/seed-S.json`` runs (one deal-set each, so that every finished run
counts where the time runs out): each bot's points per deal and the paired difference over the
deal-sets, with 95% intervals as the arena gives them, and the seconds per decision.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from thousand.bots.arena import mean_ci
from thousand.bots.ismcts_bot import IsmctsBot
from thousand.bots.levels import make_bot
from thousand.engine import Game
from thousand.engine.dealing import deal_layout
from thousand.engine.views import SeatView, game_view
from thousand.rules import template_rules


def views(seed: int, count: int) -> list[SeatView]:
    """The first ``count`` views of a seeded russian deal with a real choice."""
    rules = template_rules("russian")
    rng = random.Random(seed)
    game = Game.start(rules, dealer=0).new_deal(deal_layout(rules, rng, 0))
    medium = make_bot("medium", seed)
    out: list[SeatView] = []
    while game.in_deal and len(out) < count:
        assert game.deal is not None and game.deal.to_act is not None
        seen = game_view(game, game.deal.to_act)
        if len(seen.legal_actions) > 1:
            out.append(seen)
        game = game.apply(medium.choose(seen))
    return out


def seconds(choose: object, seen: list[SeatView]) -> list[float]:
    out = []
    for v in seen:
        start = time.perf_counter()
        choose(v)  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def combine(folder: Path) -> dict[str, object]:
    """The arena results in ``folder`` as one (see the module's notes)."""
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("seed-*.json"))]
    if not runs:
        raise SystemExit(f"no seed-*.json in {folder}")
    bots = runs[0]["config"]["bots"]
    rows = [row for run in runs for row in run["per_deal_set"]]
    out: dict[str, object] = {
        "bots": bots,
        "template": runs[0]["config"]["template"],
        "seeds": [run["config"]["seed"] for run in runs],
        "deal_sets": len(rows),
    }
    for b, name in enumerate(bots):
        m, lo, hi = mean_ci([row[b] for row in rows])
        decisions = sum(run["bots"][b]["decisions"] for run in runs)
        ms = sum(run["bots"][b]["decisions"] * run["bots"][b]["ms_per_decision"] for run in runs)
        out[name] = {
            "points_per_deal": round(m, 2),
            "ci95": [round(lo, 2), round(hi, 2)],
            "decisions": decisions,
            "s_per_decision": round(ms / 1000 / decisions, 3),
        }
    m, lo, hi = mean_ci([row[0] - row[1] for row in rows])
    out["paired_difference"] = {
        "of": f"{bots[0]} - {bots[1]}",
        "points_per_deal": round(m, 2),
        "ci95": [round(lo, 2), round(hi, 2)],
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--simulations", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None)
    parser.add_argument("--combine", default=None, metavar="DIR")
    args = parser.parse_args()
    if args.combine:
        joined = combine(Path(args.combine))
        print(json.dumps(joined, indent=1))
        if args.json:
            Path(args.json).write_text(json.dumps(joined, indent=1) + "\n", encoding="utf-8")
        return
    seen = views(args.seed, args.moves)
    expert = statistics.fmean(seconds(make_bot("expert", args.seed).choose, seen))
    print(f"expert: {expert:.3f} s a move ({len(seen)} moves)")
    result: dict[str, object] = {"moves": len(seen), "expert_s_per_move": round(expert, 4)}
    for n in args.simulations:
        s = statistics.fmean(seconds(IsmctsBot(n, args.seed).choose, seen))
        print(f"ismcts-{n}: {s:.2f} s a move, {s / expert:.1f} times expert's")
        result[f"ismcts-{n}_s_per_move"] = round(s, 3)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
