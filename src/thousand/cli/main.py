"""The ``thousand`` command: one subcommand per job."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..i18n import LANGUAGES, language
from . import DEFAULT_LEVEL


def limit_text(text: str) -> str:
    """``text`` when it is a limit in the ``limits`` notation (``10 per 15 minutes``)."""
    from limits import parse

    try:
        parse(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a limit: write it as COUNT per [N] second|minute|hour|day"
        ) from None
    return text


def limits_storage_text(uri: str) -> str:
    """``uri`` when the ``limits`` library can keep counts there (``memory://``,
    ``redis://HOST:PORT`` with the redis package installed)."""
    from limits.errors import ConfigurationError
    from limits.storage import storage_from_string

    try:
        storage_from_string(uri)
    except (ConfigurationError, ValueError) as e:
        raise argparse.ArgumentTypeError(
            f"cannot keep the sign-in counts at {uri!r}: {e}"
        ) from None
    return uri


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thousand", description="The card game Thousand: play, replay, self-play."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a record and print the deals and totals")
    rp.add_argument("file", help="a thousand/1 record (JSON)")
    rp.add_argument("--json", action="store_true", help="print the spec's JSON object")

    sp = sub.add_parser("selfplay", help="three random bots play; write the record")
    sp.add_argument(
        "--template", default="russian", help="a template's name or JSON file (russian)"
    )
    count = sp.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, metavar="N", help="play N deals (default 1)")
    count.add_argument("--match", action="store_true", help="play a whole match to its winner")
    sp.add_argument(
        "--max-deals",
        type=int,
        default=1000,
        metavar="N",
        help="with --match, give up after N deals (default 1000)",
    )
    sp.add_argument("--seed", type=int, default=0, help="seed of the cards and the bots (0)")
    sp.add_argument("--out", metavar="FILE", help="write the record here (default: stdout)")
    sp.add_argument("--rules", metavar="JSON", help='rule overrides as a record\'s "rules" object')

    pp = sub.add_parser("play", help="play a match in the terminal (a table on a server)")
    pp.add_argument(
        "--template", default="russian", help="a template's name or JSON file (russian)"
    )
    pp.add_argument("--seed", type=int, help="seed of the cards and the bots (default: random)")
    pp.add_argument("--name", help="your name in the record (default: You, in the --lang language)")
    pp.add_argument("--out", metavar="FILE", help="write the record here at the end or on quit")
    pp.add_argument("--rules", metavar="JSON", help='rule overrides as a record\'s "rules" object')
    pp.add_argument("--plain", action="store_true", help="the line-based game, no server")
    pp.add_argument("--server", metavar="URL", help="a running server (default: start one here)")
    pp.add_argument("--join", metavar="URL", help="join the table at this URL (.../tables/ID)")
    pp.add_argument(
        "--login",
        metavar="NAME",
        help="sign in to the server as NAME first (the password is asked for, or read from"
        " THOUSAND_PASSWORD) and sit under the account's name",
    )
    pp.add_argument("--humans", type=int, default=1, help="human seats at a new table (1)")
    pp.add_argument(
        "--level",
        "--bots",
        dest="level",
        default=DEFAULT_LEVEL,
        help="the bots' level, at a server's table and in --plain alike: easy (random), medium,"
        f" hard, expert ({DEFAULT_LEVEL})",
    )
    pp.add_argument("--data", default=None, help="the local server's data folder")
    pp.add_argument(
        "--clock",
        metavar="MOVE,BANK[,GRACE]",
        help="a timed new table: seconds free per move, seconds of bank for the match, seconds"
        " a disconnected seat waits before a bot plays it (60); past them a medium bot moves",
    )
    pp.add_argument(
        "--lang", default="en", choices=LANGUAGES, help="the language of everything said (en)"
    )

    sv = sub.add_parser("serve", help="run the game server (lobby, tables, bots, storage)")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (8000)")
    sv.add_argument("--data", default="thousand-data", help="data folder (thousand-data)")
    sv.add_argument("--database", metavar="URL", help="postgresql://... instead of SQLite")
    sv.add_argument(
        "--bus",
        metavar="URL",
        help="redis://... : share the --database with other server processes, any of which"
        " serves any table (default: this process alone)",
    )
    sv.add_argument("--bot-delay", type=float, default=0.5, help="seconds bots wait (0.5)")
    sv.add_argument("--message-rate", type=float, default=20.0, help="messages/s a client may send")
    sv.add_argument("--message-burst", type=int, default=40, help="messages in one burst (40)")
    sv.add_argument("--request-rate", type=float, default=200.0, help="requests/s per address")
    sv.add_argument("--request-burst", type=int, default=400, help="requests in one burst (400)")
    sv.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name people reach the server by, besides 127.0.0.1, localhost, ::1 and"
        " --host (repeatable; * for any)",
    )
    sv.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another site whose pages may open WebSockets, https://name (repeatable; * for any)",
    )
    sv.add_argument(
        "--max-body", type=int, default=65536, help="the largest request body in bytes (65536)"
    )
    sv.add_argument(
        "--tables-per-address",
        type=int,
        default=20,
        help="tables not yet finished one address may create (20)",
    )
    sv.add_argument(
        "--table-connections", type=int, default=200, help="WebSocket connections per table (200)"
    )
    sv.add_argument(
        "--close-idle",
        type=float,
        default=900.0,
        metavar="SECONDS",
        help="close a table not yet finished that nobody (player or spectator) has been"
        " connected to for this long (900, 15 minutes; 0: never)",
    )
    sv.add_argument(
        "--sign-in-per-name",
        default="10 per 15 minutes",
        type=limit_text,
        metavar="LIMIT",
        help="sign-in attempts allowed for one name (10 per 15 minutes)",
    )
    sv.add_argument(
        "--sign-in-per-address",
        default="50 per 15 minutes",
        type=limit_text,
        metavar="LIMIT",
        help="sign-in and sign-up attempts allowed from one address (50 per 15 minutes)",
    )
    sv.add_argument(
        "--limits-storage",
        default="memory://",
        type=limits_storage_text,
        metavar="URI",
        help="where the sign-in counts are kept: memory:// (this process) or redis://HOST:PORT",
    )
    sv.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark the session cookie Secure always (behind a TLS proxy that sends no"
        " X-Forwarded-Proto); it is Secure on https requests anyway",
    )
    sv.add_argument(
        "--drain",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="on SIGTERM, stay up this long not ready (/ready 503) before closing the WebSockets"
        " with 1012 (0; behind a proxy: longer than its checks take, docs/deploy.md)",
    )
    sv.add_argument("--open", action="store_true", help="open the page in a web browser")

    ap = sub.add_parser("arena", help="bots play duplicate deals; points, make-rates, CIs")
    ap.add_argument("--bots", default="expert,medium", help="bots (levels), comma-separated")
    ap.add_argument("--deals", type=int, default=100, metavar="N", help="deal-sets (100)")
    ap.add_argument("--matches", type=int, default=0, metavar="N", help="match-sets (0)")
    ap.add_argument("--template", default="russian", help="the rules template (russian)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the cards and the bots (0)")
    ap.add_argument("--workers", type=int, metavar="N", help="processes (default: 2 or fewer)")
    ap.add_argument("--out", metavar="FILE", help="write the result as JSON here")
    ap.add_argument("--plot", metavar="FILE", help="write a PNG chart of the result here")
    ap.add_argument("--rules", metavar="JSON", help='rule overrides as a record\'s "rules" object')
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument(
        "--records", metavar="DIR", help="write every game played here as a thousand/1 record"
    )
    ap.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on the Ray cluster whose head is at HOST:PORT (pip install 'thousand[cluster]')",
    )

    an = sub.add_parser("analyze", help="what the declarer could make, and the costly cards")
    an.add_argument("file", help="a thousand/1 record (JSON)")

    from .rules import add_parser as add_rules_parser

    add_rules_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except BrokenPipeError:
        # The reader went away (``thousand replay x.json | head``): stop quietly, as cat does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("play", "serve", "arena", "selfplay", "analyze"):  # the bots think
        from .build import warn_if_slow

        warn_if_slow()
    if args.command == "replay":
        from .replay import run

        return run(args.file, args.json)
    if args.command == "selfplay":
        from .selfplay import run as run_selfplay

        return run_selfplay(
            args.template, args.deals, args.seed, args.out, args.match, args.max_deals, args.rules
        )
    if args.command == "play" and args.plain:
        from .play import run as run_play

        with language(args.lang):
            return run_play(args.template, args.seed, args.name, args.out, args.rules, args.level)
    if args.command == "rules":
        from .rules import run as run_rules

        return run_rules(args)
    if args.command == "play":
        from .play_table import run as run_client

        with language(args.lang):
            return run_client(args)
    if args.command == "serve":
        from ..server.serve import run as run_serve

        return run_serve(args)
    if args.command == "arena":
        from .arena import run as run_arena

        return run_arena(
            args.bots,
            args.deals,
            args.matches,
            args.template,
            args.seed,
            args.workers,
            args.out,
            args.plot,
            args.rules,
            args.quiet,
            args.records,
            args.cluster,
        )
    if args.command == "analyze":
        from .analyze import run as run_analyze

        return run_analyze(args.file)
    return 2


if __name__ == "__main__":
    sys.exit(main())
