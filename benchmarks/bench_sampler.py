"""How often the sampler finds no world although the real deal exists, per template.

A script that prints figures, never a test:

    python benchmarks/bench_sampler.py [--deals 60] [--level medium] [--templates a,b]
        [--seed 1] [--explore 0.0] [--save DIR]

The level (``medium``, the heuristic, unless ``--level``) plays every seat of ``--deals``
seeded deals of each template PIMC samples; at each decision where PIMC would sample
(:func:`~thousand.bots.pimc.pimc_applies`), ``Sampler(view, rng).draw()`` is asked for one
world. ``--explore P``: each move is, with chance P, a legal move at random instead of the
bot's (bids above 120 on a marriage, odd passes and plays: the positions the bots seldom
reach). The real deal is consistent with the view, so every None is a failure of the sampler.
Prints ``failures / decisions`` per template (and how many worlds drawn did not show the seat
its view, which must be 0), with the sampler's CPU time per draw. ``--save DIR`` writes each
failing position as JSON (template, seeds, the moves so far, the seat), to replay and examine.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from thousand.bots import derive_seed, make_bot
from thousand.bots.pimc import pimc_applies, pimc_layout
from thousand.bots.sampler import Sampler
from thousand.engine import DealState, Game
from thousand.engine.views import game_view, view
from thousand.rules import TEMPLATES, template_rules


def sampled_templates() -> list[str]:
    """The templates whose deals PIMC samples (in some phase)."""
    return [name for name in TEMPLATES if pimc_layout(template_rules(name))]


def measure(
    template: str, deals: int, level: str, seed: int, save: Path | None, explore: float = 0.0
) -> dict[str, Any]:
    """Failures and decisions of the sampler over ``deals`` deals of ``template``."""
    rules = template_rules(template)
    failures = decisions = inconsistent = 0
    spent = 0.0
    wander = random.Random(derive_seed(seed, template, "explore"))
    for i in range(deals):
        deal_seed = derive_seed(seed, template, "deal", i)
        bots = [
            make_bot(level, derive_seed(seed, template, i, s)) for s in range(rules.players_count)
        ]
        game = Game.start(rules).shuffle_and_deal(random.Random(deal_seed))
        moves: list[int] = []
        while game.in_deal:
            assert game.deal is not None
            seat = game.deal.to_act
            assert seat is not None
            seen = game_view(game, seat)
            if pimc_applies(seen):
                decisions += 1
                rng = random.Random(derive_seed(seed, template, i, len(moves)))
                start = time.process_time()
                d = Sampler(seen, rng).draw()
                spent += time.process_time() - start
                if d is None:
                    failures += 1
                    if save is not None:
                        save.mkdir(parents=True, exist_ok=True)
                        name = f"{template}-{i}-{len(moves)}.json"
                        position = {
                            "template": template,
                            "deal_seed": deal_seed,
                            "moves": moves,
                            "seat": seat,
                            "sampler_seed": derive_seed(seed, template, i, len(moves)),
                        }
                        (save / name).write_text(json.dumps(position) + "\n")
                else:
                    original = dataclasses.replace(view(game.deal, seat), match=None)
                    if view(DealState(d), seat) != original:
                        inconsistent += 1
            if explore and wander.random() < explore:
                action = wander.choice(seen.legal_actions)
            else:
                action = bots[seat].choose(seen)
            moves.append(action)
            game = game.apply(action, checked=False)
    return {
        "failures": failures,
        "decisions": decisions,
        "inconsistent": inconsistent,
        "ms_per_draw": 1000 * spent / max(1, decisions),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--templates", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="DIR", type=Path)
    parser.add_argument("--explore", type=float, default=0.0)
    args = parser.parse_args(argv)
    names = args.templates.split(",") if args.templates else sampled_templates()
    total_f = total_d = 0
    for name in names:
        r = measure(name, args.deals, args.level, args.seed, args.save, args.explore)
        total_f += r["failures"]
        total_d += r["decisions"]
        print(
            f"{name:20} {r['failures']:5} / {r['decisions']:6} failures"
            f"  ({r['inconsistent']} inconsistent; {r['ms_per_draw']:.3f} ms CPU a draw)"
        )
        sys.stdout.flush()
    print(f"{'all':20} {total_f:5} / {total_d:6} failures")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
