"""How fast one server process plays many bot-only tables at once, against the bare engine.

A script that prints figures, never a test:

    python benchmarks/bench_server.py [--tables 200] [--seconds 10] [--database URL] [--json FILE]

It builds the server's hub (the tables, the bots in worker threads, the storage: SQLite in a
temporary folder, or ``--database``) inside one asyncio loop, as ``thousand serve`` does, opens
``--tables`` tables of three easy bots with no bot delay, each with one spectator connection
whose queue a reader drains (so every move builds and queues a view as for a real client), and
lets them play for ``--seconds``, twice: flat out (no bot delay: the most moves a second it can
make, every table always waiting on it, so latency there is mostly queueing), then paced (bots
wait ``--paced-delay`` seconds, a load it keeps up with: the latency a player feels). It
reports, for each run:

- **moves/s**: moves committed per wall second, over all tables;
- **p50/p99 latency**: per move, from the move's check to the last view queued for sending,
  which includes applying it, the database commit and building every connection's view;
- the **baseline**: moves per second of the bare engine in the same process and run
  (``Game.apply`` of random legal moves through the checked API, no storage, no views), and the
  server's figures as ratios to it (moves/s as a fraction of the engine's; latency as a multiple
  of one bare engine move).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from thousand.engine import Game
from thousand.rules import template_rules
from thousand.server.config import Settings
from thousand.server.storage import SeatSpec, Store, database_url
from thousand.server.tables import Connection, Hub


def bare_engine(seconds: float, seed: int = 1) -> float:
    """Moves per second of random play through ``Game.apply`` (checked), dealing as needed."""
    rules = template_rules("russian")
    rng = random.Random(seed)
    game = Game.start(rules)
    moves = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        if not game.in_deal:
            if game.over:
                game = Game.start(rules)
            game = game.shuffle_and_deal(rng)
        assert game.deal is not None
        game = game.apply(rng.choice(game.deal.legal_actions()))
        moves += 1
    return moves / (time.perf_counter() - start)


async def drain(conn: Connection) -> None:
    while await conn.queue.get() is not None:
        pass


async def serve_tables(tables: int, seconds: float, url: str, delay: float) -> dict[str, Any]:
    store = Store(url)
    store.migrate()
    hub = Hub(store, Settings(bot_delay=delay))
    latencies: list[float] = []
    hub.observers.append(lambda _table, _version, s: latencies.append(s))
    readers = []
    bots = [SeatSpec("bot", "easy")] * 3
    for _ in range(tables):
        table = await hub.create("russian", {}, bots)
        conn = Connection(None)
        table.attach(conn)
        readers.append(asyncio.get_running_loop().create_task(drain(conn)))
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    hub.closing = True
    wall = time.perf_counter() - start
    moves = len(latencies)
    await asyncio.sleep(0.2)
    for task in readers:
        task.cancel()
    hub.writer.shutdown(wait=True)
    store.close()
    ordered = sorted(latencies)
    return {
        "tables": tables,
        "bot_delay": delay,
        "seconds": wall,
        "moves": moves,
        "moves_per_second": moves / wall,
        "latency_p50_ms": 1000 * statistics.median(ordered) if ordered else None,
        "latency_p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))] if ordered else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--database", help="a database URL (default: SQLite in a temp folder)")
    parser.add_argument(
        "--paced-delay",
        type=float,
        default=0.2,
        help="the bots' delay in the second, paced run (0.2 s: a load the server keeps up with)",
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures here too")
    args = parser.parse_args()
    baseline = bare_engine(min(args.seconds, 3.0))
    runs = []
    for delay in (0.0, args.paced_delay):
        with tempfile.TemporaryDirectory() as folder:
            url = database_url(args.database, Path(folder))
            runs.append(asyncio.run(serve_tables(args.tables, args.seconds, url, delay)))
    print(f"bare engine (Game.apply, checked): {baseline:,.0f} moves/s")
    for run in runs:
        run["ratio_moves_per_second"] = run["moves_per_second"] / baseline
        run["ratio_p99_to_engine_move"] = (run["latency_p99_ms"] or 0) / 1000 * baseline
        how = "flat out" if run["bot_delay"] == 0 else f"bots wait {run['bot_delay']} s"
        print(
            f"server, {run['tables']} bot-only tables, {how}: {run['moves_per_second']:,.0f}"
            f" moves/s ({run['ratio_moves_per_second']:.3f}x the bare engine);"
            f" move to views queued: p50 {run['latency_p50_ms']:.2f} ms,"
            f" p99 {run['latency_p99_ms']:.2f} ms"
            f" ({run['ratio_p99_to_engine_move']:.0f}x one bare engine move)"
        )
    figures: dict[str, Any] = {
        "tables": args.tables,
        "engine_moves_per_second": baseline,
        "flat_out": runs[0],
        "paced": runs[1],
    }
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
