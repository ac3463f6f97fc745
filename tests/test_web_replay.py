"""The replay's full views in every layout: rebuilt from a record as ``thousand replay`` does,
every hand, talon, stock and face-down card open, no legal actions."""

from __future__ import annotations

import pytest

from thousand.cards import CARD_TEXT, hand_text
from thousand.cli.selfplay import selfplay
from thousand.engine.actions import parse_action
from thousand.engine.views import move_json
from thousand.records import read_record, record_of_game, replay, replay_json, write_record
from thousand.rules import rules_from_record
from thousand.server.replays import replay_of_record


def cards(mask: int) -> list[str]:
    text = hand_text(mask)
    return text.split(" ") if text else []


@pytest.mark.parametrize(
    "template", ["russian", "two-player-a", "tysiac-2p", "four-player-b", "estonian"]
)
def test_full_views_in_every_layout(template: str) -> None:
    rules = rules_from_record(template, {})
    game = selfplay(rules, seed=3, deals=3)
    text = write_record(record_of_game(game, template))
    found = replay_of_record(text)
    expected = replay_json(replay(read_record(text)))
    assert [d["report"] for d in found["deals"]] == expected["deals"]
    assert found["totals"] == expected["totals"] and found["winner"] == expected["winner"]
    for deal, log in zip(found["deals"], game.logs, strict=True):
        steps = deal["steps"]
        assert len(steps) == len(log.moves) + 1
        first = steps[0]["view"]
        assert first["hands"] == [cards(h) for h in log.dealt.hands]
        assert first["talons"] == [cards(t) for t in log.dealt.talons]
        assert first["stock"] == [CARD_TEXT[c] for c in log.dealt.stock]
        assert first["aside"] == cards(log.dealt.aside)
        assert steps[0]["move"] is None and steps[0]["action"] is None
        for step in steps[1:]:  # each move as its token and as its typed object
            assert step["action"] == move_json(parse_action(step["move"]))
        for step in steps:
            view = step["view"]
            assert "legal_actions" not in view and "moves" not in view
            assert view["seat"] is None and view["hand"] is None
            assert [len(h) for h in view["hands"]] == view["card_counts"]
            assert view["dealt"] == [cards(h) for h in log.dealt.hands]
            assert view["crawl_hidden"] == []
        last = steps[-1]["view"]
        assert last["phase"] == "done"
        assert last["match"]["totals"] == deal["report"]["totals"]
    views = [s["view"] for d in found["deals"] for s in d["steps"]]
    if template == "tysiac-2p":
        assert all(v["talon"] is None and len(v["talons"]) == 2 for v in views)
        assert any(v["discarded"] for v in views)
    if template == "two-player-a":
        assert all(v["talons"] == [] and v["talon"] is None for v in views)
        assert any(len(v["stock"]) == v["stock_count"] > 0 for v in views)
    if template in ("russian", "estonian"):
        assert all(len(v["talon"]) == 3 for v in views)
        assert any(c for v in views for c in v["passed"])
    if template == "four-player-b":
        assert all(v["hands"][v["dealer"]] == [] for v in views)
