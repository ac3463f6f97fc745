"""Join arena results of the same bots and template into one, in the arena's own shape.

A script that prints figures, never a test:

    python benchmarks/arena_join.py RESULT.json [RESULT.json | DIR ...] --json FILE [--plot FILE]

Each argument is a ``thousand arena --out`` result, or a folder of them (every ``*.json`` in
it). Run the arena one deal-set per seed (``--deals 1 --seed S``) so that every finished run
counts where the time runs out, then join: the deal-sets of all the runs, each bot's points per
deal and the paired difference with their 95% intervals over all of them (as the arena gives
them), the counts summed and the rates worked out again from the sums. A pass rate needs the
auction turns and passes that results keep since 2026-12-02: where a run lacks them, the joined
pass rate is None.
``--plot`` draws the arena's chart of the joined result.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from thousand.bots.arena import mean_ci
from thousand.bots.plot import arena_png

#: the counts a result keeps per bot, summed over the runs
COUNTS = ("declared", "made", "failed", "written_off", "bid_contracts_played", "decisions")
#: the auction's counts, which results before 2026-12-02 lack
AUCTION = ("auction_turns", "passes")


def load(paths: list[str]) -> list[dict[str, Any]]:
    runs = []
    for name in paths:
        path = Path(name)
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        runs += [json.loads(f.read_text(encoding="utf-8")) for f in files]
    if not runs:
        raise SystemExit("no arena results found")
    first = runs[0]["config"]
    for run in runs:
        config = run["config"]
        if (config["bots"], config["template"], config["rules"]) != (
            first["bots"],
            first["template"],
            first["rules"],
        ):
            raise SystemExit("the results are of different bots, templates or rules")
        if run["config"].get("match_sets"):
            raise SystemExit("match-sets cannot be joined: run the arena with --matches 0")
    return runs


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def _rate(numerator: float, denominator: float) -> float | None:
    return _num(numerator / denominator) if denominator else None


def join(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs as one arena result."""
    first = runs[0]["config"]
    rows = [row for run in runs for row in run["per_deal_set"]]
    bots = []
    for b, name in enumerate(first["bots"]):
        entries = [run["bots"][b] for run in runs]
        sums = {k: sum(e[k] for e in entries) for k in COUNTS}
        # a rate times its denominator gives back the count it was worked out from
        bid_made = sum(
            round((e["bid_make_rate"] or 0) * e["bid_contracts_played"]) for e in entries
        )
        forced = sum(round((e["forced_share"] or 0) * e["declared"]) for e in entries)
        contracts = sum(round((e["mean_contract"] or 0) * e["declared"]) for e in entries)
        seconds = sum((e["ms_per_decision"] or 0) * e["decisions"] / 1000 for e in entries)
        auction = all(k in e for e in entries for k in AUCTION)
        turns = sum(e["auction_turns"] for e in entries) if auction else 0
        passes = sum(e["passes"] for e in entries) if auction else 0
        m, lo, hi = mean_ci([row[b] for row in rows])
        bots.append(
            {
                "bot": name,
                "points_per_deal": _num(m),
                "points_per_deal_ci95": [_num(lo), _num(hi)],
                **sums,
                **({"auction_turns": turns, "passes": passes} if auction else {}),
                "make_rate": _rate(sums["made"], sums["made"] + sums["failed"]),
                "bid_make_rate": _rate(bid_made, sums["bid_contracts_played"]),
                "pass_rate": _rate(passes, turns),
                "forced_share": _rate(forced, sums["declared"]),
                "mean_contract": _rate(contracts, sums["declared"]),
                "ms_per_decision": _rate(1000 * seconds, sums["decisions"]),
            }
        )
    result: dict[str, Any] = {
        "config": {
            **first,
            "deal_sets": len(rows),
            "seed": None,
            "seeds": [run["config"]["seed"] for run in runs],
        },
        "bots": bots,
    }
    if len(bots) == 2:
        m, lo, hi = mean_ci([row[0] - row[1] for row in rows])
        result["paired_difference"] = {
            "of": f"{first['bots'][0]} - {first['bots'][1]}",
            "points_per_deal": _num(m),
            "ci95": [_num(lo), _num(hi)],
        }
    result["per_deal_set"] = rows
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", metavar="RESULT")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--plot", metavar="FILE")
    args = parser.parse_args(argv)
    joined = join(load(args.results))
    text = json.dumps(joined, indent=1)
    print(json.dumps({k: v for k, v in joined.items() if k != "per_deal_set"}, indent=1))
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.plot:
        Path(args.plot).write_bytes(arena_png(joined))
    return 0


if __name__ == "__main__":
    sys.exit(main())
