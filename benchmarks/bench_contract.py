"""What a margin on the expert's contract is worth, deal by deal: the same real deals, the
contract named with and without it, each contract played out.

A script that prints figures, never a test:

    python benchmarks/bench_contract.py [--deals 600] [--seed 20000] [--workers 2]
        [--template russian] [--margins 0,5,10,15] [--json FILE]

For each deal (of ``--template``, dealt as the arena deals, seed ``--seed`` + i) the auction is
played by three ``hard`` bots and the declarer's moves up to its contract (the talon, the
write-off, the passing) by ``expert``. At the contract, an ``expert`` seeded alike names its
contract once for each margin ``m`` (``contract_slack`` = -m: a sample counts as making an
amount only where the solver leaves the declarer ``m`` points above it). Each contract named is
then played out from that same state, the declarer ``expert`` and the defenders ``hard``, all
seeded alike, so two margins that name the same contract give the same deal.

Per margin the script prints the mean of the declarer's deal score, of its lead over the mean
of the defenders' scores, the make-rate, the mean contract, and the paired difference of the
lead against margin 0 (95% interval); and, for the contract each margin named, the samples'
share that made it against the real make-rate. About 11 to 16 deals a minute on one core with
the compiled engine (more margins, more contracts to play out).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from thousand.bots.arena import mean_ci
from thousand.bots.levels import make_bot
from thousand.bots.pimc import make_expert
from thousand.engine import Game
from thousand.engine.actions import CONTRACT
from thousand.engine.deal import Phase
from thousand.engine.dealing import deal_layout
from thousand.engine.views import game_view
from thousand.rules import TEMPLATES, template_rules


def _play_out(game: Game, declarer: int, seed: int) -> Game:
    """``game`` played to the end of its deal: the declarer ``expert``, the others ``hard``."""
    bots = {
        s: make_bot("expert" if s == declarer else "hard", seed * 10 + s)
        for s in range(game.rules.players_count)
    }
    while game.in_deal:
        assert game.deal is not None and game.deal.to_act is not None
        seat = game.deal.to_act
        game = game.apply(bots[seat].choose(game_view(game, seat)))
    return game


def one_deal(seed: int, template: str, margins: tuple[int, ...]) -> dict[str, Any] | None:
    """The contract each margin names on one deal, and each contract played out; None where
    the deal never reaches a declarer's contract."""
    rules = template_rules(template)
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players_count)
    game = Game.start(rules, dealer=dealer).new_deal(deal_layout(rules, rng, dealer))
    bots = {s: make_bot("hard", seed * 10 + s) for s in range(rules.players_count)}
    declarer_bot = None
    while game.in_deal:
        deal = game.deal
        assert deal is not None and deal.to_act is not None
        if deal.phase is Phase.CONTRACT:
            break
        seat = deal.to_act
        bot = bots[seat]
        if seat == deal.declarer and deal.phase is not Phase.AUCTION:
            if declarer_bot is None:
                declarer_bot = make_bot("expert", seed * 10 + seat)
            bot = declarer_bot
        game = game.apply(bot.choose(game_view(game, seat)))
    deal = game.deal
    if not game.in_deal or deal is None or deal.to_act is None:
        return None
    declarer = deal.to_act  # at its contract
    view = game_view(game, declarer)
    named: dict[int, dict[str, Any]] = {}
    for m in margins:
        bot = make_expert(seed * 10 + declarer, contract_slack=-m)
        action = bot.choose(view)
        why = bot.why
        share = why.made / why.samples if why is not None and why.samples else None
        named[m] = {"contract": action - CONTRACT, "share": share}
    outcomes: dict[int, dict[str, Any]] = {}
    for x in sorted({n["contract"] for n in named.values()}):
        end = _play_out(game.apply(CONTRACT + x), declarer, seed)
        outcome = end.reports[-1].outcome
        scores = outcome.scores
        others = [scores[s] for s in range(len(scores)) if s not in (declarer, outcome.sitter)]
        outcomes[x] = {
            "score": scores[declarer],
            "lead": scores[declarer] - sum(others) / len(others),
            "made": outcome.result == "made",
        }
    return {
        "seed": seed,
        "bid": deal.bid,
        "named": {str(m): n for m, n in named.items()},
        "outcomes": {str(x): o for x, o in outcomes.items()},
    }


def table(rows: list[dict[str, Any]], margins: tuple[int, ...]) -> list[dict[str, Any]]:
    """Per margin: the means, the make-rate, and the paired difference against the first."""
    out = []
    base = [r["outcomes"][str(r["named"][str(margins[0])]["contract"])] for r in rows]
    for m in margins:
        named = [r["named"][str(m)] for r in rows]
        got = [r["outcomes"][str(n["contract"])] for r, n in zip(rows, named, strict=True)]
        shares = [n["share"] for n in named if n["share"] is not None]
        out.append(
            {
                "margin": m,
                "deals": len(got),
                "score": sum(g["score"] for g in got) / len(got),
                "lead": sum(g["lead"] for g in got) / len(got),
                "made": sum(g["made"] for g in got) / len(got),
                "contract": sum(n["contract"] for n in named) / len(named),
                "differs": sum(
                    n["contract"] != r["named"][str(margins[0])]["contract"]
                    for r, n in zip(rows, named, strict=True)
                ),
                "share": sum(shares) / len(shares) if shares else None,
                "difference": mean_ci(
                    [g["lead"] - b["lead"] for g, b in zip(got, base, strict=True)]
                ),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--template", default="russian", choices=sorted(TEMPLATES))
    parser.add_argument("--margins", default="0,5,10,15")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    margins = tuple(int(m) for m in args.margins.split(","))
    seeds = range(args.seed, args.seed + args.deals)
    work = partial(one_deal, template=args.template, margins=margins)
    rows = []
    with Pool(args.workers) as pool:
        for i, r in enumerate(pool.imap(work, seeds), 1):
            if r is not None:
                rows.append(r)
            if i % 50 == 0:
                print(f"{i} of {args.deals} deals", file=sys.stderr, flush=True)
    if not rows:
        print(f"bench_contract: no deal of {args.template} reached a contract", file=sys.stderr)
        return 2
    figures = table(rows, margins)
    for f in figures:
        diff, lo, hi = f["difference"]
        share = "-" if f["share"] is None else f"{f['share']:.1%}"
        print(
            f"margin {f['margin']:2d}: contract {f['contract']:.1f}, made {f['made']:.1%}"
            f" (samples {share}), score {f['score']:+.1f}, lead {f['lead']:+.1f},"
            f" {f['differs']} of {f['deals']} contracts differ from margin {margins[0]},"
            f" lead minus margin {margins[0]}: {diff:+.2f} ({lo:+.2f} to {hi:+.2f})"
        )
    if args.json is not None:
        deals = ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
        head = json.dumps({"figures": figures}, indent=1)[:-2]
        args.json.write_text(f'{head},\n "deals": [\n{deals}\n ]\n}}\n')
    return 0


if __name__ == "__main__":
    sys.exit(main())
