"""Many WebSocket clients on many tables over several ``thousand serve`` processes, against one.

A script that prints figures, never a test; loopback only, bounded in clients and time:

    python benchmarks/bench_scale.py [--tables 300] [--clients 1000] [--seconds 15]
        [--processes 1,2,3] [--placement spread|table] [--think 0.5] [--postgres URL]
        [--bus URL] [--json FILE]

For each count of processes (``--processes``, one run each, in the same invocation) it makes a
fresh PostgreSQL database (beside ``--postgres``'s, dropped afterwards), starts that many
``thousand serve`` processes on it on free loopback ports (two or more with ``--bus``, Redis;
one without, the single process of today), opens ``--tables`` tables of three people, takes
every seat and connects ``--clients`` WebSocket clients: the three players of each table and
the rest as spectators, one table after another. Client ``k`` of table ``t`` connects straight
to process ``(t + k) mod N`` (no proxy: each table's clients are spread over the processes, so
every move crosses the bus, as behind a proxy that balances connections), or with
``--placement table`` to process ``t mod N`` (every client of a table on one process, the
others only hearing of its moves). Each player makes a random legal move ``--think`` seconds after
its turn comes, for ``--seconds``. It reports, per run:

- **moves/s**: moves acknowledged per second, over all tables;
- **p50/p99 latency**: per move, from the intent sent to the last of the table's clients (on
  every process) having received the view of the version it made, measured by the clients
  (one process, one clock);
- the ratios of moves/s and of the p99 against the one-process run.

Then the processes are stopped and every table is read back from the database and its record
replayed: its version is the last one its clients saw, its totals are those of their last
view, and its stored moves are the moves acknowledged to its clients (nothing lost, nothing
doubled). A table that fails a check is counted and the first problems are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from thousand.records import read_record, replay
from thousand.server.config import Settings
from thousand.server.storage import Store
from thousand.server.tables import Hub

PG_ADMIN = os.environ.get("THOUSAND_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
Message = dict[str, Any]


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fresh_database(admin: str) -> Iterator[str]:
    import psycopg

    name = f"thousand_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{admin.rpartition('/')[0]}/{name}"
        finally:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def processes(
    count: int, url: str, bus: str | None, folder: Path
) -> Iterator[tuple[list[str], list[int]]]:
    """``count`` servers on ``url`` (with ``bus`` where more than one); their base URLs and
    process ids."""
    procs: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    try:
        for i in range(count):  # one after another: the first one migrates the database
            port = free_port()
            args = [sys.executable, "-m", "thousand", "serve", "--port", str(port)]
            args += ["--data", str(folder / f"p{i}"), "--database", url, "--bot-delay", "0"]
            args += ["--message-rate", "10000", "--message-burst", "10000"]
            args += ["--request-rate", "100000", "--request-burst", "100000"]
            args += ["--tables-per-address", "100000", "--close-idle", "0"]
            if count > 1:
                assert bus is not None, "more than one process needs --bus"
                args += ["--bus", bus]
            log = folder / f"p{i}.log"
            with log.open("ab") as out:
                procs.append(subprocess.Popen(args, stdout=out, stderr=out))
            bases.append(f"http://127.0.0.1:{port}")
            deadline = time.monotonic() + 60
            while True:
                assert procs[i].poll() is None, log.read_text()
                try:
                    if httpx.get(bases[i] + "/ready", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, f"process {i} did not start"
                time.sleep(0.2)
        yield bases, [p.pid for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(10)


@dataclass(eq=False)
class Table:
    id: str
    clients: list[BenchClient] = field(default_factory=list)
    #: the version a move makes -> when its intent was sent
    sent: dict[int, float] = field(default_factory=dict)
    #: version -> when each client received it
    arrivals: dict[int, list[float]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)

    def arrived(self, version: int, at: float) -> None:
        times = self.arrivals.setdefault(version, [])
        times.append(at)
        if len(times) == len(self.clients):
            del self.arrivals[version]
            sent = self.sent.pop(version, None)
            if sent is not None:
                self.latencies.append(max(times) - sent)


@dataclass(eq=False)
class BenchClient:
    table: Table
    url: str
    token: str | None
    run: Run
    version: int = 0
    view: Message | None = None
    pending: str | None = None
    acks: int = 0
    gaps: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    conn: Any = None

    async def serve(self) -> None:
        async with connect(self.url, max_size=2**22, ping_interval=None) as conn:
            self.conn = conn
            hello: Message = {"type": "hello"}
            if self.token:
                hello["token"] = self.token
            await conn.send(json.dumps(hello))
            try:
                async for text in conn:
                    await self.receive(json.loads(text))
            except ConnectionClosed:
                pass

    async def receive(self, message: Message) -> None:
        kind = message["type"]
        if kind == "snapshot":
            self.version, self.view = message["version"], message["view"]
            self.ready.set()
        elif kind == "event":
            if message["version"] != self.version + 1:
                self.gaps += 1
                await self.conn.send(json.dumps({"type": "snapshot"}))
                return
            self.version, self.view = message["version"], message["view"]
            self.table.arrived(self.version, time.perf_counter())
        elif kind == "ack" and message["intent"] == self.pending:
            self.pending = None
            self.acks += 1
        elif kind == "error":
            self.errors[message["code"]] += 1
            if message.get("intent") == self.pending:
                self.pending = None
        self.maybe_move()

    def maybe_move(self) -> None:
        if self.token is None or self.pending is not None or not self.run.moving:
            return
        if self.view and self.view["legal_actions"]:
            self.pending = uuid.uuid4().hex
            asyncio.get_running_loop().create_task(self.move(self.pending, self.version))

    async def move(self, intent: str, version: int) -> None:
        await asyncio.sleep(self.run.think * (0.5 + self.run.rng.random()))
        if self.version != version or not self.run.moving:
            self.pending = None
            self.maybe_move()
            return
        assert self.view is not None
        move = self.run.rng.choice(self.view["legal_actions"])
        message = {"type": "intent", "id": intent, "move": move, "version": version}
        if self.run.measuring:
            self.table.sent[version + 1] = time.perf_counter()
        try:
            await self.conn.send(json.dumps(message))
        except ConnectionClosed:
            self.pending = None


@dataclass(eq=False)
class Run:
    think: float
    rng: random.Random
    moving: bool = False
    measuring: bool = False


async def set_up(
    bases: list[str], tables: int, clients: int, run: Run, spread: bool
) -> tuple[list[Table], list[BenchClient]]:
    """The tables (three people each), their seats taken, and the clients placed: each
    table's spread over the processes, or (``spread`` false) all on the table's own."""
    made: list[Table] = []
    gate = asyncio.Semaphore(32)
    async with httpx.AsyncClient(timeout=60) as http:

        async def table(i: int) -> tuple[Table, list[str]]:
            base = bases[i % len(bases)]
            async with gate:
                body = {"template": "russian", "seats": [{"kind": "human"}] * 3, "seed": i}
                answer = await http.post(base + "/tables", json=body)
                assert answer.status_code == 201, answer.text
                t = Table(answer.json()["id"])
                tokens = []
                for seat in range(3):
                    body = {"seat": seat, "name": f"P{seat}", "claim": uuid.uuid4().hex * 2}
                    taken = await http.post(f"{base}/tables/{t.id}/seats", json=body)
                    assert taken.status_code == 201, taken.text
                    tokens.append(taken.json()["token"])
            return t, tokens

        done = await asyncio.gather(*(table(i) for i in range(tables)))
    everyone: list[BenchClient] = []
    for t, tokens in done:
        made.append(t)
        for token in tokens:
            t.clients.append(BenchClient(t, "", token, run))
    for k in range(clients - 3 * tables):  # spectators, one table after another
        t = made[k % tables]
        t.clients.append(BenchClient(t, "", None, run))
    for i, t in enumerate(made):
        for k, c in enumerate(t.clients):
            base = bases[(i + k * spread) % len(bases)].replace("http://", "ws://")
            c.url = f"{base}/tables/{t.id}/ws"
            everyone.append(c)
    return made, everyone


def percentile(ordered: list[float], q: float) -> float:
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


async def play(
    bases: list[str], pids: list[int], args: argparse.Namespace
) -> tuple[dict[str, Any], list[Table]]:
    tables, clients, seconds = args.tables, args.clients, args.seconds
    run = Run(args.think, random.Random(len(bases)))
    made, everyone = await set_up(bases, tables, clients, run, args.placement == "spread")
    connecting = asyncio.Semaphore(50)

    async def connected(c: BenchClient) -> asyncio.Task[None]:
        async with connecting:
            task = asyncio.get_running_loop().create_task(c.serve())
            await asyncio.wait_for(c.ready.wait(), 60)
            return task

    tasks = await asyncio.gather(*(connected(c) for c in everyone))
    run.moving = True
    for c in everyone:
        c.maybe_move()
    await asyncio.sleep(min(2.0, seconds / 5))  # warm up
    acks_before = sum(c.acks for c in everyone)
    run.measuring = True
    start = time.perf_counter()
    cpu = [cpu_seconds(p) for p in pids], time.process_time()
    await asyncio.sleep(seconds)
    run.measuring = False
    wall = time.perf_counter() - start
    servers_cpu = [(cpu_seconds(p) - c) / wall for p, c in zip(pids, cpu[0], strict=True)]
    client_cpu = (time.process_time() - cpu[1]) / wall
    acks = sum(c.acks for c in everyone) - acks_before
    run.moving = False
    deadline = time.monotonic() + 20  # the last intents answered, every client caught up
    while time.monotonic() < deadline and (
        any(c.pending for c in everyone)
        or any(len({c.version for c in t.clients}) > 1 for t in made)
    ):
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)
    for c in everyone:
        await c.conn.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = sorted(x for t in made for x in t.latencies)
    errors: Counter[str] = Counter()
    for c in everyone:
        errors.update(c.errors)
    return {
        "processes": len(bases),
        "tables": tables,
        "clients": len(everyone),
        "seconds": wall,
        "moves": acks,
        "moves_per_second": acks / wall,
        "latency_p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "latency_p99_ms": 1000 * percentile(latencies, 0.99) if latencies else None,
        "cpu_cores_servers": servers_cpu,
        "cpu_cores_clients": client_cpu,
        "gaps": sum(c.gaps for c in everyone),
        "errors": dict(errors),
    }, made


def check_stored(url: str, made: list[Table]) -> tuple[int, list[str]]:
    """Each table read back from the database and its record replayed, against what its
    clients saw: how many pass, and the problems."""
    store = Store(url)
    hub = Hub(store, Settings())
    problems: list[str] = []
    good = 0
    try:
        for t in made:
            seen = {c.version for c in t.clients}
            live = hub.get(t.id)
            game = replay(read_record(live.record_text())).game
            moves = sum(len(log.moves) for log in game.logs)
            acks = sum(c.acks for c in t.clients)
            views = [c.view for c in t.clients if c.view is not None]
            totals = {tuple(v["match"]["totals"]) for v in views}
            wrong = []
            if seen != {live.version}:
                wrong.append(f"clients saw versions {sorted(seen)}, stored {live.version}")
            if totals != {tuple(game.match.totals)}:
                wrong.append(f"clients' totals {sorted(totals)}, replayed {game.match.totals}")
            if moves != acks or moves + len(game.logs) != live.version:
                wrong.append(f"{moves} moves stored, {acks} acknowledged")
            if wrong:
                problems.append(f"table {t.id}: " + "; ".join(wrong))
            else:
                good += 1
    finally:
        hub.close()
        store.close()
    return good, problems


def one_run(args: argparse.Namespace, count: int) -> dict[str, Any]:
    with (
        tempfile.TemporaryDirectory() as folder,
        fresh_database(args.postgres) as url,
    ):
        with processes(count, url, args.bus, Path(folder)) as (bases, pids):
            figures, made = asyncio.run(play(bases, pids, args))
        good, problems = check_stored(url, made)
    figures["tables_checked_good"] = good
    figures["problems"] = problems[:10]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--clients", type=int, default=1000, help="at least 3 per table")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured, per run")
    parser.add_argument("--processes", default="1,2,3", help="process counts, one run each")
    parser.add_argument(
        "--placement",
        choices=("spread", "table"),
        default="spread",
        help="each table's clients spread over the processes (spread), or all on one (table)",
    )
    parser.add_argument("--think", type=float, default=0.5, help="a player's mean pause (s)")
    parser.add_argument(
        "--postgres", default=PG_ADMIN, help="a PostgreSQL that may CREATE DATABASE"
    )
    parser.add_argument("--bus", default="redis://127.0.0.1:6379/0", help="Redis, for 2+")
    parser.add_argument("--json", metavar="FILE", help="write the figures here too")
    args = parser.parse_args()
    if args.clients < 3 * args.tables:
        parser.error("--clients must be at least three per table (the players)")
    counts = [int(x) for x in args.processes.split(",")]
    if 1 not in counts:
        counts.insert(0, 1)  # the ratios are against one process
    runs = [one_run(args, n) for n in counts]
    base = next(r for r in runs if r["processes"] == 1)
    for r in runs:
        r["ratio_moves_per_second"] = r["moves_per_second"] / base["moves_per_second"]
        r["ratio_p99"] = (r["latency_p99_ms"] or 0) / (base["latency_p99_ms"] or 1)
        print(
            f"{r['processes']} process{'es' if r['processes'] > 1 else ''}, {r['tables']} tables,"
            f" {r['clients']} clients: {r['moves_per_second']:,.0f} moves/s"
            f" ({r['ratio_moves_per_second']:.2f}x one process); intent to every client's view:"
            f" p50 {r['latency_p50_ms']:.1f} ms, p99 {r['latency_p99_ms']:.1f} ms"
            f" ({r['ratio_p99']:.2f}x); gaps {r['gaps']}, errors {r['errors'] or 'none'};"
            f" stored and replayed as seen: {r['tables_checked_good']}/{r['tables']} tables;"
            f" CPU cores busy: servers {' + '.join(f'{c:.2f}' for c in r['cpu_cores_servers'])},"
            f" the clients {r['cpu_cores_clients']:.2f}"
        )
        for p in r["problems"]:
            print("  " + p)
    if args.json:
        figures = {
            "think": args.think,
            "seconds": args.seconds,
            "placement": args.placement,
            "runs": runs,
        }
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
