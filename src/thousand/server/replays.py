"""``GET /api/games/{id}/replay``: a finished match step by step, every hand open.

The match is rebuilt from its ``thousand/1`` record exactly as ``thousand replay`` rebuilds it,
so the two agree deal by deal. Each deal has a step for the cards as dealt and one after each
move; a step's view is the spectator's view of :func:`thousand.engine.views.view` with the
hidden cards added (every seat's hand, the talon and the stock as dealt, the cards handed over,
the discards, face-down crawl cards) and without ``legal_actions``. Only a finished match is
replayed: while a match is played its cards stay hidden (the route answers 409).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..cards import CARD_TEXT, hand_text
from ..engine.actions import action_text
from ..engine.game import DealLog, Game
from ..engine.views import move_json, view
from ..records import read_record, replay
from ..records.replay import report_json


def _cards(mask: int) -> list[str]:
    text = hand_text(mask)
    return text.split(" ") if text else []


def full_view(game: Game, log: DealLog) -> dict[str, Any]:
    """The deal of ``game`` as it stands, with every card open (see the module)."""
    state = game.deal
    assert state is not None
    out = view(state, None, game.match).to_json(rules=False)
    del out["legal_actions"], out["moves"]
    talons = list(log.dealt.talons)
    out.update(
        {
            "hands": [_cards(h) for h in state.hands],
            "dealt": [_cards(h) for h in state.dealt],
            "talon": _cards(talons[0]) if len(talons) == 1 else None,
            "talons": [_cards(t) for t in talons],
            "stock": [CARD_TEXT[c] for c in state.stock],
            "aside": _cards(log.dealt.aside),
            "passed": [None if c is None else CARD_TEXT[c] for c in state.given],
            "discarded": _cards(state.discarded),
            "trick": [{"seat": s, "card": CARD_TEXT[c]} for s, c in state.trick],
            "crawl_hidden": [],
        }
    )
    return out


@lru_cache(maxsize=16)
def replay_of_record(record_text: str) -> dict[str, Any]:
    """The deals of a finished match's record, each with its report and its steps."""
    result = replay(read_record(record_text))
    reports = result.game.reports
    deals: list[dict[str, Any]] = []
    for step in result.steps():
        if step.action is None:  # a deal as dealt starts the deal's steps
            report = reports[step.number - 1] if step.number <= len(reports) else None
            deals.append(
                {
                    "number": step.number,
                    "dealer": step.log.dealer,
                    "report": None if report is None else report_json(report),
                    "steps": [],
                }
            )
        move = None if step.action is None else action_text(step.action)
        action = None if step.action is None else move_json(step.action)
        deals[-1]["steps"].append(
            {
                "seat": step.seat,
                "move": move,
                "action": action,
                "view": full_view(step.game, step.log),
            }
        )
    return {
        "deals": deals,
        "totals": list(result.game.match.totals),
        "winner": result.game.match.winner,
    }


def replay_answer(record_text: str, head: dict[str, Any]) -> bytes:
    """``GET /api/games/{id}/replay``'s answer as JSON: ``head`` (the table's id, template,
    rules, seats) and the replay of its record. The server makes it in a worker process."""
    answer = {**head, **replay_of_record(record_text)}
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
