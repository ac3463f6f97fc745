"""A scripted full deal per template of rules.md part 3, with its totals pinned.

``tests/golden/deal-TEMPLATE.json`` holds one played deal per template (a record, and what
``thousand replay --json`` printed for it when it was pinned). Each replays to the same account,
its record round-trips byte for byte, and its numbers obey the template's scoring: the declarer
gains its contract (or, in ``soviet-book``, its deal score plus the contract), each defender its
deal score, a declarer's partner nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from thousand.records import read_record, replay, replay_json, write_record
from thousand.rules import TEMPLATES, template_rules

GOLDEN = Path(__file__).parent / "golden"

# template: (declarer, contract, totals after the deal)
PINNED: dict[str, tuple[int, int, list[int]]] = {
    "russian": (2, 100, [15, 0, 100]),
    "russian-classic": (0, 120, [120, 0, 0]),
    "ukrainian": (0, 120, [120, 0, 0]),
    "polish-2card": (1, 100, [20, 100, 0]),
    "tysiac": (0, 120, [120, 0, 0]),
    "tysiac-2p": (1, 150, [10, 150]),
    "two-player-a": (1, 100, [210, 100]),
    "two-player-b": (1, 115, [0, 115]),
    "four-player-a": (1, 100, [30, 100, 30, 100]),
    "four-player-b": (1, 110, [0, 110, 0, 110]),
    "four-player": (3, 120, [5, 0, 0, 120]),
    "estonian": (2, 100, [13, 0, 100]),
    "soviet-book": (1, 60, [60, 120, 0]),
}


def test_every_template_has_a_pinned_deal() -> None:
    assert set(PINNED) == set(TEMPLATES)


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_scripted_deal_replays_to_its_pinned_totals(template: str) -> None:
    data = json.loads((GOLDEN / f"deal-{template}.json").read_text())
    text = json.dumps(data["record"])
    record = read_record(text)
    assert record.variant == template
    assert read_record(write_record(record)) == record
    got = replay_json(replay(record))
    assert got == data["expect"]
    (deal,) = got["deals"]
    declarer, contract, totals = PINNED[template]
    assert (deal["declarer"], deal["contract"], deal["result"]) == (declarer, contract, "made")
    assert got["totals"] == deal["totals"] == totals
    rules = template_rules(template)
    partner = (declarer + 2) % 4 if rules.players_partnerships == "across" else None
    gain = contract
    if rules.scoring_declarer_gains == "score-plus-contract":
        gain += deal["deal_points"][declarer]
    assert deal["changes"][declarer] == gain
    for seat, change in enumerate(deal["changes"]):
        if seat == declarer:
            continue
        expected = 0 if seat == partner else deal["deal_points"][seat]
        assert change == expected, seat
