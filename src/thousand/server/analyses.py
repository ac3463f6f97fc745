"""``GET /api/games/{id}/analysis``: a finished match against the exact open-card solver.

What ``thousand analyze`` prints, as data for the replay viewer: for each deal the declarer's
points as played, what it could have taken with every card open and the highest contract those
points make; and for each card play the declarer's final points after every legal card of the
seat to act (best play afterwards, :func:`thousand.bots.analysis.analyze_deal`), the best of
them for that seat's side, and the points the card played gave away.

The solver is pure Python work of seconds, so it runs in a worker process
(:meth:`.tables.Hub.run_apart`), one computation per match however many ask at once
(:meth:`.tables.Hub.analysis`). The answer is stored in the database beside the match
(``analyses``: the table's id and the answer's JSON), because a finished match never changes:
a server that restarts, or another server on the same database, answers from it at once, and it
goes wherever the match goes (SQLite file or PostgreSQL alike). Only a finished match is
analysed: while a match is played its cards stay hidden (the route answers 409).
"""

from __future__ import annotations

import json
from typing import Any

from ..bots.analysis import DealAnalysis, MoveValues, analyze_deal
from ..engine.actions import action_text
from ..engine.views import move_json
from ..records import read_record, replay

#: the ``version`` of the stored answer: an answer stored with another is made again
FORMAT = 1


def move_values_json(m: MoveValues) -> dict[str, Any]:
    """One card play: every legal action with the declarer's final points after it."""
    pick = max if m.declarer_side else min
    best = pick(m.values.values())
    return {
        "step": m.index,
        "trick": m.trick,
        "seat": m.seat,
        "side": "declarer" if m.declarer_side else "defence",
        "played": action_text(m.played),
        "cost": m.cost,
        "best": best,
        "values": [
            {"move": action_text(a), "action": move_json(a), "value": v}
            for a, v in sorted(m.values.items())
        ],
    }


def deal_json(a: DealAnalysis) -> dict[str, Any]:
    return {
        "number": a.number,
        "result": a.result,
        "declarer": a.declarer,
        "contract": a.contract,
        "open_value": a.open_value,
        "open_contract": a.open_contract,
        "played_value": a.played_value,
        "moves": [move_values_json(m) for m in a.moves],
    }


def analysis_of_record(record_text: str) -> dict[str, Any]:
    """Every deal of a finished match's record against the solver (see the module)."""
    result = replay(read_record(record_text))
    rules = result.game.rules
    deals = []
    deals = [
        deal_json(analyze_deal(rules, number, log))
        for number, log in enumerate(result.game.logs, start=1)
    ]
    return {"format": FORMAT, "deals": deals}


def analysis_answer(record_text: str) -> str:
    """The stored answer: :func:`analysis_of_record` as JSON. The server makes it in a worker
    process."""
    return json.dumps(analysis_of_record(record_text), ensure_ascii=False, separators=(",", ":"))
