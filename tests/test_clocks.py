"""The clocks as pure values: a time control read (and refused), banks run down past the free
time, and when a turn is due, by its deadline or by the end of a disconnected seat's grace."""

from __future__ import annotations

from typing import Any

import pytest

from thousand.server.clocks import (
    BANK_MOST,
    ClockError,
    Clocks,
    Played,
    TimeControl,
    bank_after,
    deadline,
    due,
)

CONTROL = TimeControl(move=20, bank=300, grace=60)


def test_a_time_control_reads_and_writes_its_seconds() -> None:
    assert TimeControl.from_json({"move": 20, "bank": 300, "grace": 60}) == CONTROL
    assert TimeControl.from_json(CONTROL.to_json()) == CONTROL
    assert TimeControl.from_json({"move": 0.5, "bank": 0, "grace": 0}).move == 0.5


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (5, 'clock: an object {"move", "bank", "grace"} of seconds is expected'),
        ({"move": 1, "bank": 1}, "clock.grace: missing (seconds)"),
        ({"move": 1, "bank": 1, "grace": 1, "x": 1}, "clock: unknown key 'x'"),
        ({"move": "20", "bank": 1, "grace": 1}, "clock.move: '20' is not a number of seconds"),
        ({"move": True, "bank": 1, "grace": 1}, "clock.move: True is not a number of seconds"),
        ({"move": 0, "bank": 1, "grace": 1}, "clock.move: 0 seconds; it must be more than 0"),
        ({"move": 1, "bank": -1, "grace": 1}, "clock.bank: -1 seconds; it must be 0 or more"),
        ({"move": 1, "bank": float("nan"), "grace": 1}, "clock.bank: nan seconds"),
        ({"move": 1, "bank": int(BANK_MOST) + 1, "grace": 1}, "clock.bank: 36001 seconds is more"),
    ],
)
def test_a_bad_time_control_is_one_sentence(body: Any, said: str) -> None:
    with pytest.raises(ClockError) as caught:
        TimeControl.from_json(body)
    assert str(caught.value).startswith(said)
    assert "\n" not in str(caught.value)


def test_the_free_time_costs_nothing_and_the_rest_comes_off_the_bank() -> None:
    assert deadline(CONTROL, 300, 1000) == 1320
    assert bank_after(CONTROL, 300, 1000, 1019.5) == 300  # within the free time
    assert bank_after(CONTROL, 300, 1000, 1050) == 270
    assert bank_after(CONTROL, 10, 1000, 1100) == 0  # never below empty


def test_a_turn_is_due_at_its_deadline_or_at_the_end_of_the_grace() -> None:
    assert due(CONTROL, 300, 1000, None) == (1320, Played.CLOCK)
    assert due(CONTROL, 300, 1000, 1010) == (1070, Played.AWAY)
    assert due(CONTROL, 300, 1000, 990) == (1050, Played.AWAY)  # away before the turn began
    assert due(CONTROL, 0, 1000, 1000) == (1020, Played.CLOCK)  # the deadline comes first


def test_clocks_charge_only_the_seat_that_moved_and_bots_have_none() -> None:
    clocks = Clocks.fresh(CONTROL, [True, False, True], 1000)
    assert clocks.banks == [300, None, 300]
    assert clocks.after_move(0, 1100) == [220, None, 300]
    assert clocks.after_move(1, 1100) == [300, None, 300]
    shown = clocks.to_json(2, 1010)
    assert shown == {
        "move": 20,
        "bank": 300,
        "grace": 60,
        "banks": [300, None, 300],
        "to_act": 2,
        "left": 310,
    }
    assert clocks.to_json(None, 1010)["left"] is None
    assert clocks.to_json(0, 5000)["left"] == 0  # past its deadline: nothing left, not less
