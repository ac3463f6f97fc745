"""Join arena results of the same bots and template into one, in the arena's own shape.

A script that prints figures, never a test:

    python benchmarks/arena_join.py RESULT.json [RESULT.json | DIR ...] --json FILE [--plot FILE]

Each argument is a ``thousand arena --out`` result, or a folder of them (every ``*.json`` in
it). Run the arena one deal-set per seed (``--deals 1 --seed S``) so that every finished run
counts where the time runs out, then join: the deal-sets of all the runs, each bot's points per
deal and the paired difference with their 95% intervals over all of them (as the arena gives
them), the counts summed and the rates worked out again from the sums. A count or rate that
some run lacks (an older result: the auction turns and passes are kept since 2026-12-02) is
None in the join.
``--plot`` draws the arena's chart of the joined result. A join may be joined again with more
runs (its seeds and deal-sets go on in order).

``--baseline RESULT [RESULT | DIR ...]`` pairs the join with a baseline of the same template
against the same opponent (the second bot) on the same deal-sets (the same seeds): for each
deal-set both have played, the join's difference of its two bots less the baseline's, with its
95% interval, and how many deal-sets gave another difference. A bot changed in one part plays
most deal-sets as the baseline's did, so this interval is far narrower than the two runs'
intervals side by side. A result joined before (one deal-set a seed) may be the baseline.
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


def _rate(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return _num(numerator / denominator)


def _total(entries: list[dict[str, Any]], key: str) -> int | None:
    """The sum of a count over the runs; None where a run (an older result) lacks it."""
    if any(e.get(key) is None for e in entries):
        return None
    return sum(int(e[key]) for e in entries)


def _recovered(entries: list[dict[str, Any]], rate: str, denominator: str) -> float | None:
    """The count a rate was worked out from (the rate times its denominator), summed over the
    runs; None where a run lacks either."""
    if any(rate not in e or e.get(denominator) is None for e in entries):
        return None
    return float(sum(round((e[rate] or 0) * e[denominator]) for e in entries))


def join(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs as one arena result. A count or rate that some run (an older result) lacks is
    None in the join."""
    first = runs[0]["config"]
    rows = [row for run in runs for row in run["per_deal_set"]]
    bots = []
    for b, name in enumerate(first["bots"]):
        entries = [run["bots"][b] for run in runs]
        sums = {k: _total(entries, k) for k in (*COUNTS, *AUCTION)}
        made, failed, declared = sums["made"], sums["failed"], sums["declared"]
        ms = _recovered(entries, "ms_per_decision", "decisions")
        m, lo, hi = mean_ci([row[b] for row in rows])
        bots.append(
            {
                "bot": name,
                "points_per_deal": _num(m),
                "points_per_deal_ci95": [_num(lo), _num(hi)],
                **sums,
                "make_rate": _rate(made, None if failed is None else (made or 0) + failed),
                "bid_make_rate": _rate(
                    _recovered(entries, "bid_make_rate", "bid_contracts_played"),
                    sums["bid_contracts_played"],
                ),
                "pass_rate": _rate(sums["passes"], sums["auction_turns"]),
                "forced_share": _rate(_recovered(entries, "forced_share", "declared"), declared),
                "mean_contract": _rate(_recovered(entries, "mean_contract", "declared"), declared),
                "ms_per_decision": _rate(ms, sums["decisions"]),
            }
        )
    result: dict[str, Any] = {
        "config": {
            **first,
            "deal_sets": len(rows),
            "seed": None,
            "seeds": [seed for run in runs for seed in seeds_of(run)],
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


def joined_before(run: dict[str, Any]) -> bool:
    """Whether ``run`` is a join itself (its seeds listed, one a run)."""
    config = run["config"]
    return config.get("seed") is None and "seeds" in config


def seeds_of(run: dict[str, Any]) -> list[int]:
    """The seeds of the runs in ``run``: its own, or a join's list."""
    return list(run["config"]["seeds"]) if joined_before(run) else [run["config"]["seed"]]


def keyed(run: dict[str, Any]) -> dict[tuple[int, int], list[float]]:
    """A run's deal-sets by (seed, index in the run); a joined result's by (seed, 0), one
    deal-set a seed."""
    config, rows = run["config"], run["per_deal_set"]
    if joined_before(run):
        if len(config["seeds"]) != len(rows):
            raise SystemExit("a joined result can be a baseline only of one deal-set a seed")
        return {(seed, 0): row for seed, row in zip(config["seeds"], rows, strict=True)}
    return {(config["seed"], i): row for i, row in enumerate(rows)}


def against(runs: list[dict[str, Any]], baseline: list[dict[str, Any]]) -> dict[str, Any]:
    """The paired difference of ``runs`` (joined) less ``baseline`` over the deal-sets both
    played (``--baseline``)."""
    mine, theirs = runs[0]["config"], baseline[0]["config"]
    if (mine["template"], mine["rules"], mine["bots"][1:]) != (
        theirs["template"],
        theirs["rules"],
        theirs["bots"][1:],
    ):
        raise SystemExit("the baseline is of another template, rules or opponent")
    rows: dict[tuple[int, int], list[float]] = {}
    for run in runs:
        rows.update(keyed(run))
    base: dict[tuple[int, int], list[float]] = {}
    for run in baseline:
        base.update(keyed(run))
    shared = sorted(rows.keys() & base.keys())
    if not shared:
        raise SystemExit("the baseline played none of these deal-sets (other seeds)")
    new = [rows[k][0] - rows[k][1] for k in shared]
    old = [base[k][0] - base[k][1] for k in shared]
    m, lo, hi = mean_ci([a - b for a, b in zip(new, old, strict=True)])
    return {
        "of": f"({mine['bots'][0]} - {mine['bots'][1]}) - ({theirs['bots'][0]} - "
        f"{theirs['bots'][1]})",
        "deal_sets": len(shared),
        "changed": sum(1 for a, b in zip(new, old, strict=True) if abs(a - b) > 1e-9),
        "points_per_deal": _num(m),
        "ci95": [_num(lo), _num(hi)],
        "joined_points_per_deal": _num(mean_ci(new)[0]),
        "baseline_points_per_deal": _num(mean_ci(old)[0]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", metavar="RESULT")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--plot", metavar="FILE")
    parser.add_argument("--baseline", nargs="+", metavar="RESULT")
    args = parser.parse_args(argv)
    runs = load(args.results)
    joined = join(runs)
    if args.baseline:
        joined["against_baseline"] = against(runs, load(args.baseline))
    text = json.dumps(joined, indent=1)
    print(json.dumps({k: v for k, v in joined.items() if k != "per_deal_set"}, indent=1))
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.plot:
        Path(args.plot).write_bytes(arena_png(joined))
    return 0


if __name__ == "__main__":
    sys.exit(main())
