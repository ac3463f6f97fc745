"""``thousand play``: the Textual client at a table of a server (a local one by default)."""

from __future__ import annotations

import argparse
import getpass
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from ..bots import LEVELS
from ..client.link import (
    LinkError,
    Seat,
    SignedIn,
    create_table,
    sign_in,
    split_table_url,
    take_seat,
)
from ..prose.table import said
from ..rules import RulesError, rules_from_record
from ..rules.custom import TemplateError, find_template, overrides_from_json


def data_folder() -> Path:
    """Where the local server keeps its database: ``$XDG_DATA_HOME/thousand``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "thousand"


def start_local_server(data: Path, bot_delay: float = 0.5) -> str:
    """A server on a free port of 127.0.0.1, in a thread of this process; its URL."""
    import uvicorn

    from ..server.app import create_app
    from ..server.config import Settings
    from ..server.serve import WS_MAX_SIZE

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(Settings(data=data, bot_delay=bot_delay))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=WS_MAX_SIZE
    )
    server = uvicorn.Server(config)
    threading.Thread(target=server.run, daemon=True, name="thousand-server").start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return url
        except httpx.HTTPError:
            time.sleep(0.05)
    raise LinkError("the local server did not start")


def login(server: str, name: str | None) -> SignedIn | None:
    """With ``--login NAME``, sign in to ``server``: the password from ``THOUSAND_PASSWORD``,
    else asked for (not echoed)."""
    if name is None:
        return None
    password = os.environ.get("THOUSAND_PASSWORD")
    if password is None:
        try:
            password = getpass.getpass(said("password prompt", name=name, server=server))
        except (EOFError, KeyboardInterrupt):
            raise LinkError(said("no password")) from None
    return sign_in(server, name, password)


def open_seat(args: argparse.Namespace) -> Seat:
    """Join the table at ``--join``, or make a table (on ``--server`` or a local server) with
    ``--humans`` people and bots of level ``--bots`` in the other seats, and sit at seat 0;
    with ``--login``, signed in first."""
    if args.join:
        server, table = split_table_url(args.join)
        return take_seat(server, table, args.name, signed_in=login(server, args.login))
    rules: dict[str, Any] = {}
    if args.rules:
        try:
            rules = overrides_from_json(args.rules)
        except ValueError as e:
            raise LinkError(str(e)) from None
    chosen = find_template(args.template)
    changes = {**chosen.record_rules(), **rules}
    try:
        players = rules_from_record(chosen.variant, changes).players_count
    except RulesError as e:
        raise LinkError(str(e).replace("\n", " ")) from None
    server = (
        args.server.rstrip("/")
        if args.server
        else start_local_server(Path(args.data) if args.data else data_folder())
    )
    signed_in = login(server, args.login)
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in range(max(1, args.humans))]
    while len(seats) < players:
        seats.append({"kind": "bot", "level": args.level})
    table = create_table(server, chosen.variant, changes, seats, args.seed)
    return take_seat(server, table, args.name, 0, signed_in)


def run(args: argparse.Namespace) -> int:
    """The command: 0 after the app closes, 2 when the table cannot be opened."""
    if args.level not in LEVELS:
        levels = ", ".join(LEVELS)
        print(f"play: unknown --level {args.level!r}: the levels are {levels}", file=sys.stderr)
        return 2
    if args.name is None:
        args.name = said("default name")
    if not args.join:
        try:
            find_template(args.template)
        except TemplateError as e:
            print(f"play: {'; '.join(e.problems)}", file=sys.stderr)
            return 2
    try:
        seat = open_seat(args)
    except LinkError as e:
        print(f"play: {e}", file=sys.stderr)
        return 2
    if args.humans > 1:
        print(said("friends join", url=seat.table_url))
    from ..client.app import ThousandApp

    ThousandApp(seat).run()
    return 0
