"""``thousand analyze RECORD``: each deal against the open-card solver."""

from __future__ import annotations

import sys

from ..bots.analysis import DealAnalysis, analyze_deal
from ..records import RecordError, read_record_file, replay


def describe(a: DealAnalysis) -> list[str]:
    """A deal's analysis in words."""
    if a.open_value is None:
        who = "" if a.declarer is None else f", seat {a.declarer} at {a.contract}"
        return [f"deal {a.number}: {a.result}{who}: no card was played"]
    made = "nothing" if a.open_contract is None else f"a contract of {a.open_contract}"
    lines = [
        f"deal {a.number}: seat {a.declarer} at {a.contract}, {a.result}"
        + ("" if a.played_value is None else f" with {a.played_value} points")
        + f"; with all cards open it could take {a.open_value} points, enough for {made}"
    ]
    for s in a.slips:
        side = "the declarer" if s.seat == a.declarer else "a defender"
        lines.append(
            f"  trick {s.trick}, seat {s.seat} ({side}) played {s.played}:"
            f" {s.cost} points away against the solver (best: {s.best})"
        )
    if not a.slips:
        lines.append("  every card was as good as the solver's")
    return lines


def run(path: str) -> int:
    """Analyze a record; on any problem, one line on standard error and exit status 2."""
    try:
        result = replay(read_record_file(path))
    except RecordError as e:
        print(e, file=sys.stderr)
        return 2
    rules = result.game.rules
    for number, log in enumerate(result.game.logs, start=1):
        for line in describe(analyze_deal(rules, number, log)):
            print(line)
    return 0
