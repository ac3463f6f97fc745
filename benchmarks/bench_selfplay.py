"""Self-play and replay time against the number of deals: each deal should cost the same.

A script that prints figures, never a test:

    python benchmarks/bench_selfplay.py [--deals 2000,8000,32000] [--template russian] [--json FILE]

For each count N it times what ``thousand selfplay --deals N`` does (random bots play N deals,
then the record is written as text) and what ``thousand replay`` does with that record (read,
replay move by move, the ``--json`` object), without the process's start or the file. Times are
CPU seconds of this process (``time.process_time``), so other work on the machine does not
inflate them. Each count's time per deal is divided by the first count's: a match whose deals
all cost alike gives ratios near 1 (while self-play and replay carried every earlier deal into
each move, 8,000 deals gave 1.6).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from thousand.cli.selfplay import selfplay
from thousand.records import read_record, record_of_game, replay, replay_json, write_record
from thousand.rules import template_rules


def measure(template: str, deals: int, seed: int) -> dict[str, Any]:
    """CPU seconds to self-play ``deals`` deals and write the record, and to replay it."""
    rules = template_rules(template)
    start = time.process_time()
    game = selfplay(rules, seed, deals)
    text = write_record(record_of_game(game, template))
    played = time.process_time() - start
    start = time.process_time()
    account = replay_json(replay(read_record(text)))
    replayed = time.process_time() - start
    assert account["totals"] == list(game.match.totals)
    return {"deals": len(game.logs), "selfplay_s": played, "replay_s": replayed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", default="2000,8000,32000", help="counts, comma-separated")
    parser.add_argument("--template", default="russian")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    rows = [measure(args.template, int(n), args.seed) for n in args.deals.split(",")]
    first = rows[0]
    print(f"{'deals':>7} {'selfplay s':>11} {'us/deal':>8} {'ratio':>6}", end="")
    print(f" {'replay s':>9} {'us/deal':>8} {'ratio':>6}")
    for row in rows:
        for what in ("selfplay", "replay"):
            per_deal = row[f"{what}_s"] / row["deals"]
            row[f"{what}_us_per_deal"] = per_deal * 1e6
            row[f"{what}_ratio"] = per_deal / (first[f"{what}_s"] / first["deals"])
        print(
            f"{row['deals']:>7} {row['selfplay_s']:>11.2f} {row['selfplay_us_per_deal']:>8.0f}"
            f" {row['selfplay_ratio']:>6.2f} {row['replay_s']:>9.2f}"
            f" {row['replay_us_per_deal']:>8.0f} {row['replay_ratio']:>6.2f}",
            flush=True,
        )
    if args.json:
        result = {"template": args.template, "seed": args.seed, "rows": rows}
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
