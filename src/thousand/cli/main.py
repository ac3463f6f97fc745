"""The ``thousand`` command: one subcommand per job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thousand", description="The card game Thousand: play, replay, self-play."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a record and print the deals and totals")
    rp.add_argument("file", help="a thousand/1 record (JSON)")
    rp.add_argument("--json", action="store_true", help="print the spec's JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        from .replay import run

        return run(args.file, args.json)
    return 2


if __name__ == "__main__":
    sys.exit(main())
