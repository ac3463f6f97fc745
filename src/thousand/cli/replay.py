"""``thousand replay FILE [--json]``."""

from __future__ import annotations

import sys

from ..records import RecordError, read_record_file, replay, replay_json, replay_text
from ..records.replay import dumps_json


def run(path: str, as_json: bool) -> int:
    """Replay a record; on any problem, one line on standard error and exit status 2."""
    try:
        result = replay(read_record_file(path))
    except RecordError as e:
        print(e, file=sys.stderr)
        return 2
    print(dumps_json(replay_json(result)) if as_json else replay_text(result))
    return 0
