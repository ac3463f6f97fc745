"""Two bots' auctions on the same real deals: where they first decide differently, both ways
played out.

A script that prints figures, never a test:

    python benchmarks/bench_auction.py [--a expert] [--b expert-slack-every-bid] [--deals 600]
        [--seed 30000] [--workers 2] [--template russian] [--through auction] [--json FILE]

For each deal (of ``--template``, dealt as the arena deals, seed ``--seed`` + i) and each seat
in turn, the seat under test is played by bot ``--a`` and, beside it, by bot ``--b``, both
seeded alike and shown the same views; every other seat is ``hard``. The deal runs while the
two choose alike, up to the end of the auction. Where they first choose differently, the deal
is played out twice from that state: once with ``--a`` at the seat, once with ``--b``, the
other seats' bots copied as they stood, so the two deals differ only by what follows from the
seat's choice. Where they choose alike through the whole auction, the two bots differ on
nothing this benchmark measures and the difference counts as 0 (no deal is played out). With
``--through deal`` the two go on side by side past the auction, to the deal's end: the first
choice they differ on may be a card given, a contract or a card played (a variant of the
play or of the inference measured the same way).

The figure is the seat's lead (its deal score less the mean of the other active seats'),
``--a`` minus ``--b``, per seat and deal, with its 95% interval, over every seat and deal; and
for the seats where they differed, what each chose, how often each branch declared and made
its contract, and the mean difference by the kind of disagreement. It measures an auction
variant (the expert's ``auction_slack``, say) against a table of ``hard`` bots far faster than
the arena: only the deals where the variants disagree are played, and those are paired.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections import Counter
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from thousand.bots.arena import mean_ci
from thousand.bots.base import Bot
from thousand.bots.levels import make_bot
from thousand.engine import Game
from thousand.engine.actions import PASS, action_text, is_bid
from thousand.engine.deal import Phase
from thousand.engine.dealing import deal_layout
from thousand.engine.views import game_view
from thousand.rules import TEMPLATES, template_rules


def _kind(action: int) -> str:
    """``bid`` or ``pass`` (the auction's two choices), or the action's text."""
    if action == PASS:
        return "pass"
    return "bid" if is_bid(action) else action_text(action)


def _play_out(game: Game, bots: dict[int, Bot]) -> Game:
    """``game`` played to the end of its deal by ``bots``."""
    while game.in_deal:
        assert game.deal is not None and game.deal.to_act is not None
        seat = game.deal.to_act
        game = game.apply(bots[seat].choose(game_view(game, seat)))
    return game


def _result(game: Game, seat: int) -> dict[str, Any]:
    """The seat's deal score and lead, and who declared, from the deal's outcome."""
    outcome = game.reports[-1].outcome
    scores = outcome.scores
    others = [scores[s] for s in range(len(scores)) if s not in (seat, outcome.sitter)]
    return {
        "score": scores[seat],
        "lead": scores[seat] - sum(others) / len(others),
        "declared": outcome.declarer == seat,
        "made": outcome.declarer == seat and outcome.result == "made",
        "contract": outcome.contract if outcome.declarer == seat else None,
    }


def one_seat(
    game: Game, seat: int, seed: int, a: str, b: str, through: str = "auction"
) -> dict[str, Any]:
    """The first choice on which ``a`` and ``b`` differ at ``seat`` of the dealt ``game`` (in
    its auction, or with ``through`` ``deal`` anywhere in the deal), and the deal played out
    both ways; no choice and no outcome where they never differ."""
    players = game.rules.players_count
    others = {s: make_bot("hard", seed * 10 + s) for s in range(players) if s != seat}
    bot_a, bot_b = make_bot(a, seed * 10 + seat), make_bot(b, seed * 10 + seat)
    while game.in_deal:
        deal = game.deal
        assert deal is not None and deal.to_act is not None
        if through == "auction" and deal.phase not in (Phase.REDEAL, Phase.AUCTION):
            break
        to_act = deal.to_act
        if to_act != seat:
            game = game.apply(others[to_act].choose(game_view(game, to_act)))
            continue
        view = game_view(game, seat)
        choice_a, choice_b = bot_a.choose(view), bot_b.choose(view)
        if choice_a == choice_b:
            game = game.apply(choice_a)
            continue
        ends = {}
        for name, bot, choice in (("a", bot_a, choice_a), ("b", bot_b, choice_b)):
            bots = {**copy.deepcopy(others), seat: bot}
            ends[name] = _result(_play_out(game.apply(choice), bots), seat)
        return {
            "seed": seed,
            "seat": seat,
            "turn": len(deal.auction),
            "phase": deal.phase.name.lower(),
            "high": max((x for _, x in deal.auction if x), default=None),
            "a": {"choice": _kind(choice_a), "action": action_text(choice_a), **ends["a"]},
            "b": {"choice": _kind(choice_b), "action": action_text(choice_b), **ends["b"]},
        }
    return {"seed": seed, "seat": seat}


def one_deal(
    seed: int, template: str, a: str, b: str, through: str = "auction"
) -> list[dict[str, Any]]:
    """:func:`one_seat` for every seat of one deal."""
    rules = template_rules(template)
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players_count)
    game = Game.start(rules, dealer=dealer).new_deal(deal_layout(rules, rng, dealer))
    return [one_seat(game, seat, seed, a, b, through) for seat in range(rules.players_count)]


def difference(row: dict[str, Any]) -> float:
    """The seat's lead with ``a`` less its lead with ``b`` (0 where they never differed)."""
    return row["a"]["lead"] - row["b"]["lead"] if "a" in row else 0.0


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The paired difference over every seat and deal, and what the disagreements were."""
    differ = [r for r in rows if "a" in r]
    kinds: dict[str, list[float]] = {}
    for r in differ:
        kinds.setdefault(f"{r['a']['choice']} / {r['b']['choice']}", []).append(difference(r))
    branch = {
        side: {
            "declared": sum(r[side]["declared"] for r in differ),
            "made": sum(r[side]["made"] for r in differ),
            "mean contract": (
                sum(r[side]["contract"] for r in differ if r[side]["declared"])
                / max(1, sum(r[side]["declared"] for r in differ))
            ),
        }
        for side in ("a", "b")
    }
    return {
        "seats": len(rows),
        "differ": len(differ),
        "difference": mean_ci([difference(r) for r in rows]),
        "by kind": {
            k: {"seats": len(v), "difference": mean_ci(v)} for k, v in sorted(kinds.items())
        },
        "turns": dict(sorted(Counter(r["turn"] for r in differ).items())),
        "phases": dict(sorted(Counter(r["phase"] for r in differ).items())),
        "branches": branch,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="expert-slack-every-bid")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=30000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--template", default="russian", choices=sorted(TEMPLATES))
    parser.add_argument("--through", default="auction", choices=("auction", "deal"))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    for name in (args.a, args.b):
        try:
            make_bot(name)  # an unknown name fails here, before any work
        except ValueError as error:
            print(f"bench_auction: {error}", file=sys.stderr)
            return 2
    seeds = range(args.seed, args.seed + args.deals)
    work = partial(one_deal, template=args.template, a=args.a, b=args.b, through=args.through)
    rows: list[dict[str, Any]] = []
    with Pool(args.workers) as pool:
        for i, seats in enumerate(pool.imap(work, seeds), 1):
            rows.extend(seats)
            if i % 50 == 0:
                print(f"{i} of {args.deals} deals", file=sys.stderr, flush=True)
    result = figures(rows)
    diff, lo, hi = result["difference"]
    print(
        f"{args.a} minus {args.b} on {args.template}, the seat's lead per seat and deal:"
        f" {diff:+.2f} ({lo:+.2f} to {hi:+.2f}); they chose differently at"
        f" {result['differ']} of {result['seats']} seats"
    )
    for kind, k in result["by kind"].items():
        d, lo, hi = k["difference"]
        print(f"  {kind}: {k['seats']} seats, {d:+.1f} ({lo:+.1f} to {hi:+.1f})")
    for side in ("a", "b"):
        br = result["branches"][side]
        print(
            f"  {getattr(args, side)} declared {br['declared']}, made {br['made']},"
            f" mean contract {br['mean contract']:.1f}"
        )
    if args.json is not None:
        body = ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
        head = json.dumps(
            {"a": args.a, "b": args.b, "template": args.template, "through": args.through, **result}
        )
        args.json.write_text(f'{head[:-1]},\n "rows": [\n{body}\n ]\n}}\n')
    return 0


if __name__ == "__main__":
    sys.exit(main())
