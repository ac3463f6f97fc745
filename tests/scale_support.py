"""Helpers for the tests of many server processes on one database: a private Redis and a
private PostgreSQL cluster (each on a free port in a temporary folder, so a test may kill and
restart them; the machine's own services are never touched), and servers joined by the bus.

Where ``redis-server`` or PostgreSQL's ``initdb`` is missing the test is skipped, except under
CI=true, where it fails."""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .server_support import Server, free_port


def missing(what: str) -> None:
    """Skip the test for want of ``what``; fail it under CI=true."""
    if os.environ.get("CI") == "true":
        raise AssertionError(f"CI=true and {what}")
    pytest.skip(what)


def wait_until(what: str, done: object, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


class Redis:
    """``redis-server`` on a free port of 127.0.0.1, keeping nothing on disk."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            missing("redis-server is not installed")
        assert binary is not None
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.folder.mkdir(parents=True, exist_ok=True)
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        with (self.folder / "redis.log").open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=log)
        wait_until("redis-server starts", self.answers, 10)
        return self

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), 0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        self.kill()


@contextmanager
def redis(folder: Path) -> Iterator[Redis]:
    server = Redis(folder).start()
    try:
        yield server
    finally:
        server.stop()


class Postgres:
    """A PostgreSQL cluster of its own (``initdb``, ``pg_ctl``) on a free port, in a temporary
    folder, with trust authentication for its ``postgres`` role. initdb refuses to run as
    root: as root the cluster is made and run by the ``postgres`` user."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            missing("PostgreSQL's initdb is not installed (/usr/lib/postgresql/*/bin)")
        self.bin = Path(found[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="thousand-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        command = [*self.as_user, str(self.bin / tool), *args]
        done = subprocess.run(command, capture_output=True, cwd=self.folder, check=False)
        assert done.returncode == 0, done.stderr.decode(errors="replace")

    def start(self) -> Postgres:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        log = str(self.folder / "postgres.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
        return self

    def stop(self) -> None:
        """Stop it at once (``pg_ctl stop -m immediate``: its connections are cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        stop = ["-D", str(self.data), "-m", "immediate", "-w", "stop"]
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), *stop],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    try:
        yield cluster.start()
    finally:
        cluster.remove()


def on_bus(folder: Path, database: str, bus: str, *extra: str) -> Server:
    """A server process (not started) on ``database`` and the bus ``bus``."""
    return Server(folder, database, "--bus", bus, *extra)


@contextmanager
def processes(folder: Path, database: str, bus: str, count: int) -> Iterator[list[Server]]:
    """``count`` server processes on one database and bus, started."""
    servers = [on_bus(folder / f"p{i}", database, bus) for i in range(count)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()
