"""The engine's exceptions."""

from __future__ import annotations


class IllegalAction(ValueError):
    """A move the rules forbid here. The message says which rule, in a player's words, from
    what the seat to act may know: it is the same wherever the hidden cards lie, so it may be
    shown to that seat. ``detail`` is the referee's reason, which may also say where a card the
    seat does not hold lies: for records and tests, never for a seat."""

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason)
        self.detail = reason if detail is None else detail
