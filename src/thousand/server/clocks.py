"""Clocks: a table's time control, each person's bank, and when the running turn is due.

A timed table is created with a :class:`TimeControl`: each move may take ``move`` seconds for
free; beyond that the seat's bank (``bank`` seconds for the whole match) runs down; when the
bank is empty too, the move is made for the seat by a medium bot that sees only that seat's
view (:attr:`Played.CLOCK`). A seat with no open connection for longer than ``grace`` seconds
is played by the bot at once, every move, until a connection for it comes back
(:attr:`Played.AWAY`). Only a person's seat has a clock; bots move as they always have.

Everything here is a value or a pure function of wall-clock seconds, so the server
(:mod:`.tables`) holds one :class:`Clocks` per timed table and asks it, and the tests ask it
without a server.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

#: the longest free time of one move, bank of a match and grace of a disconnected seat
MOVE_MOST = 3600.0
BANK_MOST = 36000.0
GRACE_MOST = 3600.0
#: the keys of a time control, and what each may be
_LIMITS = {"move": (MOVE_MOST, False), "bank": (BANK_MOST, True), "grace": (GRACE_MOST, True)}


class ClockError(ValueError):
    """A time control that cannot be: one sentence saying what and where."""


class Played(StrEnum):
    """Why a bot made a person's move: the seat's time ran out, or the seat was disconnected
    for longer than the table's grace."""

    CLOCK = "clock"
    AWAY = "away"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds each move may take for free, seconds of bank for the match beyond that, and
    seconds a seat may be disconnected before the bot plays it."""

    move: float
    bank: float
    grace: float

    def to_json(self) -> dict[str, float]:
        return {"move": self.move, "bank": self.bank, "grace": self.grace}

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """The time control of a ``clock`` object; :class:`ClockError` saying what is wrong
        (``move`` is more than 0, ``bank`` and ``grace`` 0 or more, each a number of seconds
        up to its most)."""
        if not isinstance(data, Mapping):
            raise ClockError('clock: an object {"move", "bank", "grace"} of seconds is expected')
        unknown = sorted(str(k) for k in data if k not in _LIMITS)
        if unknown:
            raise ClockError(f"clock: unknown key {unknown[0]!r} (the keys: move, bank, grace)")
        values: dict[str, float] = {}
        for key, (most, zero) in _LIMITS.items():
            if key not in data:
                raise ClockError(f"clock.{key}: missing (seconds)")
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ClockError(f"clock.{key}: {value!r} is not a number of seconds")
            if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
                low = "0 or more" if zero else "more than 0"
                raise ClockError(f"clock.{key}: {value!r} seconds; it must be {low}")
            if value > most:
                raise ClockError(f"clock.{key}: {value!r} seconds is more than {most:g}")
            values[key] = float(value)
        return cls(values["move"], values["bank"], values["grace"])


def deadline(control: TimeControl, bank: float, started: float) -> float:
    """When a turn started at ``started`` by a seat with ``bank`` seconds left runs out."""
    return started + control.move + bank


def bank_after(control: TimeControl, bank: float, started: float, moved: float) -> float:
    """The seat's bank after a move made at ``moved`` in a turn started at ``started``: the
    time beyond the free ``move`` seconds comes off it, down to 0."""
    return max(0.0, bank - max(0.0, moved - started - control.move))


def due(
    control: TimeControl, bank: float, started: float, away_since: float | None
) -> tuple[float, Played]:
    """When the bot makes the move of a seat whose turn started at ``started`` (``away_since``:
    when its last connection closed, None while it has one), and why: its deadline, or the end
    of its grace where that comes first."""
    at = deadline(control, bank, started)
    if away_since is not None and away_since + control.grace < at:
        return away_since + control.grace, Played.AWAY
    return at, Played.CLOCK


@dataclass(slots=True)
class Clocks:
    """A timed table's clocks: its control, each seat's bank (None: a bot's seat, which has no
    clock) as it was when the running turn started, and when that turn started (wall-clock
    seconds)."""

    control: TimeControl
    banks: list[float | None]
    started: float

    @classmethod
    def fresh(cls, control: TimeControl, people: Sequence[bool], started: float) -> Clocks:
        """Clocks at the start of a match: every person's seat has the whole bank."""
        return cls(control, [control.bank if p else None for p in people], started)

    def bank(self, seat: int) -> float:
        held = self.banks[seat]
        return self.control.bank if held is None else held

    def after_move(self, seat: int, moved: float) -> list[float | None]:
        """The banks once ``seat`` has moved at ``moved`` (a bot's seat keeps none)."""
        banks = list(self.banks)
        if banks[seat] is not None:
            banks[seat] = bank_after(self.control, self.bank(seat), self.started, moved)
        return banks

    def due(self, seat: int, away_since: float | None) -> tuple[float, Played]:
        return due(self.control, self.bank(seat), self.started, away_since)

    def to_json(self, to_act: int | None, now: float) -> dict[str, Any]:
        """What every message shows: the control, each seat's bank (null: no clock), the seat
        whose clock runs (null: none) and the seconds left to its deadline."""
        left = None
        if to_act is not None:
            left = round(max(0.0, deadline(self.control, self.bank(to_act), self.started) - now), 3)
        return {
            **self.control.to_json(),
            "banks": [None if b is None else round(b, 3) for b in self.banks],
            "to_act": to_act,
            "left": left,
        }
