"""A deal's ``played_for`` (docs/records.md): the moves a bot made for a person at a timed
table. Written after ``moves`` where a deal has one and read back to the same bytes; a mark the
deal cannot have refuses the record with one line; and the marks change no total."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from thousand.engine import Game
from thousand.records import read_record, record_of_game, write_record
from thousand.records.model import RecordError
from thousand.records.replay import replay, replay_json
from thousand.rules import TEMPLATES, template_rules


def played(template: str, seed: int = 7) -> Game:
    game = Game.start(template_rules(template))
    rng = random.Random(seed)
    game = game.shuffle_and_deal(rng)
    for _ in range(12):
        assert game.deal is not None
        if not game.in_deal:
            break
        game = game.apply(rng.choice(game.deal.legal_actions()))
    return game


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_marks_are_written_after_the_moves_and_read_back(template: str) -> None:
    game = played(template)
    moves = len(game.logs[0].moves)
    first = [(1, "clock")] + ([(moves, "away")] if moves > 1 else [])
    text = write_record(record_of_game(game, template, {1: first}))
    deal = json.loads(text)["deals"][0]
    assert list(deal)[-2:] == ["moves", "played_for"]
    assert deal["played_for"] == [{"move": n, "why": why} for n, why in first]
    again = read_record(text)
    assert again.deals[0].played_for == tuple(first)
    assert write_record(again) == text
    # without marks, the key is not written: every other record is as before
    plain = write_record(record_of_game(game, template))
    assert "played_for" not in plain
    unmarked = (replace(again.deals[0], played_for=()), *again.deals[1:])
    assert plain == write_record(replace(again, deals=unmarked))


def test_the_marks_change_no_total() -> None:
    game = played("russian")
    marked = read_record(write_record(record_of_game(game, "russian", {1: [(2, "clock")]})))
    plain = read_record(write_record(record_of_game(game, "russian")))
    assert replay_json(replay(marked)) == replay_json(replay(plain))


@pytest.mark.parametrize(
    ("marks", "error"),
    [
        ("5", "deal 1: 'played_for' must be a list of"),
        ('[{"move": 1}]', "deal 1: 'played_for' must be a list of"),
        ('[{"move": 1, "why": "late"}]', "deal 1: 'played_for' must be a list of"),
        ('[{"move": "1", "why": "clock"}]', "deal 1: 'played_for' must be a list of"),
        ('[{"move": 99, "why": "clock"}]', "deal 1: played_for names move 99, the deal has"),
        ('[{"move": 0, "why": "clock"}]', "deal 1: played_for names move 0, the deal has"),
        (
            '[{"move": 2, "why": "clock"}, {"move": 2, "why": "away"}]',
            "deal 1: played_for's moves must rise (move 2 again)",
        ),
    ],
)
def test_a_mark_the_deal_cannot_have_refuses_the_record(marks: str, error: str) -> None:
    text = write_record(record_of_game(played("russian"), "russian"))
    data = json.loads(text)
    data["deals"][0]["played_for"] = json.loads(marks)
    with pytest.raises(RecordError) as refused:
        read_record(json.dumps(data))
    assert str(refused.value).startswith(error)
    assert "\n" not in str(refused.value)
