"""How fast one server process plays many bot-only tables at once, against the bare engine.

A script that prints figures, never a test:

    python benchmarks/bench_server.py [--tables 200] [--seconds 10] [--database URL] [--json FILE]

It builds the server's hub (the tables, the bots in worker threads, the storage: SQLite in a
temporary folder, or ``--database``) inside one asyncio loop, as ``thousand serve`` does, opens
``--tables`` tables of three easy bots with no bot delay, each with one spectator connection
whose queue a reader drains (so every move builds and queues a view as for a real client), and
lets them play for ``--seconds``. It reports:

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


async def serve_tables(tables: int, seconds: float, url: str) -> dict[str, Any]:
    store = Store(url)
    store.migrate()
    hub = Hub(store, Settings(bot_delay=0.0))
    latencies: list[float] = []
    hub.observers.append(lambda _table, _version, s: latencies.append(s))
    readers = []
    bots = [SeatSpec("bot", "easy")] * 3
    for _ in range(tables):
        table = hub.create("russian", {}, bots)
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
    store.close()
    ordered = sorted(latencies)
    return {
        "tables": tables,
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
    parser.add_argument("--json", metavar="FILE", help="write the figures here too")
    args = parser.parse_args()
    baseline = bare_engine(min(args.seconds, 3.0))
    with tempfile.TemporaryDirectory() as folder:
        url = database_url(args.database, Path(folder))
        figures = asyncio.run(serve_tables(args.tables, args.seconds, url))
    figures["engine_moves_per_second"] = baseline
    figures["ratio_moves_per_second"] = figures["moves_per_second"] / baseline
    if figures["latency_p99_ms"] is not None:
        figures["ratio_p99_to_engine_move"] = figures["latency_p99_ms"] / 1000 * baseline
    print(f"bare engine (Game.apply, checked): {baseline:,.0f} moves/s")
    print(
        f"server, {figures['tables']} bot-only tables: {figures['moves_per_second']:,.0f} moves/s"
        f" ({figures['ratio_moves_per_second']:.3f}x the bare engine), {figures['moves']} moves"
        f" in {figures['seconds']:.1f} s"
    )
    if figures["latency_p99_ms"] is not None:
        print(
            f"move to views queued: p50 {figures['latency_p50_ms']:.2f} ms,"
            f" p99 {figures['latency_p99_ms']:.2f} ms"
            f" ({figures['ratio_p99_to_engine_move']:.0f}x one bare engine move)"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
