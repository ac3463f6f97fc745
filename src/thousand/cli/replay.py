"""``thousand replay FILE [--json]``."""

from __future__ import annotations

import sys
from pathlib import Path

from ..records import RecordError, read_record, replay, replay_json, replay_text
from ..records.replay import dumps_json


def run(path: str, as_json: bool) -> int:
    """Replay a record; on any problem, one line on standard error and exit status 2."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        print(f"record: cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print("record: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        result = replay(read_record(text))
    except RecordError as e:
        print(str(e).replace("\n", " "), file=sys.stderr)
        return 2
    print(dumps_json(replay_json(result)) if as_json else replay_text(result))
    return 0
