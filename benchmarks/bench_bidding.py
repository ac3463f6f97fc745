"""PIMC's bidding threshold and its extra samples for close decisions, against level hard.

A script that prints figures, never a test:

    python benchmarks/bench_bidding.py VARIANT [--deals 200] [--seed 7] [--json FILE]

A variant is a PIMC bot like ``hard`` (12 samples a decision) with another threshold for
bidding, raising and naming a contract (the share of the samples that must make it) and,
optionally, extra samples while a decision is close to it: ``c45`` is 0.45, ``c50x`` is 0.5
with up to 36 extra samples, ``c60x`` is hard's own 0.6 with them. The variant plays duplicate
deal-sets against ``hard`` (``thousand arena``), and the script prints both bots' points per
deal, the paired difference with its 95% interval, and each bot's pass-rate, share of forced
contracts, mean contract and make-rate. Run it with the compiled engine for speed (README,
Performance): 200 deal-sets take about 20 minutes a variant on one core.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from thousand.bots import levels
from thousand.bots.arena import ArenaConfig, run_arena
from thousand.bots.base import Bot
from thousand.bots.pimc import PimcBot

VARIANT = re.compile(r"^c(\d\d)(x?)$")


def register(name: str) -> None:
    """Make ``name`` (``cNN`` or ``cNNx``) a level the arena can seat."""
    found = VARIANT.match(name)
    if found is None:
        raise SystemExit(f"bench_bidding: a variant is cNN or cNNx (c45, c60x), not {name!r}")
    confidence = int(found.group(1)) / 100
    extra = 36 if found.group(2) else 0

    def make(seed: int | None = None) -> Bot:
        return PimcBot(
            seed, samples=12, name="pimc", bid_confidence=confidence, extra_samples=extra
        )

    levels._MAKERS[name] = make


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--template", default="russian")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    register(args.variant)
    config = ArenaConfig(
        bots=(args.variant, "hard"), template=args.template, deals=args.deals, seed=args.seed
    )
    # one process: the arena's workers are spawned, and would not know the variant
    result: dict[str, Any] = run_arena(config, workers=1)
    for bot in result["bots"]:
        share = {k: 100 * (bot[k] or 0) for k in ("pass_rate", "forced_share")}
        made = {k: 100 * (bot[k] or 0) for k in ("make_rate", "bid_make_rate")}
        print(
            f"{bot['bot']:>5}: {bot['points_per_deal']:.1f} points per deal;"
            f" passes {share['pass_rate']:.1f}% of its auction turns;"
            f" {share['forced_share']:.1f}% of its contracts forced;"
            f" mean contract {bot['mean_contract'] or 0:.1f};"
            f" make-rate {made['make_rate']:.1f}% ({made['bid_make_rate']:.1f}% of the contracts"
            " it chose)"
        )
    diff = result["paired_difference"]
    low, high = (_signed(x) for x in diff["ci95"])
    print(f"{diff['of']}: {_signed(diff['points_per_deal'])} points per deal ({low} to {high})")
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


if __name__ == "__main__":
    sys.exit(main())
