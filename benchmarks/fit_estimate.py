"""Refit the heuristic bot's hand estimate (``thousand.bots.heuristic._MODEL``).

A script, never a test:

    python benchmarks/fit_estimate.py [--deals 3000] [--template russian] [--seed 11]

For each random deal a random seat becomes declarer at the minimum bid, takes the talon and
passes as the heuristic does; the open-card solver values the declarer's eight cards from the
first lead. The script fits the features of ``hand_features`` to those values by least squares
and prints the coefficients, the residual error and that of the model in use. (The model in use
was fit on 3,000 ``russian`` deals, seed 11, with the one-card-at-a-time passing of the time;
the pair passing of today moves the coefficients by a few points.)
"""

from __future__ import annotations

import argparse
import math
import random
import sys

import numpy as np

from thousand.bots.heuristic import _MODEL, HeuristicBot, hand_estimate, hand_features
from thousand.bots.solver import solve
from thousand.engine.actions import contract, give
from thousand.engine.deal import Deal, Phase
from thousand.engine.dealing import deal_layout
from thousand.rules import template_rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--template", default="russian")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    rules = template_rules(args.template)
    rng = random.Random(args.seed)
    bot = HeuristicBot()
    names = list(_MODEL)
    rows: list[list[float]] = []
    values: list[float] = []
    current: list[float] = []
    for _ in range(args.deals):
        d = Deal.from_dealt(rules, 0, deal_layout(rules, rng, 0))
        declarer = rng.randrange(rules.players_count)
        d.end_auction(declarer, rules.bidding_min)
        full = d.hands[declarer]
        kept = bot.kept_hand(full, rules, len(d.order) - 1)
        gone = [c for c in range(24) if full >> c & 1 and not kept >> c & 1]
        for seat, c in zip([s for s in d.order if s != declarer], gone, strict=True):
            d.apply(give(c, seat))
        if d.phase is Phase.CONTRACT:
            d.apply(contract(d.bid))
        features = hand_features(kept, rules)
        rows.append([float(features[n]) for n in names])
        values.append(float(solve(d)))
        current.append(float(hand_estimate(kept, rules)))
    x = np.array(rows)
    y = np.array(values)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    fit = x @ coef
    print({n: round(float(c), 2) for n, c in zip(names, coef, strict=True)})
    print(f"residual error of the fit: {math.sqrt(float(np.mean((fit - y) ** 2))):.1f} points")
    error = math.sqrt(float(np.mean((np.array(current) - y) ** 2)))
    print(f"residual error of the model in use: {error:.1f} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
