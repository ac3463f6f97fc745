"""The engine's exceptions."""

from __future__ import annotations


class IllegalAction(ValueError):
    """A move the rules forbid here. The message says which rule, in a player's words."""
